package pi_test

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/pi-go/pi"
	"github.com/pi-go/pi/engine"
	"github.com/pi-go/pi/internal/mockllm"
	"github.com/pi-go/pi/internal/sdktest"
	"github.com/pi-go/pi/mcp/mcptest"
)

// loginUI is a person at an RPC client: it records notifications, and
// answers the paste dialog with the redirect URL its browser reached
// (or, with browser set, lets the browser reach the callback and leaves
// the dialog open until the sign-in cancels it).
type loginUI struct {
	engine.NopUI
	w       *mcptest.World
	browser bool

	mu       sync.Mutex
	notes    []string
	pasted   string
	inputs   []string
	canceled bool
}

func (u *loginUI) HasUI() bool  { return true }
func (u *loginUI) Mode() string { return "rpc" }

func (u *loginUI) Notify(message, kind string) {
	u.mu.Lock()
	defer u.mu.Unlock()
	u.notes = append(u.notes, kind+": "+message)
	if _, authURL, ok := strings.Cut(message, "in your browser:\n"); ok {
		if u.browser {
			u.w.Browse(authURL, nil)
			return
		}
		q := u.w.Authorize(authURL)
		u.pasted = u.w.Redirect(q, u.w.LastCode())
	}
}

func (u *loginUI) Input(ctx context.Context, title, placeholder string, _ engine.DialogOptions) (string, bool) {
	u.mu.Lock()
	u.inputs = append(u.inputs, title+" | "+placeholder)
	pasted := u.pasted
	u.mu.Unlock()
	if u.browser {
		<-ctx.Done()
		u.mu.Lock()
		u.canceled = true
		u.mu.Unlock()
		return "", false
	}
	return pasted, true
}

func (u *loginUI) all() string {
	u.mu.Lock()
	defer u.mu.Unlock()
	return strings.Join(u.notes, "\n")
}

// TestMCPLoginHeadless runs /mcp login in a session with a UI (as RPC
// mode has): the authorization URL arrives as a notification, the paste
// dialog asks for the redirect URL, and the session's server connects
// with the new tokens; with the browser reaching the callback instead,
// the dialog is withdrawn. /mcp logout signs out, and print mode (no UI)
// refuses to sign in.
func TestMCPLoginHeadless(t *testing.T) {
	t.Parallel()
	for _, browser := range []bool{false, true} {
		name := "pasted"
		if browser {
			name = "callback"
		}
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			w := mcptest.New(t)
			agentDir, project, _ := sdktest.Home(t, mockllm.Script{})
			if err := os.WriteFile(filepath.Join(agentDir, "mcp.json"), []byte(`{"mcpServers":{"secure":{"url":"`+w.MCPURL+`"}}}`), 0o644); err != nil {
				t.Fatal(err)
			}
			ui := &loginUI{w: w, browser: browser}
			agent, err := pi.New(context.Background(), pi.Options{AgentDir: agentDir, Cwd: project, Model: sdktest.Model,
				NoSession: true, Mode: pi.ModeRPC, UI: ui, Stderr: io.Discard})
			if err != nil {
				t.Fatal(err)
			}
			defer agent.Close()
			for _, cmd := range []string{"/mcp", "/mcp login nope", "/mcp login secure", "/mcp", "/mcp logout", "/mcp"} {
				if err := agent.Prompt(context.Background(), cmd, nil); err != nil {
					t.Fatalf("%s: %v", cmd, err)
				}
			}
			got := ui.all()
			for _, want := range []string{
				"info: secure: needs sign-in, run /mcp login secure (codemode)",
				`error: No MCP server named "nope".`,
				`info: Sign in to MCP server "secure" in your browser:` + "\nhttp://127.0.0.1:",
				`info: Signed in to MCP server "secure" (1 tools).`,
				"info: secure: connected, 1 tools (codemode)",
				`info: Signed out of MCP server "secure".`,
			} {
				if !strings.Contains(got, want) {
					t.Errorf("notifications lack %q:\n%s", want, got)
				}
			}
			if strings.Count(got, "needs sign-in, run /mcp login secure") != 2 {
				t.Errorf("status after logout is not needs sign-in:\n%s", got)
			}
			ui.mu.Lock()
			defer ui.mu.Unlock()
			if len(ui.inputs) != 1 || ui.inputs[0] != `Waiting for sign-in to "secure". If the browser cannot reach this machine, paste the URL it was redirected to. | http://127.0.0.1:.../callback?code=...` {
				t.Errorf("dialogs %q", ui.inputs)
			}
			if browser && !ui.canceled {
				t.Error("the paste dialog stayed open after the callback arrived")
			}
		})
	}
}

// TestMCPServersSection checks that the session's system prompt carries
// the <mcp_servers> section after <cwd> for servers whose tools are not
// declared (codemode, deferred, or a deferred tool of a direct server),
// and none for direct-only or hidden servers, as the reference's does.
func TestMCPServersSection(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ entry, want string }{
		{`{"command":"false","description":"Tickets\nmore"}`, "- mcp__srv_1 (codemode): Tickets\n</mcp_servers>"},
		{`{"command":"false","exposure":"deferred"}`, "- mcp__srv_1 (tool_search)\n</mcp_servers>"},
		{`{"command":"false","exposure":"direct","toolExposure":{"big_*":"deferred"}}`, "- mcp__srv_1 (tool_search)\n</mcp_servers>"},
		{`{"command":"false","exposure":"direct"}`, ""},
		{`{"command":"false","exposure":"hidden"}`, ""},
	} {
		agentDir, project, _ := sdktest.Home(t, mockllm.Script{})
		if err := os.WriteFile(filepath.Join(agentDir, "mcp.json"), []byte(`{"mcpServers":{"srv-1":`+tc.entry+`}}`), 0o644); err != nil {
			t.Fatal(err)
		}
		agent, err := pi.New(context.Background(), pi.Options{AgentDir: agentDir, Cwd: project, Model: sdktest.Model,
			NoSession: true, Mode: pi.ModeRPC, Stderr: io.Discard})
		if err != nil {
			t.Fatal(err)
		}
		text := agent.Session().SystemPromptText()
		agent.Close()
		_, after, _ := strings.Cut(text, "</cwd>")
		if tc.want == "" {
			if strings.Contains(text, "<mcp_servers>") {
				t.Errorf("%s: prompt has <mcp_servers>:\n%s", tc.entry, after)
			}
			continue
		}
		if !strings.HasPrefix(after, "\n\n<mcp_servers>\n") || !strings.HasSuffix(after, tc.want) {
			t.Errorf("%s: after <cwd>:\n%s\nwant it to end with\n%s", tc.entry, after, tc.want)
		}
	}
}
