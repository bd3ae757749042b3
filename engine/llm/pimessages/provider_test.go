package pimessages

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pi-go/pi/engine"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var update = flag.Bool("update", false, "rewrite the golden files")

// captured is what the test server saw of one request.
type captured struct {
	path    string
	headers http.Header
	body    []byte
}

// serve answers every request with status and body, recording the request.
func serve(t *testing.T, status int, contentType, body string) (*httptest.Server, *captured) {
	t.Helper()
	c := &captured{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		c.path, c.headers = r.URL.Path, r.Header.Clone()
		c.body, _ = io.ReadAll(r.Body)
		w.Header().Set("content-type", contentType)
		w.WriteHeader(status)
		_, _ = io.WriteString(w, body)
	}))
	t.Cleanup(srv.Close)
	return srv, c
}

func model(baseURL string) *engine.Model {
	return &engine.Model{ID: "cheap", Name: "Cheap", API: engine.APIPiMessages, Provider: "radius", BaseURL: baseURL + "/v1/"}
}

func sse(events ...string) string {
	var b strings.Builder
	for _, e := range events {
		b.WriteString("data: " + e + "\r\n\r\n")
	}
	return b.String()
}

const usage = `{"input":10,"output":5,"cacheRead":0,"cacheWrite":0,"totalTokens":15,"cost":{"input":0,"output":0,"cacheRead":0,"cacheWrite":0,"total":0}}`

// run streams one request and returns the final message, with its clock
// fields zeroed, and the event types emitted.
func run(t *testing.T, ctx context.Context, req *engine.LLMRequest) (string, []string) {
	t.Helper()
	p := &Provider{now: func() int64 { return 1000 }}
	var types []string
	msg := p.Stream(ctx, req, func(e engine.AssistantEvent) {
		b, err := engine.MarshalJSON(e)
		require.NoError(t, err)
		types = append(types, string(b))
		require.Same(t, e.Partial, e.Partial)
	})
	require.NotNil(t, msg)
	m := *msg
	m.Timestamp, m.DurationMs = 0, nil
	b, err := engine.MarshalJSON(m)
	require.NoError(t, err)
	return string(b), types
}

func TestRequestGolden(t *testing.T) {
	t.Parallel()
	srv, c := serve(t, 200, "text/event-stream", sse(`{"type":"start"}`, `{"type":"done","reason":"stop","usage":`+usage+`}`))
	temp := 0.5
	sysText := "You are pi."
	req := &engine.LLMRequest{
		Model:         model(srv.URL),
		SystemPrompt:  "ignored: the transcript has its own system message",
		APIKey:        "rk-test",
		ThinkingLevel: engine.ThinkingHigh,
		Temperature:   &temp,
		SessionID:     "sess-1",
		Headers:       map[string]string{"X-Extra": "1"},
		Messages: []*engine.Message{
			{Role: engine.RoleSystem, Content: engine.StringContents(sysText), Timestamp: 1,
				ToolsAdded: []engine.ToolDecl{{Name: "bash", Description: "Run a command", Parameters: json.RawMessage(`{"type":"object","properties":{"command":{"type":"string"}}}`)}}},
			{Role: engine.RoleUser, Content: engine.Blocks(engine.TextContent("hi <&>")), Timestamp: 2},
			{Role: engine.RoleAssistant, Content: engine.Blocks(engine.Content{Type: engine.ContentToolCall, ID: "call_1", Name: "bash", Arguments: json.RawMessage(`{"command":"ls"}`)}),
				API: engine.APIPiMessages, Provider: "radius", Model: "cheap", StopReason: engine.StopToolUse, Timestamp: 3},
			{Role: engine.RoleToolResult, ToolCallID: "call_1", ToolName: "bash", Content: engine.Blocks(engine.TextContent("a\n")), Timestamp: 4},
		},
	}
	msg, _ := run(t, context.Background(), req)
	assert.Contains(t, msg, `"stopReason":"stop"`)
	assert.Equal(t, "/v1/messages", c.path)
	assert.Equal(t, "Bearer rk-test", c.headers.Get("authorization"))
	assert.Equal(t, "text/event-stream", c.headers.Get("accept"))
	assert.Equal(t, "application/json", c.headers.Get("content-type"))
	assert.Equal(t, "1", c.headers.Get("x-extra"))
	assert.True(t, strings.HasPrefix(c.headers.Get("user-agent"), "pi/"))
	golden(t, "request.json", c.body)
}

// TestRequestSynthesizedSystem covers a request whose system prompt and
// tools come outside the transcript: they become a leading system message.
func TestRequestSynthesizedSystem(t *testing.T) {
	t.Parallel()
	srv, c := serve(t, 200, "text/event-stream", sse(`{"type":"done","reason":"stop","usage":`+usage+`}`))
	req := &engine.LLMRequest{
		Model: model(srv.URL), SystemPrompt: "Be brief.", APIKey: "k", ThinkingLevel: engine.ThinkingOff, CacheRetention: "none",
		Tools:    []engine.ToolInfo{{Name: "read", Description: "Read a file", Parameters: json.RawMessage(`{"type":"object"}`)}},
		Messages: []*engine.Message{{Role: engine.RoleUser, Content: engine.StringContents("hi"), Timestamp: 2}},
	}
	run(t, context.Background(), req)
	golden(t, "request_synthesized.json", c.body)
}

func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		require.NoError(t, os.WriteFile(path, append(got, '\n'), 0o644))
	}
	want, err := os.ReadFile(path)
	require.NoError(t, err)
	assert.Equal(t, strings.TrimSuffix(string(want), "\n"), string(got))
}

func TestStream(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, ctype string
		status      int
		body        string
		noKey       bool
		wantMsg     string
		wantEvents  []string
	}{
		{
			name: "text", status: 200,
			body: sse(`{"type":"start"}`, `{"type":"text_start","contentIndex":0}`, `{"type":"text_delta","contentIndex":0,"delta":"Hel"}`,
				`{"type":"text_delta","contentIndex":0,"delta":"lo"}`, `{"type":"text_end","contentIndex":0,"content":"Hello","contentSignature":"ts"}`,
				`{"type":"done","reason":"stop","usage":`+usage+`,"responseId":"r1"}`),
			wantMsg: `{"role":"assistant","content":[{"type":"text","text":"Hello","textSignature":"ts"}],"api":"pi-messages","provider":"radius","model":"cheap","usage":` + usage + `,"stopReason":"stop","timestamp":0,"responseId":"r1"}`,
			wantEvents: []string{`{"type":"start"}`, `{"type":"text_start","contentIndex":0}`, `{"type":"text_delta","contentIndex":0,"delta":"Hel"}`,
				`{"type":"text_delta","contentIndex":0,"delta":"lo"}`, `{"type":"text_end","contentIndex":0,"content":"Hello","contentSignature":"ts"}`, `{"type":"done","reason":"stop"}`},
		},
		{
			name: "thinking and tool call with metadata", status: 200,
			body: sse(`{"type":"start"}`, `{"type":"thinking_start","contentIndex":0}`, `{"type":"thinking_delta","contentIndex":0,"delta":"hm"}`,
				`{"type":"thinking_end","contentIndex":0,"content":"hmm","contentSignature":"sig"}`,
				`{"type":"toolcall_start","contentIndex":1,"id":"c1","toolName":"bash"}`, `{"type":"toolcall_delta","contentIndex":1,"delta":"{\"command\":"}`,
				`{"type":"toolcall_delta","contentIndex":1,"delta":"\"ls\"}"}`,
				`{"type":"toolcall_end","contentIndex":1,"toolCall":{"type":"toolCall","id":"c1","name":"bash","arguments":{"command":"ls"}}}`,
				`{"type":"done","reason":"toolUse","usage":`+usage+`,"responseId":"r2","responseModel":"up","providerThinkingLevel":"high","rewrite":{"from":"a","to":"b"}}`),
			wantMsg: `{"role":"assistant","content":[{"type":"thinking","thinking":"hmm","thinkingSignature":"sig"},{"type":"toolCall","id":"c1","name":"bash","arguments":{"command":"ls"}}],"api":"pi-messages","provider":"radius","model":"cheap","usage":` + usage + `,"stopReason":"toolUse","timestamp":0,"responseId":"r2","responseModel":"up","providerThinkingLevel":"high","diagnostics":[{"type":"pi_messages_rewrite","timestamp":1000,"details":{"from":"a","to":"b"}}]}`,
			wantEvents: []string{`{"type":"start"}`, `{"type":"thinking_start","contentIndex":0}`, `{"type":"thinking_delta","contentIndex":0,"delta":"hm"}`,
				`{"type":"thinking_end","contentIndex":0,"content":"hmm","contentSignature":"sig"}`, `{"type":"toolcall_start","contentIndex":1,"id":"c1","toolName":"bash"}`,
				`{"type":"toolcall_delta","contentIndex":1,"delta":"{\"command\":"}`, `{"type":"toolcall_delta","contentIndex":1,"delta":"\"ls\"}"}`,
				`{"type":"toolcall_end","contentIndex":1,"toolCall":{"type":"toolCall","id":"c1","name":"bash","arguments":{"command":"ls"}}}`, `{"type":"done","reason":"toolUse"}`},
		},
		{
			name: "error event", status: 200,
			body:       sse(`{"type":"start"}`, `{"type":"error","reason":"error","usage":`+usage+`,"errorMessage":"upstream boom","responseId":"r9"}`),
			wantMsg:    `{"role":"assistant","content":[],"api":"pi-messages","provider":"radius","model":"cheap","usage":` + usage + `,"stopReason":"error","timestamp":0,"errorMessage":"upstream boom","responseId":"r9"}`,
			wantEvents: []string{`{"type":"start"}`, `{"type":"error","reason":"error"}`},
		},
		{
			name: "http error with code", status: 429, ctype: "application/json",
			body:       `{"error":{"message":"slow down","code":"rate_limited"}}`,
			wantMsg:    `{"role":"assistant","content":[],"api":"pi-messages","provider":"radius","model":"cheap","usage":{"input":0,"output":0,"cacheRead":0,"cacheWrite":0,"totalTokens":0,"cost":{"input":0,"output":0,"cacheRead":0,"cacheWrite":0,"total":0}},"stopReason":"error","errorMessage":"429 Too Many Requests: slow down (rate_limited)","timestamp":0,"diagnostics":[{"type":"pi_messages_response_failure","timestamp":1000,"error":{"name":"PiMessagesResponseError","message":"429 Too Many Requests: slow down (rate_limited)","code":"rate_limited"},"details":{"version":1,"provider":"radius","model":"cheap","url":"URL/v1/messages","status":429,"statusText":"Too Many Requests","error":{"message":"slow down","code":"rate_limited"},"timestampMs":1000}}]}`,
			wantEvents: []string{`{"type":"error","reason":"error"}`},
		},
		{
			name: "http error with text body", status: 500, ctype: "text/plain",
			body:       `oops`,
			wantMsg:    `{"role":"assistant","content":[],"api":"pi-messages","provider":"radius","model":"cheap","usage":{"input":0,"output":0,"cacheRead":0,"cacheWrite":0,"totalTokens":0,"cost":{"input":0,"output":0,"cacheRead":0,"cacheWrite":0,"total":0}},"stopReason":"error","errorMessage":"500 Internal Server Error: oops","timestamp":0,"diagnostics":[{"type":"pi_messages_response_failure","timestamp":1000,"error":{"name":"PiMessagesResponseError","message":"500 Internal Server Error: oops"},"details":{"version":1,"provider":"radius","model":"cheap","url":"URL/v1/messages","status":500,"statusText":"Internal Server Error","body":"oops","timestampMs":1000}}]}`,
			wantEvents: []string{`{"type":"error","reason":"error"}`},
		},
		{
			name: "missing terminal event", status: 200,
			body:       sse(`{"type":"start"}`, `{"type":"text_start","contentIndex":0}`),
			wantMsg:    `{"role":"assistant","content":[],"api":"pi-messages","provider":"radius","model":"cheap","usage":{"input":0,"output":0,"cacheRead":0,"cacheWrite":0,"totalTokens":0,"cost":{"input":0,"output":0,"cacheRead":0,"cacheWrite":0,"total":0}},"stopReason":"error","errorMessage":"radius stream ended without a terminal event","timestamp":0}`,
			wantEvents: []string{`{"type":"start"}`, `{"type":"text_start","contentIndex":0}`, `{"type":"error","reason":"error"}`},
		},
		{
			name: "invalid content index", status: 200,
			body:       sse(`{"type":"start"}`, `{"type":"text_delta","contentIndex":3,"delta":"x"}`),
			wantMsg:    `{"role":"assistant","content":[],"api":"pi-messages","provider":"radius","model":"cheap","usage":{"input":0,"output":0,"cacheRead":0,"cacheWrite":0,"totalTokens":0,"cost":{"input":0,"output":0,"cacheRead":0,"cacheWrite":0,"total":0}},"stopReason":"error","errorMessage":"Invalid contentIndex 3 in pi-messages text_delta event","timestamp":0}`,
			wantEvents: []string{`{"type":"start"}`, `{"type":"error","reason":"error"}`},
		},
		{
			name: "string content index", status: 200,
			body:       sse(`{"type":"text_start","contentIndex":"__proto__"}`),
			wantMsg:    `{"role":"assistant","content":[],"api":"pi-messages","provider":"radius","model":"cheap","usage":{"input":0,"output":0,"cacheRead":0,"cacheWrite":0,"totalTokens":0,"cost":{"input":0,"output":0,"cacheRead":0,"cacheWrite":0,"total":0}},"stopReason":"error","errorMessage":"Invalid contentIndex \"__proto__\" in pi-messages text_start event","timestamp":0}`,
			wantEvents: []string{`{"type":"error","reason":"error"}`},
		},
		{
			name: "no api key", status: 200, noKey: true,
			wantMsg:    `{"role":"assistant","content":[],"api":"pi-messages","provider":"radius","model":"cheap","usage":{"input":0,"output":0,"cacheRead":0,"cacheWrite":0,"totalTokens":0,"cost":{"input":0,"output":0,"cacheRead":0,"cacheWrite":0,"total":0}},"stopReason":"error","errorMessage":"No API key provided for provider \"radius\"","timestamp":0}`,
			wantEvents: []string{`{"type":"error","reason":"error"}`},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			ctype := tc.ctype
			if ctype == "" {
				ctype = "text/event-stream"
			}
			srv, _ := serve(t, tc.status, ctype, tc.body)
			req := &engine.LLMRequest{Model: model(srv.URL), APIKey: "k"}
			if tc.noKey {
				req.APIKey = ""
			}
			got, events := run(t, context.Background(), req)
			assert.Equal(t, strings.ReplaceAll(tc.wantMsg, "URL", srv.URL), got)
			assert.Equal(t, tc.wantEvents, events)
		})
	}
}

// TestAbort cancels the request while the stream is open: the message
// ends "aborted" with the fetch's abort text.
func TestAbort(t *testing.T) {
	t.Parallel()
	release := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("content-type", "text/event-stream")
		fmt.Fprint(w, sse(`{"type":"start"}`, `{"type":"text_start","contentIndex":0}`))
		w.(http.Flusher).Flush()
		select {
		case <-release:
		case <-r.Context().Done():
		}
	}))
	defer srv.Close()
	defer close(release)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	p := &Provider{now: func() int64 { return 1000 }}
	msg := p.Stream(ctx, &engine.LLMRequest{Model: model(srv.URL), APIKey: "k"}, func(e engine.AssistantEvent) {
		if e.Type == engine.AETextStart {
			cancel()
		}
	})
	assert.Equal(t, engine.StopAborted, msg.StopReason)
	assert.Equal(t, "This operation was aborted", msg.ErrorMessage)
	assert.Empty(t, msg.Content.Blocks)
}

// TestHooks checks the payload hook's replacement goes out and the stream
// hook sees each event's data.
func TestHooks(t *testing.T) {
	t.Parallel()
	srv, c := serve(t, 200, "text/event-stream", sse(`{"type":"start"}`, `{"type":"done","reason":"stop","usage":`+usage+`}`))
	var seen []string
	status := 0
	req := &engine.LLMRequest{
		Model: model(srv.URL), APIKey: "k",
		OnPayload:     func(json.RawMessage) json.RawMessage { return json.RawMessage(`{"replaced":true}`) },
		OnStreamEvent: func(d json.RawMessage) { seen = append(seen, string(d)) },
		OnResponse:    func(s int, _ map[string]string) { status = s },
	}
	run(t, context.Background(), req)
	assert.Equal(t, `{"replaced":true}`, string(c.body))
	assert.Equal(t, 200, status)
	assert.Equal(t, []string{`{"type":"start"}`, `{"type":"done","reason":"stop","usage":` + usage + `}`}, seen)
}

func TestTransportFailure(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(http.NotFoundHandler())
	u := srv.URL
	srv.Close()
	got, _ := run(t, context.Background(), &engine.LLMRequest{Model: model(u), APIKey: "k"})
	assert.Contains(t, got, `"errorMessage":"fetch failed"`)
}
