package jsruntime

import (
	"encoding/json"

	"github.com/pi-go/pi/engine"
)

// extModel is a model as the bridge hands it to extensions. The reference
// builds a models.json model field by field, so its object has keys whose
// value is undefined (thinkingLevelMap, inputLimits, promptCache,
// samplingParams, samplingParamsByThinkingLevel, headers, compat); JSON
// cannot carry undefined, so those keys travel as null and the JS side
// (pi_internal_models.js, undefinedModelKeys) turns a null there back into
// undefined. Catalog models and models an extension registered keep their
// own JSON: the reference leaves no undefined keys in the former, and the
// latter are the extension's objects.
type extModel struct{ m *engine.Model }

func (x extModel) MarshalJSON() ([]byte, error) {
	m := x.m
	if m == nil {
		return []byte("null"), nil
	}
	if m.Catalog || len(m.Raw) > 0 || m.Placeholder {
		return engine.MarshalJSON(m)
	}
	raw := func(r json.RawMessage) any {
		if len(r) == 0 {
			return nil
		}
		return r
	}
	input := m.Input
	if input == nil {
		input = []string{}
	}
	// headers is always undefined: the reference applies models.json
	// headers per provider, not on the model object.
	return engine.MarshalJSON(ordered{
		{"id", m.ID}, {"name", m.Name}, {"api", m.API}, {"provider", m.Provider}, {"baseUrl", m.BaseURL},
		{"reasoning", m.Reasoning}, {"thinkingLevelMap", raw(m.ThinkingLevelMap)}, {"input", input},
		{"inputLimits", raw(m.InputLimits)}, {"cost", m.Cost}, {"promptCache", raw(m.PromptCache)},
		{"contextWindow", m.ContextWindow}, {"maxTokens", m.MaxTokens}, {"samplingParams", raw(m.SamplingParams)},
		{"samplingParamsByThinkingLevel", raw(m.SamplingParamsByThinkingLevel)}, {"headers", nil}, {"compat", raw(m.Compat)},
	})
}

// extModels wraps a model list for the bridge.
func extModels(ms []*engine.Model) extModelList {
	out := make(extModelList, 0, len(ms))
	for _, m := range ms {
		out = append(out, extModel{m})
	}
	return out
}

// extModelList marshals its models one after the other: a catalog model's
// JSON is its stored text, and going through encoding/json's slice
// encoder would validate and compact every one of them again (the whole
// catalog is ~1 MB; engine.MarshalJSON checks the result once).
type extModelList []extModel

func (l extModelList) MarshalJSON() ([]byte, error) {
	b := make([]byte, 0, 512*len(l)+2)
	b = append(b, '[')
	for i, x := range l {
		if i > 0 {
			b = append(b, ',')
		}
		j, err := x.MarshalJSON()
		if err != nil {
			return nil, err
		}
		b = append(b, j...)
	}
	return append(b, ']'), nil
}
