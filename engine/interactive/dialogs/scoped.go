package dialogs

import (
	"fmt"
	"slices"
	"strings"

	"github.com/pi-go/pi/engine"
	"github.com/pi-go/pi/engine/tui"
)

// ScopedModelsOptions configure the /scoped-models picker.
type ScopedModelsOptions struct {
	// Models are every model with configured auth.
	Models []*engine.Model
	// Enabled are the enabled "provider/id"s in cycling order; nil means
	// every model is enabled (no scope).
	Enabled []string
	// OnChange gets every edit at once, for the session (nil: all).
	OnChange func(enabled []string)
	// OnSave (Ctrl+S) writes the scope to settings (enabledModels).
	OnSave func(enabled []string)
	// OnClose runs on Escape/Ctrl+C.
	OnClose func()
}

type scopedItem struct {
	id    string
	model *engine.Model // nil: enabled in settings but not available
}

// ScopedModels is the /scoped-models picker: which models Ctrl+P cycles
// through, and in which order. Edits apply to the session at once; Ctrl+S
// saves them.
type ScopedModels struct {
	rc      renderCache
	st      Style
	o       ScopedModelsOptions
	search  Line
	byID    map[string]*engine.Model
	all     []string
	enabled []string // nil: all
	l       *list[scopedItem]
	dirty   bool
	done    bool
}

// NewScopedModels builds the picker.
func NewScopedModels(st Style, o ScopedModelsOptions) *ScopedModels {
	sm := &ScopedModels{st: st, o: o, search: Line{Prompt: "> "}, byID: map[string]*engine.Model{}}
	for _, m := range o.Models {
		id := m.Provider + "/" + m.ID
		sm.byID[id] = m
		sm.all = append(sm.all, id)
	}
	if o.Enabled != nil {
		sm.enabled = slices.Clone(o.Enabled)
	}
	sm.l = newList(sm.items(), func(it scopedItem) string { return it.id })
	sm.l.max = 8
	sm.l.wrap = true
	return sm
}

// Enabled is the current scope (nil: all models).
func (sm *ScopedModels) Enabled() []string { return slices.Clone(sm.enabled) }

func (sm *ScopedModels) isEnabled(id string) bool {
	return sm.enabled == nil || slices.Contains(sm.enabled, id)
}

// items lists the enabled models first, in their order, then the rest in
// catalogue order.
func (sm *ScopedModels) items() []scopedItem {
	var out []scopedItem
	if sm.enabled != nil {
		for _, id := range sm.enabled {
			out = append(out, scopedItem{id, sm.byID[id]})
		}
	}
	for _, id := range sm.all {
		if sm.enabled == nil || !slices.Contains(sm.enabled, id) {
			out = append(out, scopedItem{id, sm.byID[id]})
		}
	}
	return out
}

// targets are the ids the bulk keys act on: the filtered rows.
func (sm *ScopedModels) targets() []string {
	var out []string
	for _, i := range sm.l.shown {
		if it := sm.l.items[i]; it.model != nil {
			out = append(out, it.id)
		}
	}
	return out
}

func (sm *ScopedModels) setEnabled(e []string) {
	// Every model enabled, in catalogue order, is no scope at all.
	if e != nil && len(e) == len(sm.all) && slices.Equal(e, sm.all) {
		e = nil
	}
	sm.enabled = e
	sel := ""
	if it, _, ok := sm.l.current(); ok {
		sel = it.id
	}
	sm.l.setItems(sm.items())
	for i, it := range sm.l.items {
		if it.id == sel {
			sm.l.selectIndex(i)
		}
	}
	sm.dirty = true
	if sm.o.OnChange != nil {
		sm.o.OnChange(sm.Enabled())
	}
}

func (sm *ScopedModels) enable(ids []string) {
	e := slices.Clone(sm.enabled)
	if e == nil {
		return // already all
	}
	for _, id := range ids {
		if !slices.Contains(e, id) {
			e = append(e, id)
		}
	}
	sm.setEnabled(e)
}

func (sm *ScopedModels) disable(ids []string) {
	e := slices.Clone(sm.enabled)
	if e == nil {
		e = slices.Clone(sm.all)
	}
	e = slices.DeleteFunc(e, func(id string) bool { return slices.Contains(ids, id) })
	if e == nil {
		e = []string{}
	}
	sm.setEnabled(e)
}

// HandleKey: Enter toggles, Ctrl+A enables the filtered models, Ctrl+X
// disables them, Ctrl+P toggles the selected model's provider,
// Alt+Up/Down reorder, Ctrl+S saves, Escape closes.
func (sm *ScopedModels) HandleKey(k tui.Key) bool {
	sm.rc.bump()
	if sm.done || k.Release {
		return false
	}
	it, _, have := sm.l.current()
	switch {
	case sm.st.Is(k, "app.models.reorderUp") || sm.st.Is(k, "app.models.reorderDown"):
		d := 1
		if sm.st.Is(k, "app.models.reorderUp") {
			d = -1
		}
		if !have || sm.enabled == nil {
			return true
		}
		i := slices.Index(sm.enabled, it.id)
		if i < 0 || i+d < 0 || i+d >= len(sm.enabled) {
			return true
		}
		e := slices.Clone(sm.enabled)
		e[i], e[i+d] = e[i+d], e[i]
		sm.setEnabled(e)
	case sm.st.Is(k, "tui.select.up"):
		sm.l.move(-1)
	case sm.st.Is(k, "tui.select.down"):
		sm.l.move(1)
	case sm.st.Is(k, "tui.select.confirm"):
		if have {
			if sm.isEnabled(it.id) {
				sm.disable([]string{it.id})
			} else {
				sm.enable([]string{it.id})
			}
		}
	case sm.st.Is(k, "app.models.enableAll"):
		if sm.search.Text() == "" {
			sm.setEnabled(nil)
		} else {
			sm.enable(sm.targets())
		}
	case sm.st.Is(k, "app.models.clearAll"):
		sm.disable(sm.targets())
	case sm.st.Is(k, "app.models.toggleProvider"):
		if !have || it.model == nil {
			return true
		}
		var ids []string
		for _, id := range sm.all {
			if sm.byID[id].Provider == it.model.Provider {
				ids = append(ids, id)
			}
		}
		on := true
		for _, id := range ids {
			on = on && sm.isEnabled(id)
		}
		if on {
			sm.disable(ids)
		} else {
			sm.enable(ids)
		}
	case sm.st.Is(k, "app.models.save"):
		sm.dirty = false
		if sm.o.OnSave != nil {
			sm.o.OnSave(sm.Enabled())
		}
	case sm.st.Is(k, "tui.select.cancel"):
		if sm.search.Text() != "" {
			sm.search.SetText("")
			sm.l.setQuery("")
			return true
		}
		sm.done = true
		if sm.o.OnClose != nil {
			sm.o.OnClose()
		}
	default:
		if !sm.search.HandleKey(k) {
			return false
		}
		sm.l.setQuery(sm.search.Text())
	}
	return true
}

// Render draws the title, the session-only note, the search, the rows
// ("→ ✓ id [provider]"), the counts and the key hints.
// The rows are cached by width until the dialog changes.
func (sm *ScopedModels) Render(width int) []string { return sm.rc.get(width, sm.render) }

// Invalidate drops the cached rows (after a theme change).
func (sm *ScopedModels) Invalidate() { sm.rc.bump() }

func (sm *ScopedModels) render(width int) []string {
	st := sm.st
	f := &frame{w: width}
	f.line(st.border(width))
	f.blank()
	f.line(st.title("Model Configuration"))
	f.line(st.muted("Session-only. " + st.KeyDisplay("app.models.save") + " to save to settings."))
	f.blank()
	f.line(sm.search.Render(width)[0])
	f.blank()
	if sm.l.len() == 0 {
		f.line(st.muted("  No matching models"))
	}
	start, end := sm.l.window()
	for n := start; n < end; n++ {
		it := sm.l.items[sm.l.shown[n]]
		prefix, name := "  ", it.id
		if it.model != nil {
			name = it.model.ID
		}
		name = st.text(name)
		if n == sm.l.sel {
			prefix, name = st.accent("→ "), st.accent(tui.Strip(name))
		}
		status := "  "
		if it.model != nil && sm.isEnabled(it.id) {
			status = st.accent("✓ ")
		}
		badge := st.muted(" [unavailable]")
		if it.model != nil {
			badge = st.muted(" [" + it.model.Provider + "]")
		}
		f.line(prefix + status + name + badge)
	}
	if info := sm.l.scrollInfo(); info != "" {
		f.line(st.muted("  " + info))
	}
	f.blank()
	if it, _, ok := sm.l.current(); ok {
		if it.model != nil {
			f.line(st.muted("  Model Name: " + nameOr(it.model)))
		} else {
			f.line(st.muted("  Model unavailable"))
		}
		f.blank()
	}
	count := "all enabled"
	if sm.enabled != nil {
		have, missing := 0, 0
		for _, id := range sm.enabled {
			if sm.byID[id] != nil {
				have++
			} else {
				missing++
			}
		}
		count = fmt.Sprintf("%d/%d enabled", have, len(sm.all))
		if missing > 0 {
			count += fmt.Sprintf(" · %d unavailable", missing)
		}
	}
	parts := []string{
		st.KeyDisplay("tui.select.confirm") + " toggle", st.KeyDisplay("app.models.enableAll") + " all",
		st.KeyDisplay("app.models.clearAll") + " clear", st.KeyDisplay("app.models.toggleProvider") + " provider",
		st.KeyDisplay("app.models.reorderUp") + "/" + st.KeyDisplay("app.models.reorderDown") + " reorder",
		st.KeyDisplay("app.models.save") + " save", count,
	}
	hint := st.dim(strings.Join(parts, " · "))
	if sm.dirty {
		hint += " " + st.fg("warning", "(unsaved)")
	}
	f.hint(hint)
	f.line(st.border(width))
	return f.rows
}

func nameOr(m *engine.Model) string {
	if m.Name != "" {
		return m.Name
	}
	return m.ID
}
