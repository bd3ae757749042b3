package cachewarm

import (
	"context"
	"sync"
	"time"

	"github.com/pi-go/pi/engine"
)

// Clock is the warmer's time source; tests substitute a fake one so that
// no test waits for real.
type Clock interface {
	Now() time.Time
	// AfterFunc calls f on its own goroutine once d has passed.
	AfterFunc(d time.Duration, f func()) Timer
}

// Timer is a pending AfterFunc call.
type Timer interface{ Stop() bool }

type realClock struct{}

func (realClock) Now() time.Time { return time.Now() }
func (realClock) AfterFunc(d time.Duration, f func()) Timer {
	return time.AfterFunc(d, f)
}

// Options configure a Warmer.
type Options struct {
	// Mode is read at every step, so a settings change applies at once:
	// "off", "streaming" or "idle". nil means "idle", the default.
	Mode func() string
	// Decide runs the cache_warming_decision handlers; nil keeps pi's
	// decision. An error keeps it too.
	Decide func(ctx context.Context, ev engine.CacheWarmingDecision) (string, error)
	// Branch is the session's current branch: the prompt size of its
	// last assistant message prices a refresh.
	Branch func() []*engine.Entry
	// Record persists and announces the usage entry of a refresh.
	Record func(e *engine.Entry) error
	// Hooks, when set, are bound to each refresh in place of the
	// original request's (engine.ReattachProviderHooks), whose run may be
	// over; when they implement engine.CacheWarmingHooks and Decide is
	// nil, they decide too.
	Hooks engine.Hooks
	// Clock defaults to the wall clock.
	Clock Clock
}

// Status is the warmer's state for /session: "inactive" with a Reason,
// "scheduled" with the time of the next decision, or "refreshing".
type Status struct {
	State             string
	Reason            string
	NextWarmAt        time.Time
	Decision          *Decision
	ExtensionOverride bool
}

// Warmer keeps the cache entry of one session's latest request warm. Its
// methods are safe for concurrent use.
type Warmer struct {
	opts     Options
	mu       sync.Mutex
	run      *run
	inactive Status
}

type run struct {
	req       *engine.LLMRequest
	provider  engine.Provider
	isCurrent func() bool
	ttl       time.Duration
	delay     time.Duration
	started   time.Time
	nextWarm  time.Time
	deadline  time.Time // the latest a due refresh may still go out
	ctx       context.Context
	cancel    context.CancelFunc
	phase     string
	timer     Timer
	override  bool
}

// New returns a warmer waiting for its first request.
func New(opts Options) *Warmer {
	if opts.Clock == nil {
		opts.Clock = realClock{}
	}
	if opts.Mode == nil {
		opts.Mode = func() string { return ModeIdle }
	}
	if ch, ok := opts.Hooks.(engine.CacheWarmingHooks); ok && opts.Decide == nil {
		opts.Decide = ch.CacheWarmingDecision
	}
	if opts.Branch == nil {
		opts.Branch = func() []*engine.Entry { return nil }
	}
	return &Warmer{opts: opts, inactive: Status{State: "inactive", Reason: "waiting for first request"}}
}

// Start follows req, just sent through p: its cache entry is kept warm
// while isCurrent holds (the session still extends the request's
// context with the same model). It replaces any previous run.
func (w *Warmer) Start(req *engine.LLMRequest, p engine.Provider, isCurrent func() bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.clearLocked()
	if w.opts.Mode() == ModeOff {
		w.stopLocked("cache warming disabled", nil, false)
		return
	}
	if !Replayable(req) {
		w.stopLocked("request cannot be replayed safely", nil, false)
		return
	}
	ttl, ok := TTL(req)
	if !ok {
		reason := "cache lifetime unavailable"
		if req != nil && req.ResolvedCacheRetention() == "none" {
			reason = "request disabled prompt caching"
		}
		w.stopLocked(reason, nil, false)
		return
	}
	delay, ok := Delay(ttl)
	if !ok {
		w.stopLocked("cache lifetime unavailable", nil, false)
		return
	}
	ctx, cancel := context.WithCancel(context.Background())
	w.run = &run{
		req: req, provider: p, isCurrent: isCurrent, ttl: ttl, delay: delay,
		started: w.opts.Clock.Now(), ctx: ctx, cancel: cancel, phase: PhaseStreaming,
	}
	w.scheduleLocked(w.run)
}

// OnAgentSettled moves the run to its idle phase, or ends it in
// "streaming" mode.
func (w *Warmer) OnAgentSettled() {
	w.mu.Lock()
	defer w.mu.Unlock()
	r := w.run
	if r == nil {
		return
	}
	if w.opts.Mode() == ModeStreaming {
		w.stopLocked("agent run settled", nil, false)
		return
	}
	r.phase = PhaseIdle
	limit := r.started.Add(MaxIdleAge)
	if r.nextWarm.After(limit) || !w.opts.Clock.Now().Before(limit) {
		w.stopLocked("30-minute idle safety limit reached", nil, false)
	}
}

// OnModeChanged reconciles the run with a new cacheWarming value.
func (w *Warmer) OnModeChanged() {
	w.mu.Lock()
	defer w.mu.Unlock()
	if r := w.run; r != nil {
		if reason := w.modeStopReason(r); reason != "" {
			w.stopLocked(reason, nil, false)
		}
	}
}

// Cancel ends warming (the session is going away).
func (w *Warmer) Cancel() {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.stopLocked("inactive", nil, false)
}

// Status reports what the warmer will do next.
func (w *Warmer) Status() Status {
	w.mu.Lock()
	r := w.run
	inactive := w.inactive
	w.mu.Unlock()
	if w.opts.Mode() == ModeOff {
		return Status{State: "inactive", Reason: "cache warming disabled"}
	}
	if r == nil {
		return inactive
	}
	if !r.isCurrent() {
		return Status{State: "inactive", Reason: "conversation context changed"}
	}
	d := w.evaluate(r)
	w.mu.Lock()
	refreshing := r.timer == nil
	next, override := r.nextWarm, r.override
	w.mu.Unlock()
	if !d.EconomicsAvailable && !refreshing {
		return Status{State: "inactive", Reason: "cache economics unavailable"}
	}
	st := Status{State: "scheduled", NextWarmAt: next, Decision: &d, ExtensionOverride: override}
	if refreshing {
		st.State = "refreshing"
	}
	return st
}

func (w *Warmer) clearLocked() {
	r := w.run
	if r == nil {
		return
	}
	w.run = nil
	if r.timer != nil {
		r.timer.Stop()
	}
	r.cancel()
}

func (w *Warmer) stopLocked(reason string, d *Decision, override bool) {
	w.clearLocked()
	w.inactive = Status{State: "inactive", Reason: reason, Decision: d, ExtensionOverride: override}
}

func (w *Warmer) scheduleLocked(r *run) {
	r.override = false
	now := w.opts.Clock.Now()
	r.nextWarm = now.Add(r.delay)
	// A timer can fire late after a sleep or a stalled process. Half of
	// the planned margin before expiry is kept for that and for sending
	// the request; later than that, the refresh would most likely be a
	// full-price cache write rather than a warm read.
	r.deadline = r.nextWarm.Add((r.ttl - r.delay) / 2)
	limit, reason := r.started.Add(MaxAge), "one-hour safety limit reached"
	if r.phase == PhaseIdle {
		limit, reason = r.started.Add(MaxIdleAge), "30-minute idle safety limit reached"
	}
	if r.nextWarm.After(limit) || !now.Before(limit) {
		w.stopLocked(reason, nil, false)
		return
	}
	r.timer = w.opts.Clock.AfterFunc(max(0, r.nextWarm.Sub(now)), func() { w.refresh(r) })
}

func (w *Warmer) modeStopReason(r *run) string {
	switch w.opts.Mode() {
	case ModeOff:
		return "cache warming disabled"
	case ModeStreaming:
		if r.phase == PhaseIdle {
			return "agent run settled"
		}
	}
	return ""
}

// validate reports whether r is still the run to serve, ending it when
// the mode or the conversation no longer allow it, or, with deadline,
// when a due refresh is too late to go out. A refresh that went out in
// time is followed by the next one whatever it took, so the check after
// the request skips the deadline.
func (w *Warmer) validate(r *run, deadline bool) bool {
	w.mu.Lock()
	if w.run != r {
		w.mu.Unlock()
		return false
	}
	reason := w.modeStopReason(r)
	w.mu.Unlock()
	if reason == "" && !r.isCurrent() {
		reason = "conversation context changed"
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.run != r {
		return false
	}
	if reason != "" {
		w.stopLocked(reason, nil, false)
		return false
	}
	if deadline && w.opts.Clock.Now().After(r.deadline) {
		w.stopLocked("cache refresh deadline missed", nil, false)
		return false
	}
	return true
}

func (w *Warmer) evaluate(r *run) Decision {
	return Evaluate(r.req.Model, lastPromptTokens(w.opts.Branch()), r.phase)
}

// refresh is one due refresh of r: decide, then re-send the request.
func (w *Warmer) refresh(r *run) {
	w.mu.Lock()
	if w.run != r {
		w.mu.Unlock()
		return
	}
	r.timer = nil
	w.mu.Unlock()
	if !w.validate(r, true) {
		return
	}
	d := w.evaluate(r)
	action := d.Action
	if w.opts.Decide != nil {
		ev := engine.CacheWarmingDecision{WarmCost: d.WarmCost, MissCost: d.MissCost,
			ContinuationProbability: d.ContinuationProbability, Action: d.Action}
		if a, err := w.opts.Decide(r.ctx, ev); err == nil && a != "" {
			action = a
		}
	}
	if !w.validate(r, true) {
		return
	}
	override := action != d.Action
	if action == ActionStop {
		reason := "stopped by extension"
		if !override {
			reason = "expected savings below threshold"
			if !d.EconomicsAvailable {
				reason = "cache economics unavailable"
			}
		}
		w.mu.Lock()
		if w.run == r {
			w.stopLocked(reason, &d, override)
		}
		w.mu.Unlock()
		return
	}
	w.mu.Lock()
	r.override = override
	w.mu.Unlock()
	req := WarmRequest(r.req)
	if w.opts.Hooks != nil {
		engine.ReattachProviderHooks(r.ctx, w.opts.Hooks, req)
	}
	msg := r.provider.Stream(r.ctx, req, func(engine.AssistantEvent) {})
	if !w.validate(r, false) {
		return
	}
	if msg != nil && msg.StopReason != engine.StopError && msg.StopReason != engine.StopAborted && w.opts.Record != nil {
		model := msg.ResponseModel
		if model == "" {
			model = msg.Model
		}
		provider := msg.Provider
		if provider == "" {
			provider = r.req.Model.Provider
		}
		if model == "" {
			model = r.req.Model.ID
		}
		usage, err := engine.MarshalJSON(msg.Usage)
		if err == nil {
			e := &engine.Entry{Type: engine.EntryUsage, Kind: "cache_warm", Provider: provider, Model: model, Usage: usage}
			if override {
				e.Note = "extension override"
			}
			// Warming is best effort: a failed write must not disturb the
			// session, and the next refresh is still worth trying.
			_ = w.opts.Record(e)
		}
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.run == r {
		w.scheduleLocked(r)
	}
}
