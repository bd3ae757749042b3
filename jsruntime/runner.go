package jsruntime

import (
	"context"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/pi-go/pi/engine"
)

// Runner is the extension host of one agent: the loaded extensions and
// their life across session replacement and reload, as the reference's
// extension runner. It owns the current generation (an API and the
// runtime it runs in), the session_start timing, the CLI flags the
// extensions claimed, the UI and session control every generation gets,
// and where extension errors go. Its Hooks are the session's hooks: they
// always dispatch to the current generation, so a reload reaches the
// session that stays.
//
// The reference retires its runner whenever the session is replaced
// (ctx.newSession, ctx.fork, ctx.switchSession, RPC new_session,
// switch_session, fork, clone) or reloaded (ctx.reload), and loads the
// extensions afresh: every factory runs again, so tools, commands, flags,
// providers and handlers are registered again, and the new generation sees
// session_start (with the replacement's reason) and resources_discover.
// The order, as recorded from pi 1.6.0:
//
//	session_before_switch / session_before_fork   (old generation)
//	session_shutdown {reason, targetSessionFile}  (old generation)
//	old generation stale from here on
//	factories                                     (new generation)
//	session_start {reason, previousSessionFile}   (new generation)
//	resources_discover {reason: "startup"}        (new generation)
//	withSession(ctx)                              (the caller's closure)
//
// and for a reload: session_shutdown {reason: "reload"}, the old
// generation stale, the context files, skills and templates read again,
// the factories, session_start {reason: "reload"}, resources_discover
// {reason: "reload"}.
//
// All generations share one goja VM (Runtime.NextGenerationOf), as the
// reference's share one Node process: a replacement calls the cached
// factories again, so module state carries over, while a reload
// evaluates the modules afresh; globalThis and the timers of retired
// generations live on. A retired generation is stale: its pi and ctx
// throw the reference's error (StaleMessage), except through the
// withSession callback, which gets the new generation's ctx.
type Runner struct {
	opts RunnerOptions

	mu  sync.Mutex
	api *API
	rt  *Runtime
	// publish routes extension errors to the session's event stream (RPC
	// mode); nil prints them to stderr as print mode does.
	publish func(engine.Event)
	started bool
	// pending is a startup session_start held back by DeferStart.
	deferStart bool
	pending    string
	// afterStart runs once the startup session_start handlers are done:
	// resources_discover follows them, as in the reference.
	afterStart func()
	// stop ends the face's main loop; ctx.shutdown() calls it.
	stop     func()
	shutDown bool
	// flags are the CLI values claimed at start, applied again to each
	// generation so pi.getFlag keeps answering them.
	flags []flagSet
	// ui and ctl are what each generation's ctx.ui and session control
	// use; nil keeps the defaults.
	ui  engine.UI
	ctl engine.SessionController
	// retiring are the generations the last replacement retired, bound to
	// the new session once it starts.
	retiring []*API
}

// RunnerOptions say where the extensions come from and what each
// generation's API gets.
type RunnerOptions struct {
	AgentDir string
	Cwd      string
	// Argv is process.argv.
	Argv []string
	// Stderr receives console output and, until SetPublish, extension
	// errors; nil is os.Stderr.
	Stderr io.Writer
	// DeferStart holds the startup session_start until ReleaseStart, so
	// that its ctx.ui calls reach an RPC client once the server is wired.
	DeferStart bool
	// Sources finds the extensions to load. It is called again for each
	// later generation, as the reference's new resource loader looks for
	// them again (the folders and the settings' lists as they are now).
	Sources func() []Source
	// API gives a new generation's API options (the program's settings,
	// models, built-in tools, prompt options …).
	API func() APIOptions
}

// flagSet is one CLI flag value an extension claimed.
type flagSet struct {
	name, value string
	isBool      bool
}

// NewRunner makes a runner; Load loads the first generation.
func NewRunner(opts RunnerOptions) *Runner {
	if opts.Stderr == nil {
		opts.Stderr = os.Stderr
	}
	return &Runner{opts: opts, deferStart: opts.DeferStart}
}

// Load loads the first generation into a new runtime. Without any source
// the runner stays inactive (Active false, NopHooks). Load failures come
// back as LoadErrors (the reference exits on them); an error means the
// host itself failed.
func (r *Runner) Load(ctx context.Context) ([]LoadError, error) {
	sources := r.opts.Sources()
	if len(sources) == 0 {
		return nil, nil
	}
	api := NewAPI(r.opts.API())
	rt, loadErrs, err := Load(ctx, LoadOptions{
		AgentDir: r.opts.AgentDir, Cwd: r.opts.Cwd, Sources: sources, Stderr: r.opts.Stderr,
		OnError: r.Report, Host: api.Host(), Argv: r.opts.Argv,
	})
	if err != nil {
		return nil, err
	}
	if len(loadErrs) > 0 {
		rt.Close()
		return loadErrs, nil
	}
	r.mu.Lock()
	r.api, r.rt = api, rt
	r.mu.Unlock()
	return nil, nil
}

// Current returns the current generation's API and runtime (nil when no
// extension is loaded).
func (r *Runner) Current() (*API, *Runtime) {
	if r == nil {
		return nil, nil
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.api, r.rt
}

// Active reports whether any extension is loaded.
func (r *Runner) Active() bool {
	api, rt := r.Current()
	return api != nil && rt != nil
}

// Hooks are the session's hooks: the current generation's handlers, or
// none without extensions.
func (r *Runner) Hooks() engine.Hooks {
	if !r.Active() {
		return engine.NopHooks{}
	}
	return hooks{runner: r}
}

// Tools returns the extension tools that start active.
func (r *Runner) Tools() []engine.Tool {
	api, _ := r.Current()
	if api == nil {
		return nil
	}
	var out []engine.Tool
	for _, t := range api.ExtTools() {
		if t.DefaultActive() {
			out = append(out, t)
		}
	}
	return out
}

// Report routes an extension error: on the session's event stream once
// SetPublish was called, else to stderr as print mode prints it.
func (r *Runner) Report(e ExtensionError) {
	r.mu.Lock()
	pub := r.publish
	r.mu.Unlock()
	if pub != nil {
		pub(engine.ExtensionError{ExtensionPath: e.Path, Event: e.Event, Error: e.Error})
		return
	}
	fmt.Fprintf(r.opts.Stderr, "Extension error (%s): %s\n", e.Path, e.Error)
}

// SetPublish routes extension errors to fn (RPC mode: the session's event
// stream) instead of stderr.
func (r *Runner) SetPublish(fn func(engine.Event)) {
	r.mu.Lock()
	r.publish = fn
	r.mu.Unlock()
}

// SetUI sets ctx.ui's backend for this and every later generation.
func (r *Runner) SetUI(ui engine.UI) {
	r.mu.Lock()
	r.ui = ui
	api := r.api
	r.mu.Unlock()
	if api != nil {
		api.SetUI(ui)
	}
}

// SetController sets the session control (ctx.newSession, fork,
// switchSession, reload) for this and every later generation.
func (r *Runner) SetController(ctl engine.SessionController) {
	r.mu.Lock()
	r.ctl = ctl
	api := r.api
	r.mu.Unlock()
	if api != nil {
		api.SetSessionController(ctl)
	}
}

// ClaimFlags hands the command line's unknown long flags to the
// extensions that registered them and returns the ones nobody claimed
// and the messages for string flags given without a value. A boolean
// flag is true once given: a following word the parser took as its value
// is gone, whatever it says ("--loud false" is true too), as in the
// reference.
func (r *Runner) ClaimFlags(flags []Flag) (unclaimed []Flag, invalid []string) {
	api, _ := r.Current()
	for _, f := range flags {
		var def *FlagDef
		if api != nil {
			for _, d := range api.Flags() {
				if d.Name == f.Name {
					d := d
					def = &d
					break
				}
			}
		}
		switch {
		case def == nil:
			unclaimed = append(unclaimed, f)
		case def.Type == "boolean":
			r.setFlag(flagSet{name: f.Name, isBool: true})
		case f.Bool:
			invalid = append(invalid, fmt.Sprintf("Extension flag %q requires a value", "--"+f.Name))
		default:
			r.setFlag(flagSet{name: f.Name, value: f.Value})
		}
	}
	return unclaimed, invalid
}

// Flag is a command-line long flag offered to the extensions.
type Flag struct {
	Name  string
	Value string
	// Bool is set when the flag took no value.
	Bool bool
}

// setFlag applies a claimed flag value and remembers it for later
// generations.
func (r *Runner) setFlag(f flagSet) {
	r.mu.Lock()
	r.flags = append(r.flags, f)
	api := r.api
	r.mu.Unlock()
	if api != nil {
		api.SetFlag(f.name, f.value, f.isBool)
	}
}

// SetAfterStart sets what runs once the startup session_start handlers
// are done (resources_discover).
func (r *Runner) SetAfterStart(fn func()) {
	r.mu.Lock()
	r.afterStart = fn
	r.mu.Unlock()
}

func (r *Runner) runAfterStart() {
	r.mu.Lock()
	fn := r.afterStart
	r.afterStart = nil
	r.mu.Unlock()
	if fn != nil {
		fn()
	}
}

// Bind attaches a session to the current generation and announces it
// with session_start; a later "startup" bind (a replacement session,
// announced by StartGeneration) only attaches.
func (r *Runner) Bind(s *engine.Session, reason string) {
	api, _ := r.Current()
	if api == nil {
		return
	}
	ctx := context.Background()
	_ = api.Bind(ctx, s)
	r.mu.Lock()
	first := !r.started
	r.started = true
	if !first && reason == "startup" {
		r.mu.Unlock()
		return
	}
	if r.deferStart {
		r.pending = reason
		r.mu.Unlock()
		return
	}
	r.mu.Unlock()
	r.emitStart(ctx, reason)
}

// emitStart emits session_start; after the startup one, what afterStart
// holds follows, as in the reference.
func (r *Runner) emitStart(ctx context.Context, reason string) {
	api, _ := r.Current()
	api.Emit(ctx, "session_start", Field{Key: "reason", Value: reason})
	if reason == "startup" {
		r.runAfterStart()
	}
}

// ReleaseStart emits a session_start held back by DeferStart.
func (r *Runner) ReleaseStart() {
	r.mu.Lock()
	reason := r.pending
	r.pending, r.deferStart = "", false
	r.mu.Unlock()
	if reason != "" {
		r.emitStart(context.Background(), reason)
	}
}

// OnStop sets what an extension's ctx.shutdown() ends; Stop calls it.
func (r *Runner) OnStop(stop func()) {
	r.mu.Lock()
	r.stop = stop
	r.mu.Unlock()
}

// Stop calls what OnStop set, if anything.
func (r *Runner) Stop() {
	r.mu.Lock()
	stop := r.stop
	r.mu.Unlock()
	if stop != nil {
		stop()
	}
}

// Shutdown emits session_shutdown {reason: "quit"} once. The handlers'
// promises are awaited; work they leave behind (a timer, an exec not
// awaited) is dropped at exit, as the reference's process.exit after
// dispose drops it.
func (r *Runner) Shutdown() {
	api, _ := r.Current()
	if api == nil {
		return
	}
	r.mu.Lock()
	done := r.shutDown
	r.shutDown = true
	r.mu.Unlock()
	if done {
		return
	}
	api.Emit(context.Background(), "session_shutdown", Field{Key: "reason", Value: "quit"})
}

// Close stops the runtime. A task still running (an extension's endless
// loop) cannot hold the caller: after a second the runtime is left to
// stop on its own.
func (r *Runner) Close() {
	_, rt := r.Current()
	if rt == nil {
		return
	}
	done := make(chan struct{})
	go func() {
		rt.Close()
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(time.Second):
	}
}

// IsCommand reports whether text invokes an extension command.
func (r *Runner) IsCommand(text string) bool {
	api, _ := r.Current()
	if api == nil || len(text) < 2 || text[0] != '/' {
		return false
	}
	return api.IsCommand(context.Background(), text)
}

// CommandName returns the name of the extension command text invokes,
// if any.
func (r *Runner) CommandName(text string) (string, bool) {
	if !r.IsCommand(text) {
		return "", false
	}
	return strings.TrimPrefix(strings.Fields(text + " ")[0], "/"), true
}

// NextGeneration retires the current generation (it is stale from now
// on, as the reference's runner is once its session is disposed) and
// loads the next into the same VM: from the module cache for a session
// replacement, from the files again for a reload. The retired generation
// stays bound to the old session until StartGeneration moves it along:
// the command that asked for the replacement still runs there (its
// withSession callback, then the rest of its handler). Extensions that
// fail to load now are left out without a word, as the reference's reload
// and replacement do (checked live: no extension_error, nothing on
// stderr); a host failure is reported and keeps the retired generation
// current.
func (r *Runner) NextGeneration(ctx context.Context, reload bool) {
	old, rt := r.Current()
	if old == nil {
		return
	}
	old.Invalidate(ctx)
	old.PinSessionManager()
	api := NewAPI(r.opts.API())
	nrt, _, err := rt.NextGenerationOf(context.WithoutCancel(ctx), api.Host(), reload, r.opts.Sources())
	if err != nil {
		r.Report(ExtensionError{Event: "load", Error: err.Error()})
		return
	}
	r.mu.Lock()
	flags, ui, ctl := r.flags, r.ui, r.ctl
	r.mu.Unlock()
	for _, f := range flags {
		api.SetFlag(f.name, f.value, f.isBool)
	}
	if ui != nil {
		api.SetUI(ui)
	}
	if ctl != nil {
		api.SetSessionController(ctl)
	}
	old.SetSuccessor(api)
	r.mu.Lock()
	r.api, r.rt = api, nrt
	r.retiring = append(r.retiring, old)
	r.mu.Unlock()
	// Providers the new factories registered apply at once: the session
	// that follows resolves its model through them.
	_ = api.FlushProviders()
}

// StartGeneration announces sess to the current generation: before runs
// first (the program reads its skills and templates again, as the
// reference's new resource loader has them by session_start), then
// session_start with reason and the previous file, then after
// (resources_discover). The generations the last replacement retired are
// bound to sess too: the command that replaced the session sends its
// withSession messages through them.
func (r *Runner) StartGeneration(ctx context.Context, sess *engine.Session, reason, prev string, before, after func()) {
	api, _ := r.Current()
	if api == nil {
		return
	}
	_ = api.Bind(ctx, sess)
	fields := []Field{{Key: "reason", Value: reason}}
	if prev != "" {
		fields = append(fields, Field{Key: "previousSessionFile", Value: prev})
	}
	if before != nil {
		before()
	}
	api.Emit(ctx, "session_start", fields...)
	if after != nil {
		after()
	}
	r.mu.Lock()
	old := r.retiring
	r.retiring = nil
	r.mu.Unlock()
	for _, a := range old {
		if a != nil {
			_ = a.Bind(ctx, sess)
		}
	}
}
