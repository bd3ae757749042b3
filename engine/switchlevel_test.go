package engine_test

import (
	"testing"

	"github.com/pi-go/pi/engine"
	"github.com/pi-go/pi/engine/session"
)

// TestSetModelSwitchLevel checks the level a model switch starts at: the
// settings' level (SwitchLevel) clamped to the new model, so a "high"
// default survives a trip through a model without reasoning, as in the
// reference (off, high, off, high); without SwitchLevel the current
// level carries over.
func TestSetModelSwitchLevel(t *testing.T) {
	t.Parallel()
	plain := &engine.Model{Provider: "p", ID: "plain"}
	smart := &engine.Model{Provider: "p", ID: "smart", Reasoning: true}
	high := func(*engine.Model) (engine.ThinkingLevel, bool) { return engine.ThinkingHigh, true }
	tests := []struct {
		name        string
		switchLevel func(*engine.Model) (engine.ThinkingLevel, bool)
		want        []engine.ThinkingLevel
	}{
		{"settings level", high, []engine.ThinkingLevel{engine.ThinkingOff, engine.ThinkingHigh, engine.ThinkingOff, engine.ThinkingHigh}},
		{"current level", nil, []engine.ThinkingLevel{engine.ThinkingOff, engine.ThinkingOff, engine.ThinkingOff, engine.ThinkingOff}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			s, err := engine.NewSession(engine.SessionOptions{Store: session.InMemory(t.TempDir(), ""), Model: plain,
				ThinkingLevel: engine.ThinkingOff, SwitchLevel: tc.switchLevel})
			if err != nil {
				t.Fatal(err)
			}
			got := []engine.ThinkingLevel{s.ThinkingLevel()}
			for _, m := range []*engine.Model{smart, plain, smart} {
				if err := s.SetModel(m); err != nil {
					t.Fatal(err)
				}
				got = append(got, s.ThinkingLevel())
			}
			for i := range tc.want {
				if got[i] != tc.want[i] {
					t.Fatalf("levels %v, want %v", got, tc.want)
				}
			}
		})
	}
}
