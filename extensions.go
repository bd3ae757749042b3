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
		// A sub-agent's extensions see session_start when the SDK's
		// bindExtensions asks (subagent.go).
		DeferStart: app.mode == ModeRPC || app.sub != nil,
		// A reload and a session replacement look for the extensions
		// again, as the reference's new resource loader does: the
		// folders' files and the settings' "extensions" lists as they
		// are now (the settings were read again just before), under the
		// trust decided at start.
		Sources: app.extensionSources,
		API:     app.apiOptions,
	})
	warnings, builtinErrs := app.builtinExtensionNotes()
	for _, w := range warnings {
		fmt.Fprintln(app.stderr, "Warning:", w)
	}
	loadErrs, err := app.ext.Load(ctx)
	if err != nil {
		return fmt.Errorf("Error: load extensions: %w", err)
	}
	loadErrs = append(loadErrs, builtinErrs...)
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
	found := jsruntime.Discover(jsruntime.DiscoverOptions{
		AgentDir: app.agentDir, Cwd: app.cwd, Trusted: app.trusted,
		GlobalSettings: global, ProjectSettings: project,
		CLI: withoutPackageSources(withoutBuiltins(a.Extensions), app.cwd), NoDiscovery: a.NoExtensions,
	})
	cli, configured := app.packageExtensionSources()
	return app.sub.filterSources(withPackageExtensions(found, cli, configured))
}

// apiOptions are what each generation's extension API gets from the
// agent: its settings, models, tools, prompt and commands.
func (app *Agent) apiOptions() jsruntime.APIOptions {
	mode := string(app.mode)
	if app.mode == ModeInteractive {
		// The reference's extensions see the terminal UI as "tui".
		mode = "tui"
	}
	o := jsruntime.APIOptions{
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
		BuiltinNames:    builtins.AllNames,
		BuiltinExtTools: app.builtinExtToolInfos,
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
			// pi.getCommands lists templates and skills after the loaded
			// extensions' commands, each with its sourceInfo, as the
			// reference does.
			var out []jsruntime.CommandInfo
			for _, c := range app.promptCommands() {
				var info any
				if c.SourceInfo != nil {
					info = c.SourceInfo
				}
				out = append(out, jsruntime.CommandInfo{Name: c.Name, Description: c.Description, Source: c.Source, Path: c.Path, SourceInfo: info})
			}
			return out
		},
	}
	app.mcpAPIOptions(&o)
	o.SubAgents = subAgentHost{app}
	return o
}

// referenceBuiltins are the names of the reference's built-in extensions
// (builtin:<name> paths). None is built here yet: naming one with -e or a
// settings "+builtin:<name>" entry is a warning, and a start that asks
// for one goes on without it. Their commands (/llama, /mcp) are not
// listed, so an extension that registers /mcp is simply the /mcp.
var referenceBuiltins = map[string]bool{"llama.cpp": true, "codemode": true, "tool-search": true, "mcp": true}

// availableBuiltins are the built-in extensions this build has, written
// in Go: builtin:mcp (mcp_builtin.go).
var availableBuiltins = map[string]bool{"mcp": true}

// builtinPrefix starts the path of a built-in extension.
const builtinPrefix = "builtin:"

// builtinExtensionNotes checks the built-in extensions that the -e paths
// and the settings' "extensions" lists ask for. It returns a warning for
// each one the reference has (none is available in this build) and a
// load error for an -e name the reference does not know, in its words.
// A settings entry with an unknown name is ignored, as in the reference.
func (app *Agent) builtinExtensionNotes() (warnings []string, loadErrs []jsruntime.LoadError) {
	seen := map[string]bool{}
	note := func(path string) {
		if !seen[path] {
			seen[path] = true
			warnings = append(warnings, fmt.Sprintf("built-in extension %s is not available in this build; starting without it", path))
		}
	}
	for _, p := range app.opts.Extensions {
		name, ok := strings.CutPrefix(p, builtinPrefix)
		if !ok {
			continue
		}
		if availableBuiltins[name] {
			continue
		}
		if referenceBuiltins[name] {
			note(p)
			continue
		}
		loadErrs = append(loadErrs, jsruntime.LoadError{Path: p, Message: "Unknown built-in extension: " + p})
	}
	if app.opts.NoExtensions {
		return warnings, loadErrs
	}
	entries := toStringSlice(app.settings.GlobalRaw("extensions"))
	if app.trusted {
		entries = append(entries, app.settings.Extensions()...)
	}
	for _, e := range entries {
		name, ok := strings.CutPrefix(e, "+"+builtinPrefix)
		if ok && referenceBuiltins[name] && !availableBuiltins[name] {
			note(builtinPrefix + name)
		}
	}
	return warnings, loadErrs
}

// withoutBuiltins drops the builtin:<name> paths, which name no file.
func withoutBuiltins(paths []string) []string {
	var out []string
	for _, p := range paths {
		if !strings.HasPrefix(p, builtinPrefix) {
			out = append(out, p)
		}
	}
	return out
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
			origin := "top-level"
			if src.Origin != "" {
				// A pi package's extension (packages.go).
				origin, scope, baseDir = src.Origin, src.Scope, src.BaseDir
			}
			out = append(out, prompts.CommandInfo{Name: c.Name, Description: c.Description, Source: "extension",
				SourceInfo: &prompts.SourceInfo{Path: c.Path, Source: source, Scope: scope, Origin: origin, BaseDir: baseDir},
				Location:   prompts.SeedLocation(scope), Path: c.Path})
		}
	}
	if c := app.mcpCommandInfo(); c != nil {
		out = append(out, *c)
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
	for _, r := range res.SkillPaths {
		extra, _ := skills.Discover(skills.Options{AgentDir: app.agentDir, Cwd: app.cwd, CLIPaths: []string{r.Path}, NoSkills: true})
		for i := range extra {
			extra[i].SourceInfo = extensionSourceInfo(extra[i].SourceInfo, r.ExtensionPath)
		}
		app.mu.Lock()
		app.skills = appendNew(app.skills, extra, func(s skills.Skill) string { return s.Name })
		app.mu.Unlock()
	}
	for _, r := range res.PromptPaths {
		extra, _ := prompts.LoadTemplates(prompts.TemplateOptions{AgentDir: app.agentDir, Cwd: app.cwd, CLIPaths: []string{r.Path}, NoTemplates: true})
		for i := range extra {
			extra[i].SourceInfo = extensionSourceInfo(extra[i].SourceInfo, r.ExtensionPath)
		}
		app.mu.Lock()
		app.templates = appendNew(app.templates, extra, func(t prompts.Template) string { return t.Name })
		app.mu.Unlock()
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

// appendNew appends the items of extra whose name list does not have yet,
// in order: a name already taken keeps its first owner.
func appendNew[T any](list, extra []T, name func(T) string) []T {
	have := make(map[string]bool, len(list)+len(extra))
	for _, x := range list {
		have[name(x)] = true
	}
	for _, x := range extra {
		if !have[name(x)] {
			have[name(x)] = true
			list = append(list, x)
		}
	}
	return list
}
