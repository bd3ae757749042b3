package tui

import (
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/pi-go/pi/internal/mockllm"
	"github.com/pi-go/pi/internal/sdktest"
	"github.com/pi-go/pi/mcp/mcptest"
)

// The test binary stands in for the browser opener: pi runs xdg-open (or
// open) with the authorization URL, which is this binary under that name
// with PI_E2E_OPENER set; it fetches the URL and follows the redirect to
// pi's callback, as a browser whose user approves would.
func init() {
	if os.Getenv("PI_E2E_OPENER") != "1" || len(os.Args) < 2 {
		return
	}
	resp, err := http.Get(os.Args[len(os.Args)-1])
	if err == nil {
		resp.Body.Close()
	}
	os.Exit(0)
}

// TestMCPLoginInTheTerminal signs in to an OAuth-protected MCP server
// with /mcp login in the interactive mode: the authorization URL shows as
// a notification and opens in the browser, the paste dialog waits in the
// editor slot, and once the browser reached the callback the dialog goes
// and pi says it signed in; /mcp then lists the server connected, and
// its menu's Disable writes "enabled": false into mcp.json and shows the
// server disabled.
// It is not parallel: the opener reaches pi through PATH and the
// environment (t.Setenv).
func TestMCPLoginInTheTerminal(t *testing.T) {
	w := mcptest.New(t)
	agentDir, project, _ := sdktest.Home(t, mockllm.Script{})
	if err := os.WriteFile(filepath.Join(agentDir, "mcp.json"), []byte(`{"mcpServers":{"secure":{"url":"`+w.MCPURL+`"}}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	bin := t.TempDir()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"xdg-open", "open"} {
		if err := os.Symlink(self, filepath.Join(bin, name)); err != nil {
			t.Fatal(err)
		}
	}
	t.Setenv("PATH", bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	t.Setenv("PI_E2E_OPENER", "1")
	tm := startPi(t, agentDir, project, 120, 40, "--model", sdktest.Model)
	tm.waitFor("mock-model")
	tm.send("/mcp login secure")
	tm.waitFor("/mcp login secure")
	tm.send("\r")
	tm.waitFor(`Sign in to MCP server "secure" in your browser:`)
	tm.waitFor(`Signed in to MCP server "secure" (1 tools).`)
	tm.send("/mcp")
	tm.waitFor("/mcp")
	tm.send("\r")
	tm.waitFor("connected · 1 tool · codemode · global")
	// The server's menu: Tools, Reconnect, Sign out, Exposure, Disable.
	tm.send("\r")
	tm.waitFor("State: connected · 1 tool")
	tm.waitFor("Sign out")
	tm.send("\x1b[B\x1b[B\x1b[B\x1b[B")
	tm.waitFor("→ Disable                         saved to the global mcp.json")
	tm.send("\r")
	tm.waitFor("State: disabled")
	tm.waitFor("→ Enable                          saved to the global mcp.json")
	b, err := os.ReadFile(filepath.Join(agentDir, "mcp.json"))
	if err != nil {
		t.Fatal(err)
	}
	if want := "{\n  \"mcpServers\": {\n    \"secure\": {\n      \"url\": \"" + w.MCPURL + "\",\n      \"enabled\": false\n    }\n  }\n}\n"; string(b) != want {
		t.Errorf("mcp.json after Disable:\n%s\nwant\n%s", b, want)
	}
	// Back to the list, which shows the server disabled, and out.
	tm.send("\x1b")
	tm.waitFor("disabled · codemode · global")
	tm.send("\x1b")
	// An Escape followed at once by Ctrl+C would read as Alt+Ctrl+C.
	waitGone(t, tm, "disabled · codemode · global")
	tm.send("\x03\x03")
	if code := tm.exitCode(); code != 0 {
		t.Fatalf("exit code %d", code)
	}
}

// waitGone waits (bounded) until the screen no longer shows text.
func waitGone(t *testing.T, tm *term, text string) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for strings.Contains(tm.screen(), text) {
		if time.Now().After(deadline) {
			t.Fatalf("screen still shows %q:\n%s", text, tm.screen())
		}
		time.Sleep(20 * time.Millisecond)
	}
}
