package pi

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"

	"github.com/pi-go/pi/engine"
	"github.com/pi-go/pi/engine/config"
	"github.com/pi-go/pi/engine/rpc"
	"github.com/pi-go/pi/engine/session"
	"github.com/pi-go/pi/jsruntime"
)

// Sub-agents: an extension's createAgentSession (the coding-agent
// package's SDK) runs another Agent in this process, assembled as New
// assembles one, in two steps that follow the SDK's: the resource
// loader's reload reads settings and discovers and loads the extensions,
// createAgentSession picks the model and tools and starts the session.

// subAgentHost is the parent agent's jsruntime.SubAgentHost.
type subAgentHost struct{ parent *Agent }

// subAgentConfig is what a sub-agent's Agent does differently from one
// New builds: the loader's choice of extensions and system prompt.
type subAgentConfig struct {
	// keep are the extension paths to load; nil loads what is found.
	keep map[string]bool
	// systemPrompt replaces SYSTEM.md when set; appendSet makes
	// appendParts replace APPEND_SYSTEM.md (an empty list drops it).
	systemPrompt *string
	appendSet    bool
	appendParts  []string
}

// filterSources keeps the sources the loader's extensionsOverride kept.
func (c *subAgentConfig) filterSources(srcs []jsruntime.Source) []jsruntime.Source {
	if c == nil || c.keep == nil {
		return srcs
	}
	out := srcs[:0:0]
	for _, s := range srcs {
		if c.keep[s.Path] {
			out = append(out, s)
		}
	}
	return out
}

// prompt applies the loader's system prompt and addendum, which the
// loader already resolved (its overrides ran in JavaScript).
func (c *subAgentConfig) prompt(custom string, appendParts []string) (string, []string) {
	if c == nil {
		return custom, appendParts
	}
	if c.systemPrompt != nil {
		custom = *c.systemPrompt
	}
	if c.appendSet {
		appendParts = c.appendParts
	}
	return custom, appendParts
}

func (h subAgentHost) PrepareSubAgent(ctx context.Context, spec jsruntime.SubAgentSpec) (jsruntime.SubAgentDraft, error) {
	p := h.parent
	// The parent decided the project's trust; a sub-agent asks no one
	// again (no project_trust handlers run for it).
	trusted := p.trusted
	cwd, agentDir := spec.Cwd, spec.AgentDir
	if cwd == "" {
		cwd = p.cwd
	}
	if agentDir == "" {
		agentDir = p.agentDir
	}
	opts := &Options{
		Cwd: cwd, AgentDir: agentDir, Mode: ModePrint, Stderr: p.stderr, Approve: &trusted,
		NoSession: true, NoExtensions: spec.NoExtensions, Extensions: spec.ExtensionPaths,
		Skills: spec.SkillPaths, PromptTemplates: spec.PromptPaths,
		NoSkills: spec.NoSkills, NoPromptTemplates: spec.NoPromptTemplates, NoContextFiles: spec.NoContextFiles,
		// builtin:mcp and the CLI's other built-in extensions are the
		// CLI's; SDK sessions load none (docs/sdk.md).
		NoMCP: true,
	}
	if spec.Settings != nil {
		opts.Settings = config.FromMaps(spec.Settings.Global, spec.Settings.Project)
	}
	app, err := wire(ctx, opts)
	if err != nil {
		return nil, err
	}
	app.sub = &subAgentConfig{systemPrompt: spec.SystemPrompt, appendSet: spec.AppendSet, appendParts: spec.AppendSystemPrompt}
	return &subDraft{app: app}, nil
}

// subDraft is a sub-agent between the loader's reload and
// createAgentSession.
type subDraft struct {
	app    *Agent
	loaded bool
}

func (d *subDraft) ExtensionPaths() []string {
	var out []string
	for _, s := range d.app.extensionSources() {
		out = append(out, s.Path)
	}
	return out
}

func (d *subDraft) LoadExtensions(ctx context.Context, paths []string) ([]jsruntime.SubAgentExtension, error) {
	if d.loaded {
		return nil, errors.New("DefaultResourceLoader: the extensions are already loaded")
	}
	d.loaded = true
	d.app.sub.keep = map[string]bool{}
	for _, p := range paths {
		d.app.sub.keep[p] = true
	}
	if err := d.app.loadExtensions(ctx); err != nil {
		return nil, err
	}
	api, _ := d.app.ext.Current()
	if api == nil {
		return nil, nil
	}
	byPath := map[string]*jsruntime.SubAgentExtension{}
	var out []jsruntime.SubAgentExtension
	for _, p := range paths {
		out = append(out, jsruntime.SubAgentExtension{Path: p, Tools: []string{}, Commands: []string{}, Flags: []string{}})
	}
	for i := range out {
		byPath[out[i].Path] = &out[i]
	}
	for _, t := range api.ExtTools() {
		if e := byPath[t.Path()]; e != nil {
			e.Tools = append(e.Tools, t.Info().Name)
		}
	}
	for _, c := range api.Commands(ctx) {
		if e := byPath[c.Path]; e != nil {
			e.Commands = append(e.Commands, c.Name)
		}
	}
	for _, f := range api.Flags() {
		if e := byPath[f.Path]; e != nil {
			e.Flags = append(e.Flags, f.Name)
		}
	}
	return out, nil
}

func (d *subDraft) Start(ctx context.Context, o jsruntime.SubAgentStart) (jsruntime.SubAgent, error) {
	app := d.app
	if !d.loaded {
		if _, err := d.LoadExtensions(ctx, d.ExtensionPaths()); err != nil {
			return nil, err
		}
	}
	a := app.opts
	a.Provider, a.Model = o.Provider, o.Model
	if o.Thinking != "" {
		a.Thinking = engine.ThinkingLevel(o.Thinking)
	}
	a.Tools, a.NoTools, a.NoBuiltinTools, a.ExcludeTools = o.Tools, o.NoTools, o.NoBuiltinTools, o.ExcludeTools
	if o.Settings != nil {
		app.settings = config.FromMaps(o.Settings.Global, o.Settings.Project)
	}
	switch st := o.Store.(type) {
	case nil:
		if !o.InMemory {
			// The SDK's default SessionManager: a new session file where
			// pi keeps this folder's sessions.
			f, _, err := session.Select(session.SelectOptions{
				AgentDir: app.agentDir, Cwd: app.cwd, EnvSessionDir: os.Getenv("PI_CODING_AGENT_SESSION_DIR"),
				SettingsSessionDir: app.settings.SessionDir(),
			})
			if err != nil {
				return nil, err
			}
			app.replaceStore(f)
		}
	case *session.File:
		app.replaceStore(st)
	default:
		return nil, fmt.Errorf("createAgentSession: this SessionManager (%T) cannot hold a running session", o.Store)
	}
	app.started = true
	if err := app.resolveModel(); err != nil {
		app.Close()
		return nil, err
	}
	if _, err := app.startSession(); err != nil {
		app.Close()
		return nil, err
	}
	return subAgent{app}, nil
}

// replaceStore swaps the in-memory store wire made for the session's own.
func (app *Agent) replaceStore(f *session.File) {
	app.mu.Lock()
	old := app.store
	app.store = f
	app.mu.Unlock()
	if old != nil && old != f {
		_ = old.Close()
	}
	if c := f.Cwd(); c != "" {
		app.cwd = c
	}
}

func (d *subDraft) Close() { d.app.Close() }

// subAgent is a started sub-agent.
type subAgent struct{ app *Agent }

func (s subAgent) Session() *engine.Session                      { return s.app.session() }
func (s subAgent) Prompt(ctx context.Context, text string) error { return s.app.Prompt(ctx, text, nil) }
func (s subAgent) Steer(ctx context.Context, text string) (string, error) {
	return s.app.Steer(ctx, text)
}
func (s subAgent) FollowUp(ctx context.Context, text string) (string, error) {
	return s.app.FollowUp(ctx, text)
}
func (s subAgent) Abort() {
	s.app.Abort()
	_ = s.app.session().WaitIdle(context.Background())
}
func (s subAgent) Subscribe(fn func(engine.Event)) func() { return s.app.Subscribe(fn) }
func (s subAgent) FindModel(provider, id string) *engine.Model {
	return s.app.registry.Find(provider, id)
}
func (s subAgent) SetSessionName(name string) error {
	_, err := s.app.SetSessionName(name)
	return err
}
func (s subAgent) SessionStats() json.RawMessage {
	b, err := engine.MarshalJSON(rpc.Stats(s.app.Store(), s.app.session().Model()))
	if err != nil {
		return json.RawMessage("{}")
	}
	return b
}
func (s subAgent) BindExtensions() { s.app.ext.ReleaseStart() }
func (s subAgent) Close()          { s.app.Close() }
