package mcp

import (
	"context"
	"os"
	"strings"
	"testing"

	"github.com/pi-go/pi/internal/jsonx"
)

// TestChange checks the /mcp manager's changes: an exposure change and a
// disable are written into the entry of the file that defines the server,
// every other byte of meaning kept (other keys, other servers, top-level
// fields); "in this project" adds an override to the project's mcp.json,
// later changes go to that override; a registered server changes for the
// session only. Each change replaces the connection: the new exposure
// shows in the direct tools, a disabled server has none.
func TestChange(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	agent, cwd := t.TempDir(), t.TempDir()
	writeFile(t, GlobalPath(agent), `{
    "autoEnableCodemode": false,
    "mcpServers": {
        "ok": {"command": "`+testServer+`", "description": "kept"},
        "other": {"command": "/nonexistent/x", "enabled": false}
    }
}
`)
	m := NewManager(ManagerOptions{AgentDir: agent, Cwd: cwd, Trusted: true,
		Registered: []*Server{mustServer(t, "ext", `{"command":"`+testServer+`"}`, "extension", "/ext.ts")}})
	defer m.Close()
	m.Start(ctx)
	m.WaitStarted(ctx)
	if n := len(m.DirectTools()); n != 0 {
		t.Fatalf("%d direct tools before the change", n)
	}

	path, err := m.Change(ctx, "ok", jsonx.Object{{Key: "exposure", Value: "direct"}}, false)
	if err != nil || path != GlobalPath(agent) {
		t.Fatalf("change: %q %v", path, err)
	}
	if st, _ := m.find("ok").State(); st != StateConnected || !strings.Contains(names(m), "mcp__ok__ping") {
		t.Fatalf("after exposure direct: state %s, tools %s", st, names(m))
	}
	want := `{
    "autoEnableCodemode": false,
    "mcpServers": {
        "ok": {
            "command": "` + testServer + `",
            "description": "kept",
            "exposure": "direct"
        },
        "other": {
            "command": "/nonexistent/x",
            "enabled": false
        }
    }
}
`
	if got := read(t, GlobalPath(agent)); got != want {
		t.Errorf("global mcp.json\n%s\nwant\n%s", got, want)
	}

	// Disabling in the project leaves the user file alone.
	if _, err := m.Change(ctx, "ok", jsonx.Object{{Key: "enabled", Value: false}}, true); err != nil {
		t.Fatal(err)
	}
	if got := read(t, GlobalPath(agent)); got != want {
		t.Errorf("in-project change wrote the global file:\n%s", got)
	}
	if got := read(t, ProjectPath(cwd)); got != "{\n  \"mcpServers\": {\n    \"ok\": {\n      \"enabled\": false\n    }\n  }\n}\n" {
		t.Errorf("project mcp.json %q", got)
	}
	c := m.find("ok")
	if st, _ := c.State(); st != StateDisabled || c.Server.Override != ProjectPath(cwd) || names(m) != "" {
		t.Errorf("after disable in project: state %s, override %q, tools %q", st, c.Server.Override, names(m))
	}
	if m.CanOverrideInProject(c.Server) {
		t.Error("a server with an override is offered another one")
	}
	// Enabling again goes to the override.
	if path, err := m.Change(ctx, "ok", jsonx.Object{{Key: "enabled", Value: true}}, false); err != nil || path != ProjectPath(cwd) {
		t.Fatalf("enable: %q %v", path, err)
	}
	if got := read(t, ProjectPath(cwd)); !strings.Contains(got, `"enabled": true`) {
		t.Errorf("project mcp.json %q", got)
	}

	// A registered server: the session only.
	if path, err := m.Change(ctx, "ext", jsonx.Object{{Key: "exposure", Value: "direct"}}, false); err != nil || path != "" {
		t.Fatalf("registered: %q %v", path, err)
	}
	if s := m.find("ext").Server; s.Exposure != "direct" || s.Scope != "extension" || s.Source != "/ext.ts" {
		t.Errorf("registered server after change: %+v", s)
	}
	if !strings.Contains(names(m), "mcp__ext__ping") {
		t.Errorf("tools %s", names(m))
	}
	if _, err := m.Change(ctx, "ext", jsonx.Object{{Key: "enabled", Value: false}}, true); err == nil {
		t.Error("a registered server took a project override")
	}
	if _, err := m.Change(ctx, "nope", nil, false); err == nil || err.Error() != `No MCP server named "nope".` {
		t.Errorf("unknown server: %v", err)
	}
}

func mustServer(t *testing.T, name, config, scope, source string) *Server {
	t.Helper()
	v, err := jsonx.Decode([]byte(config))
	if err != nil {
		t.Fatal(err)
	}
	s, msg := Validate(name, v)
	if msg != "" {
		t.Fatal(msg)
	}
	s.Scope, s.Source = scope, source
	return s
}

func names(m *Manager) string {
	var out []string
	for _, tl := range m.DirectTools() {
		if n := tl.Info().Name; strings.HasPrefix(n, "mcp__") {
			out = append(out, n)
		}
	}
	return strings.Join(out, ",")
}

func read(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
