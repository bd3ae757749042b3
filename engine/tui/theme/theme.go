package theme

// Theme is a resolved theme: every colour token of pi's theme format mapped
// to a terminal colour. The zero value and a nil *Theme style nothing,
// which is also what NO_COLOR gives.
type Theme struct {
	Name       string
	Appearance string // "dark" or "light"
	// fg and bg hold the SGR parameter strings per token ("38;2;r;g;b");
	// "39"/"49" for tokens set to the terminal's default colour.
	fg map[string]string
	bg map[string]string
	// dim holds foreground tokens drawn faint (SGR 2) on top of their
	// colour: the system theme's neutral tokens when the terminal reported
	// no colours.
	dim map[string]bool
	// colors holds the concrete colour of every token that has one (not
	// the terminal-default ones), for Hex.
	colors map[string]Color
	mode   Mode
	export ExportColors
	// termFg and termBg are the terminal's reported default colours, for
	// Hex of tokens that use them.
	termFg, termBg *RGB
	// Path is the file the theme was loaded from ("" for built-in and
	// generated themes).
	Path string
}

// ExportColors are a theme's optional colours for the HTML exporter, as CSS
// values (#rrggbb or oklch(…)); "" where the theme sets none.
type ExportColors struct {
	PageBg, CardBg, InfoBg string
}

// Fg paints s in the foreground colour of token and resets the
// foreground after it.
func (t *Theme) Fg(token, s string) string {
	if t == nil || t.fg[token] == "" || s == "" {
		return s
	}
	if t.dim[token] {
		return "\x1b[" + t.fg[token] + "m\x1b[2m" + s + "\x1b[22;39m"
	}
	return "\x1b[" + t.fg[token] + "m" + s + "\x1b[39m"
}

// Bg paints s on the background colour of token and resets the
// background after it.
func (t *Theme) Bg(token, s string) string {
	if t == nil || t.bg[token] == "" || s == "" {
		return s
	}
	return "\x1b[" + t.bg[token] + "m" + s + "\x1b[49m"
}

// FgCode is the escape sequence that starts token's foreground colour ("" when
// the theme styles nothing), for callers that must re-open a colour after
// an inner reset.
func (t *Theme) FgCode(token string) string {
	if t == nil || t.fg[token] == "" {
		return ""
	}
	if t.dim[token] {
		return "\x1b[" + t.fg[token] + "m\x1b[2m"
	}
	return "\x1b[" + t.fg[token] + "m"
}

// BgCode is the escape sequence that starts token's background colour.
func (t *Theme) BgCode(token string) string {
	if t == nil || t.bg[token] == "" {
		return ""
	}
	return "\x1b[" + t.bg[token] + "m"
}

// Mode is the colour depth the theme writes.
func (t *Theme) Mode() Mode {
	if t == nil {
		return ModeNone
	}
	return t.mode
}

// Export returns the theme's colours for the HTML exporter.
func (t *Theme) Export() ExportColors {
	if t == nil {
		return ExportColors{}
	}
	return t.export
}

// Hex is token's colour as #rrggbb, for the HTML exporter. Tokens set to the
// terminal's default colour ("") get a guess from the theme's appearance
// (light grey text on black, or black on white); unknown tokens give "".
func (t *Theme) Hex(token string) string {
	if t == nil {
		return ""
	}
	if c, ok := t.colors[token]; ok {
		return c.RGB.Hex()
	}
	info, ok := lookupToken(token)
	if !ok {
		return ""
	}
	light := t.Appearance == "light"
	switch {
	case info.background && t.termBg != nil:
		return t.termBg.Hex()
	case !info.background && t.termFg != nil:
		return t.termFg.Hex()
	case info.background && light:
		return "#ffffff"
	case info.background:
		return "#000000"
	case light:
		return "#000000"
	default:
		return "#e5e5e7"
	}
}

// Bold, Italic, Underline, Inverse and Strike apply text attributes and
// reset only that attribute, so they nest inside colours.
func Bold(s string) string      { return "\x1b[1m" + s + "\x1b[22m" }
func Italic(s string) string    { return "\x1b[3m" + s + "\x1b[23m" }
func Underline(s string) string { return "\x1b[4m" + s + "\x1b[24m" }
func Inverse(s string) string   { return "\x1b[7m" + s + "\x1b[27m" }
func Strike(s string) string    { return "\x1b[9m" + s + "\x1b[29m" }

// newTheme builds a theme from resolved token values: a Color, or nil for
// the terminal's default colour. Every token must be present.
func newTheme(name, appearance string, values map[string]*Color, mode Mode, dim []string) *Theme {
	t := &Theme{
		Name:   name,
		fg:     make(map[string]string, len(tokens)),
		bg:     make(map[string]string, 8),
		colors: make(map[string]Color, len(tokens)),
		mode:   mode,
	}
	var fgL, bgL []float64
	for _, info := range tokens {
		c := values[info.name]
		if c != nil {
			t.colors[info.name] = *c
			if !c.Indexed || c.Index >= 16 {
				L, _, _ := rgbToOklab(c.RGB)
				if info.background {
					bgL = append(bgL, L)
				} else {
					fgL = append(fgL, L)
				}
			}
		}
		if mode == ModeNone {
			continue
		}
		m := t.fg
		if info.background {
			m = t.bg
		}
		switch {
		case c != nil:
			m[info.name] = c.sgr(mode, info.background)
		case info.background:
			m[info.name] = "49"
		default:
			m[info.name] = "39"
		}
	}
	if len(dim) > 0 && mode != ModeNone {
		t.dim = make(map[string]bool, len(dim))
		for _, d := range dim {
			t.dim[d] = true
		}
	}
	if appearance == "" {
		appearance = detectAppearance(fgL, bgL)
	}
	t.Appearance = appearance
	return t
}

// detectAppearance guesses the background a theme was made for from the
// average lightness of its own colours: backgrounds darker than the text
// mean a dark theme.
func detectAppearance(fg, bg []float64) string {
	avg := func(v []float64) float64 {
		s := 0.0
		for _, x := range v {
			s += x
		}
		return s / float64(len(v))
	}
	switch {
	case len(fg) > 0 && len(bg) > 0:
		if avg(bg) < avg(fg) {
			return "dark"
		}
		return "light"
	case len(bg) > 0:
		if avg(bg) < 0.5 {
			return "dark"
		}
		return "light"
	case len(fg) > 0:
		if avg(fg) > 0.5 {
			return "dark"
		}
		return "light"
	}
	return "dark"
}
