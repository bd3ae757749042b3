package pi

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sync"

	"github.com/pi-go/pi/docs"
	"github.com/pi-go/pi/engine"
	"github.com/pi-go/pi/engine/compaction"
	"github.com/pi-go/pi/engine/config"
	"github.com/pi-go/pi/engine/session"
	"github.com/pi-go/pi/internal/starttrace"
	"github.com/pi-go/pi/jsruntime"
	"github.com/pi-go/pi/prompts"
	"github.com/pi-go/pi/skills"
)

// Agent is one assembled pi: settings, models and credentials,
// resources, extensions and tools around the active session, which it
// owns and replaces (new, switch, fork, clone, reload). Every face —
// print, JSON, RPC and an embedding Go program — drives one.
type Agent struct {
	opts     *Options
	mode     Mode
	stderr   io.Writer
	agentDir string
	cwd      string
	settings *config.Settings
	registry *config.Registry
	store    *session.File
	model    *engine.Model
	thinking engine.ThinkingLevel
	trusted  bool
	// ext is the extension runner (extensions.go); never nil once the
	// extensions are loaded.
	ext *jsruntime.Runner
	// sub is set on an extension's in-process sub-agent (subagent.go).
	sub *subAgentConfig
	// pkgs are the pi packages' resources (packages.go).
	pkgs pkgState
	// mcp is the built-in MCP support (mcp_builtin.go).
	mcp mcpBuiltin
	// llama is builtin:llama.cpp (llama_builtin.go).
	llama llamaBuiltin

	skills    []skills.Skill
	templates []prompts.Template
	// resources is discovery started early (resources.go).
	resources chan struct{}

	// flagErrors are extension flags given wrongly (a string flag
	// without its value), reported with the unknown ones.
	flagErrors []string

	// started is set once the session is about to start: Close emits
	// session_shutdown only then.
	started bool
	// header is the first session's header (Header).
	header engine.Header

	// subs are the Subscribe calls, moved to each replacement session.
	subMu sync.Mutex
	subs  []*agentSub

	// resMu guards what the extensions' resources and prompt options are
	// built from: promptOpts are the system prompt's options (for
	// before_agent_start's systemPromptOptions); baseSkills and
	// baseTemplates are the resources found before any extension's
	// resources_discover, the start of every generation's list.
	resMu         sync.Mutex
	promptOpts    prompts.Options
	baseSkills    []skills.Skill
	baseTemplates []prompts.Template
	baseSaved     bool

	closeOnce sync.Once
	// switcher replaces the active session (controller.go).
	switcher *session.Switcher

	mu      sync.Mutex
	sess    *engine.Session
	closing bool

	// cm is builtin:codemode and builtin:tool-search (codemode.go).
	cm codemodeState
	// warmer keeps sess's prompt cache warm (cachewarm.go).
	warmer *sessionWarmer
}

// wire loads settings and models and selects the session store; the
// model is resolved once extensions have registered their providers
// (resolveModel). Errors are startup failures (exit 1 unless they carry
// another code).
func wire(ctx context.Context, a *Options) (*Agent, error) {
	cwd := a.Cwd
	if cwd == "" {
		wd, err := os.Getwd()
		if err != nil {
			return nil, errors.New("Error: The current working directory no longer exists. Change to an existing directory and try again.")
		}
		cwd = wd
	}
	agentDir := a.AgentDir
	if agentDir == "" {
		agentDir = config.AgentDir()
	}
	stderr := a.Stderr
	if stderr == nil {
		stderr = os.Stderr
	}
	mode := a.Mode
	if mode == "" {
		mode = ModePrint
	}
	app := &Agent{opts: a, mode: mode, stderr: stderr, agentDir: agentDir, cwd: cwd}
	// Global settings decide the default trust; project settings load only
	// once the project is trusted.
	var err error
	if a.Settings != nil {
		app.settings = a.Settings
	} else if app.settings, err = config.Load(app.agentDir, cwd, false); err != nil {
		return nil, fmt.Errorf("Error: %w", err)
	}
	starttrace.Step("settings")
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
	if app.trusted && a.Settings == nil {
		if app.settings, err = config.Load(app.agentDir, cwd, true); err != nil {
			return nil, fmt.Errorf("Error: %w", err)
		}
	}
	starttrace.Step("trust")
	for _, w := range app.settings.Warnings() {
		fmt.Fprintln(stderr, "Warning:", w)
	}
	for _, w := range unbuiltSettingWarnings(app.settings) {
		fmt.Fprintln(stderr, "Warning:", w)
	}
	applyHTTPProxy(app.settings)
	applyHTTPIdleTimeout(app.settings)
	reg, errs := config.LoadModels(app.agentDir)
	for _, e := range errs {
		fmt.Fprintln(stderr, "Warning: errors loading models.json:", e)
	}
	enableBuiltinOAuth(reg)
	// A Radius account's own model list, kept by its last refresh, stands
	// in for the shipped one (models.json's Radius providers have only it).
	reg.ApplyStoredRadiusCatalogs()
	app.registry = reg
	app.setupLlama()
	starttrace.Step("models")
	if a.ListModelsOnly {
		return app, nil
	}
	f := a.Store
	if f == nil {
		var selWarnings []string
		f, selWarnings, err = session.Select(session.SelectOptions{
			AgentDir: app.agentDir, Cwd: cwd,
			SessionDir: a.SessionDir, EnvSessionDir: os.Getenv("PI_CODING_AGENT_SESSION_DIR"),
			SettingsSessionDir: app.settings.SessionDir(),
			Continue:           a.Continue, Resume: a.Resume, Session: a.Session, SessionID: a.SessionID,
			Fork: a.Fork, NoSession: a.NoSession, Name: a.SessionName,
			Notice: func(line string) { fmt.Fprintln(stderr, line) },
		})
		for _, w := range selWarnings {
			fmt.Fprintln(stderr, w)
		}
		if err != nil {
			return nil, err
		}
		if err := checkStoredCwd(f, cwd); err != nil {
			f.Close()
			return nil, err
		}
	}
	app.store = f
	starttrace.Step("session select")
	if c := f.Cwd(); c != "" && c != cwd {
		// An opened session runs in its own directory.
		app.cwd = c
	}
	app.resolvePackages(ctx)
	starttrace.Step("packages")
	app.prefetchResources()
	return app, nil
}

// restoreSessionModel makes a reopened session go on with the model and
// thinking level its branch last used, as the reference does, unless the
// command line names them. A model that is no longer configured, or has
// no credentials, leaves the resolved default in place.
func (app *Agent) restoreSessionModel(f *session.File) {
	if f.LeafID() == "" {
		return
	}
	// The store's index answers without decoding the branch.
	sc := f.BranchState()
	// The selection (a virtual model's model_change) needs only the
	// entry types and the messages' provider and model.
	if app.registry.HasVirtualModels() {
		sc.Model = app.branchSelection(f.LightBranch())
	}
	a := app.opts
	if a.Model == "" && a.Provider == "" && sc.Model != nil && sc.MessageCount > 0 {
		if m := app.registry.Find(sc.Model.Provider, sc.Model.ModelID); m != nil && app.registry.HasConfiguredAuth(m.Provider) {
			app.model = m
		} else if app.model != nil {
			fmt.Fprintf(app.stderr, "Could not restore model %s/%s. Using %s/%s\n", sc.Model.Provider, sc.Model.ModelID, app.model.Provider, app.model.ID)
		}
	}
	if a.Thinking != "" {
		return
	}
	if sc.HasThinkingLevel {
		app.thinking = engine.ClampThinkingLevel(app.model, sc.ThinkingLevel)
	}
}

// Cwd is the directory the session runs in.
func (app *Agent) Cwd() string { return app.cwd }

// ListModels renders the --list-models table.
func (app *Agent) ListModels(search string) string {
	return config.FormatModelList(app.registry.Available(), search)
}

// startSession builds the engine session over app.store and makes it
// current; the extensions are bound to it (session_start follows, held
// back in RPC mode until the server is wired).
func (app *Agent) startSession() (*engine.Session, error) {
	if app.model == nil {
		return nil, errors.New(config.NoModelsAvailableMessage())
	}
	app.loadResources()
	starttrace.Step("resources")
	app.ext.SetAfterStart(app.addExtensionResources)
	app.startMCP(context.Background())
	tools, err := app.tools()
	starttrace.Step("tools")
	if err != nil {
		return nil, err
	}
	sysPrompt, err := app.systemPrompt()
	if err != nil {
		return nil, err
	}
	starttrace.Step("system prompt")
	rs := engine.DefaultRuntimeSettings()
	app.applyRuntimeSettings(&rs)
	// The warmer asks the extensions themselves (their
	// cache_warming_decision handlers), not the /mcp wrapper around them.
	warmer := app.newSessionWarmer(app.ext.Hooks())
	sess, err := engine.NewSession(engine.SessionOptions{
		Store: app.store, Cwd: app.cwd, Model: app.model, ThinkingLevel: app.thinking,
		Tools: tools, ProviderFor: warmer.providerFor(app.providerFor), SwitchLevel: app.switchLevel,
		Selection: app.selection(), LimitsModel: app.limitsModel,
		BlockImages: app.settings.BlockImages,
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
		Hooks:        app.sessionHooks(),
	})
	if err != nil {
		return nil, fmt.Errorf("start session: %w", err)
	}
	warmer.bind(sess)
	app.mu.Lock()
	if app.sess == nil {
		app.header = app.store.Header()
	}
	app.sess = sess
	previous := app.warmer
	app.warmer = warmer
	app.mu.Unlock()
	// The replaced session's cache entry is of no further use.
	previous.close()
	app.rebindSubs(sess)
	starttrace.Step("session")
	app.ext.Bind(sess, "startup")
	starttrace.Step("ext bind")
	if app.switcher == nil {
		// The first session: the agent replaces it from now on, for every
		// face (controller.go).
		app.switcher = session.NewSwitcher(sess, app.store, app.startOver)
		app.switcher.Hooks = app.switchHooks()
		if app.ext.Active() {
			app.ext.SetController(app)
		}
	}
	return sess, nil
}

// systemPrompt returns the builder the session calls with the active
// tools: --system-prompt or SYSTEM.md replace the preamble, and
// --append-system-prompt or APPEND_SYSTEM.md add an addendum.
func (app *Agent) systemPrompt() (func([]engine.ToolInfo) engine.Sections, error) {
	trusted := app.trusted
	custom, appendParts, err := prompts.LoadSystemFiles(app.agentDir, app.cwd, trusted)
	if err != nil {
		return nil, fmt.Errorf("load system prompt files: %w", err)
	}
	if app.opts.SystemPrompt != nil {
		custom = prompts.ResolveTextOrFile(*app.opts.SystemPrompt)
	}
	if len(app.opts.AppendSystemPrompt) > 0 {
		appendParts = nil
		for _, p := range app.opts.AppendSystemPrompt {
			appendParts = append(appendParts, prompts.ResolveTextOrFile(p))
		}
	}
	custom, appendParts = app.sub.prompt(custom, appendParts)
	var ctxFiles []prompts.ContextFile
	if !app.opts.NoContextFiles {
		ctxFiles, err = prompts.LoadContextFiles(app.agentDir, app.cwd, trusted)
		if err != nil {
			return nil, fmt.Errorf("load context files: %w", err)
		}
	}
	opts := prompts.Options{Cwd: app.cwd, AgentDir: app.agentDir, DocsRoot: docsRoot(app.agentDir), CustomPrompt: custom,
		Append: appendParts, ContextFiles: ctxFiles, NoContextFiles: app.opts.NoContextFiles,
		Skills: skills.ToPromptRefs(app.skills)}
	app.setPromptBase(opts)
	return func(tools []engine.ToolInfo) engine.Sections {
		o := opts
		if app.ext.Active() {
			// A reload reads the context and system prompt files again
			// (reloadExtensions); the extension host holds the latest.
			o = app.promptBase()
		}
		o.Tools = tools
		// Extensions may add skills after session_start
		// (addExtensionResources), so the list is read per build.
		o.Skills = app.promptSkills()
		o.Extra = app.mcpPromptSections(o.Extra)
		return prompts.Build(o)
	}, nil
}

// docsRoot is where the system prompt says our documentation lives:
// PI_PACKAGE_DIR when set (a folder laid out like ours: docs.Index and
// docs.Pages), else the copy embedded in the binary, unpacked once under
// <agentDir>/cache/docs/<content hash>/ (one stat when it is already
// there). A cache that cannot be written leaves the docs section out
// rather than failing the start or naming files that do not exist.
func docsRoot(agentDir string) string {
	if d := os.Getenv("PI_PACKAGE_DIR"); d != "" {
		return d
	}
	if agentDir == "" {
		return ""
	}
	dir, err := docs.Extract(filepath.Join(agentDir, "cache", "docs"))
	if err != nil {
		return ""
	}
	return dir
}

// applyRuntimeSettings copies the settings the runtime reads.
func (app *Agent) applyRuntimeSettings(rs *engine.RuntimeSettings) {
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
	rs.BranchSummaryReserveTokens, _ = s.BranchSummary()
	rs.CompactionModelOverrides = s.CompactionModelOverrides()
}

// session returns the engine session once Runner has built it.
func (app *Agent) session() *engine.Session {
	app.mu.Lock()
	defer app.mu.Unlock()
	return app.sess
}

// firstHeader is the header of the session the agent started with.
func (app *Agent) firstHeader() engine.Header {
	app.mu.Lock()
	defer app.mu.Unlock()
	return app.header
}

// setPromptBase records the system prompt's options once they are built.
func (app *Agent) setPromptBase(o prompts.Options) {
	app.resMu.Lock()
	app.promptOpts = o
	app.resMu.Unlock()
}

// promptBase is what the system prompt is built from.
func (app *Agent) promptBase() prompts.Options {
	app.resMu.Lock()
	defer app.resMu.Unlock()
	return app.promptOpts
}

// checkStoredCwd refuses to reopen a session whose working directory is
// gone, as the reference does in every headless mode: the tools would run
// somewhere else than the transcript says.
func checkStoredCwd(f *session.File, cwd string) error {
	c := f.Cwd()
	if c == "" || c == cwd {
		return nil
	}
	if fi, err := os.Stat(c); err == nil && fi.IsDir() {
		return nil
	}
	return &session.ExitError{Code: 1, Message: fmt.Sprintf("Stored session working directory does not exist: %s\nSession file: %s\nCurrent working directory: %s", c, f.Path(), cwd)}
}
