package llm

import (
	"testing"

	"github.com/pi-go/pi/engine"
)

// TestCalculateCostTiers checks that the highest tier the request's whole
// input (fresh + cache read + cache write) exceeds prices every token
// kind, and that a request at a threshold stays on the lower prices.
func TestCalculateCostTiers(t *testing.T) {
	t.Parallel()
	m := &engine.Model{Cost: engine.ModelCost{
		Input: 1, Output: 2, CacheRead: 0.1, CacheWrite: 1.25,
		Tiers: []engine.ModelCostTier{
			{InputTokensAbove: 500000, Input: 100, Output: 200, CacheRead: 10, CacheWrite: 125},
			{InputTokensAbove: 100000, Input: 10, Output: 20, CacheRead: 1, CacheWrite: 12.5},
		},
	}}
	cases := []struct {
		name                             string
		input, cacheRead, cacheWrite     int
		wantInput, wantOutput, wantTotal float64
	}{
		{"base", 1000, 0, 0, 0.001, 0.002, 0.003},
		{"at threshold stays base", 100000, 0, 0, 0.1, 0.002, 0.102},
		{"cache tokens count", 50000, 40000, 10001, 0.5, 0.02, 0.5 + 0.02 + 0.04 + 0.1250125},
		{"highest tier wins", 600000, 0, 0, 60, 0.2, 60.2},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			u := &engine.Usage{Input: c.input, Output: 1000, CacheRead: c.cacheRead, CacheWrite: c.cacheWrite}
			CalculateCost(m, u)
			if !near(u.Cost.Input, c.wantInput) || !near(u.Cost.Output, c.wantOutput) || !near(u.Cost.Total, c.wantTotal) {
				t.Fatalf("cost = %+v, want input %v output %v total %v", u.Cost, c.wantInput, c.wantOutput, c.wantTotal)
			}
		})
	}
}

func near(a, b float64) bool {
	d := a - b
	return d < 1e-9 && d > -1e-9
}

// TestModelCostTiersJSON checks the wire form: tiers after the four base
// prices with inputTokensAbove first, and no tiers key without tiers.
func TestModelCostTiersJSON(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		cost engine.ModelCost
		want string
	}{
		{engine.ModelCost{Input: 1, Output: 2, CacheRead: 0.1, CacheWrite: 1.25}, `{"input":1,"output":2,"cacheRead":0.1,"cacheWrite":1.25}`},
		{engine.ModelCost{Input: 1, Output: 2, Tiers: []engine.ModelCostTier{{InputTokensAbove: 200000, Input: 2, Output: 4, CacheRead: 0.2, CacheWrite: 2.5}}},
			`{"input":1,"output":2,"cacheRead":0,"cacheWrite":0,"tiers":[{"inputTokensAbove":200000,"input":2,"output":4,"cacheRead":0.2,"cacheWrite":2.5}]}`},
	} {
		b, err := engine.MarshalJSON(c.cost)
		if err != nil {
			t.Fatal(err)
		}
		if string(b) != c.want {
			t.Fatalf("got %s\nwant %s", b, c.want)
		}
	}
}
