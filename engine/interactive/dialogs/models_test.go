package dialogs

import (
	"slices"
	"strings"
	"testing"

	"github.com/pi-go/pi/engine"
)

func testModels() []*engine.Model {
	return []*engine.Model{
		{Provider: "mock", ID: "mock-model", Name: "Mock Model"},
		{Provider: "mock", ID: "mock-model-2", Name: "Mock Model 2"},
		{Provider: "openai", ID: "gpt-4o", Name: "GPT-4o"},
		{Provider: "anthropic", ID: "claude-sonnet-4-5", Name: "Claude Sonnet 4.5 🚀"},
	}
}

func TestModelSelector(t *testing.T) {
	t.Parallel()
	ms := testModels()
	cases := []struct {
		name   string
		keys   []string
		typed  string
		want   string // provider/id chosen
		def    bool   // via Ctrl+S
		cancel bool
	}{
		{name: "enter keeps current", keys: []string{"enter"}, want: "mock/mock-model-2"},
		{name: "down", keys: []string{"down", "enter"}, want: "openai/gpt-4o"},
		{name: "wraps up", keys: []string{"up", "up", "enter"}, want: "anthropic/claude-sonnet-4-5"},
		{name: "search", typed: "gpt4", keys: []string{"enter"}, want: "openai/gpt-4o"},
		{name: "search by provider", typed: "anthropic", keys: []string{"enter"}, want: "anthropic/claude-sonnet-4-5"},
		{name: "ctrl+s default", keys: []string{"down", "ctrl+s"}, want: "openai/gpt-4o", def: true},
		{name: "escape", keys: []string{"escape"}, cancel: true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			var got string
			var def, cancelled bool
			d := NewModelSelector(Style{}, ModelSelectorOptions{Models: ms, Current: ModelKey{"mock", "mock-model-2"},
				OnSelect:     func(m *engine.Model) { got = m.Provider + "/" + m.ID },
				OnSetDefault: func(m *engine.Model) { got, def = m.Provider+"/"+m.ID, true },
				OnCancel:     func() { cancelled = true }})
			typeText(d, c.typed)
			press(d, c.keys...)
			if got != c.want || def != c.def || cancelled != c.cancel {
				t.Fatalf("got %q def=%v cancelled=%v", got, def, cancelled)
			}
		})
	}
}

func TestModelSelectorGolden(t *testing.T) {
	t.Parallel()
	ms := testModels()
	d := NewModelSelector(Style{}, ModelSelectorOptions{Models: ms, Current: ModelKey{"mock", "mock-model"},
		Default: ModelKey{"mock", "mock-model"}})
	golden(t, "model-selector", d)
	sc := NewModelSelector(Style{}, ModelSelectorOptions{Models: ms, Scoped: ms[2:], Current: ModelKey{"openai", "gpt-4o"}})
	if txt := rowsText(sc, 80); strings.Contains(txt, "mock-model") || !strings.Contains(txt, "Scope:") {
		t.Fatalf("scoped view:\n%s", txt)
	}
	press(sc, "tab")
	if txt := rowsText(sc, 80); !strings.Contains(txt, "mock-model") {
		t.Fatalf("tab did not show all:\n%s", txt)
	}
	empty := NewModelSelector(Style{}, ModelSelectorOptions{Models: ms, Query: "zzz"})
	if !strings.Contains(rowsText(empty, 80), "No matching models") {
		t.Fatal("no empty notice")
	}
}

func TestThinkingSelector(t *testing.T) {
	t.Parallel()
	levels := []engine.ThinkingLevel{"off", "minimal", "low", "medium", "high"}
	var sel, saved engine.ThinkingLevel
	d := NewThinkingSelector(Style{}, ThinkingSelectorOptions{Levels: levels, Current: "medium", Default: "medium",
		OnSelect: func(l engine.ThinkingLevel) { sel = l }, OnSave: func(l engine.ThinkingLevel) { saved = l }})
	golden(t, "thinking-selector", d)
	press(d, "down", "enter")
	if sel != "high" {
		t.Fatalf("selected %q", sel)
	}
	d = NewThinkingSelector(Style{}, ThinkingSelectorOptions{Levels: levels, Current: "off",
		OnSelect: func(l engine.ThinkingLevel) { sel = l }, OnSave: func(l engine.ThinkingLevel) { saved = l }})
	press(d, "up", "ctrl+s")
	if saved != "high" {
		t.Fatalf("saved %q (wrap from off)", saved)
	}
}

func TestScopedModels(t *testing.T) {
	t.Parallel()
	ms := testModels()
	var changes [][]string
	var saved []string
	savedCalls := 0
	d := NewScopedModels(Style{}, ScopedModelsOptions{Models: ms, Enabled: nil,
		OnChange: func(e []string) { changes = append(changes, e) },
		OnSave:   func(e []string) { saved = e; savedCalls++ }})
	golden(t, "scoped-all", d)
	steps := []struct {
		keys  []string
		typed string
		want  []string
	}{
		{keys: []string{"enter"}, want: []string{"mock/mock-model-2", "openai/gpt-4o", "anthropic/claude-sonnet-4-5"}},
		// The selection follows mock-model to the end: its provider is half on, so Ctrl+P enables it all.
		{keys: []string{"ctrl+p"}, want: []string{"mock/mock-model-2", "openai/gpt-4o", "anthropic/claude-sonnet-4-5", "mock/mock-model"}},
		{keys: []string{"ctrl+p"}, want: []string{"openai/gpt-4o", "anthropic/claude-sonnet-4-5"}},
		{keys: []string{"up", "alt+up"}, want: []string{"anthropic/claude-sonnet-4-5", "openai/gpt-4o"}},
		{keys: []string{"ctrl+x"}, want: []string{}},
		{typed: "gpt", keys: []string{"ctrl+a"}, want: []string{"openai/gpt-4o"}},
		{keys: []string{"escape", "ctrl+a"}, want: nil},
	}
	for i, s := range steps {
		typeText(d, s.typed)
		press(d, s.keys...)
		if got := d.Enabled(); !slices.Equal(got, s.want) || (got == nil) != (s.want == nil) {
			t.Fatalf("step %d: enabled %q, want %q\n%s", i, got, s.want, rowsText(d, 80))
		}
	}
	if len(changes) != len(steps) {
		t.Fatalf("%d changes for %d steps", len(changes), len(steps))
	}
	press(d, "enter", "ctrl+s")
	if savedCalls != 1 || len(saved) != 3 {
		t.Fatalf("saved %q (%d calls)", saved, savedCalls)
	}
	golden(t, "scoped-some", d)
}
