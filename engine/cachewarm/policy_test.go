package cachewarm

import (
	"testing"
	"time"

	"github.com/pi-go/pi/engine"
)

// The expected values below were printed by the reference's own policy
// functions (pi-ai's cache-warming module) for the same inputs; the first
// row is also what its cache_warming_decision handler saw in the recorded
// run against the conformance mock.
func TestEvaluateMatchesReference(t *testing.T) {
	t.Parallel()
	m := &engine.Model{Cost: engine.ModelCost{Input: 10, Output: 50, CacheRead: 0.1, CacheWrite: 12.5}}
	m2 := &engine.Model{Cost: engine.ModelCost{Input: 3, Output: 15, CacheRead: 0.3}}
	tests := []struct {
		model  *engine.Model
		tokens int
		phase  string
		want   Decision
	}{
		{m, 101000, PhaseIdle, Decision{PhaseIdle, 0.010150000000000001, 1.2524, 0.15, 0.17771, true, ActionWarm}},
		{m, 101000, PhaseStreaming, Decision{PhaseStreaming, 0.010150000000000001, 1.2524, 1, 1.2422499999999999, true, ActionWarm}},
		{m2, 50000, PhaseIdle, Decision{PhaseIdle, 0.015014999999999999, 0.135, 0.15, 0.005235000000000002, true, ActionStop}},
		{m2, 50000, PhaseStreaming, Decision{PhaseStreaming, 0.015014999999999999, 0.135, 1, 0.11998500000000001, true, ActionWarm}},
		{m, 0, PhaseIdle, Decision{PhaseIdle, 0.00005, 0, 0.15, -0.00005, false, ActionStop}},
	}
	for _, tc := range tests {
		if got := Evaluate(tc.model, tc.tokens, tc.phase); got != tc.want {
			t.Errorf("Evaluate(%d, %s) = %+v, want %+v", tc.tokens, tc.phase, got, tc.want)
		}
	}
}

func TestDelay(t *testing.T) {
	t.Parallel()
	for ttl, want := range map[time.Duration]time.Duration{
		10 * time.Second: 0, 10001 * time.Millisecond: time.Millisecond, 12 * time.Second: 2 * time.Second,
		100 * time.Second: 90 * time.Second, 5 * time.Minute: 270 * time.Second, time.Hour: 3240 * time.Second,
	} {
		got, ok := Delay(ttl)
		if ok != (want != 0) || got != want {
			t.Errorf("Delay(%v) = %v %v, want %v", ttl, got, ok, want)
		}
	}
}
