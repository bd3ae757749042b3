package openairesponses

import (
	"context"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/pi-go/pi/engine"
)

// TestCopilotDynamicHeaders: GitHub Copilot's models on this API get the
// per-request headers it reads (who started the request), as the
// reference sends them; other providers get none.
func TestCopilotDynamicHeaders(t *testing.T) {
	t.Parallel()
	tests := []struct {
		provider, last string
		want           string // X-Initiator, "" for none
	}{
		{"github-copilot", engine.RoleUser, "user"},
		{"github-copilot", engine.RoleToolResult, "agent"},
		{"openai", engine.RoleUser, ""},
	}
	for _, tc := range tests {
		t.Run(tc.provider+"/"+tc.last, func(t *testing.T) {
			t.Parallel()
			var mu sync.Mutex
			var got http.Header
			hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				mu.Lock()
				got = r.Header.Clone()
				mu.Unlock()
				http.Error(w, `{"error":{"message":"stop here"}}`, http.StatusBadRequest)
			}))
			defer hs.Close()
			m := &engine.Model{ID: "gpt-5", Provider: tc.provider, API: engine.APIOpenAIResponses, BaseURL: hs.URL + "/v1", ContextWindow: 1000, MaxTokens: 100}
			msgs := []*engine.Message{{Role: engine.RoleUser, Content: engine.StringContents("hi")}}
			if tc.last == engine.RoleToolResult {
				msgs = append(msgs,
					&engine.Message{Role: engine.RoleAssistant, Provider: tc.provider, API: m.API, Model: m.ID, Content: engine.Contents{Blocks: []engine.Content{{Type: engine.ContentToolCall, ID: "call_1", Name: "ls", Arguments: []byte(`{}`)}}}, StopReason: engine.StopToolUse},
					&engine.Message{Role: engine.RoleToolResult, ToolCallID: "call_1", ToolName: "ls", Content: engine.Contents{Blocks: []engine.Content{{Type: engine.ContentText, Text: "a.go"}}}})
			}
			providerFor(engine.APIOpenAIResponses, nil).Stream(context.Background(), &engine.LLMRequest{Model: m, Messages: msgs, APIKey: "k"}, func(engine.AssistantEvent) {})
			mu.Lock()
			defer mu.Unlock()
			assert.Equal(t, tc.want, got.Get("X-Initiator"))
			if tc.want != "" {
				assert.Equal(t, "conversation-edits", got.Get("Openai-Intent"))
			}
		})
	}
}
