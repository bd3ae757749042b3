package dialogs

import (
	"slices"

	"github.com/pi-go/pi/engine/tui"
)

// SettingRow is one row of the settings list.
type SettingRow struct {
	ID, Label, Description string
	// Value is the current value as shown.
	Value string
	// Values are the choices Enter/Space cycles through.
	Values []string
	// Open, when set, replaces cycling with a sub-dialog (a theme list,
	// the warnings, per-model levels): it returns the component to show
	// and calls done with the chosen value, or ok false to go back
	// unchanged.
	Open func(done func(value string, ok bool)) tui.Component
}

// SettingsOptions configure the /settings list.
type SettingsOptions struct {
	Title string // optional, above the search (sub-lists)
	Rows  []SettingRow
	// OnChange gets each change as it is made; it returns the value to
	// show (the caller may normalise it) or an error to show instead.
	OnChange func(id, value string) (string, error)
	OnClose  func()
}

// Settings is the searchable /settings list: label and value per row, the
// selected row's description under the list.
type Settings struct {
	rc     renderCache
	st     Style
	o      SettingsOptions
	search Line
	l      *list[*SettingRow]
	sub    tui.Component
	errMsg string
	done   bool
}

// NewSettings builds the list.
func NewSettings(st Style, o SettingsOptions) *Settings {
	rows := make([]*SettingRow, len(o.Rows))
	for i := range o.Rows {
		rows[i] = &o.Rows[i]
	}
	s := &Settings{st: st, o: o, search: Line{Prompt: "> "}}
	s.l = newList(rows, func(r *SettingRow) string { return r.Label })
	s.l.wrap = true
	return s
}

// Value is the shown value of row id.
func (s *Settings) Value(id string) string {
	for _, r := range s.l.items {
		if r.ID == id {
			return r.Value
		}
	}
	return ""
}

func (s *Settings) set(r *SettingRow, v string) {
	s.errMsg = ""
	if s.o.OnChange != nil {
		shown, err := s.o.OnChange(r.ID, v)
		if err != nil {
			s.errMsg = err.Error()
			return
		}
		v = shown
	}
	r.Value = v
}

// HandleKey: arrows move, Enter/Space change the selected setting (cycle
// or open its sub-list), Escape clears the search or closes, other keys
// search. While a sub-dialog is open it gets the keys.
func (s *Settings) HandleKey(k tui.Key) bool {
	s.rc.bump()
	if s.done || k.Release {
		return false
	}
	if s.sub != nil {
		if h, ok := s.sub.(tui.InputHandler); ok {
			h.HandleKey(k)
		}
		return true
	}
	r, _, have := s.l.current()
	switch {
	case s.st.Is(k, "tui.select.up"):
		s.l.move(-1)
	case s.st.Is(k, "tui.select.down"):
		s.l.move(1)
	case s.st.Is(k, "tui.select.pageUp"):
		s.l.move(-s.l.visible())
	case s.st.Is(k, "tui.select.pageDown"):
		s.l.move(s.l.visible())
	case s.st.Is(k, "tui.select.confirm") || k.Is("space"):
		if !have {
			return true
		}
		if r.Open != nil {
			s.sub = r.Open(func(v string, ok bool) {
				s.sub = nil
				if ok {
					s.set(r, v)
				}
			})
			return true
		}
		if len(r.Values) > 0 {
			i := slices.Index(r.Values, r.Value)
			s.set(r, r.Values[(i+1)%len(r.Values)])
		}
	case s.st.Is(k, "tui.select.cancel"):
		if s.search.Text() != "" {
			s.search.SetText("")
			s.l.setQuery("")
			return true
		}
		s.done = true
		if s.o.OnClose != nil {
			s.o.OnClose()
		}
	default:
		if !s.search.HandleKey(k) {
			return false
		}
		s.l.setQuery(s.search.Text())
	}
	return true
}

// HandlePaste types into the search (or the open sub-dialog).
func (s *Settings) HandlePaste(text string) {
	s.rc.bump()
	if s.sub != nil {
		if p, ok := s.sub.(tui.PasteHandler); ok {
			p.HandlePaste(text)
		}
		return
	}
	s.search.HandlePaste(text)
	s.l.setQuery(s.search.Text())
}

// Render draws the list, or the open sub-dialog.
// The rows are cached by width until the dialog changes.
func (s *Settings) Render(width int) []string { return s.rc.get(width, s.render) }

// Invalidate drops the cached rows (after a theme change).
func (s *Settings) Invalidate() { s.rc.bump() }

func (s *Settings) render(width int) []string {
	if s.sub != nil {
		return s.sub.Render(width)
	}
	st := s.st
	f := &frame{w: width}
	f.line(st.border(width))
	if s.o.Title != "" {
		f.blank()
		f.pad(st.title(s.o.Title))
		f.blank()
	}
	f.line(s.search.Render(width)[0])
	f.blank()
	labelW := 0
	for _, r := range s.l.items {
		labelW = max(labelW, tui.Width(r.Label))
	}
	labelW = min(labelW, max(width/2-2, 8))
	if s.l.len() == 0 {
		f.line(st.muted("  No matching settings"))
	}
	start, end := s.l.window()
	for n := start; n < end; n++ {
		r := s.l.items[s.l.shown[n]]
		label := tui.PadRight(r.Label, labelW)
		val := r.Value
		if r.Open != nil && val == "" {
			val = "…"
		}
		if n == s.l.sel {
			f.line(st.accent("→ "+label) + "  " + st.accent(val))
		} else {
			f.line("  " + st.text(label) + "  " + st.muted(val))
		}
	}
	if info := s.l.scrollInfo(); info != "" {
		f.line(st.muted("  " + info))
	}
	f.blank()
	if r, _, ok := s.l.current(); ok && r.Description != "" {
		f.hint(st.muted(r.Description))
		f.blank()
	}
	if s.errMsg != "" {
		f.hint(st.fg("error", s.errMsg))
		f.blank()
	}
	f.hint(st.dim("Type to search · " + st.KeyDisplay("tui.select.confirm") + "/Space to change · Esc to cancel"))
	f.line(st.border(width))
	return f.rows
}
