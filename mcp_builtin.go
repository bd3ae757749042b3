package pi

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sync"

	"github.com/pi-go/pi/builtins/codemode"
	"github.com/pi-go/pi/engine"
	"github.com/pi-go/pi/internal/jsonx"
	"github.com/pi-go/pi/jsruntime"
	"github.com/pi-go/pi/mcp"
)

// The built-in MCP support (the reference's builtin:mcp) is Go code in
// package mcp; this file decides whether a session has it and puts the
// servers' tools into the session.

// mcpBuiltin is the agent's MCP state.
type mcpBuiltin struct {
	// m connects the servers; nil when MCP is off.
	m  *mcp.Manager
	mu sync.Mutex
	// synced is the session whose tools last got the MCP tools: a
	// replacement session starts from the selection again.
	synced *engine.Session
	// ui shows /mcp's answers and the startup problems (RPC mode);
	// reported is set once those problems were shown.
	ui       engine.UI
	reported bool
}

// mcpManager is the running MCP support, nil when off.
func (app *Agent) mcpManager() *mcp.Manager {
	app.mcp.mu.Lock()
	defer app.mcp.mu.Unlock()
	return app.mcp.m
}

// mcpBuiltinEnabled reports whether builtin:mcp runs in this session, as
// the reference decides: --no-mcp turns it off for the run; -e
// builtin:mcp turns it on even under -ne; otherwise it is on unless -ne
// or a settings "extensions" entry "-builtin:mcp" (global, or the
// trusted project's, which wins) turns it off; an extension that
// registers /mcp replaces it.
func (app *Agent) mcpBuiltinEnabled() bool {
	if app.opts.NoMCP || app.mcpShadowedBy() != "" {
		return false
	}
	return app.mcpSettingOn()
}

// mcpShadowedBy is the extension that registers /mcp itself, "" when
// none does.
func (app *Agent) mcpShadowedBy() string {
	if app.ext == nil || !app.ext.IsCommand("/mcp") {
		return ""
	}
	api, _ := app.ext.Current()
	for _, c := range api.Commands(context.Background()) {
		if c.Name == "mcp" {
			return c.Path
		}
	}
	return ""
}

// mcpShadowWarning is the reference's start-up warning for a
// builtin:mcp that would run but an extension's /mcp replaces; "" when
// nothing is replaced.
func (app *Agent) mcpShadowWarning() string {
	path := app.mcpShadowedBy()
	if path == "" || app.opts.NoMCP || !app.mcpSettingOn() {
		return ""
	}
	return fmt.Sprintf("Extension package \"builtin:mcp\": Extension %s registers command `/mcp`, so built-in extension `mcp` was not loaded. "+
		"To use `mcp`, run `pi config` and make sure it is enabled under Built-in extensions, then disable or remove the existing extension. "+
		"We recommend only having one or the other loaded at a time.", path)
}

// mcpSettingOn is whether the flags and settings turn builtin:mcp on.
func (app *Agent) mcpSettingOn() bool {
	if slices.Contains(app.opts.Extensions, builtinPrefix+"mcp") {
		return true
	}
	if app.opts.NoExtensions {
		return false
	}
	on := true
	entries := toStringSlice(app.settings.GlobalRaw("extensions"))
	if app.trusted {
		entries = append(entries, app.settings.Extensions()...)
	}
	for _, e := range entries {
		switch e {
		case "-" + builtinPrefix + "mcp":
			on = false
		case "+" + builtinPrefix + "mcp", builtinPrefix + "mcp":
			on = true
		}
	}
	return on
}

// startMCP reads mcp.json and connects its servers in the background,
// once per agent. Invalid entries and exposures this build cannot reach
// are warnings on stderr; servers that fail are reported once the first
// prompt has waited for them.
func (app *Agent) startMCP(ctx context.Context) {
	if app.mcpManager() != nil {
		return
	}
	if w := app.mcpShadowWarning(); w != "" {
		fmt.Fprintln(app.stderr, "Warning:", w)
	}
	if !app.mcpBuiltinEnabled() {
		app.reportUnconnectedMCP()
		return
	}
	m := mcp.NewManager(mcp.ManagerOptions{AgentDir: app.agentDir, Cwd: app.cwd, Trusted: app.trusted, Registered: app.extensionMCPServers(),
		// codemode and deferred tools are reached through builtin:codemode
		// and builtin:tool-search when those are on.
		Reachable: func(exposure string) bool { return app.mcpIndirectTool(exposure) != "" }})
	app.mcp.mu.Lock()
	app.mcp.m = m
	app.mcp.mu.Unlock()
	app.IndirectTools().AddSource(func() []codemode.Entry { return app.mcpIndirect(m) })
	// Scripts and tool_search wait for the servers they need that are
	// still connecting; the tools that arrive then join the registry.
	app.IndirectTools().OnWait(func(ctx context.Context, code string) {
		m.WaitForCode(ctx, code)
		app.IndirectTools().Notify()
	})
	app.codemodeAutoActivate()
	for _, w := range m.Unreachable() {
		fmt.Fprintln(app.stderr, "Warning:", w)
	}
	m.Start(ctx)
}

// syncMCPTools runs before a prompt: the first one waits (bounded) for
// the servers with direct tools, and each one adds the direct tools that
// connected or changed since, after the tools already active, so the
// request declares them.
func (app *Agent) syncMCPTools(ctx context.Context) {
	m := app.mcpManager()
	if m == nil {
		return
	}
	s := app.session()
	if s == nil {
		return
	}
	first := m.WaitDirect(ctx)
	app.mcp.mu.Lock()
	replaced := app.mcp.synced != s
	app.mcp.synced = s
	app.mcp.mu.Unlock()
	changed := m.Changed()
	if first || changed || replaced {
		// The registry reads the servers' tools itself; telling it lets a
		// server's tools turn codemode or tool_search on.
		app.IndirectTools().Notify()
	}
	if !first && !changed && !replaced {
		return
	}
	app.mcp.mu.Lock()
	report := first && app.mcp.ui == nil && !app.mcp.reported
	app.mcp.reported = app.mcp.reported || report
	app.mcp.mu.Unlock()
	if report {
		if p := m.Problems(ctx); p != "" {
			fmt.Fprintln(app.stderr, "Warning:", p)
		}
	}
	var kept []engine.Tool
	for _, t := range s.Tools() {
		if !mcp.IsMCPToolName(t.Info().Name) {
			kept = append(kept, t)
		}
	}
	s.SetTools(append(kept, app.selectMCPTools(m.DirectTools())...))
}

// selectMCPTools applies the tool selection flags to MCP tools: a
// --tools allowlist declares only those it names or matches (such as
// mcp__radius__*), --no-tools removes them, and --exclude-tools patterns apply as to any
// tool.
func (app *Agent) selectMCPTools(tools []engine.Tool) []engine.Tool {
	a := app.opts
	if a.NoTools {
		return nil
	}
	// A --tools allowlist declares only the MCP tools it names or
	// matches; a list of only +name/-name edits is no allowlist.
	allowlist := len(a.Tools) > 0 && !IsToolModifier(a.Tools[0])
	var out []engine.Tool
	for _, t := range tools {
		name := t.Info().Name
		if allowlist && !matchMCPPattern(a.Tools, name) {
			continue
		}
		if matchMCPPattern(a.ExcludeTools, name) {
			continue
		}
		out = append(out, t)
	}
	return out
}

func matchMCPPattern(entries []string, name string) bool {
	for _, e := range entries {
		if mcp.MatchPattern(e, name) {
			return true
		}
	}
	return false
}

// closeMCP stops the servers.
func (app *Agent) closeMCP() {
	if m := app.mcpManager(); m != nil {
		m.Close()
	}
}

// mcpAPIOptions give the extension API the MCP registrations:
// pi.registerMcpServer validates with the mcp.json rules, and changes
// after the session started reach the running servers.
func (app *Agent) mcpAPIOptions(o *jsruntime.APIOptions) {
	o.ValidateMCPServer = func(name string, config json.RawMessage) (json.RawMessage, error) {
		v, err := jsonx.Decode(config)
		if err != nil {
			return nil, err
		}
		s, msg := mcp.Validate(name, v)
		if msg != "" {
			return nil, errors.New(msg)
		}
		return jsonx.Marshal(s.Config)
	}
	o.HostTools = app.mcpHostTools
	o.MCPServersChanged = func(list []jsruntime.MCPServer) {
		if m := app.mcpManager(); m != nil {
			m.SetRegistered(context.Background(), registeredServers(list))
		}
	}
}

// registeredServers are extension registrations as mcp servers.
func registeredServers(list []jsruntime.MCPServer) []*mcp.Server {
	var out []*mcp.Server
	for _, r := range list {
		v, err := jsonx.Decode(r.Config)
		if err != nil {
			continue
		}
		s, msg := mcp.Validate(r.Name, v)
		if msg != "" {
			continue
		}
		s.Scope, s.Source = "extension", r.ExtensionPath
		out = append(out, s)
	}
	return out
}

// extensionMCPServers are the servers the loaded extensions registered.
func (app *Agent) extensionMCPServers() []*mcp.Server {
	if app.ext == nil || !app.ext.Active() {
		return nil
	}
	api, _ := app.ext.Current()
	return registeredServers(api.MCPServers())
}

// setMCPUI makes ui show /mcp's answers, and reports the servers that
// need attention there once the startup connections are done, as the
// reference notifies them after start.
func (app *Agent) setMCPUI(ui engine.UI) {
	m := app.mcpManager()
	if m == nil {
		return
	}
	app.mcp.mu.Lock()
	app.mcp.ui = ui
	app.mcp.mu.Unlock()
	go func() {
		if p := m.Problems(context.Background()); p != "" {
			app.mcp.mu.Lock()
			app.mcp.reported = true
			app.mcp.mu.Unlock()
			ui.Notify(p, "warning")
		}
	}()
}

// mcpHostTools are builtin:mcp's tools as pi.getAllTools lists them.
func (app *Agent) mcpHostTools() []jsruntime.HostTool {
	m := app.mcpManager()
	if m == nil {
		return nil
	}
	var out []jsruntime.HostTool
	for _, e := range m.AllTools() {
		h := jsruntime.HostTool{Tool: e.Tool, Exposure: e.Exposure, Path: "builtin:mcp"}
		if e.Namespace != nil {
			h.Namespace, _ = jsonx.Marshal(e.Namespace)
		}
		if e.Annotations != nil {
			h.Annotations, _ = jsonx.Marshal(e.Annotations)
		}
		out = append(out, h)
	}
	return out
}

// reportUnconnectedMCP reports, as the reference does, each server an
// extension registered when nothing connects them: builtin:mcp is off
// and no extension handles mcp_servers_change.
func (app *Agent) reportUnconnectedMCP() {
	if app.ext == nil || !app.ext.Active() {
		return
	}
	api, _ := app.ext.Current()
	if api.HasHandlers("mcp_servers_change") {
		return
	}
	for _, s := range api.MCPServers() {
		app.ext.Report(jsruntime.ExtensionError{Path: s.ExtensionPath, Event: "register_mcp_server",
			Error: fmt.Sprintf("MCP server %q is registered, but no loaded extension connects MCP servers; another extension may have replaced the built-in MCP support", s.Name)})
	}
}

// reloadMCP is /reload for MCP: mcp.json and the new generation's
// registrations are read again and every server reconnects; the next
// prompt declares the direct tools again.
func (app *Agent) reloadMCP(ctx context.Context) {
	app.mcp.mu.Lock()
	old := app.mcp.m
	app.mcp.m, app.mcp.synced = nil, nil
	app.mcp.mu.Unlock()
	if old != nil {
		old.Close()
	}
	app.startMCP(ctx)
}

// mcpIndirectTool is the tool that reaches MCP tools of an exposure:
// codemode for "codemode" (the default), tool_search for "deferred", ""
// when that built-in extension is off or the exposure is another.
func (app *Agent) mcpIndirectTool(exposure string) string {
	switch {
	case exposure == "codemode" && app.builtinExtEnabled("codemode"):
		return codemode.Name
	case exposure == "deferred" && app.builtinExtEnabled("tool-search"):
		return codemode.SearchName
	}
	return ""
}

// mcpActivations are the tools the configured MCP servers turn on: codemode
// for a server (or one of its tools) with codemode exposure, tool_search
// for deferred, unless mcp.json sets autoEnableCodemode to false. It goes
// by the configuration, not the connections, so the first request already
// declares them while the servers are still connecting.
func (app *Agent) mcpActivations() []string {
	m := app.mcpManager()
	if m == nil {
		return nil
	}
	c := m.Config()
	if c == nil || (c.AutoEnableCodemode != nil && !*c.AutoEnableCodemode) {
		return nil
	}
	seen := map[string]bool{}
	var out []string
	add := func(exposure string) {
		if exposure == "" {
			exposure = "codemode"
		}
		if via := app.mcpIndirectTool(exposure); via != "" && !seen[via] {
			seen[via] = true
			out = append(out, via)
		}
	}
	for _, s := range c.Servers {
		if !s.Enabled {
			continue
		}
		add(s.Exposure)
		for _, kv := range s.ToolExposure {
			add(kv[1])
		}
	}
	return out
}

// mcpIndirect lists the connected servers' codemode and deferred tools
// (both "deferred" in AllTools) for the codemode registry: scripts call
// them and find them with searchTools, tool_search declares the ones it
// matches, and the codemode description stays the same while servers come
// and go. Each has its server as the namespace; a script's call resolves
// to the CallToolResult.
func (app *Agent) mcpIndirect(m *mcp.Manager) []codemode.Entry {
	if app.mcpIndirectTool("codemode") == "" && app.mcpIndirectTool("deferred") == "" {
		return nil
	}
	var out []codemode.Entry
	for _, te := range m.AllTools() {
		if te.Exposure != "deferred" && te.Exposure != "codemode" {
			continue
		}
		out = append(out, codemode.Entry{Tool: te.Tool, Exposure: codemode.ExposureDeferred, Namespace: mcpNamespace(te.Namespace), Returns: "CallToolResult"})
	}
	return out
}

func mcpNamespace(o jsonx.Object) *codemode.Namespace {
	str := func(k string) string { v, _ := o.Get(k); s, _ := v.(string); return s }
	ns := &codemode.Namespace{Name: str("name"), Description: str("description"), Instructions: str("instructions")}
	if v, ok := o.Get("aliases"); ok {
		if list, ok := v.([]any); ok {
			for _, a := range list {
				if s, ok := a.(string); ok {
					ns.Aliases = append(ns.Aliases, s)
				}
			}
		}
	}
	return ns
}
