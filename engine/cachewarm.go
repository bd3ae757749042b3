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

// ReattachProviderHooks gives req, a copy of a request the loop built,
// the provider hooks of h bound to ctx instead of the ones it carries.
// The cache warmer replays a session request after its run has ended,
// when the run's context, which the original hooks are bound to, is
// gone; the replay still passes through before_provider_headers,
// before_provider_request and after_provider_response, as the
// reference's refresh reuses the request's options.
func ReattachProviderHooks(ctx context.Context, h Hooks, req *LLMRequest) {
	req.OnPayload, req.OnResponse, req.OnHeaders, req.orderedHeaders, req.OnStreamEvent = nil, nil, nil, nil, nil
	if h != nil {
		attachProviderHooks(ctx, h, req)
	}
}
