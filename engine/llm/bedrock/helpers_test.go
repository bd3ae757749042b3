package bedrock

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws/protocol/eventstream"

	"github.com/pi-go/pi/engine"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/")

// frame is one event-stream message the test server sends.
type frame struct {
	kind    string // "event" (default), "exception", "error"
	typ     string // event or exception type
	payload string
}

func ev(typ, payload string) frame { return frame{typ: typ, payload: payload} }
func exc(typ, message string) frame {
	return frame{kind: "exception", typ: typ, payload: `{"message":"` + message + `"}`}
}

// encodeFrames writes frames with the SDK's encoder, as Bedrock sends them.
func encodeFrames(t *testing.T, frames []frame) []byte {
	t.Helper()
	var buf bytes.Buffer
	enc := eventstream.NewEncoder()
	for _, f := range frames {
		var h eventstream.Headers
		switch f.kind {
		case "exception":
			h.Set(":message-type", eventstream.StringValue("exception"))
			h.Set(":exception-type", eventstream.StringValue(f.typ))
		case "error":
			h.Set(":message-type", eventstream.StringValue("error"))
			h.Set(":error-code", eventstream.StringValue(f.typ))
			h.Set(":error-message", eventstream.StringValue(f.payload))
		default:
			h.Set(":message-type", eventstream.StringValue("event"))
			h.Set(":event-type", eventstream.StringValue(f.typ))
		}
		h.Set(":content-type", eventstream.StringValue("application/json"))
		if err := enc.Encode(&buf, eventstream.Message{Headers: h, Payload: []byte(f.payload)}); err != nil {
			t.Fatal(err)
		}
	}
	return buf.Bytes()
}

// captured is what the test server saw of one request.
type captured struct {
	Path   string
	Header http.Header
	Body   []byte
}

// server answers every request with status and body and records it.
type server struct {
	*httptest.Server
	mu   sync.Mutex
	reqs []captured
}

func newServer(t *testing.T, status int, header map[string]string, body []byte) *server {
	t.Helper()
	s := &server{}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		s.mu.Lock()
		s.reqs = append(s.reqs, captured{Path: r.URL.EscapedPath(), Header: r.Header.Clone(), Body: b})
		s.mu.Unlock()
		w.Header().Set("x-amzn-requestid", "req-1")
		for k, v := range header {
			w.Header().Set(k, v)
		}
		if status == http.StatusOK {
			w.Header().Set("content-type", "application/vnd.amazon.eventstream")
		}
		w.WriteHeader(status)
		_, _ = w.Write(body)
	}))
	t.Cleanup(s.Close)
	return s
}

func (s *server) last(t *testing.T) captured {
	t.Helper()
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.reqs) == 0 {
		t.Fatal("no request reached the server")
	}
	return s.reqs[len(s.reqs)-1]
}

// fakeEnv is a fixed environment.
func fakeEnv(kv map[string]string) func(string) string {
	return func(k string) string { return kv[k] }
}

func testProvider(t *testing.T, env map[string]string) *Provider {
	t.Helper()
	return &Provider{
		Getenv:       fakeEnv(env),
		Home:         t.TempDir(),
		Now:          func() time.Time { return time.Date(2026, 11, 30, 4, 15, 11, 0, time.UTC) },
		InvocationID: func() string { return "00000000-0000-4000-8000-000000000000" },
		// Retries happen at once in tests.
		sleep: func(ctx context.Context, _ time.Duration) error { return ctx.Err() },
	}
}

func claudeModel(baseURL string) *engine.Model {
	return &engine.Model{
		ID: "anthropic.claude-haiku-4-5-20251001-v1:0", Name: "Claude Haiku 4.5", API: engine.APIBedrockConverseStream,
		Provider: "amazon-bedrock", BaseURL: baseURL, Reasoning: true, Input: []string{"text", "image"},
		Cost:          engine.ModelCost{Input: 1.1, Output: 5.5, CacheRead: 0.11, CacheWrite: 1.375},
		ContextWindow: 200000, MaxTokens: 64000, Compat: json.RawMessage(`{"supportsStrictMode":true}`),
	}
}

// run streams one request and returns the event types and the message.
func run(t *testing.T, p *Provider, req *engine.LLMRequest) ([]string, *engine.Message) {
	t.Helper()
	var types []string
	msg := p.Stream(context.Background(), req, func(e engine.AssistantEvent) { types = append(types, string(e.Type)) })
	return types, msg
}

var volatile = regexp.MustCompile(`"(timestamp|durationMs)":\d+`)

// messageJSON is the message with its clock values blanked.
func messageJSON(t *testing.T, m *engine.Message) string {
	t.Helper()
	b, err := engine.MarshalJSON(m)
	if err != nil {
		t.Fatal(err)
	}
	return volatile.ReplaceAllString(string(b), `"$1":0`)
}

// golden compares got with testdata/name, or rewrites it under -update.
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	if !bytes.Equal(bytes.TrimSpace(want), bytes.TrimSpace(got)) {
		t.Errorf("%s differs:\n got: %s\nwant: %s", name, got, want)
	}
}

// indent pretty-prints JSON for a readable golden file, keeping key order.
func indent(t *testing.T, b []byte) []byte {
	t.Helper()
	var out bytes.Buffer
	if err := json.Indent(&out, b, "", "  "); err != nil {
		t.Fatalf("%v: %s", err, b)
	}
	out.WriteByte('\n')
	return out.Bytes()
}

func joinTypes(types []string) string { return strings.Join(types, " ") }
