package pi

import (
	"context"
	"fmt"
	"slices"

	"github.com/pi-go/pi/engine"
	"github.com/pi-go/pi/mcp"
)

// The built-in MCP support (the reference's builtin:mcp) is Go code in
// package mcp; this file decides whether a session has it and puts the
// servers' tools into the session.

// mcpBuiltinEnabled reports whether builtin:mcp runs in this session, as
// the reference decides: --no-mcp turns it off for the run; -e
// builtin:mcp turns it on even under -ne; otherwise it is on unless -ne
// or a settings "extensions" entry "-builtin:mcp" (global, or the
// trusted project's, which wins) turns it off; an extension that
// registers /mcp replaces it.
func (app *Agent) mcpBuiltinEnabled() bool {
	if app.opts.NoMCP {
		return false
	}
	if app.ext != nil && app.ext.IsCommand("/mcp") {
		return false
	}
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
	if app.mcp != nil || !app.mcpBuiltinEnabled() {
		return
	}
	app.mcp = mcp.NewManager(mcp.ManagerOptions{AgentDir: app.agentDir, Cwd: app.cwd, Trusted: app.trusted})
	for _, w := range app.mcp.Unreachable() {
		fmt.Fprintln(app.stderr, "Warning:", w)
	}
	app.mcp.Start(ctx)
}

// syncMCPTools runs before a prompt: the first one waits (bounded) for
// the servers with direct tools, and each one adds the direct tools that
// connected or changed since, after the tools already active, so the
// request declares them.
func (app *Agent) syncMCPTools(ctx context.Context) {
	m := app.mcp
	if m == nil {
		return
	}
	first := m.WaitDirect(ctx)
	if !first && !m.Changed() {
		return
	}
	if first {
		if p := m.Problems(ctx); p != "" {
			fmt.Fprintln(app.stderr, "Warning:", p)
		}
	}
	s := app.session()
	if s == nil {
		return
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
	if app.mcp != nil {
		app.mcp.Close()
	}
}
