package tui

import (
	"net/http"
	"os"
	"path/filepath"
	"testing"

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
// and pi says it signed in; /mcp then shows the server connected.
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
	tm.waitFor("secure: connected, 1 tools (codemode)")
	tm.send("\x03\x03")
	if code := tm.exitCode(); code != 0 {
		t.Fatalf("exit code %d", code)
	}
}
