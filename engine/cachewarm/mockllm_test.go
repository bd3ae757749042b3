package cachewarm

import (
	"context"
	"encoding/json"
	"reflect"
	"sync"
	"testing"
	"time"

	"github.com/pi-go/pi/engine"
	"github.com/pi-go/pi/engine/llm/anthropic"
	"github.com/pi-go/pi/internal/mockllm"
)

// payloadHooks records the bodies before_provider_request would see and
// the state of the context the hook runs in.
type payloadHooks struct {
	engine.NopHooks
	mu     sync.Mutex
	bodies []json.RawMessage
	live   []bool
}

func (h *payloadHooks) BeforeProviderRequest(ctx context.Context, body json.RawMessage) json.RawMessage {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.bodies = append(h.bodies, append(json.RawMessage(nil), body...))
	h.live = append(h.live, ctx.Err() == nil)
	return nil
}

// TestRefreshIsTheRequestAgain sends a real Anthropic request to the
// conformance mock, then lets the warmer refresh it: the refresh is the
// same body with max_tokens 1, as the reference's was in the recorded run
// (the only difference between its two bodies), and it passes through
// before_provider_request although the run that sent the original is
// over.
func TestRefreshIsTheRequestAgain(t *testing.T) {
	t.Parallel()
	srv, err := mockllm.StartJSON(t, []byte(`{"turns": [
		{"text": "hello there", "usage": {"input": 1000, "output": 5, "cache_read": 0, "cache_write": 100000}}
	], "fallback_text": "warm"}`))
	if err != nil {
		t.Fatal(err)
	}
	m := testModel("anthropic-messages", 12)
	m.BaseURL = srv.BaseURL()
	m.MaxTokens = 16384
	req := &engine.LLMRequest{Model: m, SystemPrompt: "You are a test.", APIKey: "mock-key", SessionID: "s1", MaxTokens: 16384,
		Messages: []*engine.Message{{Role: engine.RoleUser, Content: engine.Blocks(engine.TextContent("hi")), Timestamp: 1}}}
	hooks := &payloadHooks{}
	runCtx, endRun := context.WithCancel(context.Background())
	engine.ReattachProviderHooks(runCtx, hooks, req)
	p := anthropic.New()
	first := p.Stream(runCtx, req, func(engine.AssistantEvent) {})
	if first.StopReason != engine.StopStop {
		t.Fatalf("first request: %s %s", first.StopReason, first.ErrorMessage)
	}
	endRun()

	clock := newFakeClock()
	var mu sync.Mutex
	var recorded []*engine.Entry
	branch := []*engine.Entry{{Type: engine.EntryMessage, Message: first}}
	w := New(Options{Hooks: hooks, Clock: clock,
		Branch: func() []*engine.Entry { return branch },
		Record: func(e *engine.Entry) error { mu.Lock(); defer mu.Unlock(); recorded = append(recorded, e); return nil }})
	w.Start(req, p, func() bool { return true })
	w.OnAgentSettled()
	clock.Advance(2 * time.Second)

	got := srv.Requests()
	if len(got) != 2 {
		t.Fatalf("%d requests reached the mock, want 2", len(got))
	}
	var a, b map[string]any
	if json.Unmarshal(got[0].Body, &a) != nil || json.Unmarshal(got[1].Body, &b) != nil {
		t.Fatal("bodies are not JSON")
	}
	if a["max_tokens"] != 16384.0 || b["max_tokens"] != 1.0 {
		t.Errorf("max_tokens %v then %v, want 16384 then 1", a["max_tokens"], b["max_tokens"])
	}
	delete(a, "max_tokens")
	delete(b, "max_tokens")
	if !reflect.DeepEqual(a, b) {
		t.Errorf("the refresh differs from the request beyond max_tokens:\n%s\n%s", got[0].Body, got[1].Body)
	}
	if len(hooks.bodies) != 2 || !hooks.live[1] {
		t.Errorf("before_provider_request saw %d bodies (live %v), want the refresh too", len(hooks.bodies), hooks.live)
	}
	if len(recorded) != 1 || recorded[0].Kind != "cache_warm" || recorded[0].Provider != "mock" {
		t.Fatalf("recorded %+v", recorded)
	}
	// The mock bills the fallback reply at its default usage.
	if want := `{"input":100,"output":20,"cacheRead":0,"cacheWrite":0,"totalTokens":120,"cost":{"input":0.001,"output":0.001,"cacheRead":0,"cacheWrite":0,"total":0.002,"totalFromProvider":false},"cacheWrite1h":0}`; string(recorded[0].Usage) != want {
		t.Errorf("usage %s\nwant  %s (the reference's entry in the recorded run)", recorded[0].Usage, want)
	}
}
