package interactive

import (
	"strings"
	"time"

	"github.com/pi-go/pi/engine/tui"
	"github.com/pi-go/pi/engine/tui/theme"
)

// The terminal's own colours feed the "system" theme (and pick a side of
// a "light/dark" pair): at start the mode asks for the default foreground
// (OSC 10), background (OSC 11) and the 16 ANSI colours (OSC 4;0..15),
// then DA1, which every terminal answers and so marks the end of the
// replies, as the reference does. The screen is drawn at once with the
// theme resolved without them; when they arrive the theme is resolved
// again and the screen re-themed.
const (
	paletteSize = 16
	// colorQueryTimeout is how long the first answer is waited for before
	// what has arrived is applied; later replies are still applied when
	// they complete (slow links), as the reference's onLateReply does.
	colorQueryTimeout = 100 * time.Millisecond
)

// colorQuery is the query string: OSC 10, OSC 11, OSC 4 for each palette
// entry, then DA1.
func colorQuery() string {
	var b strings.Builder
	b.WriteString("\x1b]10;?\x07\x1b]11;?\x07")
	for i := 0; i < paletteSize; i++ {
		b.WriteString("\x1b]4;")
		b.WriteString(itoa(i))
		b.WriteString(";?\x07")
	}
	b.WriteString("\x1b[c")
	return b.String()
}

func itoa(n int) string {
	if n < 10 {
		return string(rune('0' + n))
	}
	return string(rune('0'+n/10)) + string(rune('0'+n%10))
}

// colorReplies collects one query's answers.
type colorReplies struct {
	fg, bg  *theme.RGB
	palette [paletteSize]*theme.RGB
	replied map[int]bool
	done    bool
}

// queryTerminalColors sends the query (UI goroutine, once the program
// runs).
func (a *app) queryTerminalColors() {
	a.colors = &colorReplies{replied: map[int]bool{}}
	a.p.WriteRaw(colorQuery())
	q := a.colors
	a.p.After(colorQueryTimeout, func() {
		if !q.done {
			a.applyTerminalColors(q)
		}
	})
}

// syncColorScheme turns the terminal's light/dark change reports on while
// the theme setting follows the terminal, as the reference does.
func (a *app) syncColorScheme() {
	name, _ := a.c.Setting("theme").(string)
	a.p.SetColorSchemeNotifications(a.themeFromSetting && themeFollowsTerminal(name))
}

// colorReply takes a reply to the colour query, or a light/dark change
// report (which asks for the colours again); it reports whether the
// reply was one.
func (a *app) colorReply(r tui.Reply) bool {
	if scheme, ok := r.ColorScheme(); ok {
		if scheme != a.scheme {
			a.scheme = scheme
			a.retheme()
		}
		a.queryTerminalColors()
		return true
	}
	q := a.colors
	if q == nil || q.done {
		return false
	}
	if r.DeviceAttributes() {
		// The program's own start-up DA1 can arrive before any colour
		// reply; only a DA1 after at least one of ours ends this query
		// (terminals answer in order), and the timeout covers terminals
		// that report no colours at all.
		if len(q.replied) == 0 {
			return false
		}
		q.done = true
		a.applyTerminalColors(q)
		return true
	}
	index, c, ok := r.Color()
	if !ok {
		return false
	}
	if q.replied[index] {
		return true
	}
	q.replied[index] = true
	rgb := &theme.RGB{R: float64(c.R), G: float64(c.G), B: float64(c.B)}
	switch {
	case index == tui.ColorForeground:
		q.fg = rgb
	case index == tui.ColorBackground:
		q.bg = rgb
	case index >= 0 && index < paletteSize:
		q.palette[index] = rgb
	}
	if len(q.replied) == 2+paletteSize {
		q.done = true
		a.applyTerminalColors(q)
	}
	return true
}

// applyTerminalColors keeps what the terminal reported (on top of earlier
// reports) and, when it changed, re-resolves a theme setting that depends
// on the terminal: "system" (the default) or a "light/dark" pair.
func (a *app) applyTerminalColors(q *colorReplies) {
	next := theme.TerminalColors{Foreground: q.fg, Background: q.bg}
	if prev := a.termColors; prev != nil {
		if next.Foreground == nil {
			next.Foreground = prev.Foreground
		}
		if next.Background == nil {
			next.Background = prev.Background
		}
	}
	full := true
	for _, c := range q.palette {
		if c == nil {
			full = false
		}
	}
	if full {
		for _, c := range q.palette {
			next.Palette = append(next.Palette, *c)
		}
	} else if a.termColors != nil {
		next.Palette = a.termColors.Palette
	}
	if a.termColors != nil && sameColors(*a.termColors, next) {
		return
	}
	if next.Foreground == nil && next.Background == nil && next.Palette == nil {
		return
	}
	a.termColors = &next
	a.retheme()
}

// retheme resolves a theme setting that follows the terminal again.
func (a *app) retheme() {
	name, _ := a.c.Setting("theme").(string)
	if !themeFollowsTerminal(name) || !a.themeFromSetting {
		return
	}
	if th, err := a.loadTheme(name); err == nil {
		a.setTheme(th)
	}
}

// themeFollowsTerminal reports whether a theme setting is resolved from
// the terminal's colours.
func themeFollowsTerminal(name string) bool {
	name = strings.TrimSpace(name)
	return name == "" || name == theme.SystemName || strings.Contains(name, "/")
}

// loadTheme resolves a theme setting with what the terminal reported.
func (a *app) loadTheme(name string) (*theme.Theme, error) {
	return theme.LoadWith(name, theme.Options{Dirs: a.themeDirs(), Terminal: a.termColors, Scheme: a.scheme})
}

func sameRGB(a, b *theme.RGB) bool {
	return a == b || (a != nil && b != nil && *a == *b)
}

func sameColors(a, b theme.TerminalColors) bool {
	if !sameRGB(a.Foreground, b.Foreground) || !sameRGB(a.Background, b.Background) || len(a.Palette) != len(b.Palette) {
		return false
	}
	for i := range a.Palette {
		if a.Palette[i] != b.Palette[i] {
			return false
		}
	}
	return true
}
