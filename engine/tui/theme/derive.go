package theme

import "math"

// The system theme's derivation from a reported background follows the
// reference's design (facts of its look): every token belongs to a colour
// family (a hue, a saturation range and an ANSI slot) and has contrast
// rules, each a "level" it must reach on the surfaces it is drawn on. A
// level is a fitted curve: the OKLab lightness a token needs given the
// lightness of the surface below it. Hue and saturation come from the
// terminal's palette colour for the family's slot when the palette was
// reported, otherwise from the family itself; lightness comes from the
// rules. Mid-grey backgrounds that cannot fit every level relax the levels
// as little as possible.

type family struct {
	hue, satMin, satMax float64
	slot                int
}

func familyByName(name string) family {
	switch name {
	case "neutral":
		return family{231.49, 0.02, 0.08, 8}
	case "blue":
		return family{231.49, 0.1, 0.68, 4}
	case "green":
		return family{158.68, 0.1, 0.76, 2}
	case "red":
		return family{20, 0.1, 0.92, 1}
	case "yellow":
		return family{82.36, 0.5, 1, 3}
	case "orange":
		return family{52, 0.12, 0.85, 3}
	case "violet":
		return family{295, 0.2, 0.6, 5}
	case "calamine":
		return family{202.43, 0.1, 0.74, 6}
	case "thinkingSlate":
		return family{231.49, 0.08, 0.2, 4}
	case "thinkingBlue":
		return family{231.49, 0.2, 0.45, 4}
	case "thinkingPeriwinkle":
		return family{263.25, 0.3, 0.6, 6}
	case "thinkingViolet":
		return family{295, 0.4, 0.75, 5}
	case "thinkingMagenta":
		return family{337.5, 0.5, 0.85, 13}
	case "thinkingRed":
		return family{20, 0.95, 1, 1}
	}
	return family{231.49, 0.02, 0.08, 8}
}

func tokenFamilyName(token string) string {
	for _, tf := range tokenFamilies {
		if tf.token == token {
			return tf.family
		}
	}
	return "neutral"
}

type curve struct {
	c        [6]float64
	min, max float64
}

// levelCurve returns a level's curve for an appearance.
func levelCurve(level string, light bool) curve {
	type pair struct{ dark, light curve }
	var p pair
	switch level {
	case "panel":
		p = pair{curve{[6]float64{0.29131, -0.39746, 2.33185, -0.85524, -1.2076, 0.86276}, 0, 0.979}, curve{[6]float64{-3.74073, 27.94549, -78.44258, 112.6798, -79.60015, 22.11277}, 0.348, 1}}
	case "track":
		p = pair{curve{[6]float64{0.39028, -0.23015, 0.83573, 2.43829, -4.38292, 2.01582}, 0, 0.946}, curve{[6]float64{-5.24921, 38.37322, -107.28833, 152.10005, -106.17127, 29.18061}, 0.368, 1}}
	case "thinking0":
		p = pair{curve{[6]float64{0.52988, -0.05809, -0.30924, 4.63567, -6.52933, 2.89108}, 0, 0.873}, curve{[6]float64{-28.27749, 182.85284, -469.62416, 603.15916, -384.59976, 97.35147}, 0.51, 1}}
	case "thinking1":
		p = pair{curve{[6]float64{0.55278, -0.03667, -0.45659, 4.95347, -6.90265, 3.0706}, 0, 0.858}, curve{[6]float64{-37.10484, 235.86282, -596.62344, 754.3633, -474.00763, 118.3551}, 0.535, 1}}
	case "thinking2":
		p = pair{curve{[6]float64{0.57486, -0.01765, -0.58987, 5.25227, -7.27175, 3.25532}, 0, 0.842}, curve{[6]float64{-59.89653, 377.05024, -945.07843, 1182.03145, -734.96375, 181.68658}, 0.556, 1}}
	case "thinking3":
		p = pair{curve{[6]float64{0.59621, -0.00062, -0.71148, 5.53588, -7.6392, 3.44606}, 0, 0.827}, curve{[6]float64{-72.07122, 445.84082, -1099.57352, 1353.88793, -829.53392, 202.26164}, 0.58, 1}}
	case "thinking4":
		p = pair{curve{[6]float64{0.61691, 0.01462, -0.82288, 5.80651, -8.00641, 3.64333}, 0, 0.811}, curve{[6]float64{-110.14338, 674.21488, -1645.75941, 2004.32367, -1215.15899, 293.3183}, 0.6, 1}}
	case "thinking5":
		p = pair{curve{[6]float64{0.63702, 0.02826, -0.92498, 6.06465, -8.37246, 3.84651}, 0, 0.795}, curve{[6]float64{-175.47701, 1063.54495, -2570.70594, 3098.80776, -1860.15527, 444.76392}, 0.62, 1}}
	case "thinking6":
		p = pair{curve{[6]float64{0.65658, 0.04044, -1.01835, 6.30989, -8.73529, 4.05439}, 0, 0.779}, curve{[6]float64{-183.81712, 1094.70055, -2602.68539, 3088.71276, -1826.91131, 430.75931}, 0.643, 1}}
	case "subtle":
		p = pair{curve{[6]float64{0.56762, -0.02475, -0.5383, 5.12628, -7.10931, 3.17324}, 0, 0.848}, curve{[6]float64{-232.85459, 1376.54473, -3249.11801, 3827.91186, -2248.29472, 526.55751}, 0.657, 1}}
	case "thumb":
		p = pair{curve{[6]float64{0.60323, 0.00278, -0.73328, 5.57157, -7.68067, 3.46933}, 0, 0.823}, curve{[6]float64{-82.89897, 511.01355, -1255.98095, 1540.76821, -940.68087, 228.58523}, 0.586, 1}}
	case "readable":
		p = pair{curve{[6]float64{0.66937, 0.04704, -1.06871, 6.43941, -8.9332, 4.17229}, 0, 0.77}, curve{[6]float64{-1554.52576, 8733.56817, -19604.93507, 21977.72696, -12300.99599, 2749.81288}, 0.751, 1}}
	case "emphasis":
		p = pair{curve{[6]float64{0.7303, 0.07695, -1.31626, 7.1681, -10.14436, 4.92846}, 0, 0.712}, curve{[6]float64{-4948.31942, 26870.91986, -58334.48399, 63280.17197, -34298.01053, 7430.30146}, 0.811, 1}}
	case "textOnPanel":
		p = pair{curve{[6]float64{0.86713, 0.05232, -0.89428, 4.79014, -5.5432, 1.75023}, 0, 0.542}, curve{[6]float64{-8570.89457, 43954.60805, -90084.00702, 92220.6791, -47152.15802, 9632.27113}, 0.867, 1}}
	case "text":
		p = pair{curve{[6]float64{0.89242, 0.02311, -0.44862, 2.34417, -0.06084, -2.63844}, 0, 0.5}, curve{[6]float64{-2004.67048, 6664.47299, -6060.70202, -1792.61209, 5133.82359, -1939.85583}, 0.894, 1}}
	}
	if light {
		return p.light
	}
	return p.dark
}

type rule struct {
	token string
	on    []string
	level string
}

var (
	toolPanels    = []string{"toolPendingBg", "toolSuccessBg", "toolErrorBg"}
	messagePanels = []string{"userMessageBg", "customMessageBg"}
	panels        = []string{"userMessageBg", "toolPendingBg", "toolSuccessBg", "toolErrorBg", "selectedBg", "searchMatchBg", "customMessageBg"}
)

func cat(lists ...[]string) []string {
	var out []string
	for _, l := range lists {
		out = append(out, l...)
	}
	return out
}

// systemRules builds the contrast rules (at call time: the system theme is
// derived once per start at most).
func systemRules() []rule {
	bg := []string{"background"}
	var rs []rule
	each := func(tokens []string, on []string, level string) {
		for _, t := range tokens {
			rs = append(rs, rule{t, on, level})
		}
	}
	each(panels, bg, "panel")
	rs = append(rs,
		rule{"text", bg, "text"},
		rule{"text", []string{"selectedBg"}, "textOnPanel"},
		rule{"userMessageText", []string{"userMessageBg"}, "textOnPanel"},
		rule{"toolTitle", toolPanels, "textOnPanel"})
	each([]string{"accent", "success", "error", "warning"}, cat(bg, []string{"selectedBg"}, toolPanels), "readable")
	rs = append(rs,
		rule{"muted", cat(bg, []string{"selectedBg", "customMessageBg"}, toolPanels), "readable"},
		rule{"dim", cat(bg, []string{"selectedBg", "customMessageBg"}, toolPanels), "subtle"},
		rule{"thinkingText", bg, "readable"},
		rule{"customMessageText", cat([]string{"customMessageBg"}, toolPanels), "readable"},
		rule{"customMessageLabel", cat(bg, []string{"customMessageBg", "selectedBg"}, toolPanels), "readable"},
		rule{"toolOutput", cat(bg, toolPanels), "readable"})
	each([]string{"mdHeading", "mdLink", "mdLinkUrl", "mdCode", "mdQuote", "mdCodeBlockBorder", "mdListBullet"}, cat(bg, messagePanels), "readable")
	rs = append(rs, rule{"mdCodeBlock", cat(bg, messagePanels, toolPanels), "readable"})
	each([]string{"toolDiffAdded", "toolDiffRemoved", "toolDiffContext"}, cat(bg, toolPanels), "readable")
	each([]string{"syntaxComment", "syntaxKeyword", "syntaxFunction", "syntaxVariable", "syntaxString", "syntaxNumber", "syntaxType", "syntaxOperator", "syntaxPunctuation"}, cat(bg, messagePanels, toolPanels), "readable")
	rs = append(rs, rule{"searchMatchText", []string{"searchMatchBg"}, "readable"})
	each([]string{"bashMode", "border", "borderAccent"}, bg, "readable")
	rs = append(rs, rule{"borderMuted", bg, "subtle"})
	each([]string{"mdQuoteBorder", "mdHr"}, cat(bg, messagePanels, toolPanels), "readable")
	rs = append(rs, rule{"scrollbarTrack", bg, "track"}, rule{"scrollbarThumb", []string{"scrollbarTrack"}, "thumb"})
	for i, t := range []string{"thinkingOff", "thinkingMinimal", "thinkingLow", "thinkingMedium", "thinkingHigh", "thinkingXhigh", "thinkingMax"} {
		rs = append(rs, rule{t, bg, "thinking" + itoa1(i)})
	}
	return rs
}

func itoa1(i int) string { return string(rune('0' + i)) }

// solveOrder puts every surface before the tokens drawn on it.
func solveOrder(rs []rule) []string {
	var order []string
	seen := map[string]bool{}
	var visit func(string)
	visit = func(t string) {
		if seen[t] {
			return
		}
		seen[t] = true
		for _, r := range rs {
			if r.token != t {
				continue
			}
			for _, s := range r.on {
				if s != "background" {
					visit(s)
				}
			}
		}
		order = append(order, t)
	}
	for _, r := range rs {
		visit(r.token)
	}
	return order
}

func oklabL(c RGB) float64 { L, _, _ := rgbToOklab(c); return L }

func bellWeight(l float64) float64 {
	g := func(x float64) float64 { return math.Exp(-((x - 0.5) * (x - 0.5)) / (2 * 0.25 * 0.25)) }
	return (g(l) - g(0)) / (1 - g(0))
}

func saturationCurve(f family, l float64) float64 {
	floor := 1.0
	if f.satMax > 0 {
		floor = f.satMin / f.satMax
	}
	return floor + (1-floor)*bellWeight(l)
}

func clamp01(v float64) float64 { return math.Min(1, math.Max(0, v)) }

func okhsl(h, s, l float64) RGB { return OKHSLToRGB(h, clamp01(s), clamp01(l)) }

type source struct{ h, s, l, chroma float64 }

func sourceOf(c RGB) source {
	h, s, l := RGBToOKHSL(c)
	_, ch, _ := RGBToOKLCH(c)
	return source{h, s, l, ch}
}

// anchored moves a palette colour to another lightness: its saturation
// falls off toward black and white along the family's curve, and its
// OKLCH chroma never grows (pastel palettes stay pastel).
func anchored(src source, f family, lightness, saturation float64) RGB {
	anchor := saturationCurve(f, src.l)
	falloff := 1.0
	if anchor > 0 {
		falloff = math.Min(1, saturationCurve(f, lightness)/anchor)
	}
	c := okhsl(src.h, src.s*falloff*saturation, lightness)
	limit := src.chroma * falloff * saturation
	l, ch, _ := RGBToOKLCH(c)
	if ch <= limit {
		return c
	}
	return OKLCHToRGB(l, limit, src.h)
}

// withTextContrast moves a text colour toward white or black until it
// reaches 4.5:1 on every surface.
func withTextContrast(c RGB, surfaces []RGB, lighter bool) RGB {
	meets := func(x RGB) bool {
		for _, s := range surfaces {
			if wcagContrast(x, s) < textMinContrast {
				return false
			}
		}
		return true
	}
	if meets(c) {
		return c
	}
	h, s, l := RGBToOKHSL(c)
	at := func(x float64) RGB { return okhsl(h, s, x) }
	extreme := 0.0
	if lighter {
		extreme = 1
	}
	if !meets(at(extreme)) {
		return at(extreme)
	}
	lo, hi := l, extreme
	for range 20 {
		mid := (lo + hi) / 2
		if meets(at(mid)) {
			hi = mid
		} else {
			lo = mid
		}
	}
	return at(hi)
}

// deriveColors computes the system theme's token values from a reported
// background ("" = the terminal's default colour), and its appearance.
func deriveColors(tc *TerminalColors) (map[string]string, string) {
	bgc := *tc.Background
	var palette []source
	if len(tc.Palette) == 16 {
		for _, p := range tc.Palette {
			palette = append(palette, sourceOf(p))
		}
	}
	const saturation = 1.0
	appearance := appearanceOf(bgc, tc.Foreground)
	lighter := appearance == "dark"
	light := !lighter
	extreme := 0.0
	if lighter {
		extreme = 1
	}
	bgL := oklabL(bgc)
	paint := func(token string, L float64) RGB {
		lightness := toe(L)
		fam := familyByName(tokenFamilyName(token))
		if palette == nil {
			return okhsl(fam.hue, (fam.satMin+(fam.satMax-fam.satMin)*bellWeight(lightness))*saturation, lightness)
		}
		return anchored(palette[tokenSlot(token, tokenFamilyName(token))], fam, lightness, saturation)
	}
	levelTarget := func(level string, surfaceL float64) (float64, bool) {
		cv := levelCurve(level, light)
		if surfaceL < cv.min || surfaceL > cv.max {
			return 0, false
		}
		v, p := 0.0, 1.0
		for _, k := range cv.c {
			v += k * p
			p *= surfaceL
		}
		return v, true
	}
	floorLevel := "readable"
	if light {
		floorLevel = "subtle"
	}
	target := func(level string, surfaceL, t float64) (float64, bool) {
		reached, ok := levelTarget(level, surfaceL)
		if !ok && t == 0 {
			return 0, false
		}
		if !ok {
			reached = extreme
		}
		distance := reached - surfaceL
		fl, ok := levelTarget(floorLevel, surfaceL)
		if !ok {
			fl = extreme
		}
		floor := fl - surfaceL
		compressed := distance
		if math.Abs(distance) > math.Abs(floor) {
			compressed = distance - (distance-floor)*math.Min(t, 1)
		}
		return surfaceL + compressed*(1-math.Max(0, t-1)), true
	}
	extremeText := RGB{0, 0, 0}
	if lighter {
		extremeText = RGB{255, 255, 255}
	}
	readable := func(c RGB) bool { return wcagContrast(extremeText, c) >= textMinContrast }
	limitPanel := func(token string, l float64) RGB {
		c := paint(token, l)
		if readable(c) {
			return c
		}
		lo, hi := bgL, l
		for range 20 {
			mid := (lo + hi) / 2
			if readable(paint(token, mid)) {
				lo = mid
			} else {
				hi = mid
			}
		}
		return paint(token, lo)
	}
	rules := systemRules()
	order := solveOrder(rules)
	isPanelToken := func(t string) bool {
		for _, p := range panels {
			if p == t {
				return true
			}
		}
		return false
	}
	solve := func(t float64) map[string]RGB {
		colors := map[string]RGB{"background": bgc}
		for _, token := range order {
			var targets []float64
			for _, r := range rules {
				if r.token != token {
					continue
				}
				for _, s := range r.on {
					sc, ok := colors[s]
					if !ok {
						sc = bgc
					}
					v, ok := target(r.level, oklabL(sc), t)
					if !ok || v < 0 || v > 1 {
						return nil
					}
					targets = append(targets, v)
				}
			}
			l := targets[0]
			for _, v := range targets[1:] {
				if lighter {
					l = math.Max(l, v)
				} else {
					l = math.Min(l, v)
				}
			}
			if isPanelToken(token) {
				colors[token] = limitPanel(token, l)
			} else {
				colors[token] = paint(token, l)
			}
		}
		return colors
	}
	relaxation := 0.0
	solved := solve(0)
	if solved == nil {
		// Mid-grey backgrounds cannot fit every level: relax as little as
		// possible. Full relaxation always fits.
		lo, hi := 0.0, 2.0
		solved = solve(hi)
		for range 20 {
			mid := (lo + hi) / 2
			if a := solve(mid); a != nil {
				hi, solved = mid, a
			} else {
				lo = mid
			}
		}
		relaxation = hi
	}
	result := make(map[string]string, len(tokenFamilies))
	for _, tf := range tokenFamilies {
		if c, ok := solved[tf.token]; ok {
			result[tf.token] = c.Hex()
		} else {
			result[tf.token] = ""
		}
	}
	surfacesOf := func(token string) []RGB {
		var out []RGB
		for _, r := range rules {
			if r.token != token {
				continue
			}
			for _, s := range r.on {
				c, ok := solved[s]
				if !ok {
					c = bgc
				}
				out = append(out, c)
			}
		}
		return out
	}
	for _, token := range []string{"text", "userMessageText", "toolTitle"} {
		surfaces := surfacesOf(token)
		text, have := solved[token]
		if tc.Foreground != nil {
			all := true
			needed := 0.0
			for i, s := range surfaces {
				v, ok := target("emphasis", oklabL(s), relaxation)
				if !ok || v < 0 || v > 1 {
					all = false
					break
				}
				if i == 0 || lighter && v > needed || !lighter && v < needed {
					needed = v
				}
			}
			if all {
				fgL := oklabL(*tc.Foreground)
				if lighter && fgL >= needed || !lighter && fgL <= needed {
					result[token] = ""
					continue
				}
				text, have = anchored(sourceOf(*tc.Foreground), familyByName("neutral"), toe(needed), saturation), true
			}
		}
		if have {
			result[token] = withTextContrast(text, surfaces, lighter).Hex()
		}
	}
	return result, appearance
}

// deriveSystem builds the system theme from a reported background.
func deriveSystem(tc *TerminalColors, mode Mode) *Theme {
	colors, appearance := deriveColors(tc)
	values := make(map[string]*Color, len(tokens))
	for k, v := range colors {
		if v == "" {
			continue
		}
		c, err := ParseColor(v)
		if err != nil {
			continue
		}
		values[k] = &c
	}
	return newTheme(SystemName, appearance, values, mode, nil)
}
