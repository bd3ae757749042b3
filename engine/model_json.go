package engine

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
	o := newObject().
		set("id", m.ID).
		set("name", m.Name).
		set("api", m.API).
		set("provider", m.Provider).
		set("baseUrl", m.BaseURL).
		set("reasoning", m.Reasoning)
	input := m.Input
	if input == nil {
		input = []string{}
	}
	if m.Catalog {
		o.set("input", input).
			set("cost", m.Cost).
			set("contextWindow", m.ContextWindow).
			set("maxTokens", m.MaxTokens)
		if len(m.Headers) > 0 {
			o.set("headers", m.Headers)
		}
		return o.opt("thinkingLevelMap", m.ThinkingLevelMap).
			opt("compat", m.Compat).
			opt("promptCache", m.PromptCache).
			opt("inputLimits", m.InputLimits).
			set("type", "chat").
			bytes()
	}
	o.opt("thinkingLevelMap", m.ThinkingLevelMap).
		set("input", input).
		opt("inputLimits", m.InputLimits).
		set("cost", m.Cost).
		opt("promptCache", m.PromptCache).
		set("contextWindow", m.ContextWindow).
		set("maxTokens", m.MaxTokens).
		opt("samplingParams", m.SamplingParams).
		opt("samplingParamsByThinkingLevel", m.SamplingParamsByThinkingLevel)
	if len(m.Headers) > 0 {
		o.set("headers", m.Headers)
	}
	return o.opt("compat", m.Compat).bytes()
}
