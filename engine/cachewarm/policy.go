package cachewarm

import (
	"encoding/json"
	"math"
	"time"

	"github.com/pi-go/pi/engine"
	"github.com/pi-go/pi/engine/llm"
)

const (
	// MaxAge bounds warming while a run is active, counted from the real
	// request that started it.
	MaxAge = time.Hour
	// MaxIdleAge bounds warming once the run has settled: how likely a
	// new request is becomes guesswork after that long.
	MaxIdleAge = 30 * time.Minute
	// MinimumExpectedSavings is the least a refresh must be expected to
	// save, in dollars, for pi to send it.
	MinimumExpectedSavings = 0.05
	// IdleContinuationProbability is the chance that a real request
	// arrives before the entry expires while the agent is idle; during a
	// run the next request is certain.
	IdleContinuationProbability = 0.15
)

// Phases of a warming run.
const (
	PhaseStreaming = "streaming"
	PhaseIdle      = "idle"
)

// Actions of a decision.
const (
	ActionWarm = "warm"
	ActionStop = "stop"
)

// Modes of the cacheWarming setting.
const (
	ModeOff       = "off"
	ModeStreaming = "streaming"
	ModeIdle      = "idle"
)

// Delay is how long after a request its cache entry is refreshed: 90% of
// the lifetime, but at least ten seconds before it ends. ok is false when
// the lifetime leaves no such margin.
func Delay(ttl time.Duration) (time.Duration, bool) {
	ms := ttl.Milliseconds()
	if ms <= 10_000 {
		return 0, false
	}
	d := math.Floor(math.Min(float64(ms)*0.9, float64(ms-10_000)))
	return time.Duration(max(1, int64(d))) * time.Millisecond, true
}

// TTL is the lifetime of the cache entry req writes: the model's
// promptCache entry for the request's retention tier. ok is false when
// caching is off for the request or the model declares no lifetime for
// the tier.
func TTL(req *engine.LLMRequest) (time.Duration, bool) {
	if req == nil || req.Model == nil {
		return 0, false
	}
	tier := req.ResolvedCacheRetention()
	if tier == "none" || len(req.Model.PromptCache) == 0 {
		return 0, false
	}
	var pc map[string]*float64
	if json.Unmarshal(req.Model.PromptCache, &pc) != nil || pc[tier] == nil {
		return 0, false
	}
	return time.Duration(*pc[tier] * float64(time.Second)), true
}

// Replayable reports whether re-sending req with a one-token output cap
// leaves its cache entry as it is. Anthropic's budget-based thinking
// derives the budget from the output cap and keys its cache on it, so a
// thinking request to an Anthropic model without forced adaptive thinking
// cannot be replayed.
func Replayable(req *engine.LLMRequest) bool {
	if req == nil || req.Model == nil || req.Model.API != "anthropic-messages" {
		return true
	}
	if req.ThinkingLevel == "" || req.ThinkingLevel == engine.ThinkingOff {
		return true
	}
	var compat struct {
		ForceAdaptiveThinking bool `json:"forceAdaptiveThinking"`
	}
	_ = json.Unmarshal(req.Model.Compat, &compat)
	return compat.ForceAdaptiveThinking
}

// WarmRequest is the refresh of req: the same request capped at one
// output token. The copy shares req's messages, which nothing mutates.
func WarmRequest(req *engine.LLMRequest) *engine.LLMRequest {
	c := *req
	c.MaxTokens = 1
	return &c
}

// Decision is pi's answer to whether one refresh pays for itself.
type Decision struct {
	Phase                   string
	WarmCost                float64 // price of the refresh
	MissCost                float64 // extra price of the next request if the entry is lost
	ContinuationProbability float64
	ExpectedSavings         float64
	EconomicsAvailable      bool
	Action                  string
}

// Evaluate decides whether refreshing the cache entry of a
// promptTokens-token request to m pays for itself in phase.
func Evaluate(m *engine.Model, promptTokens int, phase string) Decision {
	hit := price(m, engine.Usage{CacheRead: promptTokens})
	missUsage := engine.Usage{Input: promptTokens}
	if m != nil && m.Cost.CacheWrite > 0 {
		missUsage = engine.Usage{CacheWrite: promptTokens}
	}
	miss := price(m, missUsage)
	d := Decision{
		Phase:                   phase,
		WarmCost:                price(m, engine.Usage{CacheRead: promptTokens, Output: 1}),
		MissCost:                math.Max(0, miss-hit),
		ContinuationProbability: 1,
		EconomicsAvailable:      promptTokens > 0 && (hit > 0 || miss > 0),
	}
	if phase == PhaseIdle {
		d.ContinuationProbability = IdleContinuationProbability
	}
	d.ExpectedSavings = d.ContinuationProbability*d.MissCost - d.WarmCost
	d.Action = ActionStop
	if d.ExpectedSavings >= MinimumExpectedSavings {
		d.Action = ActionWarm
	}
	return d
}

func price(m *engine.Model, u engine.Usage) float64 {
	llm.CalculateCost(m, &u)
	return u.Cost.Total
}

// lastPromptTokens is the prompt size of the branch's latest assistant
// message, as its provider reported it.
func lastPromptTokens(branch []*engine.Entry) int {
	for i := len(branch) - 1; i >= 0; i-- {
		e := branch[i]
		if e.Type == engine.EntryMessage && e.Message != nil && e.Message.Role == engine.RoleAssistant {
			u := e.Message.Usage
			return u.Input + u.CacheRead + u.CacheWrite
		}
	}
	return 0
}
