package llm

import (
	"encoding/json"

	"github.com/pi-go/pi/engine"
	"github.com/pi-go/pi/internal/jsonx"
)

// MergeSamplingParams merges the model's models.json samplingParams, then
// its samplingParamsByThinkingLevel entry for the request's effective
// level, into an OpenAI-compatible request body, as the reference does:
// a key the body already has is replaced in place, a new one is appended,
// in the order models.json gives them. Non-reasoning models and requests
// without a level use the "off" entry.
func MergeSamplingParams(body Object, m *engine.Model, level engine.ThinkingLevel) Object {
	if m == nil || (len(m.SamplingParams) == 0 && len(m.SamplingParamsByThinkingLevel) == 0) {
		return body
	}
	if !m.Reasoning || level == "" {
		level = engine.ThinkingOff
	}
	params := orderedFields(m.SamplingParams)
	for _, f := range orderedFields(m.SamplingParamsByThinkingLevel) {
		if f.Key == string(level) {
			params = mergeFields(params, orderedFields(f.Value.(json.RawMessage)))
		}
	}
	return Object(mergeFields([]Field(body), params))
}

// mergeFields sets each of add on a copy of base: replaced in place when
// present, appended otherwise.
func mergeFields(base, add []Field) []Field {
	out := append(Object(nil), base...)
	for _, f := range add {
		out = out.Put(f.Key, f.Value)
	}
	return out
}

// orderedFields reads a JSON object's members in order, values raw; any
// other JSON yields none, and a broken object the members before the
// break.
func orderedFields(raw json.RawMessage) []Field {
	out, _ := jsonx.Members(raw)
	return out
}
