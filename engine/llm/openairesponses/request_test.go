package openairesponses

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/pi-go/pi/engine"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestNormalizeIDPart(t *testing.T) {
	t.Parallel()
	assert.Equal(t, "toolu_01_x_y", normalizeIDPart("toolu_01:x.y__"))
	assert.Equal(t, "a__b", normalizeIDPart("a😀b"))
}

func asst(provider, api, model string, blocks ...engine.Content) *engine.Message {
	return &engine.Message{Role: engine.RoleAssistant, Provider: provider, API: api, Model: model,
		StopReason: engine.StopToolUse, Content: engine.Blocks(blocks...)}
}

func call(id, name, args string) engine.Content {
	return engine.Content{Type: engine.ContentToolCall, ID: id, Name: name, Arguments: json.RawMessage(args)}
}

// TestConvertInput replays a mixed transcript; the expected items are what
// the reference's convertResponsesMessages gives for the same messages.
func TestConvertInput(t *testing.T) {
	t.Parallel()
	m := &engine.Model{ID: "gpt-b", API: engine.APIOpenAIResponses, Provider: "openai", Reasoning: true, Input: []string{"text", "image"}}
	text := engine.TextContent
	withSig := func(s, sig string) engine.Content { c := text(s); c.TextSignature = sig; return c }
	ns := call("call_5|fc_5", "ls", `{}`)
	ns.Namespace = "ns"
	msgs := []*engine.Message{
		{Role: engine.RoleUser, Content: engine.StringContents("plain string")},
		asst("anthropic", engine.APIAnthropicMessages, "claude",
			engine.Content{Type: engine.ContentThinking, Thinking: "t", ThinkingSignature: "sig"}, text("a"), text("b"),
			call("toolu_01:x.y", "bash", `{"b": 1, "a": 2}`)),
		{Role: engine.RoleToolResult, ToolCallID: "toolu_01:x.y", ToolName: "bash",
			Content: engine.Blocks(text("out"), engine.ImageContent("AA", "image/png"))},
		asst("openai", engine.APIOpenAIResponses, "gpt-a", withSig("c", `{"v":1,"id":"msg_old","phase":"commentary"}`),
			call("call_9|fc_9", "read", `{}`)),
		{Role: engine.RoleUser, Content: engine.Blocks(text("next"))},
		asst("azure", engine.APIOpenAIResponses, "gpt-b", call("call_7|fc_abc+def", "ls", `{}`)),
		{Role: engine.RoleToolResult, ToolCallID: "call_7|fc_abc+def", ToolName: "ls", Content: engine.Blocks()},
		asst("openai", engine.APIOpenAIResponses, "gpt-b", withSig("same", "msg_"+strings.Repeat("x", 70)), ns),
	}
	items, err := convertInput(&engine.LLMRequest{Model: m, SystemPrompt: "sys", Messages: msgs}, getCompat(m, flavorOpenAI), nil, "", nil)
	require.NoError(t, err)
	got, err := json.Marshal(items)
	require.NoError(t, err)
	want := `[{"role":"developer","content":"sys"},{"role":"user","content":[{"type":"input_text","text":"plain string"}]},{"type":"message","role":"assistant","content":[{"type":"output_text","text":"a","annotations":[]}],"status":"completed","id":"msg_pi_1"},{"type":"message","role":"assistant","content":[{"type":"output_text","text":"b","annotations":[]}],"status":"completed","id":"msg_pi_1_1"},{"type":"function_call","call_id":"toolu_01_x_y","name":"bash","arguments":"{\"b\":1,\"a\":2}"},{"type":"function_call_output","call_id":"toolu_01_x_y","output":[{"type":"input_text","text":"out"},{"type":"input_image","detail":"auto","image_url":"data:image/png;base64,AA"}]},{"type":"message","role":"assistant","content":[{"type":"output_text","text":"c","annotations":[]}],"status":"completed","id":"msg_pi_3"},{"type":"function_call","call_id":"call_9","name":"read","arguments":"{}"},{"type":"function_call_output","call_id":"call_9","output":"No result provided"},{"role":"user","content":[{"type":"input_text","text":"next"}]},{"type":"function_call","id":"fc_axzrzuvcz7q6","call_id":"call_7","name":"ls","arguments":"{}"},{"type":"function_call_output","call_id":"call_7","output":"(no tool output)"},{"type":"message","role":"assistant","content":[{"type":"output_text","text":"same","annotations":[]}],"status":"completed","id":"msg_1f43gnm1wcb1pr"},{"type":"function_call","id":"fc_5","call_id":"call_5","name":"ls","arguments":"{}","namespace":"ns"},{"type":"function_call_output","call_id":"call_5","output":"No result provided"}]`
	assert.Equal(t, want, string(got))
}

func TestBodyOptions(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		model  engine.Model
		level  engine.ThinkingLevel
		max    int
		cache  string
		want   []string
		absent []string
	}{
		{name: "reasoning off", model: engine.Model{Reasoning: true}, want: []string{`"reasoning":{"effort":"none"}`}, absent: []string{"include"}},
		{name: "off mapped", model: engine.Model{Reasoning: true, ThinkingLevelMap: json.RawMessage(`{"off":"minimal"}`)}, want: []string{`"reasoning":{"effort":"minimal"}`}},
		{name: "off impossible", model: engine.Model{Reasoning: true, ThinkingLevelMap: json.RawMessage(`{"off":null}`)}, absent: []string{"reasoning"}},
		{name: "high mapped", model: engine.Model{Reasoning: true, ThinkingLevelMap: json.RawMessage(`{"high":"xhigh"}`)}, level: engine.ThinkingHigh,
			want: []string{`"reasoning":{"effort":"xhigh","summary":"auto"},"include":["reasoning.encrypted_content"]`}},
		{name: "xai off", model: engine.Model{Reasoning: true, Provider: "xai"}, want: []string{`"reasoning":{"effort":"none"},"include":["reasoning.encrypted_content"]`}},
		{name: "copilot off", model: engine.Model{Reasoning: true, Provider: "github-copilot"}, absent: []string{"reasoning"}},
		{name: "not a reasoning model", model: engine.Model{}, level: engine.ThinkingHigh, absent: []string{"reasoning"}},
		{name: "min output tokens", model: engine.Model{}, max: 5, want: []string{`"max_output_tokens":16`}},
		{name: "no max output", model: engine.Model{Compat: json.RawMessage(`{"supportsMaxOutputTokens":false}`)}, max: 500, absent: []string{"max_output_tokens"}},
		{name: "strict tools", model: engine.Model{Compat: json.RawMessage(`{"supportsStrictMode":true}`)}, want: []string{`"parameters":{"type":"object","required":[],"additionalProperties":false},"strict":true}`}},
		{name: "system role", model: engine.Model{Reasoning: true, Compat: json.RawMessage(`{"supportsDeveloperRole":false}`)}, want: []string{`{"role":"system","content":"sys"}`}},
		{name: "cache key off", model: engine.Model{Compat: json.RawMessage(`{"promptCacheKeyMode":"disabled"}`)}, absent: []string{"prompt_cache_key"}},
		{name: "summary cache none", cache: "none", absent: []string{"prompt_cache_key", "prompt_cache_options"}},
		{name: "summary cache none explicit mode", cache: "none", model: engine.Model{Compat: json.RawMessage(`{"supportsExplicitPromptCacheMode":true}`)},
			want: []string{`"stream":true,"prompt_cache_options":{"mode":"explicit"},"store":false`}, absent: []string{"prompt_cache_key"}},
		{name: "chatgpt sign-in", model: engine.Model{Provider: "openai", BaseURL: "https://api.openai.com/v1"}, max: 100, absent: []string{"max_output_tokens"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			m := tt.model
			m.ID, m.API = "m", engine.APIOpenAIResponses
			req := &engine.LLMRequest{Model: &m, SystemPrompt: "sys", ThinkingLevel: tt.level, MaxTokens: tt.max, APIKey: "tok",
				SessionID: "s1", CacheRetention: tt.cache, Tools: []engine.ToolInfo{{Name: "t", Description: "d", Parameters: json.RawMessage(`{"type":"object"}`)}}}
			obj, err := buildBody(req, getCompat(&m, flavorOpenAI), "", nil)
			require.NoError(t, err)
			b, err := obj.MarshalJSON()
			require.NoError(t, err)
			for _, w := range tt.want {
				assert.Contains(t, string(b), w)
			}
			for _, a := range tt.absent {
				assert.NotContains(t, string(b), a)
			}
		})
	}
}

func TestHeadersAndErrors(t *testing.T) {
	t.Parallel()
	sc := loadScenario(t, "text")
	_, srv := runScenario(t, sc)
	require.Len(t, srv.headers, 1)
	h := srv.headers[0]
	assert.Equal(t, "Bearer k", h.Get("Authorization"))
	assert.Equal(t, "sess-1", h.Get("Session-Id"))
	assert.Equal(t, "sess-1", h.Get("X-Client-Request-Id"))
	assert.True(t, strings.HasPrefix(h.Get("User-Agent"), "pi/1.6.0 ("), h.Get("User-Agent"))

	m := &engine.Model{Provider: "mock"}
	assert.Equal(t, `mock API error (404): 404 status code (no body)`, formatHTTPError(m, flavorOpenAI, 404, []byte(`{"detail":"x"}`)))
	assert.Equal(t, `mock API error (400): 400 "bad"`, formatHTTPError(m, flavorOpenAI, 400, []byte(`{"error":"bad"}`)))
}

func TestNoAPIKey(t *testing.T) {
	t.Parallel()
	m := &engine.Model{ID: "m", API: engine.APIOpenAIResponses, Provider: "p", BaseURL: "http://127.0.0.1:1/v1"}
	var events []string
	msg := New().Stream(t.Context(), &engine.LLMRequest{Model: m}, func(e engine.AssistantEvent) { events = append(events, e.Type) })
	assert.Equal(t, []string{"error"}, events)
	assert.Equal(t, "No API key for provider: p", msg.ErrorMessage)
}

func TestConnectionRefused(t *testing.T) {
	t.Parallel()
	m := &engine.Model{ID: "m", API: engine.APIOpenAIResponses, Provider: "p", BaseURL: "http://127.0.0.1:1/v1"}
	msg := New().Stream(t.Context(), &engine.LLMRequest{Model: m, APIKey: "k"}, nil)
	assert.Equal(t, engine.StopError, msg.StopReason)
	assert.True(t, strings.HasPrefix(msg.ErrorMessage, "Connection error.: "), msg.ErrorMessage)
}

func TestUsageHints(t *testing.T) {
	t.Parallel()
	p := &Provider{}
	assert.Equal(t, "x subscription_sharing_usage_limit_exceeded\nCheck your ChatGPT usage: https://chatgpt.com/settings/usage",
		p.withUsageHint("x subscription_sharing_usage_limit_exceeded"))
	assert.Equal(t, "subscription_sharing_workplace_individual_usage_limit_exceeded\nYou've reached your ChatGPT workspace's usage limit. Ask your workspace admin to increase it at admin.openai.com → Workspace → Usage limits.",
		p.withUsageHint("subscription_sharing_workplace_individual_usage_limit_exceeded"))
	assert.Equal(t, "plain", p.withUsageHint("plain"))
	az := &Provider{flavor: flavorAzure}
	assert.Equal(t, "subscription_sharing_usage_limit_exceeded", az.withUsageHint("subscription_sharing_usage_limit_exceeded"))
}
