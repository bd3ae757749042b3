package e2e_test

import (
	"context"
	"os/exec"
	"path/filepath"
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
