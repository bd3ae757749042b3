package engine

import "github.com/pi-go/pi/internal/jsonx"

// MarshalJSON writes a model with the reference's key order, which depends
// on where the model came from. A models.json model is built field by field:
// id, name, api, provider, baseUrl, reasoning, thinkingLevelMap, input,
// inputLimits, cost, promptCache, contextWindow, maxTokens, headers, compat.
// A built-in catalog model keeps its catalog order: id … maxTokens, then
// thinkingLevelMap, compat, promptCache, inputLimits and "type":"chat".
// Optional fields are omitted when empty in both layouts.
func (m Model) MarshalJSON() ([]byte, error) {
	if len(m.Raw) > 0 {
		return m.Raw, nil
	}
	o := jsonx.NewBuilder().
		Set("id", m.ID).
		Set("name", m.Name).
		Set("api", m.API).
		Set("provider", m.Provider).
		Set("baseUrl", m.BaseURL).
		Set("reasoning", m.Reasoning)
	input := m.Input
	if input == nil {
		input = []string{}
	}
	if m.Catalog {
		o.Set("input", input).
			Set("cost", m.Cost).
			Set("contextWindow", m.ContextWindow).
			Set("maxTokens", m.MaxTokens)
		if len(m.Headers) > 0 {
			o.Set("headers", m.Headers)
		}
		return o.Opt("thinkingLevelMap", m.ThinkingLevelMap).
			Opt("compat", m.Compat).
			Opt("promptCache", m.PromptCache).
			Opt("inputLimits", m.InputLimits).
			Set("type", "chat").
			Bytes()
	}
	o.Opt("thinkingLevelMap", m.ThinkingLevelMap).
		Set("input", input).
		Opt("inputLimits", m.InputLimits).
		Set("cost", m.Cost).
		Opt("promptCache", m.PromptCache).
		Set("contextWindow", m.ContextWindow).
		Set("maxTokens", m.MaxTokens).
		Opt("samplingParams", m.SamplingParams).
		Opt("samplingParamsByThinkingLevel", m.SamplingParamsByThinkingLevel)
	if len(m.Headers) > 0 {
		o.Set("headers", m.Headers)
	}
	return o.Opt("compat", m.Compat).Bytes()
}
