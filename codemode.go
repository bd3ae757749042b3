package pi

import (
	"encoding/json"
	"slices"
	"sync"

	"github.com/pi-go/pi/builtins/codemode"
	"github.com/pi-go/pi/engine"
)

func init() {
	// builtin:codemode and builtin:tool-search are built (this file), so
	// naming them is no longer a warning (builtinExtensionNotes).
	availableBuiltins["codemode"] = true
	availableBuiltins["tool-search"] = true
}

// codemodeState is the agent's builtin:codemode and builtin:tool-search:
// the registry of tools reached without being declared, and the two
// tools, built once.
type codemodeState struct {
	once   sync.Once
	reg    *codemode.Registry
	tool   *codemode.Tool
	search *codemode.Search
	mu     sync.Mutex
	hidden []engine.Tool // declared tools codemode.mode "only" hides
}

// IndirectTools is the registry of tools callable from codemode scripts
// and found by tool_search without being declared to the model: MCP
// tools with codemode or deferred exposure, or an embedder's Go tools.
// Adding one with Entry.Activate set turns that tool (codemode or
// tool_search) on in the current session when its built-in extension is
// enabled.
func (app *Agent) IndirectTools() *codemode.Registry {
	app.codemodeInit()
	return app.cm.reg
}

func (app *Agent) codemodeInit() {
	app.cm.once.Do(func() {
		app.cm.reg = codemode.NewRegistry()
		cfg := codemode.Config{
			Declared: app.codemodeDeclared, Registry: app.cm.reg, Extra: app.extIndirect, Store: agentStore{app},
			Only: app.settings.Raw("codemode.mode") == "only",
		}
		if n, ok := app.settings.Raw("codemode.inlineBudget").(float64); ok {
			b := int(n)
			cfg.InlineBudget = &b
		}
		app.cm.tool = codemode.New(cfg)
		app.cm.search = codemode.NewSearch(codemode.SearchConfig{Registry: app.cm.reg, Extra: app.extIndirect, Declared: app.codemodeDeclared, Activate: app.activateTools})
		app.cm.reg.OnChange(app.codemodeAutoActivate)
	})
}

// builtinExtEnabled says whether the built-in extension builtin:<name>
// loads: -e builtin:<name> always loads it; otherwise --no-extensions
// turns it off, and a settings "-builtin:<name>" (the project's entry
// overriding the user's) does too.
func (app *Agent) builtinExtEnabled(name string) bool {
	if slices.Contains(app.opts.Extensions, builtinPrefix+name) {
		return true
	}
	if app.opts.NoExtensions {
		return false
	}
	enabled := true
	entries := toStringSlice(app.settings.GlobalRaw("extensions"))
	if app.trusted {
		entries = append(entries, projectOnly(app.settings.Extensions(), entries)...)
	}
	for _, e := range entries {
		switch e {
		case "+" + builtinPrefix + name:
			enabled = true
		case "-" + builtinPrefix + name:
			enabled = false
		}
	}
	return enabled
}

// builtinExtTool is the codemode or tool_search tool, or nil when its
// built-in extension is off.
func (app *Agent) builtinExtTool(name string) engine.Tool {
	app.codemodeInit()
	switch name {
	case codemode.Name:
		if app.builtinExtEnabled("codemode") {
			return app.cm.tool
		}
	case codemode.SearchName:
		if app.builtinExtEnabled("tool-search") {
			return app.cm.search
		}
	}
	return nil
}

// noteTool is a declared tool whose description says, while codemode is
// on, what a script's call of it resolves to.
type noteTool struct {
	engine.Tool
	note string
}

func (t noteTool) Info() engine.ToolInfo {
	info := t.Tool.Info()
	info.Description += "\n\n" + t.note
	return info
}

// PrepareArguments keeps the wrapped tool's argument preparation (edit's
// legacy forms), which the loop finds by type assertion.
func (t noteTool) PrepareArguments(args json.RawMessage) json.RawMessage {
	if p, ok := t.Tool.(engine.ArgumentPreparer); ok {
		return p.PrepareArguments(args)
	}
	return args
}

func unwrapNote(t engine.Tool) engine.Tool {
	if n, ok := t.(noteTool); ok {
		return n.Tool
	}
	return t
}

// codemodeLoadout applies codemode.mode to the active tools when codemode
// is among them: "on" appends the call note to the other tools'
// descriptions, "only" hides them from the model (scripts still call
// them). Registry entries whose Activate names an enabled tool add it.
func (app *Agent) codemodeLoadout(tools []engine.Tool) []engine.Tool {
	app.codemodeInit()
	out := make([]engine.Tool, 0, len(tools))
	has := map[string]bool{}
	for _, t := range tools {
		t = unwrapNote(t)
		out = append(out, t)
		has[t.Info().Name] = true
	}
	activate := app.mcpActivations()
	for _, e := range app.cm.reg.Entries() {
		if e.Activate != "" {
			activate = append(activate, e.Activate)
		}
	}
	for _, name := range activate {
		if !has[name] {
			if t := app.builtinExtTool(name); t != nil {
				out = append(out, t)
				has[name] = true
			}
		}
	}
	if !has[codemode.Name] {
		return out
	}
	only := app.settings.Raw("codemode.mode") == "only"
	var hidden []engine.Tool
	final := out[:0:0]
	for _, t := range out {
		name := t.Info().Name
		_, indirect := app.cm.reg.Get(name)
		switch {
		case name == codemode.Name || name == codemode.SearchName || indirect:
			final = append(final, t)
		case only:
			hidden = append(hidden, t)
		default:
			final = append(final, noteTool{Tool: t, note: codemode.CallNote(name)})
		}
	}
	app.cm.mu.Lock()
	app.cm.hidden = hidden
	app.cm.mu.Unlock()
	return final
}

// codemodeDeclared is what scripts may call beyond the registry: the
// session's declared tools and those codemode.mode "only" hides.
func (app *Agent) codemodeDeclared() []engine.Tool {
	var out []engine.Tool
	if s := app.session(); s != nil {
		for _, t := range s.Tools() {
			out = append(out, unwrapNote(t))
		}
	}
	app.cm.mu.Lock()
	out = append(out, app.cm.hidden...)
	app.cm.mu.Unlock()
	return out
}

// activateTools declares registry tools for the next model call
// (tool_search's matches).
func (app *Agent) activateTools(names []string) error {
	s := app.session()
	if s == nil {
		return nil
	}
	tools := s.Tools()
	for _, n := range names {
		if slices.ContainsFunc(tools, func(t engine.Tool) bool { return t.Info().Name == n }) {
			continue
		}
		if e, ok := app.cm.reg.Get(n); ok {
			tools = append(tools, e.Tool)
			continue
		}
		for _, e := range app.extIndirect() {
			if e.Tool.Info().Name == n {
				tools = append(tools, e.Tool)
				break
			}
		}
	}
	s.SetTools(app.codemodeLoadout(tools))
	return nil
}

// codemodeAutoActivate turns codemode or tool_search on in the current
// session when a registry entry asks for it.
func (app *Agent) codemodeAutoActivate() {
	s := app.session()
	if s == nil {
		return
	}
	before := s.Tools()
	after := app.codemodeLoadout(before)
	if len(after) != len(before) || hasName(after, codemode.Name) != hasName(before, codemode.Name) {
		s.SetTools(after)
	}
}

func hasName(tools []engine.Tool, name string) bool {
	return slices.ContainsFunc(tools, func(t engine.Tool) bool { return t.Info().Name == name })
}

// agentStore keeps store() values in the current session's branch.
type agentStore struct{ app *Agent }

func (a agentStore) Branch() []*engine.Entry {
	if s := a.app.session(); s != nil {
		return s.Store().Branch()
	}
	return nil
}

func (a agentStore) AppendCustom(customType string, data json.RawMessage) error {
	s := a.app.session()
	if s == nil {
		return nil
	}
	return s.AppendEntry(&engine.Entry{Type: engine.EntryCustom, CustomType: customType, Data: data})
}

// extIndirect is the current extensions' tools with exposure codemode or
// deferred: callable from scripts, found by tool_search.
func (app *Agent) extIndirect() []codemode.Entry {
	if app.ext == nil || !app.ext.Active() {
		return nil
	}
	api, _ := app.ext.Current()
	if api == nil {
		return nil
	}
	var out []codemode.Entry
	for _, t := range api.ExtTools() {
		switch t.Exposure() {
		case "codemode":
			out = append(out, codemode.Entry{Tool: t, Exposure: codemode.ExposureCodemode})
		case "deferred":
			out = append(out, codemode.Entry{Tool: t, Exposure: codemode.ExposureDeferred})
		}
	}
	return out
}

// builtinExtToolInfos are the loaded built-in extensions' tools for
// pi.getAllTools(), with their builtin:<name> paths.
func (app *Agent) builtinExtToolInfos() ([]engine.ToolInfo, []string) {
	var infos []engine.ToolInfo
	var paths []string
	for _, b := range []struct{ tool, ext string }{{codemode.Name, "codemode"}, {codemode.SearchName, "tool-search"}} {
		if t := app.builtinExtTool(b.tool); t != nil {
			infos = append(infos, t.Info())
			paths = append(paths, builtinPrefix+b.ext)
		}
	}
	return infos, paths
}
