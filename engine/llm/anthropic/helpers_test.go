package anthropic

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/pi-go/pi/engine"
)

// turn scripts one reply of the fake server, like the conformance mock.
type turn struct {
	Thinking  string
	Text      string
	ToolCalls []call
	Stop      string // Anthropic stop_reason; default end_turn or tool_use
	Usage     [4]int // input, output, cache read, cache write
	Status    int    // non-zero: reply with this HTTP status and Body
	Body      string
	CutAfter  int // >0: write only this many events, then cut the connection
	Raw       string
	Redacted  string // data of a redacted_thinking block
	Hang      bool   // send message_start then wait for the client to go away
	HangFirst bool   // wait for the client to go away before answering
}

type call struct {
	ID, Name, Args string
}

type recorded struct {
	Path   string
	Header http.Header
	Body   []byte
}

// fakeServer serves scripted turns and records the requests.
type fakeServer struct {
	*httptest.Server
	mu    sync.Mutex
	turns []turn
	// onRequest, when set before the first request, is called once a
	// request has been read.
	onRequest func()
	reqs      []recorded
}

func newFakeServer(t *testing.T, turns ...turn) *fakeServer {
	t.Helper()
	fs := &fakeServer{turns: turns}
	fs.Server = httptest.NewServer(http.HandlerFunc(fs.handle))
	t.Cleanup(fs.Close)
	return fs
}

func (fs *fakeServer) requests() []recorded {
	fs.mu.Lock()
	defer fs.mu.Unlock()
	return append([]recorded(nil), fs.reqs...)
}

func (fs *fakeServer) handle(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	fs.mu.Lock()
	idx := len(fs.reqs)
	fs.reqs = append(fs.reqs, recorded{Path: r.URL.RequestURI(), Header: r.Header.Clone(), Body: body})
	var tn turn
	if idx < len(fs.turns) {
		tn = fs.turns[idx]
	} else {
		tn = turn{Text: "Mock script exhausted."}
	}
	fs.mu.Unlock()
	if fs.onRequest != nil {
		fs.onRequest()
	}
	if tn.HangFirst {
		<-r.Context().Done()
		return
	}
	if tn.Status != 0 {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(tn.Status)
		_, _ = io.WriteString(w, tn.Body)
		return
	}
	w.Header().Set("Content-Type", "text/event-stream")
	w.WriteHeader(http.StatusOK)
	flusher := w.(http.Flusher)
	events := sseEvents(tn, idx)
	if tn.Raw != "" {
		events = []string{tn.Raw}
	}
	for n, ev := range events {
		if tn.CutAfter > 0 && n >= tn.CutAfter {
			// Hijack and close without the terminating chunk: a cut stream.
			conn, _, err := w.(http.Hijacker).Hijack()
			if err == nil {
				_ = conn.Close()
			}
			return
		}
		_, _ = io.WriteString(w, ev)
		flusher.Flush()
		if tn.Hang && n == 0 {
			<-r.Context().Done()
			return
		}
	}
}

func ev(name string, v any) string {
	b, _ := json.Marshal(v)
	return "event: " + name + "\ndata: " + string(b) + "\n\n"
}

type m = map[string]any

// sseEvents renders a turn as the Anthropic event stream the mock sends.
func sseEvents(tn turn, idx int) []string {
	u := tn.Usage
	if u == [4]int{} {
		u = [4]int{100, 20, 0, 0}
	}
	out := []string{ev("message_start", m{"type": "message_start", "message": m{
		"id": fmt.Sprintf("msg_mock_%d", idx), "type": "message", "role": "assistant", "model": "mock-model",
		"content": []any{}, "stop_reason": nil, "stop_sequence": nil,
		"usage": m{"input_tokens": u[0], "cache_creation_input_tokens": u[3], "cache_read_input_tokens": u[2], "output_tokens": 1},
	}})}
	i := 0
	if tn.Redacted != "" {
		out = append(out,
			ev("content_block_start", m{"type": "content_block_start", "index": i, "content_block": m{"type": "redacted_thinking", "data": tn.Redacted}}),
			ev("content_block_stop", m{"type": "content_block_stop", "index": i}))
		i++
	}
	if tn.Thinking != "" {
		out = append(out, ev("content_block_start", m{"type": "content_block_start", "index": i, "content_block": m{"type": "thinking", "thinking": "", "signature": ""}}))
		for _, p := range chunks(tn.Thinking) {
			out = append(out, ev("content_block_delta", m{"type": "content_block_delta", "index": i, "delta": m{"type": "thinking_delta", "thinking": p}}))
		}
		out = append(out,
			ev("content_block_delta", m{"type": "content_block_delta", "index": i, "delta": m{"type": "signature_delta", "signature": fmt.Sprintf("mock-sig-%d", idx)}}),
			ev("content_block_stop", m{"type": "content_block_stop", "index": i}))
		i++
	}
	if tn.Text != "" {
		out = append(out, ev("content_block_start", m{"type": "content_block_start", "index": i, "content_block": m{"type": "text", "text": ""}}))
		for _, p := range chunks(tn.Text) {
			out = append(out, ev("content_block_delta", m{"type": "content_block_delta", "index": i, "delta": m{"type": "text_delta", "text": p}}))
		}
		out = append(out, ev("content_block_stop", m{"type": "content_block_stop", "index": i}))
		i++
	}
	for k, c := range tn.ToolCalls {
		id := c.ID
		if id == "" {
			id = fmt.Sprintf("toolu_mock_%d_%d", idx, k)
		}
		out = append(out, ev("content_block_start", m{"type": "content_block_start", "index": i, "content_block": m{"type": "tool_use", "id": id, "name": c.Name, "input": m{}}}))
		for _, p := range chunks(c.Args) {
			out = append(out, ev("content_block_delta", m{"type": "content_block_delta", "index": i, "delta": m{"type": "input_json_delta", "partial_json": p}}))
		}
		out = append(out, ev("content_block_stop", m{"type": "content_block_stop", "index": i}))
		i++
	}
	stop := tn.Stop
	if stop == "" {
		stop = "end_turn"
		if len(tn.ToolCalls) > 0 {
			stop = "tool_use"
		}
	}
	out = append(out,
		ev("message_delta", m{"type": "message_delta", "delta": m{"stop_reason": stop, "stop_sequence": nil}, "usage": m{"output_tokens": u[1]}}),
		ev("message_stop", m{"type": "message_stop"}))
	return out
}

// chunks splits s into pieces of 8 characters, as the mock does.
func chunks(s string) []string {
	r := []rune(s)
	var out []string
	for len(r) > 0 {
		n := min(8, len(r))
		out = append(out, string(r[:n]))
		r = r[n:]
	}
	return out
}

// mockModel is the model the conformance home declares, pointed at url.
func mockModel(url string, reasoning bool) *engine.Model {
	return &engine.Model{
		ID: "mock-model", Name: "mock-model", API: engine.APIAnthropicMessages, Provider: "mock", BaseURL: url,
		Reasoning: reasoning, Input: []string{"text"}, ContextWindow: 128000, MaxTokens: 16384,
	}
}

// run streams one request and returns the events and the final message.
func run(ctx context.Context, req *engine.LLMRequest) ([]engine.AssistantEvent, *engine.Message) {
	var evs []engine.AssistantEvent
	msg := New().Stream(ctx, req, func(e engine.AssistantEvent) { evs = append(evs, e) })
	return evs, msg
}

func eventsJSON(t *testing.T, evs []engine.AssistantEvent) string {
	t.Helper()
	var lines []string
	for _, e := range evs {
		b, err := engine.MarshalJSON(e)
		if err != nil {
			t.Fatal(err)
		}
		lines = append(lines, string(b))
	}
	return strings.Join(lines, "\n")
}
