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
