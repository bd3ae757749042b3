package pi

import (
	"context"
	"fmt"
	"iter"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/pi-go/pi/engine"
	"github.com/pi-go/pi/engine/session"
)

// New assembles a pi from opts and starts its session: settings (global,
// then the trusted project's), models.json and auth.json, project trust,
// the session store, extensions (and the CLI flags they claim), the model
// and thinking level, resources, tools and the system prompt. Errors are
// start-up failures; a *session.ExitError carries its own exit code, and
// a *FlagError lists command-line flags no extension claimed.
//
// The returned Agent must be closed.
func New(ctx context.Context, opts Options) (*Agent, error) {
	app, err := wire(ctx, &opts)
	if err != nil {
		return nil, err
	}
	// Extensions load before the model list and the model choice: the
	// providers they register take part in both.
	if err := app.loadExtensions(ctx); err != nil {
		app.closeStore()
		return nil, err
	}
	if opts.ListModelsOnly {
		if err := app.flushProviders(); err != nil {
			app.closeStore()
			return nil, err
		}
		return app, nil
	}
	// Flags given wrongly or claimed by no extension end the run before
	// any session starts, so no session_shutdown follows, as in the
	// reference, where they are startup diagnostics.
	if fe := app.flagError(); fe != nil {
		app.closeStore()
		return nil, fe
	}
	app.started = true
	if err := app.resolveModel(); err != nil {
		app.Close()
		return nil, err
	}
	if opts.UI != nil {
		app.ext.SetUI(opts.UI)
	}
	if _, err := app.startSession(); err != nil {
		app.Close()
		return nil, err
	}
	if opts.UI != nil {
		// /mcp answers, and the servers that need attention, reach the
		// embedder's UI (the terminal UI) instead of stderr.
		app.setMCPUI(opts.UI)
		app.setLlamaUI(opts.UI)
	}
	return app, nil
}

// FlagError lists the command-line flags that no extension claimed and
// the extension flags given without their value.
type FlagError struct {
	// Invalid are messages about extension flags given wrongly.
	Invalid []string
	// Unknown are the unclaimed flags, with their dashes.
	Unknown []string
}

// Error is the reference's wording, one line per problem.
func (e *FlagError) Error() string {
	var lines []string
	for _, m := range e.Invalid {
		lines = append(lines, "Error: "+m)
	}
	if n := len(e.Unknown); n > 0 {
		plural := ""
		if n > 1 {
			plural = "s"
		}
		lines = append(lines, fmt.Sprintf("Error: Unknown option%s: %s", plural, strings.Join(e.Unknown, ", ")))
	}
	return strings.Join(lines, "\n")
}

// flagError is the FlagError of the flags left once the extensions
// claimed theirs, or nil.
func (app *Agent) flagError() *FlagError {
	if len(app.flagErrors) == 0 && len(app.opts.ExtensionFlags) == 0 {
		return nil
	}
	fe := &FlagError{Invalid: app.flagErrors}
	for _, f := range app.opts.ExtensionFlags {
		fe.Unknown = append(fe.Unknown, "--"+f.Name)
	}
	return fe
}

// Session is the current engine session. It changes when the session is
// replaced (NewSession, SwitchSession, Fork and their extension and RPC
// forms); Subscribe follows the replacements.
func (app *Agent) Session() *engine.Session { return app.session() }

// Store is the current session's store.
func (app *Agent) Store() *session.File {
	app.mu.Lock()
	defer app.mu.Unlock()
	return app.store
}

// Header is the first session's header: a replacement session writes no
// new header line, as in the reference.
func (app *Agent) Header() engine.Header { return app.firstHeader() }

// Subscribe calls fn for every event of the current session and of each
// session that replaces it, until the returned function is called.
func (app *Agent) Subscribe(fn func(engine.Event)) (unsubscribe func()) {
	app.subMu.Lock()
	sub := &agentSub{fn: fn}
	if s := app.session(); s != nil {
		sub.unsub = s.Subscribe(fn)
	}
	app.subs = append(app.subs, sub)
	app.subMu.Unlock()
	return func() {
		app.subMu.Lock()
		defer app.subMu.Unlock()
		if sub.unsub != nil {
			sub.unsub()
			sub.unsub = nil
		}
		app.subs = slices.DeleteFunc(app.subs, func(x *agentSub) bool { return x == sub })
	}
}

// agentSub is one Subscribe call, moved to each replacement session.
type agentSub struct {
	fn    func(engine.Event)
	unsub func()
}

// rebindSubs moves every subscription to s.
func (app *Agent) rebindSubs(s *engine.Session) {
	app.subMu.Lock()
	defer app.subMu.Unlock()
	for _, sub := range app.subs {
		if sub.unsub != nil {
			sub.unsub()
		}
		sub.unsub = s.Subscribe(sub.fn)
	}
}

// Messages is the current transcript, leaving out a reply that print
// mode's closing aborted before its request
// (engine.Session.PrintedMessages).
func (app *Agent) Messages() []*engine.Message { return app.session().PrintedMessages() }

// Prompt sends one user prompt, as typed (templates, skills and extension
// commands expand), and waits until the session settles. An error means
// the prompt could not start (no model, no key, …); a failed reply is in
// the transcript.
func (app *Agent) Prompt(ctx context.Context, text string, images []engine.Content) error {
	return app.prompt(ctx, text, images, false)
}

// PromptFinal is Prompt for print mode's last prompt: the session closes
// once its input hook (a command's handler) is done, so what a command
// started without awaiting it is dropped, as in the reference.
func (app *Agent) PromptFinal(ctx context.Context, text string, images []engine.Content) error {
	return app.prompt(ctx, text, images, true)
}

func (app *Agent) prompt(ctx context.Context, text string, images []engine.Content, final bool) error {
	s := app.session()
	// Expansion runs inside Prompt, after the input hook saw the raw text.
	// The reference's print mode prompts as the terminal would: input
	// handlers see source "interactive".
	disp, err := s.Prompt(ctx, text, images, engine.PromptOptions{Expand: app.Expand, Source: "interactive", Final: final})
	if err != nil {
		return err
	}
	if disp == engine.DispositionHandled {
		// A command (or an input handler) consumed the prompt: as in the
		// reference, the prompt is over when its handler is, and a turn
		// it triggered without awaiting it is not waited for (StopRun
		// aborts it at the end of the run).
		return nil
	}
	if err := s.WaitIdle(ctx); err != nil {
		return err
	}
	// A command may have replaced the session meanwhile.
	return app.session().WaitIdle(ctx)
}

// Run sends a prompt and yields every event until the session settles
// (or until the prompt is over, when a command handled it). A prompt that
// cannot start yields one error. Breaking out of the loop stops
// listening, not the run: call Abort for that.
func (app *Agent) Run(ctx context.Context, text string, images ...engine.Content) iter.Seq2[engine.Event, error] {
	return func(yield func(engine.Event, error) bool) {
		// Events arrive on the session's goroutines and must never wait
		// for the consumer, so they queue here, in order, unbounded.
		var q eventQueue
		q.init()
		unsub := app.Subscribe(q.push)
		defer unsub()
		done := make(chan error, 1)
		go func() { done <- app.Prompt(ctx, text, images) }()
		for {
			select {
			case <-q.ready:
				for _, e := range q.take() {
					if !yield(e, nil) {
						return
					}
				}
			case err := <-done:
				for _, e := range q.take() {
					if !yield(e, nil) {
						return
					}
				}
				if err != nil {
					yield(nil, err)
				}
				return
			}
		}
	}
}

// eventQueue hands events from the session's goroutines to Run's loop.
type eventQueue struct {
	mu    sync.Mutex
	items []engine.Event
	ready chan struct{}
}

func (q *eventQueue) init() { q.ready = make(chan struct{}, 1) }

func (q *eventQueue) push(e engine.Event) {
	q.mu.Lock()
	q.items = append(q.items, e)
	q.mu.Unlock()
	select {
	case q.ready <- struct{}{}:
	default:
	}
}

func (q *eventQueue) take() []engine.Event {
	q.mu.Lock()
	defer q.mu.Unlock()
	items := q.items
	q.items = nil
	return items
}

// Steer queues a message for the running turn (delivered after its
// current tool calls); FollowUp queues one for when the run is done.
// The extensions' input handlers see the text first and may change or
// take it (then nothing is queued and the disposition is "handled");
// templates and skills expand after them; an extension command cannot be
// queued. The RPC steer and follow_up commands call these.
func (app *Agent) Steer(ctx context.Context, text string, images ...engine.Content) (string, error) {
	return app.queueMessage(ctx, text, images, false)
}

// FollowUp queues a message for when the run is done; see Steer.
func (app *Agent) FollowUp(ctx context.Context, text string, images ...engine.Content) (string, error) {
	return app.queueMessage(ctx, text, images, true)
}

func (app *Agent) queueMessage(ctx context.Context, text string, images []engine.Content, followUp bool) (string, error) {
	if name, ok := app.ext.CommandName(text); ok {
		return "", fmt.Errorf("Extension command \"/%s\" cannot be queued. Use prompt() or execute the command when not streaming.", name)
	}
	// The input handlers see a queued message first, as a prompt (the
	// reference's source "rpc"); skills and templates expand after them.
	behavior := "steer"
	if followUp {
		behavior = "followUp"
	}
	return app.session().Queue(ctx, text, images, engine.PromptOptions{StreamingBehavior: behavior, Source: "rpc", Expand: app.Expand})
}

// StopRun aborts what is still running when print mode is done (a turn a
// command triggered and did not await) and waits, briefly, for the
// aborted reply to be recorded, as the reference's dispose does before
// session_shutdown.
func (app *Agent) StopRun(ctx context.Context) {
	ctx, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	_ = app.session().Finish(ctx)
}

// Abort stops the current run, if any, and waits until the session is
// idle, a manual compaction included.
func (app *Agent) Abort() {
	if s := app.session(); s != nil {
		s.Abort()
	}
}

// Shutdown aborts the run and closes the agent so that every entry
// already completed is flushed before a signal exit.
func (app *Agent) Shutdown() {
	app.Abort()
	// Give the aborted run a moment to kill its tool processes and record
	// the aborted message; a stuck run must not keep the process alive.
	if s := app.session(); s != nil {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		_ = s.WaitIdle(ctx)
		cancel()
	}
	app.Close()
}

// OnShutdownRequest sets what an extension's ctx.shutdown() ends (the
// RPC server's loop); it runs once the session is idle.
func (app *Agent) OnShutdownRequest(stop func()) { app.ext.OnStop(stop) }

// Close ends the agent: the extensions see session_shutdown (once, and
// only if a session started), their runtime stops, and the session store
// is closed (its lock released). It is idempotent.
func (app *Agent) Close() {
	app.closeOnce.Do(func() {
		app.mu.Lock()
		w := app.warmer
		app.warmer = nil
		app.mu.Unlock()
		w.close()
		if app.started {
			app.ext.Shutdown()
		}
		app.ext.Close()
		app.closeMCP()
		app.closeStore()
	})
}

// closeStore releases the session store (and its lock) once.
func (app *Agent) closeStore() {
	app.mu.Lock()
	defer app.mu.Unlock()
	if app.closing {
		return
	}
	app.closing = true
	if app.store != nil {
		_ = app.store.Close()
	}
}
