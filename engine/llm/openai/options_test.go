package openai

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/pi-go/pi/engine"
	"github.com/pi-go/pi/engine/llm"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestRequestOptions covers the request options the live captures do
// not: the settings' thinking budgets, a request without caching, a
// tool that requires strict sampling, and a tools field kept for tool
// history.
func TestRequestOptions(t *testing.T) {
	t.Parallel()
	anthropicOR := func() *engine.Model {
		return &engine.Model{ID: "anthropic/x", Provider: "openrouter", BaseURL: "https://openrouter.ai/api/v1", MaxTokens: 1000, Reasoning: true}
	}
	custom := func(compat string) *engine.Model {
		return &engine.Model{ID: "cm", Provider: "custom", BaseURL: "http://127.0.0.1/v1", MaxTokens: 32000, Reasoning: true, Compat: json.RawMessage(compat)}
	}
	history := []*engine.Message{
		{Role: engine.RoleUser, Content: engine.Blocks(engine.TextContent("hi"))},
		{Role: engine.RoleAssistant, StopReason: engine.StopToolUse, Content: engine.Blocks(engine.Content{Type: engine.ContentToolCall, ID: "c1", Name: "ls", Arguments: json.RawMessage(`{}`)})},
		{Role: engine.RoleToolResult, ToolCallID: "c1", ToolName: "ls", Content: engine.Blocks(engine.TextContent(" "))},
	}
	tests := []struct {
		name     string
		req      *engine.LLMRequest
		want     string
		wantErr  string
		headers  string
		contains bool
	}{
		{name: "settings budget beats the default",
			req:  &engine.LLMRequest{Model: custom(`{"supportsThinkingTokenBudget":true}`), ThinkingLevel: engine.ThinkingMax, ThinkingBudgets: map[engine.ThinkingLevel]int{engine.ThinkingHigh: 5000}},
			want: `"reasoning_effort":"max","thinking_token_budget":5000}`, contains: true},
		{name: "budget leaves room for the answer",
			req:  &engine.LLMRequest{Model: custom(`{"thinkingTokenBudgetField":"thinking_budget"}`), ThinkingLevel: engine.ThinkingHigh, MaxTokens: 3000},
			want: `"max_completion_tokens":3000,"reasoning_effort":"high","thinking_budget":1976}`, contains: true},
		{name: "no caching: no cache_control, no session headers",
			req:     &engine.LLMRequest{Model: anthropicOR(), SystemPrompt: "S", SessionID: "s1", CacheRetention: "none", Messages: history[:1]},
			want:    `{"model":"anthropic/x","messages":[{"role":"system","content":"S"},{"role":"user","content":[{"type":"text","text":"hi"}]}],"stream":true,"stream_options":{"include_usage":true},"store":false,"max_completion_tokens":1000,"reasoning":{"effort":"none"}}`,
			headers: "http-referer: https://pi.dev; x-openrouter-categories: cli-agent; x-openrouter-title: pi"},
		{name: "long retention: one-hour cache_control, key and 24h",
			req:     &engine.LLMRequest{Model: anthropicOR(), SystemPrompt: "S", SessionID: "s1", CacheRetention: "long", Messages: history[:1]},
			want:    `{"model":"anthropic/x","messages":[{"role":"system","content":[{"type":"text","text":"S","cache_control":{"type":"ephemeral","ttl":"1h"}}]},{"role":"user","content":[{"type":"text","text":"hi","cache_control":{"type":"ephemeral","ttl":"1h"}}]}],"stream":true,"prompt_cache_key":"s1","prompt_cache_retention":"24h","stream_options":{"include_usage":true},"store":false,"max_completion_tokens":1000,"reasoning":{"effort":"none"}}`,
			headers: "http-referer: https://pi.dev; x-openrouter-categories: cli-agent; x-openrouter-title: pi; x-session-id: s1"},
		{name: "tools kept for history, blank result gets the placeholder",
			req:  &engine.LLMRequest{Model: custom(`{"requiresToolsWithToolHistory":true}`), Messages: history},
			want: `{"model":"cm","messages":[{"role":"user","content":[{"type":"text","text":"hi"}]},{"role":"assistant","content":null,"tool_calls":[{"id":"c1","type":"function","function":{"name":"ls","arguments":"{}"}}]},{"role":"tool","content":"(no tool output)","tool_call_id":"c1"}],"stream":true,"stream_options":{"include_usage":true},"store":false,"max_completion_tokens":32000,"tools":[]}`},
		{name: "required strict sampling without strict mode",
			req: &engine.LLMRequest{Model: custom(`{}`), Tools: []engine.ToolInfo{{Name: "t", Parameters: json.RawMessage(`{"type":"object"}`),
				OwnSampling: true, ConstrainedSampling: json.RawMessage(`{"type":"json_schema","strict":"require"}`)}}},
			wantErr: `Tool "t" requires JSON-schema constrained sampling, but strict tools are unsupported.`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			c := getCompat(tt.req.Model)
			body, err := buildBody(tt.req, c)
			if tt.wantErr != "" {
				require.EqualError(t, err, tt.wantErr)
				return
			}
			require.NoError(t, err)
			got, err := body.MarshalJSON()
			require.NoError(t, err)
			if tt.contains {
				assert.Contains(t, string(got), tt.want)
			} else {
				assert.Equal(t, tt.want, string(got))
			}
			if tt.headers != "" {
				assert.Equal(t, tt.headers, extraHeaders(tt.req, c))
			}
		})
	}
}

// TestNormalizeToolCallIDs: ids from another model's turn as the
// reference's convertMessages rewrites them (values from pi-ai 1.6.0).
func TestNormalizeToolCallIDs(t *testing.T) {
	t.Parallel()
	ids := []string{"call_abc|fc_123", "call_x|" + strings.Repeat("A+b/c=", 80), "plain_id_" + strings.Repeat("z", 50), "call_only|", "call é|it"}
	tests := []struct {
		provider string
		want     []string
	}{
		{"openai", []string{"call_abc_fc_123", "call_x_e8nnoe1h", "plain_id_" + strings.Repeat("z", 31), "call_only", "call___it"}},
		{"groq", []string{"call_abc_fc_123", "call_x_e8nnoe1h", "plain_id_" + strings.Repeat("z", 50), "call_only", "call___it"}},
	}
	for _, tt := range tests {
		t.Run(tt.provider, func(t *testing.T) {
			t.Parallel()
			m := &engine.Model{ID: "m", API: engine.APIOpenAICompletions, Provider: tt.provider, BaseURL: "http://x/v1"}
			msgs := []*engine.Message{{Role: engine.RoleUser, Content: engine.StringContents("hi")}}
			for _, id := range ids {
				msgs = append(msgs,
					&engine.Message{Role: engine.RoleAssistant, API: "openai-responses", Provider: "openai", Model: "other", StopReason: engine.StopToolUse,
						Content: engine.Blocks(engine.Content{Type: engine.ContentToolCall, ID: id, Name: "ls", Arguments: json.RawMessage(`{}`)})},
					&engine.Message{Role: engine.RoleToolResult, ToolCallID: id, ToolName: "ls", Content: engine.Blocks(engine.TextContent("ok"))})
			}
			var got, calls []string
			for _, o := range convertMessages(&engine.LLMRequest{Model: m, Messages: msgs}, getCompat(m)) {
				for _, f := range o {
					switch f.Key {
					case "tool_call_id":
						got = append(got, f.Value.(string))
					case "tool_calls":
						calls = append(calls, f.Value.([]llm.Object)[0][0].Value.(string))
					}
				}
			}
			assert.Equal(t, tt.want, got)
			assert.Equal(t, tt.want, calls)
		})
	}
}
