package llm

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/pi-go/pi/engine"
)

func TestMergeSamplingParams(t *testing.T) {
	t.Parallel()
	model := func(reasoning bool) *engine.Model {
		return &engine.Model{Reasoning: reasoning,
			SamplingParams:                json.RawMessage(`{"temperature":0.3,"top_p":0.9,"seed":7}`),
			SamplingParamsByThinkingLevel: json.RawMessage(`{"high":{"temperature":0.9,"top_k":5},"off":{"top_p":0.5}}`)}
	}
	tests := []struct {
		name  string
		model *engine.Model
		level engine.ThinkingLevel
		want  string
	}{
		{"level entry overrides in place and appends", model(true), engine.ThinkingHigh,
			`{"model":"m","temperature":0.9,"top_p":0.9,"seed":7,"top_k":5}`},
		{"no level uses off", model(true), "", `{"model":"m","temperature":0.3,"top_p":0.5,"seed":7}`},
		{"non-reasoning model uses off", model(false), engine.ThinkingHigh, `{"model":"m","temperature":0.3,"top_p":0.5,"seed":7}`},
		{"no params", &engine.Model{}, engine.ThinkingHigh, `{"model":"m"}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got := MergeSamplingParams(Object{}.Set("model", "m"), tt.model, tt.level)
			b, err := json.Marshal(got)
			require.NoError(t, err)
			require.Equal(t, tt.want, string(b))
		})
	}
}
