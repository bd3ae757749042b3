package jsruntime

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pi-go/pi/engine"
)

// TestStreamRequestOptions checks the options an extension's streamSimple
// gets for cacheRetention and thinkingBudgets.
func TestStreamRequestOptions(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		req  engine.LLMRequest
		want string
	}{
		{name: "plain", req: engine.LLMRequest{APIKey: "k", SessionID: "s"}, want: `"options":{"apiKey":"k","sessionId":"s"}}`},
		{name: "summary with budgets", req: engine.LLMRequest{APIKey: "k", SessionID: "s", CacheRetention: "none",
			ThinkingBudgets: map[engine.ThinkingLevel]int{engine.ThinkingHigh: 9000, engine.ThinkingLow: 3000}},
			want: `"options":{"apiKey":"k","sessionId":"s","cacheRetention":"none","thinkingBudgets":{"low":3000,"high":9000}}}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			req := tt.req
			req.Model = &engine.Model{ID: "m", Provider: "p", API: "x"}
			got, err := streamRequestJSON(&req)
			require.NoError(t, err)
			assert.Contains(t, got, tt.want)
		})
	}
}
