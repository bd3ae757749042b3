package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/pi-go/pi/engine"
	"github.com/pi-go/pi/engine/compaction"
	"github.com/pi-go/pi/engine/config"
	"github.com/pi-go/pi/engine/session"
	"github.com/pi-go/pi/prompts"
	"github.com/pi-go/pi/skills"
)

// App is everything a run needs, wired from flags, settings and the
// agent directory.
type App struct {
	args     *Args
	mode     AppMode
	stderr   io.Writer
	agentDir string
	cwd      string
	settings *config.Settings
	registry *config.Registry
	store    *session.File
	model    *engine.Model
	thinking engine.ThinkingLevel
	trusted  bool
	// ext is the extension runtime (extensions.go); never nil after Wire.
	ext *extHost

	skills    []skills.Skill
	templates []prompts.Template
	// resources is discovery started early (resources.go).
	resources chan struct{}

	mu      sync.Mutex
	sess    *engine.Session
	closing bool
}

// Wire loads settings and models and selects the session store; the
// model is resolved once extensions have registered their providers
// (resolveModel). Errors are startup failures (exit 1 unless they carry
// another code).
func Wire(ctx context.Context, a *Args, mode AppMode, stderr io.Writer) (*App, error) {
	cwd, err := os.Getwd()
	if err != nil {
		return nil, errors.New("Error: The current working directory no longer exists. Change to an existing directory and try again.")
	}
	app := &App{args: a, mode: mode, stderr: stderr, agentDir: config.AgentDir(), cwd: cwd}
	// Global settings decide the default trust; project settings load only
	// once the project is trusted.
	app.settings, err = config.Load(app.agentDir, cwd, false)
	if err != nil {
		return nil, fmt.Errorf("Error: %w", err)
	}
	startTrace.step("settings")
	flags := config.TrustFlags{Approve: a.Approve != nil && *a.Approve, NoApprove: a.Approve != nil && !*a.Approve}
	// Without a flag, the user and CLI extensions' project_trust handlers
	// decide an undecided project first (trust_ext.go).
	decided := false
	if !flags.Approve && !flags.NoApprove && config.NeedsTrust(cwd) {
		app.trusted, decided = app.extensionTrust(ctx)
	}
	if !decided {
		app.trusted, err = config.ProjectTrusted(app.agentDir, cwd, flags, app.settings)
		if err != nil {
			return nil, fmt.Errorf("Error: %w", err)
		}
	}
	if app.trusted {
		if app.settings, err = config.Load(app.agentDir, cwd, true); err != nil {
			return nil, fmt.Errorf("Error: %w", err)
		}
	}
	startTrace.step("trust")
	for _, w := range app.settings.Warnings() {
		fmt.Fprintln(stderr, "Warning:", w)
	}
	reg, errs := config.LoadModels(app.agentDir)
	for _, e := range errs {
		fmt.Fprintln(stderr, "Warning: errors loading models.json:", e)
	}
	enableBuiltinOAuth(reg)
	app.registry = reg
	startTrace.step("models")
	if a.ListModels != nil {
		return app, nil
	}
	f, selWarnings, err := session.Select(session.SelectOptions{
		AgentDir: app.agentDir, Cwd: cwd,
		SessionDir: a.SessionDir, EnvSessionDir: os.Getenv("PI_CODING_AGENT_SESSION_DIR"),
		SettingsSessionDir: app.settings.SessionDir(),
		Continue:           a.Continue, Resume: a.Resume, Session: a.Session, SessionID: a.SessionID,
		Fork: a.Fork, NoSession: a.NoSession, Name: a.Name,
		Notice: func(line string) { fmt.Fprintln(stderr, line) },
	})
	for _, w := range selWarnings {
		fmt.Fprintln(stderr, w)
	}
	if err != nil {
		return nil, err
	}
	app.store = f
	startTrace.step("session select")
	if c := f.Cwd(); c != "" && c != cwd {
		// An opened session runs in its own directory.
		app.cwd = c
	}
	app.prefetchResources()
	return app, nil
}

// restoreSessionModel makes a reopened session go on with the model and
// thinking level its branch last used, as the reference does, unless the
// command line names them. A model that is no longer configured, or has
// no credentials, leaves the resolved default in place.
func (app *App) restoreSessionModel(f *session.File) {
	branch := f.Branch()
	if len(branch) == 0 {
		return
	}
	sc := engine.BuildContext(branch)
	a := app.args
	if a.Model == "" && a.Provider == "" && sc.Model != nil && len(sc.Messages) > 0 {
		if m := app.registry.Find(sc.Model.Provider, sc.Model.ModelID); m != nil && app.registry.HasConfiguredAuth(m.Provider) {
			app.model = m
		} else if app.model != nil {
			fmt.Fprintf(app.stderr, "Could not restore model %s/%s. Using %s/%s\n", sc.Model.Provider, sc.Model.ModelID, app.model.Provider, app.model.ID)
		}
	}
	if a.Thinking != "" {
		return
	}
	for _, e := range branch {
		if e.Type == engine.EntryThinkingLevelChange {
			app.thinking = engine.ClampThinkingLevel(app.model, sc.ThinkingLevel)
			return
		}
	}
}

// Cwd is the directory the session runs in.
func (app *App) Cwd() string { return app.cwd }

// ListModels renders the --list-models table.
func (app *App) ListModels(search string) string {
	return config.FormatModelList(app.registry.Available(), search)
}

// Runner builds the engine session and returns it adapted for print mode.
func (app *App) Runner() (Runner, error) {
	if app.model == nil {
		return nil, errors.New(config.NoModelsAvailableMessage())
	}
	app.loadResources()
	startTrace.step("resources")
	app.ext.setAfterStart(app.addExtensionResources)
	tools, err := app.tools()
	startTrace.step("tools")
	if err != nil {
		return nil, err
	}
	sysPrompt, err := app.systemPrompt()
	if err != nil {
		return nil, err
	}
	startTrace.step("system prompt")
	rs := engine.DefaultRuntimeSettings()
	app.applyRuntimeSettings(&rs)
	sess, err := engine.NewSession(engine.SessionOptions{
		Store: app.store, Cwd: app.cwd, Model: app.model, ThinkingLevel: app.thinking,
		Tools: tools, ProviderFor: app.providerFor,
		APIKey: func(m *engine.Model) (string, error) {
			key, _, err := app.registry.RequestAuth(m)
			if err != nil {
				return "", err
			}
			if key == "" && app.registry.UsesOAuth(m.Provider) {
				// The stored OAuth credential gives the key per request
				// (providerFor).
				return "", nil
			}
			if key == "" {
				return "", errors.New(config.NoAPIKeyMessage(m.Provider))
			}
			return key, nil
		},
		SystemPrompt: sysPrompt,
		Settings:     rs,
		Compactor:    compaction.Compactor{},
		Hooks:        app.ext.hooks(),
	})
	if err != nil {
		return nil, fmt.Errorf("start session: %w", err)
	}
	app.mu.Lock()
	app.sess = sess
	app.mu.Unlock()
	startTrace.step("session")
	app.ext.bind(sess, "startup")
	startTrace.step("ext bind")
	runner := &sessionRunner{s: sess, store: app.store, expand: app.expandInput}
	if app.mode != ModeRPC && app.ext.active() && app.ext.ctlUnset() {
		// Print and JSON modes replace sessions too (lifecycle.go).
		app.headlessController(sess, app.store, runner)
	}
	return runner, nil
}

// systemPrompt returns the builder the session calls with the active
// tools: --system-prompt or SYSTEM.md replace the preamble, and
// --append-system-prompt or APPEND_SYSTEM.md add an addendum.
func (app *App) systemPrompt() (func([]engine.ToolInfo) engine.Sections, error) {
	trusted := app.trusted
	custom, appendParts, err := prompts.LoadSystemFiles(app.agentDir, app.cwd, trusted)
	if err != nil {
		return nil, fmt.Errorf("load system prompt files: %w", err)
	}
	if app.args.SystemPrompt != nil {
		custom = prompts.ResolveTextOrFile(*app.args.SystemPrompt)
	}
	if len(app.args.AppendSystem) > 0 {
		appendParts = nil
		for _, p := range app.args.AppendSystem {
			appendParts = append(appendParts, prompts.ResolveTextOrFile(p))
		}
	}
	var ctxFiles []prompts.ContextFile
	if !app.args.NoContextFiles {
		ctxFiles, err = prompts.LoadContextFiles(app.agentDir, app.cwd, trusted)
		if err != nil {
			return nil, fmt.Errorf("load context files: %w", err)
		}
	}
	opts := prompts.Options{Cwd: app.cwd, AgentDir: app.agentDir, DocsRoot: docsRoot(), CustomPrompt: custom,
		Append: appendParts, ContextFiles: ctxFiles, NoContextFiles: app.args.NoContextFiles,
		Skills: skills.ToPromptRefs(app.skills)}
	app.ext.setPromptBase(opts)
	return func(tools []engine.ToolInfo) engine.Sections {
		o := opts
		if app.ext.active() {
			// A reload reads the context and system prompt files again
			// (reloadExtensions); the extension host holds the latest.
			o = app.ext.prompt()
		}
		o.Tools = tools
		// Extensions may add skills after session_start
		// (addExtensionResources), so the list is read per build.
		o.Skills = app.promptSkills()
		return prompts.Build(o)
	}, nil
}

// docsRoot is where our documentation lives: PI_PACKAGE_DIR when set,
// else the directory of the executable.
func docsRoot() string {
	if d := os.Getenv("PI_PACKAGE_DIR"); d != "" {
		return d
	}
	exe, err := os.Executable()
	if err != nil {
		return ""
	}
	return strings.TrimSuffix(exe, "/pi")
}

// applyRuntimeSettings copies the settings the runtime reads.
func (app *App) applyRuntimeSettings(rs *engine.RuntimeSettings) {
	s := app.settings
	r := s.Retry()
	rs.Retry.Enabled = r.Enabled
	rs.Retry.MaxRetries = r.MaxRetries
	rs.Retry.BaseDelayMs = int64(r.BaseDelayMs)
	rs.Retry.MaxAgentDelayMs = int64(r.MaxAgentDelayMs)
	rs.SteeringMode = s.SteeringMode()
	rs.FollowUpMode = s.FollowUpMode()
	rs.ThinkingBudgets = s.CustomThinkingBudgets()
	c := s.Compaction()
	rs.AutoCompaction = c.Enabled
	rs.CompactionReserveTokens = c.ReserveTokens
	rs.CompactionKeepRecentTokens = c.KeepRecentTokens
}

// session returns the engine session once Runner has built it.
func (app *App) session() *engine.Session {
	app.mu.Lock()
	defer app.mu.Unlock()
	return app.sess
}

// Abort stops the current run, if any (SIGINT).
func (app *App) Abort() {
	app.mu.Lock()
	s := app.sess
	app.mu.Unlock()
	if s != nil {
		s.Abort()
	}
}

// Shutdown aborts the run and closes the session so that every entry
// already completed is flushed before a signal exit.
func (app *App) Shutdown() {
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

// Close releases the session store (and its lock). It is idempotent.
func (app *App) Close() {
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

// sessionRunner adapts engine.Session to Runner. An extension may replace
// the session (ctx.newSession and friends): the runner then follows the
// new one, its subscriptions moved over (rebind).
type sessionRunner struct {
	mu     sync.Mutex
	s      *engine.Session
	store  *session.File
	expand func(string) string
	subs   []*runnerSub
}

// runnerSub is one Subscribe call, moved to each replacement session.
type runnerSub struct {
	fn    func(engine.Event)
	unsub func()
}

func (r *sessionRunner) sess() *engine.Session {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.s
}

// rebind makes s the runner's session.
func (r *sessionRunner) rebind(s *engine.Session) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.s = s
	for _, sub := range r.subs {
		if sub.unsub != nil {
			sub.unsub()
		}
		sub.unsub = s.Subscribe(sub.fn)
	}
}

// Header is the first session's header: a replacement session writes no
// new header line, as in the reference.
func (r *sessionRunner) Header() engine.Header { return r.store.Header() }

func (r *sessionRunner) Subscribe(fn func(engine.Event)) func() {
	r.mu.Lock()
	sub := &runnerSub{fn: fn, unsub: r.s.Subscribe(fn)}
	r.subs = append(r.subs, sub)
	r.mu.Unlock()
	return func() {
		r.mu.Lock()
		defer r.mu.Unlock()
		if sub.unsub != nil {
			sub.unsub()
			sub.unsub = nil
		}
		r.subs = slices.DeleteFunc(r.subs, func(x *runnerSub) bool { return x == sub })
	}
}

// Messages leaves out a reply that print mode's closing aborted before
// its request (engine.Session.PrintedMessages).
func (r *sessionRunner) Messages() []*engine.Message { return r.sess().PrintedMessages() }

// StopRun aborts what is still running when print mode is done (a turn
// a command triggered and did not await) and waits, briefly, for the
// aborted reply to be recorded, as the reference's dispose does before
// session_shutdown.
func (r *sessionRunner) StopRun(ctx context.Context) {
	ctx, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	_ = r.sess().Finish(ctx)
}

// Prompt starts the prompt and waits for the session to go idle, so the
// next prompt starts on a settled session.
func (r *sessionRunner) Prompt(ctx context.Context, text string, images []engine.Content) error {
	return r.prompt(ctx, text, images, false)
}

// PromptFinal is Prompt for print mode's last prompt: the session closes
// once its input hook (a command's handler) is done.
func (r *sessionRunner) PromptFinal(ctx context.Context, text string, images []engine.Content) error {
	return r.prompt(ctx, text, images, true)
}

func (r *sessionRunner) prompt(ctx context.Context, text string, images []engine.Content, final bool) error {
	s := r.sess()
	// Expansion runs inside Prompt, after the input hook saw the raw text.
	// The reference's print mode prompts as the terminal would: input
	// handlers see source "interactive".
	disp, err := s.Prompt(ctx, text, images, engine.PromptOptions{Expand: r.expand, Source: "interactive", Final: final})
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
	return r.sess().WaitIdle(ctx)
}
