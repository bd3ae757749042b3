package llm

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/pi-go/pi/engine"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestCalculateCost(t *testing.T) {
	t.Parallel()
	m := &engine.Model{Cost: engine.ModelCost{Input: 3, Output: 15, CacheRead: 0.3, CacheWrite: 3.75}}
	u := engine.Usage{Input: 800, Output: 50, CacheRead: 200}
	CalculateCost(m, &u)
	assert.InDelta(t, 0.0024, u.Cost.Input, 1e-12)
	assert.InDelta(t, 0.00075, u.Cost.Output, 1e-12)
	assert.InDelta(t, 0.00006, u.Cost.CacheRead, 1e-12)
	assert.InDelta(t, 0.00321, u.Cost.Total, 1e-12)
	require.NotNil(t, u.Cost.TotalFromProvider)
	assert.False(t, *u.Cost.TotalFromProvider)
}

func TestFormatHTTPError(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("x", MaxErrorBodyChars+10)
	tests := []struct {
		name   string
		status int
		body   string
		want   string
	}{
		{"openai error object", 529, `{"error": {"message": "Overloaded", "type": "overloaded_error", "code": null}}`,
			`529: {"message":"Overloaded","type":"overloaded_error","code":null}`},
		{"service unavailable", 503, `{"error":{"message":"Service temporarily unavailable","type":"server_error"}}`,
			`503: {"message":"Service temporarily unavailable","type":"server_error"}`},
		{"plain text", 502, "Bad Gateway", "502 Bad Gateway"},
		{"empty", 500, "", "500 status code (no body)"},
		{"json without error", 404, `{"detail":"nope"}`, "404 status code (no body)"},
		{"error string", 400, `{"error":"bad"}`, `400 "bad"`},
		{"long text", 500, long, "500 " + strings.Repeat("x", MaxErrorBodyChars) + "... [truncated 10 chars]"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			assert.Equal(t, tt.want, FormatHTTPError(tt.status, []byte(tt.body)))
		})
	}
}

func TestParseStreamingJSON(t *testing.T) {
	t.Parallel()
	tests := []struct{ in, want string }{
		{"", "{}"},
		{`{"command": "echo hello"}`, `{"command":"echo hello"}`},
		{`{"command": "ech`, `{"command":"ech"}`},
		{`{"comman`, `{}`},
		{`{"a": 1, "b`, `{"a":1}`},
		{`{"a": [1, 2`, `{"a":[1,2]}`},
		{`{"a": {"b": tr`, `{"a":{}}`},
		{`{"a": "x\`, `{"a":"x"}`},
		{`[1,2]`, `{}`},
		{`{"z":1,"a":2}`, `{"z":1,"a":2}`},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			t.Parallel()
			assert.Equal(t, tt.want, string(ParseStreamingJSON(tt.in)))
		})
	}
}

func TestConvertForProvider(t *testing.T) {
	t.Parallel()
	model := &engine.Model{ID: "m", API: engine.APIOpenAICompletions, Provider: "p", Input: []string{"text"}}
	user := &engine.Message{Role: engine.RoleUser, Content: engine.Blocks(engine.TextContent("look"), engine.ImageContent("AA", "image/png"), engine.ImageContent("BB", "image/png"))}
	same := &engine.Message{Role: engine.RoleAssistant, API: model.API, Provider: "p", Model: "m", StopReason: engine.StopToolUse,
		Content: engine.Blocks(engine.Content{Type: engine.ContentThinking, Thinking: "hmm"},
			engine.Content{Type: engine.ContentToolCall, ID: "c1", Name: "bash", Arguments: json.RawMessage(`{}`)},
			engine.Content{Type: engine.ContentToolCall, ID: "c2", Name: "read", Arguments: json.RawMessage(`{}`)})}
	result := &engine.Message{Role: engine.RoleToolResult, ToolCallID: "c1", ToolName: "bash", Content: engine.Blocks(engine.TextContent("ok"))}
	failed := &engine.Message{Role: engine.RoleAssistant, StopReason: engine.StopError, ErrorMessage: "boom"}
	other := &engine.Message{Role: engine.RoleAssistant, API: model.API, Provider: "q", Model: "m", StopReason: engine.StopStop,
		Content: engine.Blocks(engine.Content{Type: engine.ContentThinking, Thinking: "secret"}, engine.TextContent("hi"))}

	out := ConvertForProvider(model, []*engine.Message{user, same, result, failed, other})
	require.Len(t, out, 5)
	assert.Equal(t, []engine.Content{engine.TextContent("look"), engine.TextContent(UserImagePlaceholder)}, out[0].Content.Blocks)
	assert.Len(t, out[1].Content.Blocks, 3, "same-model thinking is kept")
	assert.Equal(t, "c1", out[2].ToolCallID)
	assert.Equal(t, "c2", out[3].ToolCallID)
	assert.True(t, out[3].IsError)
	assert.Equal(t, NoResultText, out[3].Content.Text())
	assert.Equal(t, []engine.Content{engine.TextContent("hi")}, out[4].Content.Blocks, "foreign thinking is dropped")
	assert.Len(t, user.Content.Blocks, 3, "input is not modified")
}

func TestBuilderSequence(t *testing.T) {
	t.Parallel()
	model := &engine.Model{ID: "m", API: engine.APIOpenAICompletions, Provider: "p"}
	var got []string
	b := NewBuilder(model, func(e engine.AssistantEvent) {
		require.Same(t, e.Partial, e.Partial)
		j, err := e.MarshalJSON()
		require.NoError(t, err)
		got = append(got, string(j))
	})
	b.Start()
	b.Text("I will ")
	b.Text("run it.")
	i := b.StartToolCall("call_1", "bash")
	b.AppendToolArgs(i, "")
	b.AppendToolArgs(i, `{"command": "ec`)
	assert.JSONEq(t, `{"command":"ec"}`, string(b.Msg.Content.Blocks[i].Arguments))
	b.AppendToolArgs(i, `ho"}`)
	b.SetUsage(engine.Usage{Input: 10, Output: 2, TotalTokens: 12})
	b.EndAll()
	msg := b.Finish(engine.StopToolUse)
	want := []string{
		`{"type":"start"}`,
		`{"type":"text_start","contentIndex":0}`,
		`{"type":"text_delta","contentIndex":0,"delta":"I will "}`,
		`{"type":"text_delta","contentIndex":0,"delta":"run it."}`,
		`{"type":"toolcall_start","contentIndex":1,"id":"call_1","toolName":"bash"}`,
		`{"type":"toolcall_delta","contentIndex":1,"delta":""}`,
		`{"type":"toolcall_delta","contentIndex":1,"delta":"{\"command\": \"ec"}`,
		`{"type":"toolcall_delta","contentIndex":1,"delta":"ho\"}"}`,
		`{"type":"text_end","contentIndex":0,"content":"I will run it."}`,
		`{"type":"toolcall_end","contentIndex":1,"toolCall":{"type":"toolCall","id":"call_1","name":"bash","arguments":{"command":"echo"}}}`,
		`{"type":"done","reason":"toolUse"}`,
	}
	assert.Equal(t, want, got)
	assert.Equal(t, engine.StopToolUse, msg.StopReason)
	require.NotNil(t, msg.Usage.Reasoning)
	require.NotNil(t, msg.DurationMs)
}
