package theme

// Theme is a resolved theme: every colour token of pi's theme format mapped
// to a terminal colour. The zero value and a nil *Theme style nothing,
// which is also what NO_COLOR gives.
//
// This file is the API the rest of the TUI is written against; the loader
// (JSON themes, vars, okhsl/oklch, 256-colour fallback, system theme)
// fills in colors.
type Theme struct {
	Name       string
	Appearance string // "dark" or "light"
	// fg and bg hold the SGR parameter strings per token ("38;2;r;g;b").
	fg map[string]string
	bg map[string]string
}

// Fg paints s in the foreground colour of token and resets the
// foreground after it.
func (t *Theme) Fg(token, s string) string {
	if t == nil || t.fg[token] == "" || s == "" {
		return s
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

// Bold, Italic, Underline, Inverse and Strike apply text attributes and
// reset only that attribute, so they nest inside colours.
func Bold(s string) string      { return "\x1b[1m" + s + "\x1b[22m" }
func Italic(s string) string    { return "\x1b[3m" + s + "\x1b[23m" }
func Underline(s string) string { return "\x1b[4m" + s + "\x1b[24m" }
func Inverse(s string) string   { return "\x1b[7m" + s + "\x1b[27m" }
func Strike(s string) string    { return "\x1b[9m" + s + "\x1b[29m" }
