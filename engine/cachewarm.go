package engine

import "context"

// CacheWarmingDecision is the cache_warming_decision event: pi's cost
// estimates for one prompt-cache refresh and the action it chose ("warm"
// or "stop"). The fields are in the reference's order.
type CacheWarmingDecision struct {
	WarmCost                float64
	MissCost                float64
	ContinuationProbability float64
	Action                  string
}

// CacheWarmingHooks is implemented by an extension host that runs
// cache_warming_decision handlers. It is separate from Hooks because only
// the cache warmer (engine/cachewarm) asks it, and hosts without
// extensions have nothing to say: the warmer type-asserts its hooks.
type CacheWarmingHooks interface {
	// CacheWarmingDecision runs the handlers and returns the action the
	// last one that returned an action chose, else ev.Action.
	CacheWarmingDecision(ctx context.Context, ev CacheWarmingDecision) (string, error)
}
