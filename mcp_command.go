package pi

import (
	"context"
	"fmt"
	"strings"

	"github.com/pi-go/pi/engine"
	"github.com/pi-go/pi/prompts"
)

// The /mcp command of the built-in MCP support, headless: /mcp reports
// every server's state, /mcp reconnect|login|logout <server> act on one.
// It answers with notifications (extension_ui_request notify in RPC
// mode, stderr in print and JSON modes).

const mcpUsage = "Usage: /mcp, /mcp login [server], /mcp logout [server], /mcp reconnect [server]"

// mcpCommandDescription is /mcp's get_commands description.
const mcpCommandDescription = "Manage MCP servers: show their state, reconnect, sign out"

// mcpCommandInfo is /mcp in get_commands, as a command of the built-in
// extension builtin:mcp; nil when MCP is off.
func (app *Agent) mcpCommandInfo() *prompts.CommandInfo {
	if app.mcpManager() == nil {
		return nil
	}
	d := mcpCommandDescription
	return &prompts.CommandInfo{Name: "mcp", Description: &d, Source: "extension",
		SourceInfo: &prompts.SourceInfo{Path: "builtin:mcp", Source: "builtin", Scope: "temporary", Origin: "top-level"},
		Location:   prompts.SeedLocation("temporary"), Path: "builtin:mcp"}
}

// sessionHooks are the extension hooks, with /mcp and /llama in front of
// the input handlers when builtin:mcp and builtin:llama.cpp are on.
func (app *Agent) sessionHooks() engine.Hooks {
	inner := app.ext.Hooks()
	if app.mcpManager() == nil {
		return app.withLlamaHooks(inner)
	}
	_, nop := inner.(engine.NopHooks)
	return app.withLlamaHooks(mcpHooks{Hooks: inner, app: app, nop: nop})
}

// mcpHooks runs /mcp; every other event goes to the extensions.
type mcpHooks struct {
	engine.Hooks
	app *Agent
	nop bool
}

// ProviderHooksNop keeps the fast path of a session without extensions.
func (h mcpHooks) ProviderHooksNop() bool { return h.nop }

func (h mcpHooks) Input(ctx context.Context, text string, images []engine.Content, source, streamingBehavior string) (engine.InputResult, error) {
	if name, rest, _ := strings.Cut(strings.TrimSpace(text), " "); name == "/mcp" {
		h.app.runMCPCommand(ctx, strings.Fields(rest))
		return engine.InputResult{Action: engine.InputHandled}, nil
	}
	return h.Hooks.Input(ctx, text, images, source, streamingBehavior)
}

// mcpNotify shows one /mcp answer.
func (app *Agent) mcpNotify(message, kind string) {
	app.mcp.mu.Lock()
	ui := app.mcp.ui
	app.mcp.mu.Unlock()
	if ui != nil {
		ui.Notify(message, kind)
		return
	}
	prefix := ""
	switch kind {
	case "warning":
		prefix = "Warning: "
	case "error":
		prefix = "Error: "
	}
	fmt.Fprintln(app.stderr, prefix+message)
}

func (app *Agent) runMCPCommand(ctx context.Context, args []string) {
	m := app.mcpManager()
	if len(args) == 0 {
		app.mcpNotify(m.Status(ctx), "info")
		return
	}
	if len(args) > 2 {
		app.mcpNotify(mcpUsage, "warning")
		return
	}
	action, name := args[0], ""
	if len(args) == 2 {
		name = args[1]
	}
	switch action {
	case "reconnect", "login", "logout":
	default:
		app.mcpNotify(mcpUsage, "warning")
		return
	}
	m.WaitStarted(ctx)
	if name == "" {
		var eligible []string
		for _, c := range m.Conns() {
			if action == "reconnect" && c.Server.Enabled || action != "reconnect" && m.UsesOAuth(c.Server) {
				eligible = append(eligible, c.Server.Name)
			}
		}
		switch len(eligible) {
		case 0:
			if action == "reconnect" {
				app.mcpNotify("No enabled MCP server to reconnect.", "error")
			} else {
				app.mcpNotify("No MCP server uses OAuth.", "error")
			}
			return
		case 1:
			name = eligible[0]
		default:
			app.mcpNotify(fmt.Sprintf("Name the MCP server: /mcp %s <server> (one of %s).", action, strings.Join(eligible, ", ")), "error")
			return
		}
	}
	switch action {
	case "reconnect":
		msg, err := m.Reconnect(ctx, name)
		if err != nil {
			app.mcpNotify(err.Error(), "error")
			return
		}
		app.mcpNotify(msg, "info")
	case "logout":
		msg, err := m.Logout(name)
		if err != nil {
			app.mcpNotify(err.Error(), "error")
			return
		}
		app.mcpNotify(msg, "info")
	case "login":
		if _, err := m.Logout(name); err != nil && strings.Contains(err.Error(), "No MCP server") {
			app.mcpNotify(err.Error(), "error")
			return
		}
		app.mcpNotify(fmt.Sprintf("Signing in to MCP server %q is not available in this build yet: MCP OAuth is not built. Give the server an Authorization header in mcp.json instead.", name), "error")
	}
}
