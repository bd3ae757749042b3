package dialogs

import (
	"strings"

	"github.com/pi-go/pi/engine"
	"github.com/pi-go/pi/engine/tui"
)

// ModelKey names a model as provider and id.
type ModelKey struct{ Provider, ID string }

// Of is the key of m.
func Of(m *engine.Model) ModelKey {
	if m == nil {
		return ModelKey{}
	}
	return ModelKey{m.Provider, m.ID}
}

// NoAuthNotice is the line above the model list: only models whose
// provider has credentials are offered.
const NoAuthNotice = "Only showing models from configured providers. Use /login to add providers."

// ModelSelectorOptions configure the /model picker.
type ModelSelectorOptions struct {
	// Models are the models with configured auth, in catalogue order.
	Models []*engine.Model
	// Scoped, when not empty, is the --models/enabledModels scope; Tab
	// switches between it and all models, and the picker opens on it.
	Scoped  []*engine.Model
	Current ModelKey
	Default ModelKey // settings defaultProvider/defaultModel
	// Query prefills the search (/model <text> with several matches).
	Query string
	// Status is an optional line under the details (catalogue refresh).
	Status   string
	OnSelect func(m *engine.Model)
	// OnSetDefault (Ctrl+S) selects m and saves it as the default.
	OnSetDefault func(m *engine.Model)
	OnCancel     func()
}

// ModelSelector is the /model and Ctrl+L picker.
type ModelSelector struct {
	rc     renderCache
	st     Style
	o      ModelSelectorOptions
	search Line
	l      *list[*engine.Model]
	scoped bool
	done   bool
	// statusOK colours Status as a success; errText replaces the model
	// name line (a failed catalogue refresh), as the reference's.
	statusOK bool
	errText  string
}

// SetRefreshResult shows how the catalogue refresh ended: status (""
// hides the line; ok colours it as a success) or, with errText, an error
// in place of the model name, and the refreshed models (nil keeps the
// list). The selection stays on the model it was on.
func (ms *ModelSelector) SetRefreshResult(status string, ok bool, errText string, models []*engine.Model) {
	ms.rc.bump()
	ms.o.Status, ms.statusOK, ms.errText = status, ok, errText
	if models == nil {
		return
	}
	cur, _, had := ms.l.current()
	ms.o.Models = models
	ms.l.setItems(ms.models())
	ms.l.setQuery(ms.search.Text())
	if had {
		for i, m := range ms.l.items {
			if Of(m) == Of(cur) {
				ms.l.selectIndex(i)
				return
			}
		}
	}
}

// NewModelSelector builds the picker with the current model selected.
func NewModelSelector(st Style, o ModelSelectorOptions) *ModelSelector {
	ms := &ModelSelector{st: st, o: o, search: Line{Prompt: "> "}, scoped: len(o.Scoped) > 0}
	ms.l = newList(ms.models(), func(m *engine.Model) string { return m.ID + " " + m.Provider + " " + m.Name })
	ms.l.wrap = true
	ms.search.SetText(o.Query)
	ms.l.setQuery(o.Query)
	ms.selectCurrent()
	return ms
}

func (ms *ModelSelector) models() []*engine.Model {
	if ms.scoped {
		return ms.o.Scoped
	}
	return ms.o.Models
}

func (ms *ModelSelector) selectCurrent() {
	for i, m := range ms.l.items {
		if Of(m) == ms.o.Current {
			ms.l.selectIndex(i)
			return
		}
	}
}

// Done reports whether the picker has resolved.
func (ms *ModelSelector) Done() bool { return ms.done }

func (ms *ModelSelector) finish(fn func(*engine.Model), m *engine.Model) {
	ms.done = true
	if fn != nil {
		fn(m)
	}
}

// HandleKey: arrows move (wrapping), Enter selects, Ctrl+S sets the
// default, Tab switches scope, Escape cancels, other keys edit the search.
func (ms *ModelSelector) HandleKey(k tui.Key) bool {
	ms.rc.bump()
	if ms.done || k.Release {
		return false
	}
	switch {
	case ms.st.Is(k, "tui.select.up"):
		ms.l.move(-1)
	case ms.st.Is(k, "tui.select.down"):
		ms.l.move(1)
	case ms.st.Is(k, "tui.select.pageUp"):
		ms.l.move(-ms.l.visible())
	case ms.st.Is(k, "tui.select.pageDown"):
		ms.l.move(ms.l.visible())
	case ms.st.Is(k, "tui.select.confirm"):
		if m, _, ok := ms.l.current(); ok {
			ms.finish(ms.o.OnSelect, m)
		}
	case ms.st.Is(k, "app.models.save"):
		if m, _, ok := ms.l.current(); ok {
			ms.finish(ms.o.OnSetDefault, m)
		}
	case ms.st.Is(k, "tui.select.cancel"):
		ms.done = true
		if ms.o.OnCancel != nil {
			ms.o.OnCancel()
		}
	case k.Is("tab") && len(ms.o.Scoped) > 0:
		ms.scoped = !ms.scoped
		ms.l.setItems(ms.models())
		ms.l.sel = 0
		ms.selectCurrent()
	default:
		if !ms.search.HandleKey(k) {
			return false
		}
		ms.l.setQuery(ms.search.Text())
	}
	return true
}

// HandlePaste types into the search.
func (ms *ModelSelector) HandlePaste(text string) {
	ms.rc.bump()
	ms.search.HandlePaste(text)
	ms.l.setQuery(ms.search.Text())
}

// Render draws the notice, the scope switch, the search, the rows
// ("→ ✓ id [provider] · default"), the selected model's name and the
// key hints.
// The rows are cached by width until the dialog changes.
func (ms *ModelSelector) Render(width int) []string { return ms.rc.get(width, ms.render) }

// Invalidate drops the cached rows (after a theme change).
func (ms *ModelSelector) Invalidate() { ms.rc.bump() }

func (ms *ModelSelector) render(width int) []string {
	st := ms.st
	f := &frame{w: width}
	f.line(st.border(width))
	f.blank()
	f.hint2(st.fg("warning", NoAuthNotice))
	if len(ms.o.Scoped) > 0 {
		all, sc := st.muted("all"), st.accent("scoped")
		if !ms.scoped {
			all, sc = st.accent("all"), st.muted("scoped")
		}
		f.hint2(st.muted("Scope: ") + all + st.muted(" | ") + sc + st.dim("  (tab)"))
	}
	f.blank()
	f.line(ms.search.Render(width)[0])
	f.blank()
	if ms.l.len() == 0 {
		f.line(st.muted("  No matching models"))
	}
	start, end := ms.l.window()
	for n := start; n < end; n++ {
		m := ms.l.items[ms.l.shown[n]]
		cursor, id := "  ", st.text(m.ID)
		if n == ms.l.sel {
			cursor, id = st.accent("→ "), st.accent(m.ID)
		}
		mark := "  "
		if Of(m) == ms.o.Current {
			mark = st.fg("success", "✓ ")
		}
		row := cursor + mark + id + " " + st.muted("["+m.Provider+"]")
		if Of(m) == ms.o.Default {
			row += st.fg("success", " · default")
		}
		f.line(row)
	}
	if info := ms.l.scrollInfo(); info != "" {
		f.line(st.muted("  " + info))
	}
	f.blank()
	if ms.errText != "" {
		for _, l := range strings.Split(ms.errText, "\n") {
			f.line(st.fg("error", l))
		}
		f.blank()
	} else if m, _, ok := ms.l.current(); ok {
		f.line(st.muted("  Model Name: " + nameOr(m)))
		f.blank()
	}
	if ms.o.Status != "" {
		token := "muted"
		if ms.statusOK {
			token = "success"
		}
		f.line(st.fg(token, "  "+ms.o.Status))
		f.blank()
	}
	f.hint(st.dim(st.KeyDisplay("tui.select.confirm") + " to select · " + st.KeyDisplay("app.models.save") +
		" to set as default · " + st.KeyDisplay("tui.select.cancel") + " to cancel"))
	f.line(st.border(width))
	return f.rows
}
