package llm

import (
	"bytes"
	"encoding/json"

	"github.com/pi-go/pi/engine"
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

// mergeFields sets each of add on base: replaced in place when present,
// appended otherwise.
func mergeFields(base, add []Field) []Field {
	out := append([]Field(nil), base...)
	for _, f := range add {
		found := false
		for i := range out {
			if out[i].Key == f.Key {
				out[i].Value, found = f.Value, true
				break
			}
		}
		if !found {
			out = append(out, f)
		}
	}
	return out
}

// orderedFields reads a JSON object's members in order, values raw; any
// other JSON yields none.
func orderedFields(raw json.RawMessage) []Field {
	dec := json.NewDecoder(bytes.NewReader(raw))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return nil
	}
	var out []Field
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return out
		}
		k, _ := t.(string)
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return out
		}
		out = append(out, Field{k, v})
	}
	return out
}
