package pi

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/pi-go/pi/builtins"
	"github.com/pi-go/pi/engine"
	"github.com/pi-go/pi/engine/config"
	"github.com/pi-go/pi/jsruntime"
	"github.com/pi-go/pi/prompts"
	"github.com/pi-go/pi/skills"
)

// ErrExtensionLoad marks a fatal extension load failure, already
// reported on Options.Stderr (each failure, then the -ne hint).
var ErrExtensionLoad = errors.New("extension load failed")

// loadExtensions discovers and loads the extensions, then claims the CLI
// flags they registered. Load failures are fatal as in the reference:
// each is printed, followed by the -ne hint, and the process exits 1.
func (app *Agent) loadExtensions(ctx context.Context) error {
	app.ext = jsruntime.NewRunner(jsruntime.RunnerOptions{
		AgentDir: app.agentDir, Cwd: app.cwd, Argv: app.argv(), Stderr: app.stderr,
		DeferStart: app.mode == ModeRPC,
		// A reload and a session replacement look for the extensions
		// again, as the reference's new resource loader does: the
		// folders' files and the settings' "extensions" lists as they
		// are now (the settings were read again just before), under the
		// trust decided at start.
		Sources: app.extensionSources,
		API:     app.apiOptions,
	})
	loadErrs, err := app.ext.Load(ctx)
	if err != nil {
		return fmt.Errorf("Error: load extensions: %w", err)
	}
	if len(loadErrs) > 0 {
		for _, le := range loadErrs {
			fmt.Fprintln(app.stderr, "Error: "+le.Error())
		}
		fmt.Fprintln(app.stderr, jsruntime.LoadFailureHint)
		return ErrExtensionLoad
	}
	// Flags claimed by no extension, and extension flags given wrongly,
	// end the start (New reports them).
	flags := make([]jsruntime.Flag, len(app.opts.ExtensionFlags))
	for i, f := range app.opts.ExtensionFlags {
		flags[i] = jsruntime.Flag(f)
	}
	unclaimed, invalid := app.ext.ClaimFlags(flags)
	app.opts.ExtensionFlags = nil
	for _, f := range unclaimed {
		app.opts.ExtensionFlags = append(app.opts.ExtensionFlags, Flag(f))
	}
	app.flagErrors = invalid
	return nil
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

// apiOptions are what each generation's extension API gets from the
// agent: its settings, models, tools, prompt and commands.
func (app *Agent) apiOptions() jsruntime.APIOptions {
	mode := string(app.mode)
	return jsruntime.APIOptions{
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
			app.ext.Stop()
		},
		MutationQueue: builtins.ReserveFileMutation,
		LocalShell:    builtins.LocalShell,
		PromptOptions: func(tools []engine.ToolInfo) json.RawMessage {
			return promptOptionsJSON(app.promptBase(), tools, app.registryToolInfos()...)
		},
		RenderPrompt: func(options json.RawMessage) (engine.Sections, error) {
			return renderPromptOptions(app.promptBase(), options)
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
	}
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
	var out []prompts.CommandInfo
	if app.ext.Active() {
		scopes := map[string]jsruntime.Source{}
		api, rt := app.ext.Current()
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
	app.resMu.Lock()
	if !app.baseSaved {
		app.mu.Lock()
		// No copy: later additions go past these lengths, and a new
		// generation clones the lists before adding to them.
		app.baseSkills = app.skills[:len(app.skills):len(app.skills)]
		app.baseTemplates = app.templates[:len(app.templates):len(app.templates)]
		app.mu.Unlock()
		app.baseSaved = true
	}
	app.resMu.Unlock()
	api, _ := app.ext.Current()
	if api == nil || !api.HasHandlers("resources_discover") {
		return
	}
	defer func() {
		refs := app.promptSkills()
		app.resMu.Lock()
		app.promptOpts.Skills = refs
		app.resMu.Unlock()
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
