package engine

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"time"
)

// Errors whose text clients match on.
var (
	ErrAlreadyProcessing = errors.New("Agent is already processing. Specify streamingBehavior ('steer' or 'followUp') to queue the message.")
	ErrNoModel           = errNoModel
)

// Prompt dispositions.
const (
	DispositionStarted = "started"
	DispositionQueued  = "queued"
	DispositionHandled = "handled"
)

// RetrySettings configure automatic retry of transient provider errors.
type RetrySettings struct {
	Enabled         bool
	MaxRetries      int
	BaseDelayMs     int64
	MaxAgentDelayMs int64
}

// RuntimeSettings are the settings the session runtime reads.
type RuntimeSettings struct {
	Retry        RetrySettings
	SteeringMode string
	FollowUpMode string
	// ThinkingBudgets are the levels settings.json's thinkingBudgets
	// sets; the reference reads them once, when the session is created.
	ThinkingBudgets map[ThinkingLevel]int
	AutoCompaction  bool
	// CompactionReserveTokens and CompactionKeepRecentTokens are
	// compaction.reserveTokens and compaction.keepRecentTokens.
	CompactionReserveTokens    int
	CompactionKeepRecentTokens int
	// BranchSummaryReserveTokens is branchSummary.reserveTokens, kept
	// free of the window by a tree navigation's summary (0: the
	// summarizer's default).
	BranchSummaryReserveTokens int
	// CompactionModelOverrides are compaction.modelOverrides, applied
	// for the session's model at each compaction (the model may change).
	CompactionModelOverrides map[string]CompactionOverride
}

// DefaultRuntimeSettings are the reference's defaults.
func DefaultRuntimeSettings() RuntimeSettings {
	return RuntimeSettings{
		Retry:        RetrySettings{Enabled: true, MaxRetries: 3, BaseDelayMs: 2000, MaxAgentDelayMs: 60000},
		SteeringMode: QueueOneAtATime, FollowUpMode: QueueOneAtATime, AutoCompaction: true,
		CompactionReserveTokens: 16384, CompactionKeepRecentTokens: 20000,
	}
}

// SessionOptions configure NewSession.
type SessionOptions struct {
	Store         Store
	Cwd           string
	Model         *Model
	ThinkingLevel ThinkingLevel
	Tools         []Tool
	ProviderFor   func(api string) (Provider, error)
	APIKey        func(m *Model) (string, error)
	// SystemPrompt builds the prompt's sections for the active tools.
	SystemPrompt func(tools []ToolInfo) Sections
	Settings     RuntimeSettings
	Hooks        Hooks
	// Sleep waits between retries; nil uses a timer. Tests inject it.
	Sleep func(ctx context.Context, d time.Duration) error
	// Now is the clock; nil uses time.Now.
	Now func() time.Time
	// Compactor plans and summarises compactions (engine/compaction);
	// nil disables compaction.
	Compactor Compactor
	// SwitchLevel is the level a switch to m starts at when the settings
	// name one (the reference's modelThinkingLevels entry for m, else
	// defaultThinkingLevel); ok false keeps the current level. nil: the
	// current level always. SetModel clamps it to m.
	SwitchLevel func(m *Model) (level ThinkingLevel, ok bool)
	// BlockImages reports whether images.blockImages is on; it is asked
	// before each request, so a change takes effect mid-session. nil: off.
	BlockImages func() bool
}

// PromptOptions qualify a prompt.
type PromptOptions struct {
	StreamingBehavior string // "", "steer" or "followUp"
	Source            string // for the input hook: "rpc", "interactive", "extension"
	// Expand rewrites the text after the input hook has seen it, as the
	// reference expands /skill:name and /template commands only then.
	Expand func(text string) string
	// OnPreflight, when set, is called with the disposition at the point
	// where the reference reports its prompt preflight: for a started
	// run after before_agent_start and just before agent_start, on the
	// run's goroutine; for a handled prompt (an extension command) once a
	// run it started has got that far. The RPC server writes the
	// prompt's response from it, so that the response sits where the
	// reference's does among the events.
	OnPreflight func(disposition string)
	// Final marks the caller's last prompt (print mode's): once its input
	// hook is done, the handler of an extension command included, the
	// session is closed (closing.go).
	Final bool
}

// SessionState is the get_state payload, in the reference's key order.
type SessionState struct {
	Model                 *Model        `json:"model,omitempty"`
	ThinkingLevel         ThinkingLevel `json:"thinkingLevel"`
	IsStreaming           bool          `json:"isStreaming"`
	IsCompacting          bool          `json:"isCompacting"`
	SteeringMode          string        `json:"steeringMode"`
	FollowUpMode          string        `json:"followUpMode"`
	SessionFile           string        `json:"sessionFile,omitempty"`
	SessionID             string        `json:"sessionId"`
	SessionName           string        `json:"sessionName,omitempty"`
	AutoCompactionEnabled bool          `json:"autoCompactionEnabled"`
	MessageCount          int           `json:"messageCount"`
	PendingMessageCount   int           `json:"pendingMessageCount"`
}

type subscriber struct {
	id int
	fn func(Event)
}

// Session is the runtime of one session: it owns the transcript, the
// queues, retry and thinking state, and runs the agent loop in the
// background. Its methods are safe for concurrent use; events reach
// subscribers in order on the run's goroutine.
type Session struct {
	opts  SessionOptions
	store Store
	hooks Hooks
	sleep func(ctx context.Context, d time.Duration) error
	now   func() time.Time

	mu        sync.Mutex
	emitMu    sync.Mutex
	subs      []subscriber
	nextSub   int
	model     *Model
	thinking  ThinkingLevel
	tools     []Tool
	settings  RuntimeSettings
	messages  []*Message
	streaming bool
	cancel    context.CancelFunc
	done      chan struct{}
	aborted   bool
	retryStop chan struct{}

	// messagesOnDisk means messages has not been read yet: a store that
	// describes its branch (BranchStater) leaves a resumed transcript in
	// the file until a model call or a reader needs it (historyLocked);
	// diskCount is its length meanwhile.
	messagesOnDisk bool
	diskCount      int

	retryAttempt int
	cmp          compactionState

	steering *messageQueue
	followUp *messageQueue
	// nextTurn holds extension custom messages sent with deliverAs
	// "nextTurn"; they join the next prompt (extsession.go).
	nextTurn []*Message
	// pendingCustom holds custom messages sent with triggerTurn false
	// during a run, until the turn ends (extsession.go).
	pendingCustom []*Message
	// settleWait is open while agent_settled is being delivered: the run
	// is over, and runs that its handlers start wait for the delivery to
	// end (deferred, or Prompt blocks on it), as in the reference.
	settleWait chan struct{}
	deferred   []func()
	// starting is the current run's start signal, closed once it is
	// under way (markStarted).
	starting *runStart
	// gates are the input hooks under way (runstart.go).
	gates map[*inputGate]struct{}
	// deferHosts are the done channels of the runs whose goroutines are
	// running agent_settled's deferred actions, outermost first: the
	// session is not idle until the first closes (WaitIdle).
	deferHosts []chan struct{}
	// bnd is what turn_end boundary handlers asked of the loop
	// (extsession.go).
	bnd boundaryState
	// closing is the closed state print mode sets (closing.go).
	closing closeState
}

// NewSession creates a session over a store, reading the transcript from
// the store's current branch and recording the model and thinking level as
// the reference does at startup.
func NewSession(opts SessionOptions) (*Session, error) {
	if opts.Store == nil {
		return nil, errors.New("engine: SessionOptions.Store is required")
	}
	s := &Session{
		opts: opts, store: opts.Store, hooks: opts.Hooks, sleep: opts.Sleep, now: opts.Now,
		model: opts.Model, tools: opts.Tools, settings: opts.Settings,
		steering: &messageQueue{mode: opts.Settings.SteeringMode},
		followUp: &messageQueue{mode: opts.Settings.FollowUpMode},
	}
	if s.hooks == nil {
		s.hooks = NopHooks{}
	}
	if s.sleep == nil {
		s.sleep = Sleep
	}
	if s.now == nil {
		s.now = time.Now
	}
	var sc BranchState
	if _, lazy := s.store.(BranchStater); lazy {
		sc = StateOfBranch(s.store)
		s.messagesOnDisk, s.diskCount = true, sc.MessageCount
	} else {
		branch := s.store.Branch()
		sc = StateOfEntries(branch)
		s.messages = BuildContext(branch).Messages
	}
	want := opts.ThinkingLevel
	if want == "" && sc.HasThinkingLevel {
		want = sc.ThinkingLevel
	}
	if want == "" {
		want = ThinkingMedium
	}
	s.thinking = ClampThinkingLevel(s.model, want)
	if s.model != nil && !s.model.Placeholder && (sc.Model == nil || sc.Model.Provider != s.model.Provider || sc.Model.ModelID != s.model.ID) {
		if err := s.store.Append(&Entry{Type: EntryModelChange, Provider: s.model.Provider, ModelID: s.model.ID}); err != nil {
			return nil, fmt.Errorf("record model: %w", err)
		}
	}
	if !sc.HasThinkingLevel || sc.ThinkingLevel != s.thinking {
		if err := s.store.Append(&Entry{Type: EntryThinkingLevelChange, ThinkingLevel: string(s.thinking)}); err != nil {
			return nil, fmt.Errorf("record thinking level: %w", err)
		}
	}
	return s, nil
}

// Sleep waits for d, or until ctx is done (then its error). Retry waits
// across the engine and the adapters go through it.
func Sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// Subscribe registers fn for every event; the returned func removes it.
func (s *Session) Subscribe(fn func(Event)) (unsubscribe func()) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.nextSub++
	id := s.nextSub
	s.subs = append(s.subs, subscriber{id: id, fn: fn})
	return func() {
		s.mu.Lock()
		defer s.mu.Unlock()
		for i, sub := range s.subs {
			if sub.id == id {
				s.subs = append(s.subs[:i:i], s.subs[i+1:]...)
				return
			}
		}
	}
}

// publish delivers e to the extensions first and then to every
// subscriber, as the reference awaits its extension handlers before its
// listeners see an event: whatever a handler records (entry_appended,
// session_info_changed …) reaches the subscribers before the event that
// triggered it. session_info_changed goes the other way round, listeners
// first, because the reference emits it to extensions without waiting.
// The hooks run outside emitMu so that a handler's own actions can
// notify subscribers synchronously from the extension loop.
func (s *Session) publish(e Event) {
	if _, ok := e.(SessionInfoChanged); ok {
		s.notify(e)
		s.hooks.Event(context.Background(), e)
		return
	}
	s.hooks.Event(context.Background(), e)
	s.notify(e)
}

// notify delivers e to every subscriber in order, without the extension
// hooks. A panicking subscriber is skipped so it cannot kill the loop.
// Subscribers must never wait for the extension loop: the loop itself
// calls notify for the actions extensions take.
func (s *Session) notify(e Event) {
	s.mu.Lock()
	subs := append([]subscriber(nil), s.subs...)
	s.mu.Unlock()
	s.emitMu.Lock()
	defer s.emitMu.Unlock()
	for _, sub := range subs {
		func() {
			defer func() { _ = recover() }()
			sub.fn(e)
		}()
	}
}

func (s *Session) queueUpdate() {
	s.publish(QueueUpdate{Steering: s.steering.texts(), FollowUp: s.followUp.texts()})
}

// loopEmit is the loop's event sink: it shows queue removals just before
// a queued message starts, and persists each message when it ends.
func (s *Session) loopEmit(e Event) {
	switch ev := e.(type) {
	case AgentStart:
		s.markStarted()
	case MessageStart:
		s.resetOverflow(ev.Message)
		if ev.Message.Role == RoleUser || ev.Message.Role == RoleCustom {
			if s.steering.delivered(ev.Message) || s.followUp.delivered(ev.Message) {
				s.queueUpdate()
			}
		}
	case MessageEnd:
		m := ev.Message
		s.resetOverflow(m)
		s.mu.Lock()
		s.messages = append(s.historyLocked(), m)
		s.mu.Unlock()
		// The reference persists a message after its extensions and
		// listeners have seen message_end, so entries a handler appends
		// there precede the message in the session file.
		s.publish(e)
		_ = s.store.Append(messageEntry(m))
		if m.Role == RoleAssistant && m.StopReason != StopError && m.StopReason != StopAborted {
			s.mu.Lock()
			attempt := s.retryAttempt
			s.retryAttempt = 0
			s.mu.Unlock()
			if attempt > 0 {
				s.publish(AutoRetryEnd{Success: true, Attempt: attempt})
			}
		}
		return
	case TurnEnd:
		// Custom messages held during the turn join the transcript once
		// its tool results are in, after everyone has seen turn_end, as
		// the reference flushes them (extsession.go).
		s.publish(e)
		s.flushPendingCustom(true)
		return
	}
	s.publish(e)
}

func userMessage(text string, images []Content, ts int64) *Message {
	blocks := []Content{TextContent(text)}
	blocks = append(blocks, images...)
	return &Message{Role: RoleUser, Content: Blocks(blocks...), Timestamp: ts}
}

// Prompt starts a run with a user message, or queues it while a run is
// active when opts.StreamingBehavior says how.
func (s *Session) Prompt(ctx context.Context, text string, images []Content, opts PromptOptions) (string, error) {
	if disp, deferred, err := s.deferPrompt(ctx, text, images, opts); deferred {
		return disp, err
	}
	s.mu.Lock()
	streaming := s.streaming
	s.mu.Unlock()
	src := opts.Source
	if src == "" {
		src = "rpc"
	}
	inCtx, gate := s.openGate(ctx)
	if opts.Final {
		gate.onSettle = s.closeInput
		s.closing.setFinalGate(gate)
	}
	in, err := s.hooks.Input(inCtx, text, images, src, opts.StreamingBehavior)
	if err != nil {
		s.closeGate(gate)
		return "", fmt.Errorf("input hook: %w", err)
	}
	if in.Action != InputHandled {
		s.closeGate(gate)
	}
	if opts.Final && in.Action == InputHandled {
		s.closeInput()
	} else if in.Action != InputHandled && s.Closed() {
		// The session closed while the input handlers ran: they have
		// seen the prompt, and it goes no further.
		return DispositionHandled, nil
	}
	switch in.Action {
	case InputHandled:
		// A run the handler started (an extension command's triggerTurn
		// message) gets under way before the prompt is reported handled,
		// as the reference's before_agent_start runs a few promise hops
		// after the command, ahead of its response (runstart.go).
		s.afterStarting(ctx, opts.OnPreflight, gate)
		return DispositionHandled, nil
	case InputTransform:
		text = in.Text
		if in.Images != nil {
			images = in.Images
		}
	}
	if opts.Expand != nil {
		text = opts.Expand(text)
	}
	if streaming {
		// As in the reference, any behaviour other than "followUp"
		// (deliverAs "nextTurn" from sendUserMessage among them) steers.
		switch opts.StreamingBehavior {
		case "":
			return "", ErrAlreadyProcessing
		case "followUp":
			return s.FollowUp(text, images), nil
		}
		return s.Steer(text, images), nil
	}
	s.mu.Lock()
	if s.cmp.manual {
		s.mu.Unlock()
		return "", ErrCompacting
	}
	if s.streaming {
		s.mu.Unlock()
		return "", ErrAlreadyProcessing
	}
	model := s.model
	s.mu.Unlock()
	if model == nil {
		return "", ErrNoModel
	}
	provider, apiKey, err := s.resolveProvider(model)
	if err != nil {
		return "", err
	}
	user := userMessage(text, images, s.now().UnixMilli())
	// The prompt counts as started once the pre-prompt compaction check
	// and before_agent_start are done (markStarted), so their events come
	// before the caller's acknowledgement, as in the reference.
	var onStarted func()
	if cb := opts.OnPreflight; cb != nil {
		onStarted = func() { cb(DispositionStarted) }
	}
	started := s.startRunWith(func(runCtx context.Context) {
		s.compactBeforePrompt(runCtx)
		s.runPrompt(runCtx, provider, apiKey, text, images, user)
	}, onStarted)
	<-started
	return DispositionStarted, nil
}

func (s *Session) resolveProvider(m *Model) (Provider, string, error) {
	if s.opts.ProviderFor == nil {
		return nil, "", errors.New("engine: no provider configured")
	}
	// Credentials first, as the reference's prompt preflight checks them
	// before anything looks for the API: without any model (a placeholder
	// with API "unknown") the prompt fails for want of a key.
	key := ""
	if s.opts.APIKey != nil {
		var err error
		key, err = s.opts.APIKey(m)
		if err != nil {
			return nil, "", err
		}
	}
	p, err := s.opts.ProviderFor(m.API)
	if err != nil {
		return nil, "", fmt.Errorf("provider for %s: %w", m.API, err)
	}
	return p, key, nil
}

// startRun marks the session streaming and runs body in the background;
// agent_settled follows it.
func (s *Session) startRun(body func(ctx context.Context)) {
	s.startRunWith(body, nil)
}

// startRunWith is startRun with a start callback (PromptOptions.OnPreflight);
// the channel it returns closes once the run is under way.
func (s *Session) startRunWith(body func(ctx context.Context), onStarted func()) <-chan struct{} {
	ctx, cancel := context.WithCancel(context.Background())
	rs := newRunStart(onStarted)
	s.mu.Lock()
	s.streaming = true
	s.aborted = false
	s.cancel = cancel
	s.done = make(chan struct{})
	s.retryStop = make(chan struct{})
	s.starting = rs
	done := s.done
	s.mu.Unlock()
	go func() {
		defer close(done)
		defer cancel()
		body(ctx)
		// A run that ended before agent_start (a failed compaction, an
		// abort) counts as started now.
		rs.mark()
		s.mu.Lock()
		aborted := s.aborted
		s.mu.Unlock()
		s.steering.untake()
		s.followUp.untake()
		s.flushPendingCustom(false)
		// The run is over before agent_settled goes out: its handlers see
		// an idle session, and what they start waits for the delivery.
		settled := make(chan struct{})
		s.mu.Lock()
		s.streaming = false
		s.cancel = nil
		s.settleWait = settled
		s.mu.Unlock()
		s.publish(AgentSettled{Aborted: aborted})
		s.mu.Lock()
		s.settleWait = nil
		deferred := s.deferred
		s.deferred = nil
		s.mu.Unlock()
		close(settled)
		s.runDeferred(deferred, done)
	}()
	return rs.ch
}

// runPrompt is one prompt's whole life: the run, then retries.
func (s *Session) runPrompt(ctx context.Context, provider Provider, apiKey, text string, images []Content, user *Message) {
	s.beginRun(ctx, provider, apiKey, user, func(sysText string) *BeforeAgentStartResult {
		res, err := s.hooks.BeforeAgentStart(ctx, text, images, sysText)
		if err != nil {
			return nil
		}
		return res
	})
}

// beginRun is the common start of a run whose first message is first:
// before_agent_start (through beforeStart, given the system prompt) may
// replace the system prompt or its sections and add messages; custom
// messages held while the run was starting go before the prompt, as they
// would have while idle; the nextTurn messages and the handlers' follow.
func (s *Session) beginRun(ctx context.Context, provider Provider, apiKey string, first *Message, beforeStart func(sysText string) *BeforeAgentStartResult) {
	s.mu.Lock()
	tools := append([]Tool(nil), s.tools...)
	history := append([]*Message(nil), s.historyLocked()...)
	s.mu.Unlock()
	infos := toolInfos(tools)
	sysMsg, sysText := s.systemMessage(history, infos)
	res := beforeStart(sysText)
	if res != nil && res.Sections != nil && res.SystemPrompt == "" {
		sysMsg, sysText = s.systemMessageFor(history, infos, res.Sections)
	}
	if res != nil && res.SystemPrompt != "" {
		sysText = res.SystemPrompt
	}
	s.flushPendingCustom(false)
	prompts := []*Message{}
	if sysMsg != nil {
		prompts = append(prompts, sysMsg)
	}
	prompts = append(prompts, first)
	prompts = append(prompts, s.takeNextTurn()...)
	if res != nil {
		prompts = append(prompts, res.Messages...)
	}
	s.runWithRetry(ctx, provider, apiKey, tools, sysText, prompts)
}

// runWithRetry runs the loop and retries transient failures.
func (s *Session) runWithRetry(ctx context.Context, provider Provider, apiKey string, tools []Tool, sysText string, prompts []*Message) {
	for {
		s.mu.Lock()
		history := append([]*Message(nil), s.historyLocked()...)
		model, thinking := s.model, s.thinking
		s.mu.Unlock()
		loop := &agentLoop{
			model: model, thinking: thinking, tools: tools, toolsNow: s.Tools, toolsDecl: s.midRunDeclarations, provider: provider, apiKey: apiKey,
			systemPrompt: sysText, sessionID: s.store.Header().ID, hooks: s.hooks, emit: s.loopEmit,
			steering: s.steering.drain, followUp: s.followUp.drain, now: s.now,
			beforeTurn: s.beforeNextTurn, continueTurn: s.takeBoundaryContinue,
			halted: s.haltedRequest, thinkingBudgets: s.settings.ThinkingBudgets,
			blockImages: s.opts.BlockImages,
		}
		created := loop.run(ctx, history, prompts)
		prompts = nil
		var last *Message
		for i := len(created) - 1; i >= 0; i-- {
			if created[i].Role == RoleAssistant {
				last = created[i]
				break
			}
		}
		s.mu.Lock()
		retry := s.settings.Retry
		attempt := s.retryAttempt
		s.mu.Unlock()
		window := 0
		if model != nil {
			window = model.ContextWindow
		}
		willRetry := last != nil && ctx.Err() == nil && retry.Enabled && attempt < retry.MaxRetries &&
			!IsContextOverflow(last, window) && IsRetryableError(last)
		s.publish(AgentEnd{Messages: created, WillRetry: willRetry})
		if !willRetry {
			if attempt > 0 {
				s.mu.Lock()
				s.retryAttempt = 0
				s.mu.Unlock()
				if last != nil && last.StopReason != StopAborted {
					final := last.ErrorMessage
					s.publish(AutoRetryEnd{Success: false, Attempt: attempt, FinalError: final})
				} else {
					s.publish(AutoRetryEnd{Success: false, Attempt: attempt})
				}
			}
			if ctx.Err() == nil && s.checkCompaction(ctx, last, true) && ctx.Err() == nil {
				continue
			}
			if s.beforeSettle(ctx, last) {
				continue
			}
			return
		}
		attempt++
		s.mu.Lock()
		s.retryAttempt = attempt
		stop := s.retryStop
		s.mu.Unlock()
		delay := RetryDelayMs(retry.BaseDelayMs, retry.MaxAgentDelayMs, attempt)
		errText := last.ErrorMessage
		if errText == "" {
			errText = "Unknown error"
		}
		s.publish(AutoRetryStart{Attempt: attempt, MaxAttempts: retry.MaxRetries, DelayMs: delay, ErrorMessage: errText})
		s.omitFailed(last)
		sleepCtx, cancelSleep := context.WithCancel(ctx)
		go func() {
			select {
			case <-stop:
				cancelSleep()
			case <-sleepCtx.Done():
			}
		}()
		err := s.sleep(sleepCtx, time.Duration(delay)*time.Millisecond)
		cancelSleep()
		if err != nil {
			s.mu.Lock()
			s.retryAttempt = 0
			s.mu.Unlock()
			s.publish(AutoRetryEnd{Success: false, Attempt: attempt, FinalError: errText})
			return
		}
	}
}

// omitFailed hides a failed assistant message from the model's context
// with a context_edit entry; it stays in the raw history.
func (s *Session) omitFailed(m *Message) {
	s.mu.Lock()
	s.historyLocked()
	for i := len(s.messages) - 1; i >= 0; i-- {
		if s.messages[i] == m {
			s.messages = append(s.messages[:i:i], s.messages[i+1:]...)
			break
		}
	}
	s.mu.Unlock()
	target := ""
	for _, e := range s.store.Branch() {
		if e.Type == EntryMessage && e.Message == m {
			target = e.ID
		}
	}
	if target == "" {
		target = s.store.LeafID()
	}
	e := &Entry{Type: EntryContextEdit, TargetID: target, Replacement: json.RawMessage("null")}
	if err := s.store.Append(e); err == nil {
		s.publish(EntryAppended{Entry: e})
	}
}

// Steer queues a message for delivery after the current turn.
func (s *Session) Steer(text string, images []Content) string {
	s.steering.push(text, userMessage(text, images, s.now().UnixMilli()))
	s.queueUpdate()
	return DispositionQueued
}

// Queue is the RPC steer and follow_up: the extensions' input handlers
// see the text first, as for a prompt (source opts.Source, default
// "rpc"; streamingBehavior opts.StreamingBehavior while a run streams,
// "" when idle, as in the reference), then the text, as transformed and
// expanded (opts.Expand), is queued to be steered in or, for
// StreamingBehavior "followUp", followed up. Queueing never starts a
// run. A handler that takes the text queues nothing, and the disposition
// is DispositionHandled.
func (s *Session) Queue(ctx context.Context, text string, images []Content, opts PromptOptions) (string, error) {
	s.mu.Lock()
	streaming := s.streaming
	s.mu.Unlock()
	src := opts.Source
	if src == "" {
		src = "rpc"
	}
	behavior := ""
	if streaming {
		behavior = opts.StreamingBehavior
	}
	inCtx, gate := s.openGate(ctx)
	in, err := s.hooks.Input(inCtx, text, images, src, behavior)
	if err != nil {
		s.closeGate(gate)
		return "", fmt.Errorf("input hook: %w", err)
	}
	switch in.Action {
	case InputHandled:
		s.afterStarting(ctx, opts.OnPreflight, gate)
		return DispositionHandled, nil
	case InputTransform:
		text = in.Text
		if in.Images != nil {
			images = in.Images
		}
	}
	s.closeGate(gate)
	if opts.Expand != nil {
		text = opts.Expand(text)
	}
	if opts.StreamingBehavior == "followUp" {
		return s.FollowUp(text, images), nil
	}
	return s.Steer(text, images), nil
}

// FollowUp queues a message for delivery when the agent would stop.
func (s *Session) FollowUp(text string, images []Content) string {
	s.followUp.push(text, userMessage(text, images, s.now().UnixMilli()))
	s.queueUpdate()
	return DispositionQueued
}

// ClearQueue empties both queues and returns the removed texts.
func (s *Session) ClearQueue() (steering, followUp []string) {
	steering, followUp = s.steering.clear(), s.followUp.clear()
	s.queueUpdate()
	return steering, followUp
}

// Abort stops the current run (stream, tools and retry sleep) and waits
// until it has settled. Queues are kept.
func (s *Session) Abort() {
	s.mu.Lock()
	cancel, done := s.cancel, s.done
	if s.streaming {
		s.aborted = true
	}
	s.mu.Unlock()
	s.abortCompaction()
	if cancel == nil {
		return
	}
	cancel()
	<-done
}

// AbortRetry cancels a pending retry sleep; the run then ends.
func (s *Session) AbortRetry() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.retryStop != nil {
		select {
		case <-s.retryStop:
		default:
			close(s.retryStop)
		}
	}
}

// WaitIdle blocks until no run is active or ctx ends.
func (s *Session) WaitIdle(ctx context.Context) error {
	for {
		s.mu.Lock()
		done := s.done
		if len(s.deferHosts) > 0 {
			// Runs that agent_settled handlers asked for are still to
			// come: the run that delivered it is over only after them.
			done = s.deferHosts[0]
		}
		s.mu.Unlock()
		if done == nil {
			return nil
		}
		select {
		case <-done:
		case <-ctx.Done():
			return ctx.Err()
		}
		// A run that agent_settled handlers started keeps it busy.
		s.mu.Lock()
		again := (s.done != done && s.streaming) || len(s.deferHosts) > 0
		s.mu.Unlock()
		if !again {
			return nil
		}
	}
}

// IsStreaming reports whether a run is active.
func (s *Session) IsStreaming() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.streaming
}

// Messages returns the transcript as the model's context sees it.
func (s *Session) Messages() []*Message {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]*Message(nil), s.historyLocked()...)
}

// historyLocked returns the transcript, reading it from the store the
// first time when NewSession left it there. Call with s.mu held.
func (s *Session) historyLocked() []*Message {
	if s.messagesOnDisk {
		s.messages = ContextOf(s.store).Messages
		s.messagesOnDisk = false
	}
	return s.messages
}

// messageCountLocked is len(historyLocked()) without reading the
// transcript from the store. Call with s.mu held.
func (s *Session) messageCountLocked() int {
	if s.messagesOnDisk {
		return s.diskCount
	}
	return len(s.messages)
}

// Reload re-reads the transcript from the store's current branch, after
// the leaf moved or entries were rewritten (compaction, tree navigation).
func (s *Session) Reload() {
	sc := ContextOf(s.store)
	s.mu.Lock()
	s.messages, s.messagesOnDisk = sc.Messages, false
	s.mu.Unlock()
}
