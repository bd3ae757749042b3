package jsruntime

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pi-go/pi/engine"
)

// TestCompleteRequestOptions checks that pi-ai's cacheRetention and
// thinkingBudgets stream options reach the provider request.
func TestCompleteRequestOptions(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name        string
		options     string
		wantCache   string
		wantBudgets map[engine.ThinkingLevel]int
	}{
		{name: "none given", options: `{}`},
		{name: "both", options: `{"cacheRetention":"none","thinkingBudgets":{"low":3000,"high":9000}}`,
			wantCache: "none", wantBudgets: map[engine.ThinkingLevel]int{engine.ThinkingLow: 3000, engine.ThinkingHigh: 9000}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var p completeRequest
			raw := `{"model":{"id":"m","provider":"p","api":"anthropic-messages"},"context":{"messages":[]},"options":` + tt.options + `}`
			require.NoError(t, json.Unmarshal([]byte(raw), &p))
			req, err := (&API{}).llmRequest(&p)
			require.NoError(t, err)
			assert.Equal(t, tt.wantCache, req.CacheRetention)
			assert.Equal(t, tt.wantBudgets, req.ThinkingBudgets)
		})
	}
}
