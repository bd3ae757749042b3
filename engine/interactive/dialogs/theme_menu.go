package dialogs

import (
	"strings"

	"github.com/pi-go/pi/engine/tui"
)

// The /settings theme menu, as the reference's: one theme for every
// terminal ("single"), or a light and a dark one picked by the terminal's
// appearance ("automatic", saved as "light/dark"). The theme the
// selection is on is previewed as it moves; Escape previews the saved one
// again and goes back.

const automaticValue = "/" // the list item that switches to automatic mode

// themeItem is one row of a theme list.
type themeItem struct {
	value, label, desc string
}

// themeList is a titled list of themes (the reference's SelectSubmenu).
type themeList struct {
	st          Style
	title, desc string
	items       []themeItem
	l           *list[themeItem]
	onSelect    func(value string)
	onCancel    func()
	onHighlight func(value string)
}

func newThemeList(st Style, title, desc string, items []themeItem, current string) *themeList {
	tl := &themeList{st: st, title: title, desc: desc, items: items}
	tl.l = newList(items, nil)
	tl.l.max = min(len(items), 10)
	for i, it := range items {
		if it.value == current {
			tl.l.selectIndex(i)
		}
	}
	return tl
}

func (tl *themeList) HandleKey(k tui.Key) bool {
	if k.Release {
		return false
	}
	_, before, _ := tl.l.current()
	switch {
	case tl.st.Is(k, "tui.select.up"):
		tl.l.move(-1)
	case tl.st.Is(k, "tui.select.down"):
		tl.l.move(1)
	case tl.st.Is(k, "tui.select.pageUp"):
		tl.l.move(-tl.l.visible())
	case tl.st.Is(k, "tui.select.pageDown"):
		tl.l.move(tl.l.visible())
	case tl.st.Is(k, "tui.select.confirm"):
		if it, _, ok := tl.l.current(); ok && tl.onSelect != nil {
			tl.onSelect(it.value)
		}
		return true
	case tl.st.Is(k, "tui.select.cancel"):
		if tl.onCancel != nil {
			tl.onCancel()
		}
		return true
	default:
		return true
	}
	if it, i, ok := tl.l.current(); ok && i != before && tl.onHighlight != nil {
		tl.onHighlight(it.value)
	}
	return true
}

func (tl *themeList) Render(width int) []string {
	st := tl.st
	f := &frame{w: width}
	f.line(st.title(tl.title))
	if tl.desc != "" {
		f.blank()
		for _, l := range strings.Split(tl.desc, "\n") {
			f.rows = append(f.rows, tui.Wrap(st.muted(l), max(width, 1))...)
		}
	}
	f.blank()
	// The labels in a column between 12 and 32 cells wide, then the
	// descriptions.
	col := 12
	for _, it := range tl.items {
		col = max(col, tui.Width(it.label))
	}
	col = min(col, 32)
	start, end := tl.l.window()
	for n := start; n < end; n++ {
		it := tl.l.items[tl.l.shown[n]]
		label := tui.PadRight(tui.Truncate(it.label, col, ""), col)
		row := "  " + st.text(label)
		if n == tl.l.sel {
			row = st.accent("→ " + label)
		}
		if it.desc != "" {
			row += "  " + st.muted(it.desc)
		}
		f.line(row)
	}
	if info := tl.l.scrollInfo(); info != "" {
		f.line(st.muted("  " + info))
	}
	f.blank()
	f.line(st.dim("  Enter to select · Esc to go back"))
	return f.rows
}

// themeItems lists the themes with a check on the current one; the
// system theme says where it comes from.
func themeItems(themes []string, current string) []themeItem {
	out := make([]themeItem, 0, len(themes))
	for _, n := range themes {
		it := themeItem{value: n, label: "  " + n}
		if n == current {
			it.label = "✓ " + n
		}
		if n == "system" {
			it.desc = "Theme created from your terminal's colors"
		}
		out = append(out, it)
	}
	return out
}

// ThemeMenu is the theme setting's sub-dialog.
type ThemeMenu struct {
	st          Style
	themes      []string
	appearance  string // the terminal's: picks the automatic theme shown in single mode
	original    string
	single      string
	light, dark string
	preview     func(setting string)
	done        func(value string, ok bool)
	cur         tui.Component
}

// NewThemeMenu opens on the current setting: automatic for a "light/dark"
// pair, else the single theme. appearance is the terminal's ("light" or
// "dark"); preview shows a setting without saving it (nil: no preview);
// done gets the setting to save, or ok false.
func NewThemeMenu(st Style, themes []string, current, appearance string, preview func(string), done func(string, bool)) *ThemeMenu {
	tm := &ThemeMenu{st: st, themes: themes, appearance: appearance, original: current, preview: preview, done: done}
	prefer := func(name, fallback string) string {
		for _, t := range themes {
			if t == name {
				return name
			}
		}
		for _, t := range themes {
			if t == fallback {
				return fallback
			}
		}
		if len(themes) > 0 {
			return themes[0]
		}
		return fallback
	}
	if l, d, ok := splitPair(current); ok {
		tm.light, tm.dark = l, d
		tm.single = prefer(tm.activeAutomatic(), "system")
		tm.showAutomatic()
	} else {
		t := prefer(current, "system")
		tm.single, tm.light, tm.dark = t, t, t
		tm.showSingle()
	}
	return tm
}

func splitPair(s string) (light, dark string, ok bool) {
	i := strings.IndexByte(s, '/')
	if i < 0 || strings.IndexByte(s[i+1:], '/') >= 0 {
		return "", "", false
	}
	light, dark = strings.TrimSpace(s[:i]), strings.TrimSpace(s[i+1:])
	return light, dark, light != "" && dark != ""
}

func (tm *ThemeMenu) activeAutomatic() string {
	if tm.appearance == "light" {
		return tm.light
	}
	return tm.dark
}

func (tm *ThemeMenu) pair() string { return tm.light + "/" + tm.dark }

func (tm *ThemeMenu) show(s string) {
	if tm.preview != nil {
		tm.preview(s)
	}
}

func (tm *ThemeMenu) cancel() {
	tm.show(tm.original)
	tm.done("", false)
}

func (tm *ThemeMenu) showSingle() {
	items := themeItems(tm.themes, tm.single)
	var ordered []themeItem
	for _, it := range items {
		if it.value == "system" {
			ordered = append(ordered, it)
		}
	}
	ordered = append(ordered, themeItem{value: automaticValue, label: "  automatic", desc: "Use separate themes for light and dark terminal appearance"})
	for _, it := range items {
		if it.value != "system" {
			ordered = append(ordered, it)
		}
	}
	tl := newThemeList(tm.st, "Theme", "Select a theme, or choose automatic to follow terminal appearance.", ordered, tm.single)
	tl.onSelect = func(v string) {
		if v == automaticValue {
			tm.show(tm.pair())
			tm.showAutomatic()
			return
		}
		tm.single = v
		tm.done(v, true)
	}
	tl.onCancel = tm.cancel
	tl.onHighlight = func(v string) {
		if v == automaticValue {
			tm.show(tm.pair())
			return
		}
		tm.show(v)
	}
	tm.cur = tl
}

func (tm *ThemeMenu) showAutomatic() {
	pick := func(title, desc string, current string, set func(string)) func(done func(string, bool)) tui.Component {
		return func(done func(string, bool)) tui.Component {
			tl := newThemeList(tm.st, title, desc, themeItems(tm.themes, current), current)
			tl.onSelect = func(v string) { set(v); tm.show(tm.pair()); done(v, true) }
			tl.onCancel = func() { tm.show(tm.pair()); done("", false) }
			tl.onHighlight = tm.show
			return tl
		}
	}
	rows := []SettingRow{
		{ID: "light-theme", Label: "Light theme", Description: "Theme to use in automatic mode when the terminal is light", Value: tm.light,
			Open: pick("Light Theme", "Select the theme to use for light terminal appearance", tm.light, func(v string) { tm.light = v })},
		{ID: "dark-theme", Label: "Dark theme", Description: "Theme to use in automatic mode when the terminal is dark", Value: tm.dark,
			Open: pick("Dark Theme", "Select the theme to use for dark terminal appearance", tm.dark, func(v string) { tm.dark = v })},
		{ID: "apply", Label: "Apply", Description: "Save and go back", Value: "save and go back", Values: []string{"save and go back"}},
		{ID: "single-mode", Label: "Change mode", Description: "Switch to one theme for light and dark", Value: "switch to single theme", Values: []string{"switch to single theme"}},
	}
	s := NewSettings(tm.st, SettingsOptions{Rows: rows, OnClose: tm.cancel,
		OnChange: func(id, v string) (string, error) {
			switch id {
			case "apply":
				tm.done(tm.pair(), true)
			case "single-mode":
				tm.single = tm.activeAutomatic()
				tm.show(tm.single)
				tm.showSingle()
			}
			return v, nil
		}})
	tm.cur = &automaticView{st: tm.st, s: s}
}

// automaticView is the automatic mode's heading over its settings rows.
type automaticView struct {
	st Style
	s  *Settings
}

func (av *automaticView) HandleKey(k tui.Key) bool { return av.s.HandleKey(k) }

func (av *automaticView) Render(width int) []string {
	f := &frame{w: width}
	f.line(av.st.title("Automatic Theme"))
	f.blank()
	f.line(av.st.muted("Choose themes for terminal light and dark appearance."))
	f.line(av.st.muted("Light/dark detection requires terminal support."))
	f.blank()
	return append(f.rows, av.s.Render(width)...)
}

// HandleKey passes keys to the mode showing.
func (tm *ThemeMenu) HandleKey(k tui.Key) bool {
	if h, ok := tm.cur.(tui.InputHandler); ok {
		return h.HandleKey(k)
	}
	return false
}

// Render draws the mode showing.
func (tm *ThemeMenu) Render(width int) []string { return tm.cur.Render(width) }
