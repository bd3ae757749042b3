package openai

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/pi-go/pi/engine"
	"github.com/pi-go/pi/engine/llm"
	"github.com/pi-go/pi/internal/mockllm"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func model(url string) *engine.Model {
	return &engine.Model{ID: "mock-model", Name: "mock-model", API: engine.APIOpenAICompletions, Provider: "mock",
		BaseURL: url, Input: []string{"text"}, Cost: engine.ModelCost{Input: 3, Output: 15, CacheRead: 0.3},
		ContextWindow: 128000, MaxTokens: 16384}
}

// run streams one request and returns the wire form of every event and
// the final message.
func run(ctx context.Context, t *testing.T, req *engine.LLMRequest, onEvent func(engine.AssistantEvent)) ([]string, *engine.Message) {
	t.Helper()
	var events []string
	msg := New().Stream(ctx, req, func(e engine.AssistantEvent) {
		require.NotNil(t, e.Partial)
		b, err := e.MarshalJSON()
		require.NoError(t, err)
		events = append(events, string(b))
		if onEvent != nil {
			onEvent(e)
		}
	})
	return events, msg
}

func stripVolatile(t *testing.T, m *engine.Message) string {
	t.Helper()
	cp := *m
	cp.Timestamp = 0
	cp.DurationMs = nil
	b, err := engine.MarshalJSON(cp)
	require.NoError(t, err)
	return string(b)
}

func TestStream(t *testing.T) {
	t.Parallel()
	two := 2
	tests := []struct {
		name      string
		turn      mockllm.Turn
		events    []string
		message   string
		abortOnEv string
	}{
		{
			name: "text",
			turn: mockllm.Turn{Text: "Hello from mock.", Usage: &mockllm.Usage{CacheRead: &two}},
			events: []string{
				`{"type":"start"}`,
				`{"type":"text_start","contentIndex":0}`,
				`{"type":"text_delta","contentIndex":0,"delta":"Hello fr"}`,
				`{"type":"text_delta","contentIndex":0,"delta":"om mock."}`,
				`{"type":"text_end","contentIndex":0,"content":"Hello from mock."}`,
				`{"type":"done","reason":"stop"}`,
			},
			message: `{"role":"assistant","content":[{"type":"text","text":"Hello from mock."}],"api":"openai-completions","provider":"mock","model":"mock-model","usage":{"input":100,"output":20,"cacheRead":2,"cacheWrite":0,"reasoning":0,"totalTokens":122,"cost":{"input":0.00030000000000000003,"output":0.00030000000000000003,"cacheRead":6e-7,"cacheWrite":0,"total":0.0006006000000000001,"totalFromProvider":false}},"stopReason":"stop","timestamp":0,"responseId":"chatcmpl-mock-0","rawStopReason":"stop"}`,
		},
		{
			name: "tool call with thinking",
			turn: mockllm.Turn{Thinking: "Think.", Text: "I will run it.", ToolCalls: []mockllm.ToolCall{{Name: "bash", Arguments: json.RawMessage(`{"command": "echo hello"}`)}}},
			events: []string{
				`{"type":"start"}`,
				`{"type":"thinking_start","contentIndex":0}`,
				`{"type":"thinking_delta","contentIndex":0,"delta":"Think."}`,
				`{"type":"text_start","contentIndex":1}`,
				`{"type":"text_delta","contentIndex":1,"delta":"I will r"}`,
				`{"type":"text_delta","contentIndex":1,"delta":"un it."}`,
				`{"type":"toolcall_start","contentIndex":2,"id":"call_mock_0_0","toolName":"bash"}`,
				`{"type":"toolcall_delta","contentIndex":2,"delta":""}`,
				`{"type":"toolcall_delta","contentIndex":2,"delta":"{\"comman"}`,
				`{"type":"toolcall_delta","contentIndex":2,"delta":"d\": \"ech"}`,
				`{"type":"toolcall_delta","contentIndex":2,"delta":"o hello\""}`,
				`{"type":"toolcall_delta","contentIndex":2,"delta":"}"}`,
				`{"type":"thinking_end","contentIndex":0,"content":"Think."}`,
				`{"type":"text_end","contentIndex":1,"content":"I will run it."}`,
				`{"type":"toolcall_end","contentIndex":2,"toolCall":{"type":"toolCall","id":"call_mock_0_0","name":"bash","arguments":{"command":"echo hello"}}}`,
				`{"type":"done","reason":"toolUse"}`,
			},
		},
		{
			name:    "overloaded",
			turn:    mockllm.Turn{Status: 529},
			events:  []string{`{"type":"error","reason":"error"}`},
			message: `{"role":"assistant","content":[],"api":"openai-completions","provider":"mock","model":"mock-model","usage":{"input":0,"output":0,"cacheRead":0,"cacheWrite":0,"totalTokens":0,"cost":{"input":0,"output":0,"cacheRead":0,"cacheWrite":0,"total":0}},"stopReason":"error","timestamp":0,"errorMessage":"529: {\"message\":\"Overloaded\",\"type\":\"overloaded_error\",\"code\":null}"}`,
		},
		{
			name:   "server error",
			turn:   mockllm.Turn{Status: 500},
			events: []string{`{"type":"error","reason":"error"}`},
		},
		{
			name:   "bad request",
			turn:   mockllm.Turn{Status: 400, Body: json.RawMessage(`{"error":{"message":"context too long","type":"invalid_request_error","param":null}}`)},
			events: []string{`{"type":"error","reason":"error"}`},
		},
		{
			name: "disconnect",
			turn: mockllm.Turn{Text: "Cut short here", DisconnectAfterChunks: &two},
			events: []string{
				`{"type":"start"}`,
				`{"type":"text_start","contentIndex":0}`,
				`{"type":"text_delta","contentIndex":0,"delta":"Cut shor"}`,
				`{"type":"error","reason":"error"}`,
			},
		},
		{
			name:      "abort",
			turn:      mockllm.Turn{Text: "This answer streams slowly.", DelayMs: 50},
			abortOnEv: "text_delta",
			events: []string{
				`{"type":"start"}`,
				`{"type":"text_start","contentIndex":0}`,
				`{"type":"text_delta","contentIndex":0,"delta":"This ans"}`,
				`{"type":"text_end","contentIndex":0,"content":"This ans"}`,
				`{"type":"error","reason":"aborted"}`,
			},
			message: `{"role":"assistant","content":[{"type":"text","text":"This ans"}],"api":"openai-completions","provider":"mock","model":"mock-model","usage":{"input":0,"output":0,"cacheRead":0,"cacheWrite":0,"totalTokens":0,"cost":{"input":0,"output":0,"cacheRead":0,"cacheWrite":0,"total":0}},"stopReason":"aborted","timestamp":0,"responseId":"chatcmpl-mock-0","errorMessage":"Request was aborted"}`,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			srv := mockllm.Start(t, mockllm.Script{Turns: []mockllm.Turn{tt.turn}})
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			req := &engine.LLMRequest{Model: model(srv.URL()), SystemPrompt: "sys", APIKey: "mock-key",
				Messages: []*engine.Message{{Role: engine.RoleUser, Content: engine.Blocks(engine.TextContent("hi"))}}}
			var onEv func(engine.AssistantEvent)
			if tt.abortOnEv != "" {
				onEv = func(e engine.AssistantEvent) {
					if e.Type == tt.abortOnEv {
						cancel()
					}
				}
			}
			events, msg := run(ctx, t, req, onEv)
			assert.Equal(t, tt.events, events)
			require.NotNil(t, msg.DurationMs)
			if tt.message != "" {
				assert.Equal(t, tt.message, stripVolatile(t, msg))
			}
			switch tt.name {
			case "server error":
				assert.Equal(t, `500: {"message":"Internal server error","type":"server_error","code":null}`, msg.ErrorMessage)
			case "bad request":
				assert.Equal(t, `400: {"message":"context too long","type":"invalid_request_error","param":null}`, msg.ErrorMessage)
			case "disconnect":
				assert.Equal(t, engine.StopError, msg.StopReason)
				assert.Equal(t, ErrStreamCut, msg.ErrorMessage)
			}
		})
	}
}

func TestRequestBody(t *testing.T) {
	t.Parallel()
	srv := mockllm.Start(t, mockllm.Script{})
	m := model(srv.URL())
	m.Headers = map[string]string{"X-Team": "t1"}
	req := &engine.LLMRequest{Model: m, SystemPrompt: "sys", APIKey: "mock-key",
		Tools: []engine.ToolInfo{{Name: "bash", Description: "Run.", Parameters: json.RawMessage(`{"type":"object","required":["command"],"properties":{"command":{"type":"string"}}}`)}},
		Messages: []*engine.Message{
			{Role: engine.RoleUser, Content: engine.Blocks(engine.TextContent("Run echo hello."))},
			{Role: engine.RoleAssistant, API: m.API, Provider: m.Provider, Model: m.ID, StopReason: engine.StopToolUse,
				Content: engine.Blocks(engine.Content{Type: engine.ContentToolCall, ID: "call_1", Name: "bash", Arguments: json.RawMessage(`{"command": "echo hello"}`)})},
			{Role: engine.RoleToolResult, ToolCallID: "call_1", ToolName: "bash", Content: engine.Blocks(engine.TextContent("hello\n"))},
			{Role: engine.RoleAssistant, StopReason: engine.StopError, ErrorMessage: "x", Content: engine.Blocks(engine.TextContent("dropped"))},
		}}
	_, msg := run(context.Background(), t, req, nil)
	require.Equal(t, engine.StopStop, msg.StopReason, msg.ErrorMessage)
	reqs := srv.Requests()
	require.Len(t, reqs, 1)
	want := `{"model":"mock-model","messages":[{"role":"system","content":"sys"},{"role":"user","content":[{"type":"text","text":"Run echo hello."}]},{"role":"assistant","content":null,"tool_calls":[{"id":"call_1","type":"function","function":{"name":"bash","arguments":"{\"command\":\"echo hello\"}"}}]},{"role":"tool","content":"hello\n","tool_call_id":"call_1"}],"stream":true,"stream_options":{"include_usage":true},"store":false,"max_completion_tokens":16384,"tools":[{"type":"function","function":{"name":"bash","description":"Run.","parameters":{"type":"object","required":["command"],"properties":{"command":{"type":"string"}}}}}]}`
	assert.Equal(t, want, string(reqs[0].Body))
	assert.Equal(t, "Bearer mock-key", reqs[0].Headers["authorization"])
	assert.Equal(t, "t1", reqs[0].Headers["x-team"])
	assert.Equal(t, llm.UserAgent(), reqs[0].Headers["user-agent"])
	assert.True(t, strings.HasPrefix(llm.UserAgent(), "pi/1.6.0 ("), llm.UserAgent())
	assert.True(t, strings.HasSuffix(reqs[0].Path, "/v1/chat/completions"))
}

func TestReasoningEffort(t *testing.T) {
	t.Parallel()
	tests := []struct {
		level engine.ThinkingLevel
		mp    string
		want  string
	}{
		{engine.ThinkingMedium, "", `"reasoning_effort":"medium"`},
		{engine.ThinkingHigh, `{"high":"max"}`, `"reasoning_effort":"max"`},
		{engine.ThinkingOff, "", ""},
		{engine.ThinkingOff, `{"off":"none"}`, `"reasoning_effort":"none"`},
	}
	for _, tt := range tests {
		t.Run(string(tt.level)+tt.mp, func(t *testing.T) {
			t.Parallel()
			m := model("http://127.0.0.1:1/v1")
			m.Reasoning = true
			if tt.mp != "" {
				m.ThinkingLevelMap = json.RawMessage(tt.mp)
			}
			body, err := buildBody(&engine.LLMRequest{Model: m, ThinkingLevel: tt.level}, getCompat(m))
			require.NoError(t, err)
			b, err := body.MarshalJSON()
			require.NoError(t, err)
			if tt.want == "" {
				assert.NotContains(t, string(b), "reasoning_effort")
			} else {
				assert.Contains(t, string(b), tt.want)
			}
		})
	}
}
