package anthropic

import "github.com/pi-go/pi/engine"

// minAnswerTokens are always left for the answer when a thinking budget
// shares max_tokens with it.
const minAnswerTokens = 1024

// clampToContext fits an output cap into the context window with the
// engine's estimate of the prompt, as the reference does again after it
// adds the thinking budget.
func clampToContext(req *engine.LLMRequest, maxTokens int) int {
	return engine.ClampMaxTokens(req.Model, engine.EstimateContextTokens(req.Messages), maxTokens)
}

// thinkingBudget is the budget of a level: the settings' custom one when
// set, else the default; xhigh and max use high's.
func thinkingBudget(level engine.ThinkingLevel, custom map[engine.ThinkingLevel]int) int {
	if level == engine.ThinkingXHigh || level == engine.ThinkingMax {
		level = engine.ThinkingHigh
	}
	if b, ok := custom[level]; ok {
		return b
	}
	switch level {
	case engine.ThinkingMinimal:
		return 1024
	case engine.ThinkingLow:
		return 2048
	case engine.ThinkingMedium:
		return 8192
	default:
		return 16384
	}
}
