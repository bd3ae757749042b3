package anthropic

import (
	"context"
	"flag"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/pi-go/pi/engine"
)

var update = flag.Bool("update", false, "rewrite the golden files")

// volatile matches the fields that change from run to run.
var volatile = regexp.MustCompile(`"(timestamp|durationMs)":\d+`)

// golden compares got with testdata/<name>.golden, or rewrites it.
func golden(t *testing.T, name, got string) {
	t.Helper()
	got = volatile.ReplaceAllString(got, `"$1":0`)
	path := filepath.Join("testdata", name+".golden")
	if *update {
		if err := os.WriteFile(path, []byte(got+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update)", err)
	}
	if strings.TrimSuffix(string(want), "\n") != got {
		t.Errorf("%s differs:\n got: %s\nwant: %s", name, got, want)
	}
}

func textRequest(url string, reasoning bool) *engine.LLMRequest {
	return &engine.LLMRequest{
		Model: mockModel(url, reasoning), SystemPrompt: "You are a test.", APIKey: "k", MaxTokens: 16384,
		Messages: []*engine.Message{{Role: engine.RoleUser, Content: engine.Blocks(engine.TextContent("Hello?")), Timestamp: 1}},
	}
}

func TestStreamGolden(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name  string
		turn  turn
		think engine.ThinkingLevel
	}{
		{"text", turn{Text: "Hello there, world."}, engine.ThinkingOff},
		{"thinking_tool", turn{Thinking: "I should read.", Text: "Reading.", ToolCalls: []call{{Name: "read", Args: `{"path": "notes.txt", "limit": 2}`}}}, engine.ThinkingMedium},
		{"redacted", turn{Redacted: "opaque==", Text: "ok"}, engine.ThinkingHigh},
		{"usage", turn{Text: "hi", Usage: [4]int{800, 50, 200, 100}}, engine.ThinkingOff},
		{"length", turn{Text: "cut", Stop: "max_tokens"}, engine.ThinkingOff},
		{"refusal", turn{Text: "no", Stop: "refusal"}, engine.ThinkingOff},
		{"unknown_stop", turn{Text: "hm", Stop: "weird"}, engine.ThinkingOff},
		{"status_529", turn{Status: 529, Body: `{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}`}, engine.ThinkingOff},
		{"status_400", turn{Status: 400, Body: `{"type":"error","error":{"type":"invalid_request_error","message":"max_tokens: too big"}}`}, engine.ThinkingOff},
		{"status_text", turn{Status: 500, Body: "plain oops"}, engine.ThinkingOff},
		{"status_empty", turn{Status: 503}, engine.ThinkingOff},
		{"cut", turn{Text: "hello there world", CutAfter: 4}, engine.ThinkingOff},
		{"no_message_stop", turn{Raw: ev("message_start", m{"type": "message_start", "message": m{"id": "msg_1", "model": "mock-model", "usage": m{"input_tokens": 5, "output_tokens": 1}}})}, engine.ThinkingOff},
		{"no_stop_reason", turn{Raw: ev("ping", m{"type": "ping"})}, engine.ThinkingOff},
		{"sse_error", turn{Raw: ev("error", m{"type": "error", "error": m{"type": "overloaded_error", "message": "Overloaded"}})}, engine.ThinkingOff},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			srv := newFakeServer(t, tc.turn)
			req := textRequest(srv.URL, tc.think != engine.ThinkingOff)
			req.ThinkingLevel = tc.think
			req.Model.Cost = engine.ModelCost{Input: 3, Output: 15, CacheRead: 0.3, CacheWrite: 3.75}
			evs, msg := run(context.Background(), req)
			if len(evs) == 0 || evs[len(evs)-1].Partial != msg {
				t.Fatal("the last event must carry the final message")
			}
			if msg.DurationMs == nil {
				t.Error("durationMs not set")
			}
			b, err := engine.MarshalJSON(msg)
			if err != nil {
				t.Fatal(err)
			}
			golden(t, tc.name, eventsJSON(t, evs)+"\n"+string(b))
		})
	}
}

func TestUsageAndCost(t *testing.T) {
	t.Parallel()
	srv := newFakeServer(t, turn{Text: "hi", Usage: [4]int{800, 50, 200, 0}})
	req := textRequest(srv.URL, false)
	req.Model.Cost = engine.ModelCost{Input: 3, Output: 15, CacheRead: 0.3, CacheWrite: 3.75}
	_, msg := run(context.Background(), req)
	u := msg.Usage
	if u.Input != 800 || u.Output != 50 || u.CacheRead != 200 || u.CacheWrite != 0 || u.TotalTokens != 1050 {
		t.Fatalf("usage %+v", u)
	}
	// The reference's observed costs for these rates and counts (engine.md
	// §3.5), up to float rounding.
	near := func(a, b float64) bool { return math.Abs(a-b) < 1e-12 }
	if !near(u.Cost.Input, 0.0024) || !near(u.Cost.Output, 0.00075) || !near(u.Cost.CacheRead, 0.00006) || !near(u.Cost.Total, 0.00321) {
		t.Errorf("cost %+v", u.Cost)
	}
	if msg.ResponseID != "msg_mock_0" || msg.RawStopReason != "end_turn" {
		t.Errorf("responseId %q rawStopReason %q", msg.ResponseID, msg.RawStopReason)
	}
}

func TestAbort(t *testing.T) {
	t.Parallel()
	srv := newFakeServer(t, turn{Text: "never finished", Hang: true})
	req := textRequest(srv.URL, false)
	ctx, cancel := context.WithCancel(context.Background())
	var evs []engine.AssistantEvent
	msg := New().Stream(ctx, req, func(e engine.AssistantEvent) {
		evs = append(evs, e)
		if e.Type == engine.AEStart {
			cancel()
		}
	})
	if msg.StopReason != engine.StopAborted || msg.ErrorMessage != "This operation was aborted" {
		t.Fatalf("stopReason %q errorMessage %q", msg.StopReason, msg.ErrorMessage)
	}
	last := evs[len(evs)-1]
	if last.Type != engine.AEError || last.Reason != engine.StopAborted {
		t.Errorf("last event %s %s", last.Type, last.Reason)
	}

	// Cancelled before the request is even sent.
	ctx2, cancel2 := context.WithCancel(context.Background())
	cancel2()
	evs, msg = run(ctx2, req)
	if msg.StopReason != engine.StopAborted || msg.ErrorMessage != "This operation was aborted" || len(evs) != 1 || evs[0].Type != engine.AEError {
		t.Errorf("pre-cancelled: stopReason %q %q, %d events", msg.StopReason, msg.ErrorMessage, len(evs))
	}
}

func TestAbortWaitingForResponse(t *testing.T) {
	t.Parallel()
	srv := newFakeServer(t, turn{HangFirst: true})
	ctx, cancel := context.WithCancel(context.Background())
	srv.onRequest = cancel
	evs, msg := run(ctx, textRequest(srv.URL, false))
	if msg.StopReason != engine.StopAborted || msg.ErrorMessage != "Request aborted" || len(evs) != 1 {
		t.Errorf("stopReason %q errorMessage %q, %d events", msg.StopReason, msg.ErrorMessage, len(evs))
	}
}

func TestConnectionRefused(t *testing.T) {
	t.Parallel()
	srv := newFakeServer(t)
	url := srv.URL
	srv.Close()
	_, msg := run(context.Background(), textRequest(url, false))
	want := "Connection error.: connect ECONNREFUSED " + strings.TrimPrefix(url, "http://")
	if msg.StopReason != engine.StopError || msg.ErrorMessage != want {
		t.Errorf("got %q %q, want %q", msg.StopReason, msg.ErrorMessage, want)
	}
}

func TestNoAPIKey(t *testing.T) {
	t.Parallel()
	srv := newFakeServer(t)
	req := textRequest(srv.URL, false)
	req.APIKey = ""
	_, msg := run(context.Background(), req)
	if msg.ErrorMessage != "No API key for provider: mock" || len(srv.requests()) != 0 {
		t.Errorf("errorMessage %q, %d requests", msg.ErrorMessage, len(srv.requests()))
	}
	// An auth header configured on the model is enough.
	req.Model.Headers = map[string]string{"Authorization": "Bearer x"}
	_, msg = run(context.Background(), req)
	if msg.StopReason != engine.StopStop {
		t.Errorf("with auth header: %q %q", msg.StopReason, msg.ErrorMessage)
	}
}

func TestNilModel(t *testing.T) {
	t.Parallel()
	evs, msg := run(context.Background(), &engine.LLMRequest{})
	if msg.StopReason != engine.StopError || len(evs) != 1 {
		t.Errorf("stopReason %q, %d events", msg.StopReason, len(evs))
	}
}
