package pi

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/pi-go/pi/builtins"
	"github.com/pi-go/pi/engine"
	"github.com/pi-go/pi/engine/config"
	"github.com/pi-go/pi/jsruntime"
	"github.com/pi-go/pi/prompts"
	"github.com/pi-go/pi/skills"
)

// extHost is the loaded extension runtime of one process and what cmd/pi
// needs from it: hooks and tools for the session, commands for RPC, and
// where extension errors go in the current mode.
type extHost struct {
	api    *jsruntime.API
	rt     *jsruntime.Runtime
	stderr io.Writer

	mu      sync.Mutex
	publish func(engine.Event) // RPC: extension_error records on the stream
	started bool
	// deferStart holds session_start in RPC mode until the UI bridge and
	// the error stream are wired, so its ctx.ui calls reach the client.
	deferStart bool
	pending    string
	// stop ends the process's main loop (RPC mode's Serve); ctx.shutdown()
	// calls it once the session is idle.
	stop func()
	// shutDown is set once session_shutdown has been emitted.
	shutDown bool
	// promptBase is what the system prompt is built from, for
	// before_agent_start's systemPromptOptions.
	promptBase prompts.Options
	// afterStart runs once the startup session_start handlers are done:
	// resources_discover follows them, as in the reference.
	afterStart func()

	// The fields below serve session replacement and reload, which load
	// the extensions afresh (lifecycle.go).
	//
	// load builds a generation: the first from the sources, later ones
	// in the same VM (reload: from the files again, else from the
	// module cache).
	load func(ctx context.Context, reload bool) (*jsruntime.API, *jsruntime.Runtime, []jsruntime.LoadError, error)
	// flagSets are the CLI values claimed at start, applied again to each
	// generation so pi.getFlag keeps answering them.
	flagSets []flagSet
	// ui and ctl are what each generation's ctx.ui and session control
	// use (RPC: the UI bridge and the server); nil keeps the defaults.
	ui  engine.UI
	ctl engine.SessionController
	// baseSkills and baseTemplates are the resources found before any
	// extension's resources_discover, the start of every generation's list.
	baseSkills    []skills.Skill
	baseTemplates []prompts.Template
	baseSaved     bool
	// retiring are the generations the last replacement retired, bound
	// to the new session once it starts (lifecycle.go).
	retiring []*jsruntime.API
}

// flagSet is one CLI flag value an extension claimed.
type flagSet struct {
	name, value string
	isBool      bool
}

// cur returns the current generation's API and runtime.
func (h *extHost) cur() (*jsruntime.API, *jsruntime.Runtime) {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.api, h.rt
}

// setAfterStart sets what runs after the startup session_start.
func (h *extHost) setAfterStart(fn func()) {
	if h == nil {
		return
	}
	h.mu.Lock()
	h.afterStart = fn
	h.mu.Unlock()
}

// runAfterStart runs afterStart once.
func (h *extHost) runAfterStart() {
	h.mu.Lock()
	fn := h.afterStart
	h.afterStart = nil
	h.mu.Unlock()
	if fn != nil {
		fn()
	}
}

// setPromptBase records the prompt options once the session's prompt is
// set up.
func (h *extHost) setPromptBase(o prompts.Options) {
	if h == nil {
		return
	}
	h.mu.Lock()
	h.promptBase = o
	h.mu.Unlock()
}

func (h *extHost) prompt() prompts.Options {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.promptBase
}

// ErrExtensionLoad marks a fatal extension load failure, already
// reported on Options.Stderr (each failure, then the -ne hint).
var ErrExtensionLoad = errors.New("extension load failed")

// loadExtensions discovers and loads the extensions, then claims the CLI
// flags they registered. Load failures are fatal as in the reference:
// each is printed, followed by the -ne hint, and the process exits 1.
func (app *Agent) loadExtensions(ctx context.Context) error {
	sources := app.extensionSources()
	h := &extHost{stderr: app.stderr, deferStart: app.mode == ModeRPC}
	app.ext = h
	if len(sources) == 0 {
		return app.claimFlags()
	}
	h.load = func(ctx context.Context, reload bool) (*jsruntime.API, *jsruntime.Runtime, []jsruntime.LoadError, error) {
		_, prev := h.cur()
		if prev != nil {
			// A reload and a session replacement look for the extensions
			// again, as the reference's new resource loader does: the
			// folders' files and the settings' "extensions" lists as they
			// are now (the settings were read again just before), under
			// the trust decided at start.
			sources = app.extensionSources()
		}
		return app.loadGeneration(ctx, h, sources, prev, reload)
	}
	api, rt, loadErrs, err := h.load(ctx, false)
	if err != nil {
		return fmt.Errorf("Error: load extensions: %w", err)
	}
	if len(loadErrs) > 0 {
		for _, le := range loadErrs {
			fmt.Fprintln(app.stderr, "Error: "+le.Error())
		}
		fmt.Fprintln(app.stderr, jsruntime.LoadFailureHint)
		rt.Close()
		return ErrExtensionLoad
	}
	h.mu.Lock()
	h.api, h.rt = api, rt
	h.mu.Unlock()
	return app.claimFlags()
}

// extensionSources discovers the extensions to load: -e paths, the
// agent's and (trusted) project's extensions folders, and the "extensions"
// lists of the global and (trusted) project settings.
func (app *Agent) extensionSources() []jsruntime.Source {
	a := app.opts
	global := toStringSlice(app.settings.GlobalRaw("extensions"))
	var project []string
	if app.trusted {
		project = projectOnly(app.settings.Extensions(), global)
	}
	return jsruntime.Discover(jsruntime.DiscoverOptions{
		AgentDir: app.agentDir, Cwd: app.cwd, Trusted: app.trusted,
		GlobalSettings: global, ProjectSettings: project,
		CLI: a.Extensions, NoDiscovery: a.NoExtensions,
	})
}

// loadGeneration builds the API and loads every extension source: into a
// new runtime at start (prev nil), and into prev's VM for each session
// replacement and reload, as the reference runs the factories again each
// time.
func (app *Agent) loadGeneration(ctx context.Context, h *extHost, sources []jsruntime.Source, prev *jsruntime.Runtime, reload bool) (*jsruntime.API, *jsruntime.Runtime, []jsruntime.LoadError, error) {
	mode := string(app.mode)
	api := jsruntime.NewAPI(jsruntime.APIOptions{
		Mode: mode, Cwd: app.cwd, Trusted: app.trusted,
		Settings: func() json.RawMessage {
			// The reference's key order (global file, then the project's
			// new keys), which a Go map would lose.
			b, err := app.settings.MergedJSON()
			if err != nil {
				return json.RawMessage("{}")
			}
			return b
		},
		Models: registryModels{app.registry},
		Builtin: func(name, cwd string) (engine.Tool, bool) {
			if cwd == app.cwd {
				if t := app.builtin(name); t != nil {
					return t, true
				}
				return nil, false
			}
			return builtins.New(name, cwd)
		},
		BuiltinNames: builtins.AllNames,
		Shutdown: func() {
			// The reference defers the shutdown until the agent is idle:
			// the current run (the tool that asked, the model's answer to
			// it) finishes first.
			if s := app.session(); s != nil {
				_ = s.WaitIdle(context.Background())
			}
			h.mu.Lock()
			stop := h.stop
			h.mu.Unlock()
			if stop != nil {
				stop()
			}
		},
		MutationQueue: builtins.ReserveFileMutation,
		LocalShell:    builtins.LocalShell,
		PromptOptions: func(tools []engine.ToolInfo) json.RawMessage {
			return promptOptionsJSON(h.prompt(), tools, app.registryToolInfos()...)
		},
		RenderPrompt: func(options json.RawMessage) (engine.Sections, error) {
			return renderPromptOptions(h.prompt(), options)
		},
		ExtraCommands: func() []jsruntime.CommandInfo {
			// pi.getCommands lists the built-in extensions' commands
			// after the loaded extensions', then templates and skills,
			// each with its sourceInfo, as the reference does.
			var out []jsruntime.CommandInfo
			for _, c := range append(app.builtinExtensionCommands(), app.promptCommands()...) {
				var info any
				if c.SourceInfo != nil {
					info = c.SourceInfo
				}
				out = append(out, jsruntime.CommandInfo{Name: c.Name, Description: c.Description, Source: c.Source, Path: c.Path, SourceInfo: info})
			}
			return out
		},
	})
	if prev != nil {
		rt, loadErrs, err := prev.NextGenerationOf(ctx, api.Host(), reload, sources)
		if err != nil {
			return nil, nil, nil, err
		}
		return api, rt, loadErrs, nil
	}
	rt, loadErrs, err := jsruntime.Load(ctx, jsruntime.LoadOptions{
		AgentDir: app.agentDir, Cwd: app.cwd, Sources: sources, Stderr: app.stderr,
		OnError: h.report, Host: api.Host(), Argv: app.argv(),
	})
	if err != nil {
		return nil, nil, nil, err
	}
	return api, rt, loadErrs, nil
}

// claimFlags hands unknown CLI flags to the extensions that registered
// them; the rest stay unknown (an error after startup), and a string
// flag given without a value is an error too (Agent.flagErrors).
func (app *Agent) claimFlags() error {
	a := app.opts
	var rest []Flag
	var api *jsruntime.API
	if app.ext != nil {
		api, _ = app.ext.cur()
	}
	for _, f := range a.ExtensionFlags {
		if api == nil {
			rest = append(rest, f)
			continue
		}
		var def *jsruntime.FlagDef
		for _, d := range api.Flags() {
			if d.Name == f.Name {
				d := d
				def = &d
				break
			}
		}
		if def == nil {
			rest = append(rest, f)
			continue
		}
		if def.Type == "boolean" {
			// As in the reference, a boolean flag is true once given: a
			// following word was taken as its value by the parser and is
			// gone, whatever it says ("--loud false" is true too).
			app.ext.setFlag(flagSet{name: f.Name, isBool: true})
			continue
		}
		if f.Bool {
			app.flagErrors = append(app.flagErrors, fmt.Sprintf("Extension flag %q requires a value", "--"+f.Name))
			continue
		}
		app.ext.setFlag(flagSet{name: f.Name, value: f.Value})
	}
	a.ExtensionFlags = rest
	return nil
}

// report routes an extension error: on the RPC stream once the session
// exists, else to stderr as print mode prints it.
func (h *extHost) report(e jsruntime.ExtensionError) {
	h.mu.Lock()
	pub := h.publish
	h.mu.Unlock()
	if pub != nil {
		pub(engine.ExtensionError{ExtensionPath: e.Path, Event: e.Event, Error: e.Error})
		return
	}
	fmt.Fprintf(h.stderr, "Extension error (%s): %s\n", e.Path, e.Error)
}

// active reports whether any extension is loaded.
func (h *extHost) active() bool {
	if h == nil {
		return false
	}
	api, rt := h.cur()
	return api != nil && rt != nil
}

// hooks returns the session hooks (NopHooks without extensions).
func (h *extHost) hooks() engine.Hooks {
	if !h.active() {
		return engine.NopHooks{}
	}
	// The session keeps one Hooks value for its life; it forwards to
	// whichever generation is current, so a reload reaches the session
	// that stays (lifecycle.go).
	return lifecycleHooks{h}
}

// tools returns the extension tools that start active.
func (h *extHost) tools() []engine.Tool {
	if !h.active() {
		return nil
	}
	var out []engine.Tool
	api, _ := h.cur()
	for _, t := range api.ExtTools() {
		if t.DefaultActive() {
			out = append(out, t)
		}
	}
	return out
}

// bind attaches a new session and announces it with session_start.
func (h *extHost) bind(s *engine.Session, reason string) {
	if !h.active() {
		return
	}
	ctx := context.Background()
	api, _ := h.cur()
	_ = api.Bind(ctx, s)
	h.mu.Lock()
	first := !h.started
	h.started = true
	h.mu.Unlock()
	if !first && reason == "startup" {
		return
	}
	h.mu.Lock()
	if h.deferStart {
		h.pending = reason
		h.mu.Unlock()
		return
	}
	h.mu.Unlock()
	h.emitStart(ctx, reason)
}

// emitStart emits session_start; after the startup one, resources_discover
// and whatever else afterStart holds follow, as in the reference.
func (h *extHost) emitStart(ctx context.Context, reason string) {
	api, _ := h.cur()
	api.Emit(ctx, "session_start", jsruntime.Field{Key: "reason", Value: reason})
	if reason == "startup" {
		h.runAfterStart()
	}
}

// onStop sets what ctx.shutdown() ends.
func (h *extHost) onStop(stop func()) {
	if h == nil {
		return
	}
	h.mu.Lock()
	h.stop = stop
	h.mu.Unlock()
}

// releaseStart emits a session_start held back by deferStart.
func (h *extHost) releaseStart() {
	h.mu.Lock()
	reason := h.pending
	h.pending, h.deferStart = "", false
	h.mu.Unlock()
	if reason != "" {
		h.emitStart(context.Background(), reason)
	}
}

// shutdown emits session_shutdown and stops the runtime.
func (h *extHost) shutdown() {
	if !h.active() {
		return
	}
	h.mu.Lock()
	done := h.shutDown
	h.shutDown = true
	h.mu.Unlock()
	if done {
		return
	}
	api, _ := h.cur()
	// The handlers' promises are awaited; work they leave behind (a timer,
	// an exec not awaited) is dropped at exit, as the reference's
	// process.exit after dispose drops it.
	api.Emit(context.Background(), "session_shutdown", jsruntime.Field{Key: "reason", Value: "quit"})
}

// builtinCommands are the commands of the reference's built-in
// extensions (builtin:llama.cpp and builtin:mcp). They are listed after
// the loaded extensions' commands unless -ne disables built-ins; headless,
// running them does nothing.
var builtinCommands = []struct{ name, description, path string }{
	{"llama", "Manage llama.cpp router models", "builtin:llama.cpp"},
	{"mcp", "Manage MCP servers: sign in, reconnect, enable or disable, and change exposure", "builtin:mcp"},
}

// commands lists the extension commands for get_commands.
func (app *Agent) extensionCommands() []prompts.CommandInfo {
	h := app.ext
	var out []prompts.CommandInfo
	if h.active() {
		scopes := map[string]jsruntime.Source{}
		api, rt := h.cur()
		for _, e := range rt.Extensions() {
			scopes[e.Path] = e.Source
		}
		for _, c := range api.Commands(context.Background()) {
			src := scopes[c.Path]
			scope := src.Scope
			if scope == jsruntime.ScopeCLI || scope == "" {
				scope = "temporary"
			}
			source := src.Source
			if source == "" {
				source = "cli"
			}
			// Extensions found in the user's and project's folders name
			// the folder, as the reference labels skills; one a settings
			// file lists names none, as in the reference.
			var baseDir string
			switch {
			case source != jsruntime.SourceAuto:
			case scope == jsruntime.ScopeProject:
				baseDir = filepath.Join(app.cwd, ".pi")
			case scope == jsruntime.ScopeUser:
				baseDir = app.agentDir
			}
			out = append(out, prompts.CommandInfo{Name: c.Name, Description: c.Description, Source: "extension",
				SourceInfo: &prompts.SourceInfo{Path: c.Path, Source: source, Scope: scope, Origin: "top-level", BaseDir: baseDir},
				Location:   prompts.SeedLocation(scope), Path: c.Path})
		}
	}
	return append(out, app.builtinExtensionCommands()...)
}

// builtinExtensionCommands are the built-in extensions' commands, none
// when -ne disables them.
func (app *Agent) builtinExtensionCommands() []prompts.CommandInfo {
	if app.opts.NoExtensions {
		return nil
	}
	var out []prompts.CommandInfo
	for _, b := range builtinCommands {
		d := b.description
		out = append(out, prompts.CommandInfo{Name: b.name, Description: &d, Source: "extension",
			SourceInfo: &prompts.SourceInfo{Path: b.path, Source: "builtin", Scope: "temporary", Origin: "top-level"},
			Location:   "path", Path: b.path})
	}
	return out
}

// setPublish routes extension errors to the session's event stream (RPC
// mode) instead of stderr.
func (h *extHost) setPublish(fn func(engine.Event)) {
	h.mu.Lock()
	h.publish = fn
	h.mu.Unlock()
}

// registryModels adapts the model registry to ctx.modelRegistry.
type registryModels struct{ r *config.Registry }

func (m registryModels) All() []*engine.Model       { return m.r.All() }
func (m registryModels) Available() []*engine.Model { return m.r.Available() }

// ModelsVersion lets ctx.modelRegistry keep its parsed model list until
// the registry's models change.
func (m registryModels) ModelsVersion() uint64 { return m.r.ModelsVersion() }
func (m registryModels) Find(provider, id string) *engine.Model {
	return m.r.Find(provider, id)
}
func (m registryModels) HasAuth(model *engine.Model) bool {
	return model != nil && m.r.HasConfiguredAuth(model.Provider)
}

func toStringSlice(v any) []string {
	arr, ok := v.([]any)
	if !ok {
		return nil
	}
	var out []string
	for _, x := range arr {
		if s, ok := x.(string); ok {
			out = append(out, s)
		}
	}
	return out
}

// projectOnly returns the merged entries that the global list lacks.
func projectOnly(merged, global []string) []string {
	g := map[string]bool{}
	for _, s := range global {
		g[s] = true
	}
	var out []string
	for _, s := range merged {
		if !g[s] {
			out = append(out, s)
		}
	}
	return out
}

// commandName returns the name of the extension command text invokes,
// if any.
func (h *extHost) commandName(text string) (string, bool) {
	if !h.isCommand(text) {
		return "", false
	}
	return strings.TrimPrefix(strings.Fields(text + " ")[0], "/"), true
}

// isCommand reports whether text invokes an extension command.
func (h *extHost) isCommand(text string) bool {
	if !h.active() || len(text) < 2 || text[0] != '/' {
		return false
	}
	api, _ := h.cur()
	return api.IsCommand(context.Background(), text)
}

// promptCommands lists prompt templates and skills for pi.getCommands.
func (app *Agent) promptCommands() []prompts.CommandInfo {
	app.mu.Lock()
	tmpl, sk := app.templates, app.skills
	app.mu.Unlock()
	out := prompts.TemplateCommands(tmpl)
	return append(out, skills.Commands(sk)...)
}

// promptSkills is the skills section's list for the system prompt.
func (app *Agent) promptSkills() []prompts.SkillRef {
	app.mu.Lock()
	defer app.mu.Unlock()
	return skills.ToPromptRefs(app.skills)
}

// addExtensionResources runs resources_discover (after the startup
// session_start, as the reference does) and adds the skills and prompt
// templates the extensions point at after the discovered ones.
func (app *Agent) addExtensionResources() { app.discoverExtensionResources("startup") }

// discoverExtensionResources runs resources_discover with reason and adds
// the skills and prompt templates the extensions point at after the
// discovered ones; a name already taken keeps its first owner, as with
// --skill paths. Themes have no use without the interactive UI and are
// ignored. The first call remembers the lists found without extensions,
// where later generations start again.
func (app *Agent) discoverExtensionResources(reason string) {
	h := app.ext
	h.mu.Lock()
	if !h.baseSaved {
		app.mu.Lock()
		// No copy: later additions go past these lengths, and a new
		// generation clones the lists before adding to them.
		h.baseSkills = app.skills[:len(app.skills):len(app.skills)]
		h.baseTemplates = app.templates[:len(app.templates):len(app.templates)]
		app.mu.Unlock()
		h.baseSaved = true
	}
	h.mu.Unlock()
	if !h.active() {
		return
	}
	api, _ := h.cur()
	if !api.HasHandlers("resources_discover") {
		return
	}
	defer func() {
		refs := app.promptSkills()
		h.mu.Lock()
		h.promptBase.Skills = refs
		h.mu.Unlock()
	}()
	res := api.DiscoverResources(context.Background(), app.cwd, reason)
	app.mu.Lock()
	curSkills, curTemplates := app.skills, app.templates
	app.mu.Unlock()
	haveSkill := map[string]bool{}
	for _, s := range curSkills {
		haveSkill[s.Name] = true
	}
	for _, r := range res.SkillPaths {
		extra, _ := skills.Discover(skills.Options{AgentDir: app.agentDir, Cwd: app.cwd, CLIPaths: []string{r.Path}, NoSkills: true})
		for _, s := range extra {
			if !haveSkill[s.Name] {
				haveSkill[s.Name] = true
				s.SourceInfo = extensionSourceInfo(s.SourceInfo, r.ExtensionPath)
				app.mu.Lock()
				app.skills = append(app.skills, s)
				app.mu.Unlock()
			}
		}
	}
	haveTemplate := map[string]bool{}
	for _, t := range curTemplates {
		haveTemplate[t.Name] = true
	}
	for _, r := range res.PromptPaths {
		extra, _ := prompts.LoadTemplates(prompts.TemplateOptions{AgentDir: app.agentDir, Cwd: app.cwd, CLIPaths: []string{r.Path}, NoTemplates: true})
		for _, t := range extra {
			if !haveTemplate[t.Name] {
				haveTemplate[t.Name] = true
				t.SourceInfo = extensionSourceInfo(t.SourceInfo, r.ExtensionPath)
				app.mu.Lock()
				app.templates = append(app.templates, t)
				app.mu.Unlock()
			}
		}
	}
}

// extensionSourceInfo labels a resource an extension contributed the way
// the reference does: source "extension:<file name without .ts/.js>",
// scope temporary, base directory the extension's own directory.
func extensionSourceInfo(info prompts.SourceInfo, extPath string) prompts.SourceInfo {
	name := strings.TrimSuffix(strings.TrimSuffix(filepath.Base(extPath), ".ts"), ".js")
	info.Source = "extension:" + name
	info.Scope = "temporary"
	info.Origin = "top-level"
	info.BaseDir = filepath.Dir(extPath)
	return info
}

// argv is process.argv for the extensions: "pi" and the arguments.
func (app *Agent) argv() []string {
	args := app.opts.Argv
	if args == nil {
		args = os.Args[1:]
	}
	return append([]string{"pi"}, args...)
}

// close stops the extension runtime. A task still running (an
// extension's endless loop) cannot hold the caller: after a second the
// runtime is left to stop on its own.
func (h *extHost) close() {
	if h == nil {
		return
	}
	_, rt := h.cur()
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
