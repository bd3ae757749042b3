package e2e_test

import (
	"context"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestMCPListCLI compares `pi mcp list` and `pi mcp list --json` with
// the reference's output for a connected stdio server and an HTTP server
// whose header names an unset variable (e2e/scenarios/mcp/cli.py).
func TestMCPListCLI(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("python3 not found")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	got, err := exec.CommandContext(ctx, "python3", filepath.Join(scenarioDir("mcp"), "cli.py"), "--pi", piBin).CombinedOutput()
	if err != nil {
		t.Fatalf("%v\n%s", err, got)
	}
}

// TestMCPReplacedByExtension: an extension that registers /mcp replaces
// builtin:mcp, which is then not loaded (one /mcp in get_commands, the
// extension's), with the reference's warning before the others; with
// --no-mcp there is nothing to replace and no warning.
func TestMCPReplacedByExtension(t *testing.T) {
	t.Parallel()
	e := newEnv(t, "openai-completions", `[{"text":"ok"}]`, nil)
	e.write("mcp-ext.ts", `export default function (pi: any) { pi.registerCommand("mcp", { description: "mine", handler: async () => {} }); }`)
	ext := filepath.Join(e.proj, "mcp-ext.ts")
	want := "Warning: Extension package \"builtin:mcp\": Extension " + ext + " registers command `/mcp`, so built-in extension `mcp` was not loaded."
	r := e.run(`{"id":"c","type":"get_commands"}`+"\n", "--mode", "rpc", "--no-session", "-e", ext)
	if !strings.HasPrefix(r.stderr, want) {
		t.Errorf("stderr %q, want it to start with %q", r.stderr, want)
	}
	if n := strings.Count(r.stdout, `"name":"mcp"`); n != 1 || !strings.Contains(r.stdout, `"description":"mine"`) {
		t.Errorf("get_commands %s: want the extension's /mcp only", r.stdout)
	}
	r = e.run(`{"id":"c","type":"get_commands"}`+"\n", "--mode", "rpc", "--no-session", "--no-mcp", "-e", ext)
	if strings.Contains(r.stderr, "builtin:mcp") {
		t.Errorf("--no-mcp: stderr %q", r.stderr)
	}
}
