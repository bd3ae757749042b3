package mistral

import (
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pi-go/pi/engine"
	"github.com/pi-go/pi/engine/llm"
)

func testModel(base string) *engine.Model {
	return &engine.Model{ID: "m", API: engine.APIMistralConversations, Provider: "mistral", BaseURL: base,
		Input: []string{"text"}, MaxTokens: 100}
}

func userReq(base string) *engine.LLMRequest {
	return &engine.LLMRequest{Model: testModel(base), APIKey: "k",
		Messages: []*engine.Message{{Role: engine.RoleUser, Content: engine.StringContents("hi")}}}
}

const okSSE = "data: {\"id\":\"a\",\"choices\":[{\"index\":0,\"delta\":{\"content\":\"ok\"},\"finish_reason\":\"stop\"}]}\n\ndata: [DONE]\n\n"

func TestDeriveToolCallIDs(t *testing.T) {
	t.Parallel()
	// Values computed with the reference's functions.
	tests := []struct{ in, want string }{
		{"abcDEF123", "abcDEF123"},
		{"abc-DEF-123", "abcDEF123"},
		{"toolu_01ABCdefGHIjkl", "1aj52adoy"},
		{"call_1|fc_2", "101c6gjjo"},
		{"x-y_z.1:2/3", "194qndeai"},
		{"toolcall:0", "toolcall0"},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, deriveToolCallID(tt.in, 0), tt.in)
	}
	n := newIDNormalizer()
	assert.Equal(t, "y0biex7f9", n.id("abc"))
	assert.Equal(t, "144a7j62l", n.id("ab.c"), "a collision takes the next attempt")
	assert.Equal(t, "y0biex7f9", n.id("abc"), "stable")
}

func TestEndpoint(t *testing.T) {
	t.Parallel()
	tests := []struct{ base, want string }{
		{"https://api.mistral.ai", "https://api.mistral.ai/v1/chat/completions"},
		{"https://api.mistral.ai/", "https://api.mistral.ai/v1/chat/completions"},
		{"http://h:8/proxy//", "http://h:8/proxy/v1/chat/completions"},
		{"", "https://api.mistral.ai/v1/chat/completions"},
	}
	for _, tt := range tests {
		got, err := endpoint(tt.base)
		require.NoError(t, err)
		assert.Equal(t, tt.want, got, tt.base)
	}
}

func TestWirePayloadRenames(t *testing.T) {
	t.Parallel()
	tests := []struct{ name, in, want string }{
		{"moves renamed keys last", `{"maxTokens":5,"model":"m","promptMode":"reasoning","reasoningEffort":"high"}`,
			`{"model":"m","max_tokens":5,"reasoning_effort":"high","prompt_mode":"reasoning"}`},
		{"target present keeps its place", `{"max_tokens":1,"model":"m","maxTokens":5}`, `{"max_tokens":5,"model":"m"}`},
		{"messages and chunks", `{"messages":[{"role":"tool","toolCallId":"x","content":[{"type":"image_url","imageUrl":"u"}]},{"role":"assistant","toolCalls":[{"id":"a"}]}]}`,
			`{"messages":[{"role":"tool","content":[{"type":"image_url","image_url":"u"}],"tool_call_id":"x"},{"role":"assistant","tool_calls":[{"id":"a"}]}]}`},
		{"response format", `{"responseFormat":{"type":"json_schema","jsonSchema":{"name":"n","schemaDefinition":{"type":"object"}}}}`,
			`{"response_format":{"type":"json_schema","json_schema":{"name":"n","schema":{"type":"object"}}}}`},
		{"indented input comes out compact", "{\n  \"model\": \"m <&>\",\n  \"messages\": [ ]\n}", `{"model":"m <&>","messages":[]}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, err := wirePayload([]byte(tt.in))
			require.NoError(t, err)
			assert.Equal(t, tt.want, string(got))
		})
	}
	_, err := wirePayload([]byte(`[1]`))
	assert.Error(t, err)
}

// TestPayloadHook checks that a before_provider_request hook sees the
// SDK-form payload and that what it returns is renamed for the wire.
func TestPayloadHook(t *testing.T) {
	t.Parallel()
	srv, got := serve(t, 0, okSSE)
	req := userReq(srv.URL)
	req.SessionID = "s"
	var seen string
	req.OnPayload = func(body json.RawMessage) json.RawMessage {
		seen = string(body)
		return json.RawMessage(strings.Replace(string(body), `"maxTokens":100`, `"maxTokens":7,"topP":0.5`, 1))
	}
	msg := New().Stream(context.Background(), req, nil)
	assert.Equal(t, engine.StopStop, msg.StopReason)
	assert.Equal(t, `{"model":"m","stream":true,"messages":[{"role":"user","content":"hi"}],"maxTokens":100,"promptCacheKey":"s"}`, seen)
	assert.Equal(t, `{"model":"m","stream":true,"messages":[{"role":"user","content":"hi"}],"top_p":0.5,"max_tokens":7,"prompt_cache_key":"s"}`, got.body)
}

func TestHeaders(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		model   map[string]string
		req     map[string]string
		drop    []string
		session string
		cache   string
		want    map[string]string
		absent  []string
	}{
		{name: "summary: no caching, no affinity", session: "s1", cache: "none", absent: []string{"X-Affinity"}},
		{name: "session affinity", session: "s1", want: map[string]string{"X-Affinity": "s1", "Authorization": "Bearer k", "Accept": "text/event-stream"}},
		{name: "no session", absent: []string{"X-Affinity"}},
		{name: "explicit affinity wins", session: "s1", model: map[string]string{"X-Affinity": "mine"}, want: map[string]string{"X-Affinity": "mine"}},
		{name: "request overrides model", model: map[string]string{"x-extra": "a", "accept": "x"}, req: map[string]string{"X-Extra": "b"},
			want: map[string]string{"X-Extra": "b", "Accept": "x"}},
		{name: "dropped headers", session: "s1", drop: []string{"x-affinity", "Authorization"}, absent: []string{"X-Affinity", "Authorization"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			srv, got := serve(t, 0, okSSE)
			req := userReq(srv.URL)
			req.Model.Headers, req.Headers, req.DropHeaders, req.SessionID = tt.model, tt.req, tt.drop, tt.session
			req.CacheRetention = tt.cache
			msg := New().Stream(context.Background(), req, nil)
			require.Equal(t, engine.StopStop, msg.StopReason, msg.ErrorMessage)
			for k, v := range tt.want {
				assert.Equal(t, v, got.headers.Get(k), k)
			}
			for _, k := range tt.absent {
				assert.Empty(t, got.headers.Values(k), k)
			}
			if tt.cache == "none" {
				assert.NotContains(t, got.body, "prompt_cache_key")
			}
			assert.True(t, strings.HasPrefix(got.headers.Get("User-Agent"), "pi/"+llm.Version+" ("))
		})
	}
}

func TestFailures(t *testing.T) {
	t.Parallel()
	t.Run("no api key", func(t *testing.T) {
		t.Parallel()
		req := userReq("http://127.0.0.1:1")
		req.APIKey = ""
		var types []string
		msg := New().Stream(context.Background(), req, func(e engine.AssistantEvent) { types = append(types, e.Type) })
		assert.Equal(t, engine.StopError, msg.StopReason)
		assert.Equal(t, "No API key for provider: mistral", msg.ErrorMessage)
		assert.Equal(t, []string{engine.AEError}, types)
	})
	t.Run("connection refused", func(t *testing.T) {
		t.Parallel()
		l, err := net.Listen("tcp", "127.0.0.1:0")
		require.NoError(t, err)
		addr := l.Addr().String()
		require.NoError(t, l.Close())
		msg := New().Stream(context.Background(), userReq("http://"+addr), nil)
		assert.Equal(t, engine.StopError, msg.StopReason)
		assert.Equal(t, "fetch failed", msg.ErrorMessage)
	})
	t.Run("stream cut", func(t *testing.T) {
		t.Parallel()
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("content-type", "text/event-stream")
			_, _ = io.WriteString(w, "data: {\"id\":\"a\",\"choices\":[{\"index\":0,\"delta\":{\"content\":\"par\"}}]}\n\n")
			w.(http.Flusher).Flush()
			conn, _, err := w.(http.Hijacker).Hijack()
			if err == nil {
				_ = conn.Close()
			}
		}))
		t.Cleanup(srv.Close)
		msg := New().Stream(context.Background(), userReq(srv.URL), nil)
		assert.Equal(t, engine.StopError, msg.StopReason)
		assert.Equal(t, "terminated", msg.ErrorMessage)
		assert.Equal(t, "par", msg.Content.Blocks[0].Text)
	})
	t.Run("header timeout", func(t *testing.T) {
		t.Parallel()
		release := make(chan struct{})
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { <-release }))
		t.Cleanup(func() { close(release); srv.Close() })
		p := &Provider{HeaderTimeout: 20 * time.Millisecond}
		msg := p.Stream(context.Background(), userReq(srv.URL), nil)
		assert.Equal(t, engine.StopError, msg.StopReason)
		assert.Equal(t, "Mistral response headers timed out after 20ms", msg.ErrorMessage)
	})
	t.Run("long body", func(t *testing.T) {
		t.Parallel()
		srv, _ := serve(t, 400, strings.Repeat("é", 4010))
		msg := New().Stream(context.Background(), userReq(srv.URL), nil)
		assert.Equal(t, "Mistral API error (400): "+strings.Repeat("é", 4000)+"... [truncated 10 chars]", msg.ErrorMessage)
	})
}

// TestAbort cancels while the stream is open: the message ends aborted
// with the text Node gives for an aborted read, and no block is closed.
func TestAbort(t *testing.T) {
	t.Parallel()
	var once sync.Once
	release := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("content-type", "text/event-stream")
		_, _ = io.WriteString(w, "data: {\"id\":\"a\",\"choices\":[{\"index\":0,\"delta\":{\"content\":\"par\"}}]}\n\n")
		w.(http.Flusher).Flush()
		select {
		case <-release:
		case <-r.Context().Done():
		}
	}))
	t.Cleanup(func() { close(release); srv.Close() })
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var types []string
	msg := New().Stream(ctx, userReq(srv.URL), func(e engine.AssistantEvent) {
		types = append(types, e.Type)
		if e.Type == engine.AETextDelta {
			once.Do(cancel)
		}
	})
	assert.Equal(t, engine.StopAborted, msg.StopReason)
	assert.Equal(t, "This operation was aborted", msg.ErrorMessage)
	assert.Equal(t, []string{engine.AEStart, engine.AETextStart, engine.AETextDelta, engine.AEError}, types)

	pre, cancelPre := context.WithCancel(context.Background())
	cancelPre()
	msg = New().Stream(pre, userReq(srv.URL), nil)
	assert.Equal(t, engine.StopAborted, msg.StopReason)
	assert.Equal(t, "This operation was aborted", msg.ErrorMessage)
}

func TestStreamEventHook(t *testing.T) {
	t.Parallel()
	srv, _ := serve(t, 0, okSSE)
	req := userReq(srv.URL)
	var seen []string
	req.OnStreamEvent = func(data json.RawMessage) { seen = append(seen, string(data)) }
	var status int
	req.OnResponse = func(s int, h map[string]string) { status = s }
	New().Stream(context.Background(), req, nil)
	assert.Equal(t, 200, status)
	require.Len(t, seen, 1)
	assert.Contains(t, seen[0], `"content":"ok"`)
}

func TestScanLines(t *testing.T) {
	t.Parallel()
	tests := []struct{ name, in string }{
		{"lf", "data: a\n\ndata: b\n\n"},
		{"crlf", "data: a\r\n\r\ndata: b\r\n\r\n"},
		{"cr", "data: a\r\rdata: b\r\r"},
		{"no final blank line", "data: a\n\ndata: b"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			r := newEventReader(strings.NewReader(tt.in))
			var got []string
			for {
				d, err := r.next()
				if err != nil {
					break
				}
				got = append(got, string(d))
			}
			assert.Equal(t, []string{"a", "b"}, got)
		})
	}
	r := newEventReader(strings.NewReader("data: x\ndata:  y\n\n"))
	d, err := r.next()
	require.NoError(t, err)
	assert.Equal(t, "x\ny", string(d))
}

func TestSystemMessageFallback(t *testing.T) {
	t.Parallel()
	srv, got := serve(t, 0, okSSE)
	req := userReq(srv.URL)
	v := "section text"
	req.Messages = append([]*engine.Message{{Role: engine.RoleSystem, Content: engine.StringContents("base"),
		Sections: engine.Sections{{Name: "a", Value: &v}}}}, req.Messages...)
	New().Stream(context.Background(), req, nil)
	assert.Contains(t, got.body, `"messages":[{"role":"system","content":"base\n\nsection text"},{"role":"user","content":"hi"}]`)
}
