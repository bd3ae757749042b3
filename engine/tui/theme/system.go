package theme

import (
	"math"
	"strings"
)

// TerminalColors are the terminal's reported colours: the default
// foreground (OSC 10) and background (OSC 11), and the 16 ANSI palette
// colours (OSC 4). The application fills in what the terminal answered;
// nil pointers and a palette of any other length mean "not reported".
type TerminalColors struct {
	Foreground *RGB
	Background *RGB
	Palette    []RGB
}

// tokenFamily is the colour family (hue and ANSI slot) a system-theme token
// belongs to.
type tokenFamily struct {
	token  string
	family string
}

// families give each family its ANSI palette slot, used when the terminal
// reported nothing (the terminal then draws indices 0-15 in its own theme).
var familySlots = [...]struct {
	name string
	slot int
}{
	{"neutral", 8}, {"blue", 4}, {"green", 2}, {"red", 1}, {"yellow", 3}, {"orange", 3},
	{"violet", 5}, {"calamine", 6}, {"thinkingSlate", 4}, {"thinkingBlue", 4},
	{"thinkingPeriwinkle", 6}, {"thinkingViolet", 5}, {"thinkingMagenta", 13}, {"thinkingRed", 1},
}

func familySlot(name string) int {
	for _, f := range familySlots {
		if f.name == name {
			return f.slot
		}
	}
	return 8
}

// tokenFamilies assigns every token its family (the reference's system
// theme design).
var tokenFamilies = [...]tokenFamily{
	{"selectedBg", "blue"}, {"searchMatchBg", "orange"}, {"userMessageBg", "blue"},
	{"customMessageBg", "violet"}, {"toolPendingBg", "neutral"}, {"toolSuccessBg", "green"},
	{"toolErrorBg", "red"}, {"text", "neutral"}, {"userMessageText", "neutral"},
	{"customMessageText", "neutral"}, {"toolTitle", "neutral"}, {"syntaxOperator", "neutral"},
	{"syntaxPunctuation", "neutral"}, {"muted", "neutral"}, {"dim", "neutral"},
	{"thinkingText", "neutral"}, {"toolOutput", "neutral"}, {"mdLinkUrl", "neutral"},
	{"mdQuote", "neutral"}, {"mdQuoteBorder", "neutral"}, {"mdHr", "neutral"},
	{"mdCodeBlockBorder", "neutral"}, {"toolDiffContext", "neutral"}, {"syntaxComment", "neutral"},
	{"scrollbarTrack", "neutral"}, {"scrollbarThumb", "neutral"}, {"searchMatchText", "neutral"},
	{"borderMuted", "neutral"}, {"accent", "violet"}, {"borderAccent", "violet"},
	{"customMessageLabel", "violet"}, {"mdCode", "violet"}, {"mdListBullet", "violet"},
	{"syntaxType", "violet"}, {"border", "blue"}, {"mdLink", "blue"}, {"syntaxKeyword", "blue"},
	{"syntaxVariable", "calamine"}, {"success", "green"}, {"mdCodeBlock", "green"},
	{"toolDiffAdded", "green"}, {"bashMode", "green"}, {"syntaxNumber", "green"},
	{"error", "red"}, {"toolDiffRemoved", "red"}, {"warning", "yellow"}, {"mdHeading", "yellow"},
	{"syntaxFunction", "yellow"}, {"syntaxString", "orange"}, {"thinkingOff", "neutral"},
	{"thinkingMinimal", "thinkingSlate"}, {"thinkingLow", "thinkingBlue"},
	{"thinkingMedium", "thinkingPeriwinkle"}, {"thinkingHigh", "thinkingViolet"},
	{"thinkingXhigh", "thinkingMagenta"}, {"thinkingMax", "thinkingRed"},
}

// tokenSlot overrides the palette slot for tokens that would otherwise
// share a hue with a similar token.
func tokenSlot(token, family string) int {
	switch token {
	case "syntaxString":
		return 2
	case "syntaxNumber":
		return 5
	case "searchMatchBg":
		return 3
	}
	return familySlot(family)
}

func isPanel(token string) bool {
	switch token {
	case "userMessageBg", "toolPendingBg", "toolSuccessBg", "toolErrorBg", "selectedBg", "searchMatchBg", "customMessageBg":
		return true
	}
	return false
}

// isForegroundToken: body-text tokens that take the terminal's foreground.
func isForegroundToken(token string) bool {
	return token == "text" || token == "userMessageText" || token == "toolTitle"
}

// System generates the "system" theme from what the terminal reported.
// Without a reported background it uses ANSI palette indices and the
// terminal's default colours, which the terminal draws in its own theme, so
// they fit any background: coloured tokens take their family's slot (1-6,
// 8, 13), neutral tokens other than body text are drawn faint instead of in
// bright black (which some palettes make invisible), and panels get no
// background. With a reported background the colours are derived from it
// (and from the palette's hues when reported): see derive.
func System(tc *TerminalColors, scheme string, mode Mode, getenv func(string) string) *Theme {
	appearance := TerminalAppearance(tc, scheme, getenv)
	if tc != nil && tc.Background != nil {
		if t := deriveSystem(tc, mode); t != nil {
			t.termFg, t.termBg = tc.Foreground, tc.Background
			return t
		}
	}
	values := make(map[string]*Color, len(tokens))
	var dim []string
	for _, tf := range tokenFamilies {
		if isPanel(tf.token) {
			continue
		}
		if tf.family == "neutral" {
			if !isForegroundToken(tf.token) {
				dim = append(dim, tf.token)
			}
			continue
		}
		i := tokenSlot(tf.token, tf.family)
		values[tf.token] = &Color{Index: i, Indexed: true, RGB: indexedRGB(i)}
	}
	t := newTheme(SystemName, appearance, values, mode, dim)
	return t
}

// relativeLuminance is WCAG 2's relative luminance of an sRGB colour.
func relativeLuminance(c RGB) float64 {
	lin := func(v float64) float64 {
		v /= 255
		if v <= 0.04045 {
			return v / 12.92
		}
		return math.Pow((v+0.055)/1.055, 2.4)
	}
	return 0.2126*lin(c.R) + 0.7152*lin(c.G) + 0.0722*lin(c.B)
}

// wcagContrast is the WCAG 2 contrast ratio of two colours, 1-21.
func wcagContrast(a, b RGB) float64 {
	la, lb := relativeLuminance(a), relativeLuminance(b)
	return (math.Max(la, lb) + 0.05) / (math.Min(la, lb) + 0.05)
}

const textMinContrast = 4.5

// appearanceOf classifies a terminal by its colours: the direction of its
// foreground when that text is readable, otherwise dark when white text
// has more contrast on the background than black.
func appearanceOf(bg RGB, fg *RGB) string {
	white, black := RGB{255, 255, 255}, RGB{0, 0, 0}
	wc, bc := wcagContrast(white, bg), wcagContrast(black, bg)
	if fg != nil {
		fl, _, _ := rgbToOklab(*fg)
		bl, _, _ := rgbToOklab(bg)
		if math.Abs(fl-bl) > 0.05 {
			app, best := "light", bc
			if fl > bl {
				app, best = "dark", wc
			}
			if best >= textMinContrast {
				return app
			}
		}
	}
	if wc >= bc {
		return "dark"
	}
	return "light"
}

// TerminalAppearance says whether the terminal is dark or light: from its
// reported background when there is one, else its light/dark report
// (scheme), else COLORFGBG's background index (0-6 and 8 dark, 7 and 9-15
// light, as Vim classifies it), else dark.
func TerminalAppearance(tc *TerminalColors, scheme string, getenv func(string) string) string {
	if tc != nil && tc.Background != nil {
		return appearanceOf(*tc.Background, tc.Foreground)
	}
	if scheme == "dark" || scheme == "light" {
		return scheme
	}
	if getenv != nil {
		v := getenv("COLORFGBG")
		if i := strings.LastIndexByte(v, ';'); i >= 0 {
			f := strings.TrimSpace(v[i+1:])
			n := 0
			ok := len(f) >= 1 && len(f) <= 2
			for _, r := range f {
				if r < '0' || r > '9' {
					ok = false
				}
				n = n*10 + int(r-'0')
			}
			if ok && n <= 15 {
				if n <= 6 || n == 8 {
					return "dark"
				}
				return "light"
			}
		}
	}
	return "dark"
}
