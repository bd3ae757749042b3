package cachewarm

import (
	"context"
	"encoding/json"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/pi-go/pi/engine"
	"github.com/pi-go/pi/engine/llm/faux"
)

// testModel is priced like the reference run this package was checked
// against (see policy_test.go) and declares the cache lifetime given.
func testModel(api string, ttlSeconds int) *engine.Model {
	m := &engine.Model{ID: "mock-model", Provider: "mock", API: api,
		Cost: engine.ModelCost{Input: 10, Output: 50, CacheRead: 0.1, CacheWrite: 12.5}}
	if ttlSeconds > 0 {
		m.PromptCache = json.RawMessage(`{"short":` + itoa(ttlSeconds) + `}`)
	}
	return m
}

func itoa(n int) string { b, _ := json.Marshal(n); return string(b) }

type harness struct {
	clock    *fakeClock
	provider *faux.Provider
	warmer   *Warmer
	mu       sync.Mutex
	mode     string
	current  bool
	records  []*engine.Entry
	events   []engine.CacheWarmingDecision
	answer   string
}

func newHarness(t *testing.T, mode string) *harness {
	t.Helper()
	h := &harness{clock: newFakeClock(), mode: mode, current: true}
	warm := engine.Usage{Input: 3, Output: 1, CacheRead: 101000, TotalTokens: 101004}
	h.provider = faux.New()
	for range 100 {
		h.provider.Push(faux.Turn{Text: "x", Usage: &warm})
	}
	branch := []*engine.Entry{{Type: engine.EntryMessage, Message: &engine.Message{Role: engine.RoleAssistant,
		Usage: engine.Usage{Input: 1000, Output: 5, CacheWrite: 100000}}}}
	h.warmer = New(Options{
		Mode:   func() string { h.mu.Lock(); defer h.mu.Unlock(); return h.mode },
		Branch: func() []*engine.Entry { return branch },
		Record: func(e *engine.Entry) error {
			h.mu.Lock()
			defer h.mu.Unlock()
			h.records = append(h.records, e)
			return nil
		},
		Decide: func(_ context.Context, ev engine.CacheWarmingDecision) (string, error) {
			h.mu.Lock()
			defer h.mu.Unlock()
			h.events = append(h.events, ev)
			if h.answer == "error" {
				return "stop", errors.New("handler failed")
			}
			if h.answer != "" {
				return h.answer, nil
			}
			return ev.Action, nil
		},
		Clock: h.clock,
	})
	return h
}

func (h *harness) start(req *engine.LLMRequest) {
	h.warmer.Start(req, h.provider, func() bool { h.mu.Lock(); defer h.mu.Unlock(); return h.current })
}

func (h *harness) warms() int { return len(h.provider.Requests()) }

func request(m *engine.Model) *engine.LLMRequest {
	return &engine.LLMRequest{Model: m, SystemPrompt: "sys", MaxTokens: 16384, SessionID: "s1", CacheRetention: "short",
		Messages: []*engine.Message{{Role: engine.RoleUser, Content: engine.Blocks(engine.TextContent("hi"))}}}
}

// TestScheduleByMode checks when refreshes go out in each cacheWarming
// mode, before and after the run settles, with a 12 s cache lifetime:
// 90% of it leaves less than ten seconds, so the refresh is due 2 s after
// each request, as the reference sent them in the recorded run.
func TestScheduleByMode(t *testing.T) {
	t.Parallel()
	tests := []struct {
		mode                   string
		whileRunning, afterAll int
		reason                 string
	}{
		{ModeIdle, 2, 5, ""},
		{ModeStreaming, 2, 2, "agent run settled"},
		{ModeOff, 0, 0, "cache warming disabled"},
	}
	for _, tc := range tests {
		t.Run(tc.mode, func(t *testing.T) {
			t.Parallel()
			h := newHarness(t, tc.mode)
			h.start(request(testModel("anthropic-messages", 12)))
			h.clock.Advance(1999 * time.Millisecond)
			if h.warms() != 0 {
				t.Fatalf("refresh before it was due")
			}
			h.clock.Advance(2001 * time.Millisecond)
			if got := h.warms(); got != tc.whileRunning {
				t.Fatalf("refreshes while running: %d, want %d", got, tc.whileRunning)
			}
			h.warmer.OnAgentSettled()
			h.clock.Advance(6 * time.Second)
			if got := h.warms(); got != tc.afterAll {
				t.Fatalf("refreshes in all: %d, want %d", got, tc.afterAll)
			}
			if st := h.warmer.Status(); tc.reason != "" && st.Reason != tc.reason {
				t.Errorf("status %+v, want reason %q", st, tc.reason)
			}
			if len(h.records) != tc.afterAll {
				t.Errorf("%d usage entries for %d refreshes", len(h.records), tc.afterAll)
			}
			for _, r := range h.provider.Requests() {
				if r.MaxTokens != 1 || r.SystemPrompt != "sys" || len(r.Messages) != 1 {
					t.Errorf("refresh is not the request capped at one token: %+v", r)
				}
			}
		})
	}
}

// TestUsageEntry checks the entry a refresh records: kind cache_warm,
// the message's provider and model, its usage, and the note an extension
// override adds.
func TestUsageEntry(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, answer, note string
		model              *engine.Model
	}{
		{"pi warms", "", "", testModel("anthropic-messages", 12)},
		// A handler returning pi's own action is no override.
		{"extension agrees", "warm", "", testModel("anthropic-messages", 12)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			h := newHarness(t, ModeIdle)
			h.answer = tc.answer
			h.start(request(tc.model))
			h.clock.Advance(2 * time.Second)
			if len(h.records) != 1 {
				t.Fatalf("%d entries", len(h.records))
			}
			e := h.records[0]
			if e.Type != engine.EntryUsage || e.Kind != "cache_warm" || e.Provider != "mock" || e.Model != "mock-model" || e.Note != tc.note {
				t.Errorf("entry %+v", e)
			}
			var u engine.Usage
			if err := json.Unmarshal(e.Usage, &u); err != nil || u.CacheRead != 101000 || u.Cost.Total == 0 {
				t.Errorf("usage %s (%v)", e.Usage, err)
			}
		})
	}
}

// TestOverride checks cache_warming_decision: the handler sees pi's
// estimates, "stop" ends warming until the next request, "warm" against
// pi's "stop" sends the refresh with the "extension override" note, and
// a failing handler leaves pi's decision.
func TestOverride(t *testing.T) {
	t.Parallel()
	t.Run("stop", func(t *testing.T) {
		t.Parallel()
		h := newHarness(t, ModeIdle)
		h.answer = ActionStop
		h.start(request(testModel("anthropic-messages", 12)))
		h.clock.Advance(10 * time.Second)
		if h.warms() != 0 || len(h.events) != 1 {
			t.Fatalf("%d refreshes, %d decisions after stop", h.warms(), len(h.events))
		}
		st := h.warmer.Status()
		if st.State != "inactive" || st.Reason != "stopped by extension" || !st.ExtensionOverride || st.Decision == nil {
			t.Errorf("status %+v", st)
		}
		if got := FormatStatus(st, h.clock.Now()); got != "Stopped (extension override, 100% continuation probability while agent is running, expected savings $1.242 >= $0.050)" {
			t.Errorf("status line %q", got)
		}
		// The next real request starts warming again.
		h.answer = ""
		h.start(request(testModel("anthropic-messages", 12)))
		h.clock.Advance(2 * time.Second)
		if h.warms() != 1 {
			t.Errorf("no refresh after a new request")
		}
	})
	t.Run("warm against stop", func(t *testing.T) {
		t.Parallel()
		h := newHarness(t, ModeIdle)
		h.answer = ActionWarm
		m := testModel("anthropic-messages", 12)
		m.Cost = engine.ModelCost{Input: 1, Output: 5, CacheRead: 0.5, CacheWrite: 1}
		h.start(request(m))
		h.clock.Advance(2 * time.Second)
		if len(h.events) != 1 || h.events[0].Action != ActionStop {
			t.Fatalf("decisions %+v", h.events)
		}
		if len(h.records) != 1 || h.records[0].Note != "extension override" {
			t.Fatalf("records %+v", h.records)
		}
	})
	t.Run("handler error", func(t *testing.T) {
		t.Parallel()
		h := newHarness(t, ModeIdle)
		h.answer = "error"
		h.start(request(testModel("anthropic-messages", 12)))
		h.clock.Advance(2 * time.Second)
		if h.warms() != 1 || h.records[0].Note != "" {
			t.Fatalf("a failing handler changed pi's decision")
		}
	})
}

// TestSafetyLimits counts refreshes of a five-minute cache entry: every
// 270 s, for at most an hour while the run goes on and 30 minutes once
// it has settled.
func TestSafetyLimits(t *testing.T) {
	t.Parallel()
	h := newHarness(t, ModeIdle)
	h.start(request(testModel("anthropic-messages", 300)))
	h.clock.Advance(2 * time.Hour)
	if h.warms() != 13 {
		t.Errorf("streaming: %d refreshes, want 13", h.warms())
	}
	if st := h.warmer.Status(); st.Reason != "one-hour safety limit reached" {
		t.Errorf("status %+v", st)
	}

	h = newHarness(t, ModeIdle)
	h.start(request(testModel("anthropic-messages", 300)))
	h.warmer.OnAgentSettled()
	h.clock.Advance(2 * time.Hour)
	if h.warms() != 6 {
		t.Errorf("idle: %d refreshes, want 6", h.warms())
	}
	if st := h.warmer.Status(); st.Reason != "30-minute idle safety limit reached" {
		t.Errorf("status %+v", st)
	}
}

// TestStopReasons checks the runs that never warm and why.
func TestStopReasons(t *testing.T) {
	t.Parallel()
	thinking := request(testModel("anthropic-messages", 300))
	thinking.ThinkingLevel = engine.ThinkingLevel("high")
	adaptive := request(testModel("anthropic-messages", 300))
	adaptive.ThinkingLevel = engine.ThinkingLevel("high")
	adaptive.Model.Compat = json.RawMessage(`{"forceAdaptiveThinking":true}`)
	noCache := request(testModel("anthropic-messages", 300))
	noCache.CacheRetention = "none"
	long := request(testModel("anthropic-messages", 300))
	long.CacheRetention = "long"
	short := request(testModel("openai-completions", 10))
	cheap := request(testModel("anthropic-messages", 300))
	cheap.Model.Cost = engine.ModelCost{}
	for _, tc := range []struct {
		name   string
		req    *engine.LLMRequest
		reason string
		warms  int
	}{
		{"budget thinking", thinking, "request cannot be replayed safely", 0},
		{"adaptive thinking", adaptive, "", 1},
		{"caching off", noCache, "request disabled prompt caching", 0},
		{"no long tier", long, "cache lifetime unavailable", 0},
		{"lifetime too short", short, "cache lifetime unavailable", 0},
		{"free model", cheap, "cache economics unavailable", 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			h := newHarness(t, ModeIdle)
			h.start(tc.req)
			h.clock.Advance(270 * time.Second)
			if h.warms() != tc.warms {
				t.Errorf("%d refreshes, want %d", h.warms(), tc.warms)
			}
			if st := h.warmer.Status(); tc.reason != "" && (st.State != "inactive" || st.Reason != tc.reason) {
				t.Errorf("status %+v, want %q", st, tc.reason)
			}
		})
	}
}

// TestContextChangedAndDeadline checks that a run ends when the
// conversation moves on, and when its timer fires too late to warm.
func TestContextChangedAndDeadline(t *testing.T) {
	t.Parallel()
	h := newHarness(t, ModeIdle)
	h.start(request(testModel("anthropic-messages", 300)))
	h.mu.Lock()
	h.current = false
	h.mu.Unlock()
	h.clock.Advance(5 * time.Minute)
	if h.warms() != 0 || len(h.events) != 0 {
		t.Errorf("refreshed a stale context")
	}
	if st := h.warmer.Status(); st.Reason != "conversation context changed" {
		t.Errorf("status %+v", st)
	}

	h = newHarness(t, ModeIdle)
	h.start(request(testModel("anthropic-messages", 300)))
	// Due at 270 s, deadline 270 + 15 s: a timer that fires at 290 s is late.
	h.clock.Jump(290 * time.Second)
	h.clock.Advance(0)
	if h.warms() != 0 {
		t.Errorf("late refresh sent")
	}
	if st := h.warmer.Status(); st.Reason != "cache refresh deadline missed" {
		t.Errorf("status %+v", st)
	}
	if h.clock.pending() != 0 {
		t.Errorf("a stopped run left a timer")
	}
}

// TestModeChange checks that turning warming off mid-run ends it at once.
func TestModeChange(t *testing.T) {
	t.Parallel()
	h := newHarness(t, ModeIdle)
	h.start(request(testModel("anthropic-messages", 300)))
	h.mu.Lock()
	h.mode = ModeOff
	h.mu.Unlock()
	h.warmer.OnModeChanged()
	if h.clock.pending() != 0 {
		t.Errorf("timer left after cacheWarming off")
	}
	h.mu.Lock()
	h.mode = ModeIdle
	h.mu.Unlock()
	if st := h.warmer.Status(); st.Reason != "cache warming disabled" {
		t.Errorf("status %+v", st)
	}
}
