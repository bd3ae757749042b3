package engine_test

import (
	"context"
	"testing"

	"github.com/pi-go/pi/engine"
	"github.com/pi-go/pi/engine/llm/faux"
)

// TestCompactionModelOverride checks that compaction.modelOverrides for
// the session's model replaces the global keepRecentTokens: with a global
// value that keeps everything there is nothing to compact, and only the
// current model's override makes the compaction happen.
func TestCompactionModelOverride(t *testing.T) {
	t.Parallel()
	ten := 10
	cases := []struct {
		name      string
		overrides map[string]engine.CompactionOverride
		compacts  bool
	}{
		{"no override", nil, false},
		{"other model", map[string]engine.CompactionOverride{"faux/other": {KeepRecentTokens: &ten}}, false},
		{"this model", map[string]engine.CompactionOverride{"faux/faux-1": {KeepRecentTokens: &ten}}, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			h := newCompactHarness(t, smallModel(128000), func(rs *engine.RuntimeSettings) {
				rs.CompactionKeepRecentTokens = 1000000
				rs.CompactionModelOverrides = c.overrides
			}, faux.Turn{Text: "first answer"}, faux.Turn{Text: "second answer"}, faux.Turn{Text: "## Goal\nsummary"})
			h.prompt(t, "first question")
			h.prompt(t, "second question")
			_, err := h.s.Compact(context.Background(), "")
			if c.compacts && err != nil {
				t.Fatalf("compact: %v", err)
			}
			if !c.compacts && (err == nil || err.Error() != "Nothing to compact (session too small)") {
				t.Fatalf("compact err = %v, want Nothing to compact", err)
			}
		})
	}
}
