package engine_test

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/pi-go/pi/engine"
	"github.com/pi-go/pi/engine/llm/faux"
	"github.com/pi-go/pi/engine/session"
)

// orderLog collects what happened, from the hooks, the subscribers and
// the preflight callback, in one list.
type orderLog struct {
	mu   sync.Mutex
	list []string
}

func (l *orderLog) add(s string) {
	l.mu.Lock()
	l.list = append(l.list, s)
	l.mu.Unlock()
}

func (l *orderLog) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return strings.Join(l.list, " ")
}

// orderHooks logs before_agent_start and, on the first agent_settled,
// sends a triggerTurn custom message and then a prompt, as an
// agent_settled handler may.
type orderHooks struct {
	engine.NopHooks
	log    *orderLog
	s      *engine.Session
	settle bool
	once   sync.Once
}

func (h *orderHooks) BeforeAgentStart(context.Context, string, []engine.Content, string) (*engine.BeforeAgentStartResult, error) {
	h.log.add("before_agent_start")
	return nil, nil
}

func (h *orderHooks) Event(_ context.Context, e engine.Event) {
	if _, ok := e.(engine.AgentSettled); !ok || !h.settle {
		return
	}
	h.once.Do(func() {
		m := &engine.Message{Role: engine.RoleCustom, CustomType: "probe", Content: engine.StringContents("m"), Display: true}
		_ = h.s.SendCustom(m, "", boolp(true))
		h.s.PromptAsync(context.Background(), "p2", nil, engine.PromptOptions{}, func(_ string, err error) {
			if err != nil {
				h.log.add("error:" + err.Error())
			}
		})
	})
}

// TestRunOrder checks the start order of runs: a prompt is reported
// started after before_agent_start and before agent_start, and what an
// agent_settled handler sends (a triggerTurn message, then a prompt) runs
// one after the other.
func TestRunOrder(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		settle bool
		want   string
	}{
		{"preflight", false, "before_agent_start preflight:started agent_start user:go assistant:t1 settled"},
		{"settled handler", true, "before_agent_start preflight:started agent_start user:go assistant:t1 settled" +
			" agent_start custom:m assistant:t2 settled" +
			" before_agent_start agent_start user:p2 assistant:t3 settled"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			log := &orderLog{}
			h := &orderHooks{log: log, settle: tc.settle}
			p := faux.New(faux.Turn{Text: "t1"}, faux.Turn{Text: "t2"}, faux.Turn{Text: "t3"})
			s, err := engine.NewSession(engine.SessionOptions{
				Store: session.InMemory(t.TempDir(), ""), Model: smallModel(128000), ThinkingLevel: engine.ThinkingOff,
				ProviderFor: func(string) (engine.Provider, error) { return p, nil },
				Settings:    engine.DefaultRuntimeSettings(), Hooks: h,
				Sleep: func(context.Context, time.Duration) error { return nil },
			})
			if err != nil {
				t.Fatal(err)
			}
			h.s = s
			s.Subscribe(func(e engine.Event) {
				switch ev := e.(type) {
				case engine.AgentSettled:
					log.add("settled")
				case engine.AgentStart:
					log.add("agent_start")
				case engine.MessageEnd:
					log.add(ev.Message.Role + ":" + textOf(ev.Message))
				}
			})
			opts := engine.PromptOptions{OnPreflight: func(d string) { log.add("preflight:" + d) }}
			if _, err := s.Prompt(context.Background(), "go", nil, opts); err != nil {
				t.Fatal(err)
			}
			if err := s.WaitIdle(context.Background()); err != nil {
				t.Fatal(err)
			}
			if got := log.String(); got != tc.want {
				t.Errorf("order\n got %s\nwant %s", got, tc.want)
			}
		})
	}
}
