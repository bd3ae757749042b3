package llm

import (
	"encoding/json"
	"testing"

	"github.com/pi-go/pi/engine"
	"github.com/stretchr/testify/assert"
)

func TestThinkingMapEntry(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, levelMap, key string
		want                *string
		present             bool
	}{
		{"no map", ``, "high", nil, false},
		{"string", `{"high":"max","off":null}`, "high", ptr("max"), true},
		{"null", `{"high":"max","off":null}`, "off", nil, true},
		{"missing", `{"high":"max"}`, "low", nil, false},
		{"non-string values void the map", `{"high":"max","low":1}`, "high", nil, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			m := &engine.Model{ThinkingLevelMap: json.RawMessage(tc.levelMap)}
			v, present := ThinkingMapEntry(m, tc.key)
			assert.Equal(t, tc.present, present)
			assert.Equal(t, tc.want, v)
		})
	}
}

func ptr(s string) *string { return &s }
