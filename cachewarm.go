package pi

import (
	"context"
	"sync"

	"github.com/pi-go/pi/engine"
	"github.com/pi-go/pi/engine/cachewarm"
)

// sessionWarmer keeps the prompt cache of one engine session warm
// (engine/cachewarm): the session's own requests start it, agent_settled
// moves it to its idle phase, and replacing or closing the session ends
// it. It is built before the session, whose ProviderFor it wraps, and
// bound to the session once that exists.
type sessionWarmer struct {
	w *cachewarm.Warmer

	mu    sync.Mutex
	sess  *engine.Session
	unsub func()
}

// newSessionWarmer reads cacheWarming from the global settings at every
// step, so a change applies to the running schedule.
func (app *Agent) newSessionWarmer(hooks engine.Hooks) *sessionWarmer {
	return newSessionWarmer(app.settings.CacheWarmingMode, hooks, nil)
}

// newSessionWarmer builds a warmer reading the mode from mode; a nil
// clock is the wall clock (tests pass a fake one).
func newSessionWarmer(mode func() string, hooks engine.Hooks, clock cachewarm.Clock) *sessionWarmer {
	sw := &sessionWarmer{}
	sw.w = cachewarm.New(cachewarm.Options{
		Mode:  mode,
		Hooks: hooks,
		Clock: clock,
		Branch: func() []*engine.Entry {
			if s := sw.session(); s != nil {
				return s.Store().Branch()
			}
			return nil
		},
		Record: func(e *engine.Entry) error {
			s := sw.session()
			if s == nil {
				return nil
			}
			return s.AppendEntry(e)
		},
	})
	return sw
}

func (sw *sessionWarmer) session() *engine.Session {
	sw.mu.Lock()
	defer sw.mu.Unlock()
	return sw.sess
}

// bind attaches the warmer to s, the session its providers serve.
func (sw *sessionWarmer) bind(s *engine.Session) {
	unsub := s.Subscribe(func(e engine.Event) {
		if _, ok := e.(engine.AgentSettled); ok {
			sw.w.OnAgentSettled()
		}
	})
	sw.mu.Lock()
	sw.sess, sw.unsub = s, unsub
	sw.mu.Unlock()
}

// close ends warming for good: the session is replaced or closed.
func (sw *sessionWarmer) close() {
	if sw == nil {
		return
	}
	sw.w.Cancel()
	sw.mu.Lock()
	unsub := sw.unsub
	sw.sess, sw.unsub = nil, nil
	sw.mu.Unlock()
	if unsub != nil {
		unsub()
	}
}

// providerFor wraps next's providers so that each of the session's own
// requests (not a summary's, which has its own routing id) restarts the
// warmer on it.
func (sw *sessionWarmer) providerFor(next func(api string) (engine.Provider, error)) func(api string) (engine.Provider, error) {
	return func(api string) (engine.Provider, error) {
		p, err := next(api)
		if err != nil || p == nil {
			return p, err
		}
		return engine.ProviderFunc(func(ctx context.Context, req *engine.LLMRequest, emit func(engine.AssistantEvent)) *engine.Message {
			if s := sw.session(); s != nil && req.SessionID != "" && req.SessionID == s.Store().Header().ID {
				sw.w.Start(req, p, currentFor(s, req.Model))
			}
			return p.Stream(ctx, req, emit)
		}), nil
	}
}

// currentFor reports whether s still extends the context it has now with
// the same model: only then does the next request reuse the cache entry
// the current one writes. A transcript rebuilt by compaction or tree
// navigation holds new messages, so it counts as changed.
func currentFor(s *engine.Session, m *engine.Model) func() bool {
	msgs := s.Messages()
	provider, id := "", ""
	if m != nil {
		provider, id = m.Provider, m.ID
	}
	return func() bool {
		if s.Closed() {
			return false
		}
		cur := s.Model()
		if cur == nil || cur.Provider != provider || cur.ID != id {
			return false
		}
		now := s.Messages()
		if len(now) < len(msgs) {
			return false
		}
		for i, msg := range msgs {
			if now[i] != msg {
				return false
			}
		}
		return true
	}
}
