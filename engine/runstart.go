package engine

import (
	"context"
	"slices"
	"sync"
	"sync/atomic"
)

// This file orders a run's start against what started it, as the
// reference's promise chains do. A run counts as started after
// before_agent_start and just before agent_start (the reference's prompt
// preflight result); the RPC response of the prompt or extension command
// that started it is written then. agent_settled handlers' runs and
// prompts wait for the delivery to end and then go one after another,
// each after the previous run is over, as the reference's deferred
// settled actions do.

// runStart is one run's start signal.
type runStart struct {
	ch   chan struct{}
	once sync.Once

	mu     sync.Mutex
	marked bool
	hooks  []func()
}

func newRunStart(onStarted func()) *runStart {
	rs := &runStart{ch: make(chan struct{})}
	if onStarted != nil {
		rs.hooks = append(rs.hooks, onStarted)
	}
	return rs
}

// mark runs the start hooks and closes the signal, once.
func (r *runStart) mark() {
	r.once.Do(func() {
		r.mu.Lock()
		r.marked = true
		hooks := r.hooks
		r.hooks = nil
		r.mu.Unlock()
		for _, fn := range hooks {
			fn()
		}
		close(r.ch)
	})
}

// add queues fn for mark; false means the run has started already.
func (r *runStart) add(fn func()) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.marked {
		return false
	}
	r.hooks = append(r.hooks, fn)
	return true
}

// inputGate spans one prompt's input hook. When the hook is an
// extension command that has finished (InputSettled) by the time a run it
// started is about to send agent_start, the run waits for the gate: the
// prompt then reports itself handled before agent_start, after the run's
// before_agent_start, as in the reference.
type inputGate struct {
	settled atomic.Bool
	closed  chan struct{}
	once    sync.Once
	// onSettle, when set, runs on the extension loop as the command
	// settles (print mode's last prompt closes the session then).
	onSettle func()
}

type inputGateKey struct{}

// InputSettled records that the extension command an input hook runs
// has finished (its handler's promise settled); the hook calls it with the
// context Session.Prompt gave it.
func InputSettled(ctx context.Context) {
	if g, ok := ctx.Value(inputGateKey{}).(*inputGate); ok {
		g.settled.Store(true)
		if g.onSettle != nil {
			g.onSettle()
		}
	}
}

// openGate starts an input hook's gate and returns the context the hook
// gets.
func (s *Session) openGate(ctx context.Context) (context.Context, *inputGate) {
	g := &inputGate{closed: make(chan struct{})}
	s.mu.Lock()
	if s.gates == nil {
		s.gates = map[*inputGate]struct{}{}
	}
	s.gates[g] = struct{}{}
	s.mu.Unlock()
	return context.WithValue(ctx, inputGateKey{}, g), g
}

// closeGate ends an input hook's gate.
func (s *Session) closeGate(g *inputGate) {
	g.once.Do(func() {
		s.mu.Lock()
		delete(s.gates, g)
		s.mu.Unlock()
		close(g.closed)
	})
}

// markStarted marks the current run started (on its goroutine, just
// before agent_start goes out), once the commands that have finished
// meanwhile have answered.
func (s *Session) markStarted() {
	s.mu.Lock()
	rs := s.starting
	var wait []*inputGate
	for g := range s.gates {
		if g.settled.Load() {
			wait = append(wait, g)
		}
	}
	s.mu.Unlock()
	for _, g := range wait {
		<-g.closed
	}
	if rs != nil {
		rs.mark()
	}
}

// afterStarting reports a handled prompt through cb once the run that
// its handler started (if any) is under way, closes its input gate, and
// waits for that start.
func (s *Session) afterStarting(ctx context.Context, cb func(string), g *inputGate) {
	report := func() {
		if cb != nil {
			cb(DispositionHandled)
		}
	}
	s.mu.Lock()
	rs, streaming := s.starting, s.streaming
	s.mu.Unlock()
	if rs == nil || !streaming || !rs.add(report) {
		s.closeGate(g)
		report()
		return
	}
	s.closeGate(g)
	select {
	case <-rs.ch:
	case <-ctx.Done():
	}
}

// deferPrompt holds a prompt sent while agent_settled is being delivered:
// it runs after the delivery, in turn with the runs the handlers started
// (runDeferred). deferred is false when no delivery is under way.
func (s *Session) deferPrompt(ctx context.Context, text string, images []Content, opts PromptOptions) (disp string, deferred bool, err error) {
	type result struct {
		disp string
		err  error
	}
	ch := make(chan result, 1)
	s.mu.Lock()
	if s.settleWait == nil {
		s.mu.Unlock()
		return "", false, nil
	}
	s.deferred = append(s.deferred, func() {
		d, err := s.Prompt(ctx, text, images, opts)
		ch <- result{d, err}
	})
	s.mu.Unlock()
	select {
	case r := <-ch:
		return r.disp, true, r.err
	case <-ctx.Done():
		return "", true, ctx.Err()
	}
}

// runDeferred runs what agent_settled handlers asked for, in order, each
// after the run the previous one started is over (its own agent_settled
// included), so that a triggerTurn message and a prompt sent from one
// handler run one after the other.
func (s *Session) runDeferred(list []func(), host chan struct{}) {
	if len(list) == 0 {
		return
	}
	s.mu.Lock()
	s.deferHosts = append(s.deferHosts, host)
	s.mu.Unlock()
	defer func() {
		s.mu.Lock()
		if i := slices.Index(s.deferHosts, host); i >= 0 {
			s.deferHosts = slices.Delete(s.deferHosts, i, i+1)
		}
		s.mu.Unlock()
	}()
	for _, f := range list {
		f()
		s.mu.Lock()
		done, streaming := s.done, s.streaming
		s.mu.Unlock()
		if streaming && done != nil {
			<-done
		}
	}
}

// PromptAsync is Prompt without waiting for it; done (if set) gets its
// result. A prompt sent while agent_settled is being delivered is put in
// line at once, after what the handlers sent before it, as the
// reference's prompt decides that before its first await.
func (s *Session) PromptAsync(ctx context.Context, text string, images []Content, opts PromptOptions, done func(disposition string, err error)) {
	// The prompt is on its way from now on: Finish lets it reach its
	// input handlers before the session shuts down.
	s.promptBegun()
	run := func() {
		defer s.promptDone()
		d, err := s.Prompt(ctx, text, images, opts)
		if done != nil {
			done(d, err)
		}
	}
	s.mu.Lock()
	if s.settleWait != nil {
		s.deferred = append(s.deferred, run)
		s.mu.Unlock()
		return
	}
	s.mu.Unlock()
	go run()
}
