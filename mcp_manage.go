package pi

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/pi-go/pi/engine"
	"github.com/pi-go/pi/internal/jsonx"
	"github.com/pi-go/pi/mcp"
)

// The interactive /mcp manager: in the TUI, /mcp without arguments lists
// the servers (those that need attention first) and, for the one chosen,
// shows its connection details and offers its actions. It is built from
// the UI's select dialogs, so it runs on the command's goroutine and each
// dialog waits for the person.

// mcpColumn is the width of a row's first column; the second holds the
// state or what an action does.
const mcpColumn = 32

func mcpRow(label, detail string) string {
	if detail == "" {
		return label
	}
	pad := max(mcpColumn-len([]rune(label)), 2)
	return label + strings.Repeat(" ", pad) + detail
}

// mcpTools is "1 tool" or "N tools".
func mcpTools(n int) string {
	if n == 1 {
		return "1 tool"
	}
	return fmt.Sprintf("%d tools", n)
}

// mcpStateLine is a server's state as the manager shows it.
func mcpStateLine(c *mcp.Conn) (line, errText string) {
	state, errText := c.State()
	switch state {
	case mcp.StateConnected:
		line = "connected · " + mcpTools(len(c.Tools()))
		if c.HasResources() {
			line += " · resources"
		}
		return line, ""
	case mcp.StateNeedsAuth:
		return "needs sign-in", errText
	case mcp.StateDisconnected:
		return "disconnected, reconnects on next call", errText
	case mcp.StateConnecting:
		return "starting", errText
	}
	return state, errText
}

// mcpNeedsAttention orders failed and signed-out servers first.
func mcpNeedsAttention(c *mcp.Conn) bool {
	st, _ := c.State()
	return st == mcp.StateFailed || st == mcp.StateNeedsAuth
}

// mcpManage is /mcp in the TUI.
func (app *Agent) mcpManage(ctx context.Context, ui engine.UI, m *mcp.Manager) {
	m.WaitStarted(ctx)
	for {
		conns := m.Conns()
		if len(conns) == 0 {
			app.mcpNotify(m.Status(ctx), "info")
			return
		}
		slices.SortStableFunc(conns, func(a, b *mcp.Conn) int {
			x, y := mcpNeedsAttention(a), mcpNeedsAttention(b)
			switch {
			case x && !y:
				return -1
			case y && !x:
				return 1
			}
			return 0
		})
		rows := make([]string, len(conns))
		for i, c := range conns {
			line, errText := mcpStateLine(c)
			if errText != "" && line == mcp.StateFailed {
				line += ": " + strings.SplitN(errText, "\n", 2)[0]
			}
			rows[i] = mcpRow(c.Server.Name, line+" · "+c.Server.Exposure+" · "+c.Server.Scope)
		}
		choice, ok := ui.Select(ctx, "MCP servers", rows, engine.DialogOptions{})
		i := slices.Index(rows, choice)
		if !ok || i < 0 {
			return
		}
		app.mcpServerMenu(ctx, ui, m, conns[i].Server.Name)
	}
}

// mcpServerMenu shows one server until the person goes back.
func (app *Agent) mcpServerMenu(ctx context.Context, ui engine.UI, m *mcp.Manager, name string) {
	for {
		var c *mcp.Conn
		for _, x := range m.Conns() {
			if x.Server.Name == name {
				c = x
			}
		}
		if c == nil {
			return
		}
		s := c.Server
		head := []string{"MCP server " + name}
		if s.IsHTTP() {
			head = append(head, s.URL)
		} else {
			head = append(head, strings.Join(append([]string{s.Command}, s.Args...), " "))
		}
		head = append(head, s.Scope+": "+s.Source)
		if s.Override != "" {
			head = append(head, "override: "+s.Override)
		}
		line, errText := mcpStateLine(c)
		head = append(head, "State: "+line)
		if errText != "" {
			head = append(head, strings.SplitN(errText, "\n", 2)[0])
		}
		saved := "applies to this session"
		if t := mcp.ChangeTarget(s); t == mcp.GlobalPath(app.AgentDir()) {
			saved = "saved to the global mcp.json"
		} else if t != "" {
			saved = "saved to the project mcp.json"
		}
		type action struct {
			row string
			run func() bool // reports whether the menu goes on
		}
		var acts []action
		add := func(label, detail string, run func() bool) {
			acts = append(acts, action{mcpRow(label, detail), run})
		}
		if tools := c.Tools(); len(tools) > 0 {
			add("Tools", fmt.Sprintf("%d offered", len(tools)), func() bool {
				names := make([]string, len(tools))
				for i, t := range tools {
					about := strings.SplitN(strings.TrimSpace(t.Description), "\n", 2)[0]
					if e := s.ToolExposureOf(t.Name); e != s.Exposure {
						about = strings.TrimSpace("(" + e + ") " + about)
					}
					names[i] = mcpRow(t.Name, about)
				}
				title := "Tools of " + name + "\nExposure " + s.Exposure
				if about := mcpExposureAbout[s.Exposure]; about != "" {
					title += ": " + about
				}
				ui.Select(ctx, title, names, engine.DialogOptions{})
				return true
			})
		}
		if s.Enabled {
			add("Reconnect", "", func() bool {
				msg, err := m.Reconnect(ctx, name)
				if err != nil {
					app.mcpNotify(err.Error(), "error")
				} else {
					app.mcpNotify(msg, "info")
				}
				return true
			})
			// A signed-in server offers signing out, one that needs it
			// signing in; in between (failed, starting) both.
			st, _ := c.State()
			if s.UsesOAuth() && st != mcp.StateConnected {
				add("Sign in", "", func() bool { app.mcpLogin(ctx, m, name); return true })
			}
			if s.UsesOAuth() && st != mcp.StateNeedsAuth {
				add("Sign out", "", func() bool {
					msg, err := m.Logout(name)
					if err != nil {
						app.mcpNotify(err.Error(), "error")
					} else {
						app.mcpNotify(msg, "info")
					}
					return true
				})
			}
			add("Exposure", s.Exposure, func() bool {
				app.mcpChooseExposure(ctx, ui, m, s, saved)
				return true
			})
		}
		verb, enable := "Disable", false
		if !s.Enabled {
			verb, enable = "Enable", true
		}
		add(verb, saved, func() bool {
			app.mcpChange(ctx, m, name, jsonx.Object{{Key: "enabled", Value: enable}}, false)
			return true
		})
		if m.CanOverrideInProject(s) {
			add(verb+" in this project", "saved to the project mcp.json", func() bool {
				app.mcpChange(ctx, m, name, jsonx.Object{{Key: "enabled", Value: enable}}, true)
				return true
			})
		}
		rows := make([]string, len(acts))
		for i, a := range acts {
			rows[i] = a.row
		}
		choice, ok := ui.Select(ctx, strings.Join(head, "\n"), rows, engine.DialogOptions{})
		i := slices.Index(rows, choice)
		if !ok || i < 0 || !acts[i].run() {
			return
		}
	}
}

// mcpExposureAbout says what each exposure mode does to a server's tools.
var mcpExposureAbout = map[string]string{
	"codemode": "codemode scripts look them up with searchTools() and call them",
	"deferred": "hidden until tool_search loads them, then called directly",
	"direct":   "the model sees them as ordinary tools",
	"hidden":   "not offered to the model",
}

// mcpChooseExposure offers the exposure modes, the current one ticked.
func (app *Agent) mcpChooseExposure(ctx context.Context, ui engine.UI, m *mcp.Manager, s *mcp.Server, saved string) {
	about := mcpExposureAbout
	modes := []string{"codemode", "deferred", "direct"}
	rows := make([]string, len(modes))
	for i, e := range modes {
		// The dialog trims a row's leading spaces, so only the current
		// mode carries a mark and the second column aligns by itself.
		label := e
		if e == s.Exposure {
			label = "✓ " + e
		}
		rows[i] = mcpRow(label, about[e])
	}
	where := "Applies to this session only."
	if t := mcp.ChangeTarget(s); t != "" {
		where = "Saved to " + t + "."
	}
	choice, ok := ui.Select(ctx, "Exposure of "+s.Name+"\n"+where, rows, engine.DialogOptions{})
	i := slices.Index(rows, choice)
	if !ok || i < 0 || modes[i] == s.Exposure {
		return
	}
	app.mcpChange(ctx, m, s.Name, jsonx.Object{{Key: "exposure", Value: modes[i]}}, false)
}

// mcpChange saves and applies one change; the menu, drawn again, shows
// its effect, so only a failure is reported (as the reference does).
func (app *Agent) mcpChange(ctx context.Context, m *mcp.Manager, name string, fields jsonx.Object, inProject bool) {
	if _, err := m.Change(ctx, name, fields, inProject); err != nil {
		app.mcpNotify(err.Error(), "error")
	}
}
