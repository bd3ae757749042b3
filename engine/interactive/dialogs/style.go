package dialogs

import (
	"strconv"
	"strings"
	"sync"

	"github.com/pi-go/pi/engine/tui"
	"github.com/pi-go/pi/engine/tui/theme"
)

// Style is what every dialog draws with: the theme (nil: no colours) and
// the keymap whose tui.select.* and app.* bindings the dialogs obey and
// show in their hint rows (nil: the built-in defaults).
type Style struct {
	Theme  *theme.Theme
	Keymap *tui.Keymap
}

// defaultKeys are the defaults of every tui.* (tuiedit's) and app.*
// action, read once.
var defaultKeys = sync.OnceValue(func() map[string][]string {
	m := tui.DefaultKeys()
	for a, k := range AppKeys() {
		m[a] = k
	}
	return m
})

// defaults are the keys action has without a keymap entry.
func defaults(action string) []string { return defaultKeys()[action] }

// editorKeymap is the keymap an embedded editor gets: the Style's, or
// the defaults.
func (s Style) editorKeymap() *tui.Keymap {
	if s.Keymap != nil {
		return s.Keymap
	}
	km, _ := tui.NewKeymap(defaultKeys())
	return km
}

// known reports whether the Style's keymap has an entry for action (an
// empty one disables it, as in keybindings.json); without one the
// defaults apply.
func (s Style) known(action string) bool {
	if s.Keymap == nil {
		return false
	}
	if len(s.Keymap.Keys(action)) > 0 {
		return true
	}
	for _, a := range s.Keymap.Actions() {
		if a == action {
			return true
		}
	}
	return false
}

// Is reports whether k is bound to action.
func (s Style) Is(k tui.Key, action string) bool {
	if s.known(action) {
		return s.Keymap.Matches(k, action)
	}
	for _, spec := range defaults(action) {
		if k.Is(spec) {
			return true
		}
	}
	return false
}

// KeyText is how a hint names the keys of action ("escape/ctrl+c").
func (s Style) KeyText(action string) string {
	var names []string
	if s.known(action) {
		for _, k := range s.Keymap.Keys(action) {
			names = append(names, k.String())
		}
	} else {
		for _, spec := range defaults(action) {
			if k, err := tui.ParseKey(spec); err == nil {
				names = append(names, k.String())
			}
		}
	}
	return strings.Join(names, "/")
}

// RawKeyText is the first key bound to action as its binding is written
// ("shift+ctrl+o"): the default's spelling while the binding is the
// default, else the key's canonical name.
func (s Style) RawKeyText(action string) string {
	specs := defaults(action)
	if !s.known(action) {
		if len(specs) > 0 {
			return specs[0]
		}
		return ""
	}
	keys := s.Keymap.Keys(action)
	if len(keys) == 0 {
		return ""
	}
	if len(specs) > 0 {
		if k, err := tui.ParseKey(specs[0]); err == nil && k.String() == keys[0].String() {
			return specs[0]
		}
	}
	return keys[0].String()
}

// Hint is one "key description" pair of a hint row.
func (s Style) Hint(action, desc string) string { return s.RawHint(s.KeyText(action), desc) }

// RawHint is a hint for keys that are not an action ("↑↓ navigate").
func (s Style) RawHint(keys, desc string) string {
	return s.fg("dim", keys) + s.fg("muted", " "+desc)
}

func (s Style) fg(token, text string) string { return s.Theme.Fg(token, text) }

// accent, muted, dim and text are the tokens dialogs use most.
func (s Style) accent(t string) string { return s.fg("accent", t) }
func (s Style) muted(t string) string  { return s.fg("muted", t) }
func (s Style) dim(t string) string    { return s.fg("dim", t) }
func (s Style) text(t string) string   { return s.fg("text", t) }
func (s Style) title(t string) string  { return s.fg("accent", theme.Bold(t)) }

// border is a full-width rule, the edge a dialog draws in place of the
// editor's rules.
func (s Style) border(width int) string {
	return s.fg("border", strings.Repeat("─", max(width, 0)))
}

// frame accumulates a dialog's rows at one width.
type frame struct {
	w    int
	rows []string
}

// pad writes text wrapped inside a one-cell left margin.
func (f *frame) pad(text string) {
	if f.w < 2 {
		f.rows = append(f.rows, tui.Truncate(text, f.w, ""))
		return
	}
	for _, line := range strings.Split(text, "\n") {
		for _, r := range tui.Wrap(line, f.w-1) {
			f.rows = append(f.rows, tui.Truncate(" "+r, f.w, ""))
		}
	}
}

// line writes one row as is, cut to the width.
func (f *frame) line(text string) { f.rows = append(f.rows, tui.Truncate(text, f.w, "…")) }

func (f *frame) blank() { f.rows = append(f.rows, "") }

// oneLine flattens a multi-line label for a list row.
func oneLine(s string) string {
	s = strings.ReplaceAll(s, "\r\n", " ")
	s = strings.ReplaceAll(s, "\n", " ")
	s = strings.ReplaceAll(s, "\t", " ")
	return strings.TrimSpace(s)
}

func itoa(n int) string { return strconv.Itoa(n) }

// KeyDisplay is the capitalised form of KeyText the pickers' footers use
// ("Escape/Ctrl+C").
func (s Style) KeyDisplay(action string) string {
	alts := strings.Split(s.KeyText(action), "/")
	for i, a := range alts {
		parts := strings.Split(a, "+")
		for j, p := range parts {
			if p != "" {
				parts[j] = strings.ToUpper(p[:1]) + p[1:]
			}
		}
		alts[i] = strings.Join(parts, "+")
	}
	return strings.Join(alts, "/")
}

// hint writes a footer hint wrapped under a two-cell indent.
func (f *frame) hint(text string) {
	if f.w < 4 {
		f.line(text)
		return
	}
	for _, r := range tui.Wrap(text, f.w-2) {
		f.rows = append(f.rows, "  "+r)
	}
}

// hint2 writes text wrapped from the first column.
func (f *frame) hint2(text string) {
	f.rows = append(f.rows, tui.Wrap(text, max(f.w, 1))...)
}
