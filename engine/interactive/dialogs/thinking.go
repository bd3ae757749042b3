package dialogs

import (
	"github.com/pi-go/pi/engine"
	"github.com/pi-go/pi/engine/tui"
)

// LevelDescriptions say what each thinking level asks of the model, with
// the token budgets of the levels that have one.
var LevelDescriptions = map[engine.ThinkingLevel]string{
	engine.ThinkingOff:     "No reasoning",
	engine.ThinkingMinimal: "Barely any reasoning (~1k tokens)",
	engine.ThinkingLow:     "Short reasoning (~2k tokens)",
	engine.ThinkingMedium:  "Moderate reasoning (~8k tokens)",
	engine.ThinkingHigh:    "Thorough reasoning (~16k tokens)",
	engine.ThinkingXHigh:   "Very thorough reasoning (~32k tokens)",
	engine.ThinkingMax:     "The model's largest reasoning effort",
}

// ThinkingSelectorOptions configure the /thinking picker.
type ThinkingSelectorOptions struct {
	// Levels are the levels the current model supports, lowest first.
	Levels  []engine.ThinkingLevel
	Current engine.ThinkingLevel
	// Default is the defaultThinkingLevel setting ("" when unset).
	Default  engine.ThinkingLevel
	OnSelect func(engine.ThinkingLevel)
	// OnSave (Ctrl+S) selects the level and saves it as the default.
	OnSave   func(engine.ThinkingLevel)
	OnCancel func()
}

// ThinkingSelector is the /thinking picker.
type ThinkingSelector struct {
	rc     renderCache
	st     Style
	o      ThinkingSelectorOptions
	search Line
	l      *list[engine.ThinkingLevel]
	done   bool
}

// NewThinkingSelector builds the picker on the current level.
func NewThinkingSelector(st Style, o ThinkingSelectorOptions) *ThinkingSelector {
	ts := &ThinkingSelector{st: st, o: o, search: Line{Prompt: "> "},
		l: newList(o.Levels, func(l engine.ThinkingLevel) string { return string(l) + " " + LevelDescriptions[l] })}
	ts.l.wrap = true
	for i, l := range o.Levels {
		if l == o.Current {
			ts.l.selectIndex(i)
		}
	}
	return ts
}

// Done reports whether the picker has resolved.
func (ts *ThinkingSelector) Done() bool { return ts.done }

// HandleKey moves, selects (Enter), saves (Ctrl+S) or cancels.
func (ts *ThinkingSelector) HandleKey(k tui.Key) bool {
	ts.rc.bump()
	if ts.done || k.Release {
		return false
	}
	pick := func(fn func(engine.ThinkingLevel)) {
		if l, _, ok := ts.l.current(); ok {
			ts.done = true
			if fn != nil {
				fn(l)
			}
		}
	}
	switch {
	case ts.st.Is(k, "tui.select.up"):
		ts.l.move(-1)
	case ts.st.Is(k, "tui.select.down"):
		ts.l.move(1)
	case ts.st.Is(k, "tui.select.confirm"):
		pick(ts.o.OnSelect)
	case ts.st.Is(k, "app.thinking.save"):
		pick(ts.o.OnSave)
	case ts.st.Is(k, "tui.select.cancel"):
		ts.done = true
		if ts.o.OnCancel != nil {
			ts.o.OnCancel()
		}
	default:
		if !ts.search.HandleKey(k) {
			return false
		}
		ts.l.setQuery(ts.search.Text())
	}
	return true
}

// Render draws the title, the cycling hint, one row per level with its
// description, and the key hints.
// The rows are cached by width until the dialog changes.
func (ts *ThinkingSelector) Render(width int) []string { return ts.rc.get(width, ts.render) }

// Invalidate drops the cached rows (after a theme change).
func (ts *ThinkingSelector) Invalidate() { ts.rc.bump() }

func (ts *ThinkingSelector) render(width int) []string {
	st := ts.st
	f := &frame{w: width}
	f.line(st.border(width))
	f.blank()
	f.hint2(st.title("Thinking Level"))
	f.blank()
	f.hint2(st.muted(st.KeyDisplay("app.thinking.cycle") + " cycles thinking levels in-session"))
	f.blank()
	f.line(ts.search.Render(width)[0])
	f.blank()
	labelW := 0
	for _, l := range ts.o.Levels {
		labelW = max(labelW, len(l)+2+3)
	}
	for n := 0; n < ts.l.len(); n++ {
		l := ts.l.items[ts.l.shown[n]]
		mark := "  "
		if l == ts.o.Current {
			mark = "✓ "
		}
		label := tui.PadRight(mark+string(l), labelW)
		desc := LevelDescriptions[l]
		if l == ts.o.Default {
			desc += " · default"
		}
		if n == ts.l.sel {
			f.line(st.accent("→ "+label) + st.muted(desc))
		} else {
			f.line("  " + st.text(label) + st.dim(desc))
		}
	}
	f.blank()
	f.hint(st.dim(st.KeyDisplay("tui.select.confirm") + " to select · " + st.KeyDisplay("app.thinking.save") +
		" to set as default · " + st.KeyDisplay("tui.select.cancel") + " to cancel"))
	f.line(st.border(width))
	return f.rows
}
