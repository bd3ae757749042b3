package pi

import (
	"context"
	"encoding/json"
	"sync"
	"testing"
	"time"

	"github.com/pi-go/pi/engine"
	"github.com/pi-go/pi/engine/cachewarm"
	"github.com/pi-go/pi/engine/llm/faux"
	"github.com/pi-go/pi/engine/session"
)

// manualClock fires its timers only from advance, on the test goroutine.
type manualClock struct {
	mu     sync.Mutex
	now    time.Time
	timers []*manualTimer
}

type manualTimer struct {
	at   time.Time
	f    func()
	dead bool
}

func (t *manualTimer) Stop() bool { was := !t.dead; t.dead = true; return was }

func (c *manualClock) Now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.now }

func (c *manualClock) AfterFunc(d time.Duration, f func()) cachewarm.Timer {
	c.mu.Lock()
	defer c.mu.Unlock()
	t := &manualTimer{at: c.now.Add(d), f: f}
	c.timers = append(c.timers, t)
	return t
}

func (c *manualClock) advance(d time.Duration) {
	c.mu.Lock()
	target := c.now.Add(d)
	c.mu.Unlock()
	for {
		c.mu.Lock()
		var next *manualTimer
		for _, t := range c.timers {
			if !t.dead && !t.at.After(target) && (next == nil || t.at.Before(next.at)) {
				next = t
			}
		}
		if next == nil {
			c.now = target
			c.mu.Unlock()
			return
		}
		next.dead = true
		c.now = next.at
		c.mu.Unlock()
		next.f()
	}
}

// TestSessionWarming drives a real engine session through the warmer's
// wiring: the session's request starts it, the refresh is that request
// capped at one token, its usage entry is stored and announced with
// entry_appended, and switching the model ends warming.
func TestSessionWarming(t *testing.T) {
	t.Parallel()
	model := &engine.Model{ID: "m", Provider: "faux", API: "faux", ContextWindow: 200000, MaxTokens: 1000,
		Cost:        engine.ModelCost{Input: 10, Output: 50, CacheRead: 0.1, CacheWrite: 12.5},
		PromptCache: json.RawMessage(`{"short":12}`)}
	other := &engine.Model{ID: "m2", Provider: "faux", API: "faux", ContextWindow: 200000, MaxTokens: 1000}
	real := engine.Usage{Input: 1000, Output: 5, CacheWrite: 100000}
	warm := engine.Usage{Input: 3, Output: 1, CacheRead: 101000}
	p := faux.New(faux.Turn{Text: "hello", Usage: &real})
	for range 10 {
		p.Push(faux.Turn{Text: "w", Usage: &warm})
	}
	clock := &manualClock{now: time.Unix(1_800_000_000, 0)}
	sw := newSessionWarmer(func() string { return cachewarm.ModeIdle }, engine.NopHooks{}, clock)
	store := session.InMemory(t.TempDir(), "s1")
	sess, err := engine.NewSession(engine.SessionOptions{
		Store: store, Cwd: t.TempDir(), Model: model,
		ProviderFor: sw.providerFor(func(string) (engine.Provider, error) { return p, nil }),
		SystemPrompt: func([]engine.ToolInfo) engine.Sections {
			s := "sys"
			return engine.Sections{{Name: "preamble", Value: &s}}
		},
		Settings: engine.DefaultRuntimeSettings(),
	})
	if err != nil {
		t.Fatal(err)
	}
	sw.bind(sess)
	defer sw.close()
	var mu sync.Mutex
	var appended []*engine.Entry
	sess.Subscribe(func(e engine.Event) {
		if ea, ok := e.(engine.EntryAppended); ok {
			mu.Lock()
			appended = append(appended, ea.Entry)
			mu.Unlock()
		}
	})
	ctx := context.Background()
	if _, err := sess.Prompt(ctx, "hi", nil, engine.PromptOptions{}); err != nil {
		t.Fatal(err)
	}
	if err := sess.WaitIdle(ctx); err != nil {
		t.Fatal(err)
	}
	before := len(sess.Messages())
	clock.advance(2 * time.Second)
	reqs := p.Requests()
	if len(reqs) != 2 {
		t.Fatalf("%d requests, want the prompt's and one refresh", len(reqs))
	}
	if reqs[1].MaxTokens != 1 || reqs[1].SessionID != reqs[0].SessionID || len(reqs[1].Messages) != len(reqs[0].Messages) {
		t.Errorf("refresh %+v is not the request again", reqs[1])
	}
	mu.Lock()
	got := append([]*engine.Entry(nil), appended...)
	mu.Unlock()
	if len(got) != 1 || got[0].Type != engine.EntryUsage || got[0].Kind != "cache_warm" || got[0].Model != "m" {
		t.Fatalf("entry_appended %+v", got)
	}
	if b := store.Branch(); b[len(b)-1] != got[0] {
		t.Error("the usage entry is not on the branch")
	}
	if after := len(sess.Messages()); after != before {
		t.Errorf("the refresh entered the context: %d messages, then %d", before, after)
	}

	if err := sess.SetModel(other); err != nil {
		t.Fatal(err)
	}
	clock.advance(time.Minute)
	if n := len(p.Requests()); n != 2 {
		t.Errorf("%d requests after the model changed, want no more refreshes", n)
	}
	if st := sw.w.Status(); st.Reason != "conversation context changed" {
		t.Errorf("status %+v", st)
	}
}
