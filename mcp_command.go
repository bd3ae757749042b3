package pi

import (
	"context"
	"fmt"
	"strings"

	"github.com/pi-go/pi/engine/config/login"

	"github.com/pi-go/pi/engine"
	"github.com/pi-go/pi/mcp"
	"github.com/pi-go/pi/prompts"
)

// The /mcp command of the built-in MCP support, headless: /mcp reports
// every server's state, /mcp reconnect|login|logout <server> act on one.
// It answers with notifications (extension_ui_request notify in RPC
// mode, stderr in print and JSON modes).

const mcpUsage = "Usage: /mcp, /mcp login [server], /mcp logout [server], /mcp reconnect [server]"

// mcpCommandDescription is /mcp's get_commands description, the reference's.
const mcpCommandDescription = "Manage MCP servers: sign in, reconnect, enable or disable, and change exposure"

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
		app.mcp.mu.Lock()
		ui := app.mcp.ui
		app.mcp.mu.Unlock()
		if ui != nil && ui.HasUI() && ui.Mode() == "tui" {
			app.mcpManage(ctx, ui, m)
			return
		}
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
	// The servers each action applies to, the ones it prefers when no
	// name is given, and what it says when there is none: the reference's.
	eligible := func(c *mcp.Conn) bool { return c.Server.Enabled && c.Server.UsesOAuth() }
	preferred := func(c *mcp.Conn) bool { st, _ := c.State(); return st == mcp.StateNeedsAuth }
	none := "No enabled MCP server uses OAuth. Only HTTP servers without an Authorization header do."
	if action == "reconnect" {
		eligible = func(c *mcp.Conn) bool { return c.Server.Enabled }
		preferred = func(c *mcp.Conn) bool {
			st, _ := c.State()
			return st == mcp.StateFailed || st == mcp.StateDisconnected
		}
		none = "No enabled MCP server to reconnect."
	}
	if name != "" {
		var found *mcp.Conn
		for _, c := range m.Conns() {
			if c.Server.Name == name {
				found = c
			}
		}
		switch {
		case found == nil:
			app.mcpNotify(fmt.Sprintf("No MCP server named %q.", name), "error")
			return
		case !eligible(found):
			app.mcpNotify(none, "error")
			return
		}
	} else {
		var candidates, liked []string
		for _, c := range m.Conns() {
			if eligible(c) {
				candidates = append(candidates, c.Server.Name)
				if preferred(c) {
					liked = append(liked, c.Server.Name)
				}
			}
		}
		switch {
		case len(candidates) == 0:
			app.mcpNotify(none, "info")
			return
		case len(candidates) == 1:
			name = candidates[0]
		case len(liked) == 1:
			name = liked[0]
		default:
			app.mcp.mu.Lock()
			ui := app.mcp.ui
			app.mcp.mu.Unlock()
			if ui == nil {
				app.mcpNotify(fmt.Sprintf("Name the MCP server: /mcp %s <server> (one of %s).", action, strings.Join(candidates, ", ")), "error")
				return
			}
			choice, ok := ui.Select(ctx, "MCP server", candidates, engine.DialogOptions{})
			if !ok || choice == "" {
				return
			}
			name = choice
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
		app.mcpLogin(ctx, m, name)
	}
}

// mcpLogin is /mcp login <server>: with a UI that reaches a person (RPC,
// the terminal), the authorization URL is a notification (and opens in
// the browser) and an input dialog takes a pasted redirect URL while the
// loopback callback waits; print and JSON modes cannot sign in.
func (app *Agent) mcpLogin(ctx context.Context, m *mcp.Manager, name string) {
	app.mcp.mu.Lock()
	ui := app.mcp.ui
	app.mcp.mu.Unlock()
	if ui == nil || !ui.HasUI() {
		app.mcpNotify(fmt.Sprintf("Signing in to MCP server %q requires interactive mode.", name), "error")
		return
	}
	prompt := mcp.SignInPrompt{
		ShowAuthorizationURL: func(u string) {
			ui.Notify(fmt.Sprintf("Sign in to MCP server %q in your browser:\n%s", name, u), "info")
			if open := app.mcp.openURL; open != nil {
				open(u)
			} else {
				login.OpenBrowser(u)
			}
		},
		PromptForRedirectURL: func(ctx context.Context) (string, error) {
			text, _ := ui.Input(ctx, fmt.Sprintf("Waiting for sign-in to %q. If the browser cannot reach this machine, paste the URL it was redirected to.", name),
				"http://127.0.0.1:.../callback?code=...", engine.DialogOptions{})
			return text, nil
		},
	}
	msg, err := m.Login(ctx, name, prompt)
	if err != nil {
		kind := "error"
		if err.Error() == "Sign-in cancelled." {
			kind = "info"
		}
		app.mcpNotify(err.Error(), kind)
		return
	}
	app.mcpNotify(msg, "info")
}
