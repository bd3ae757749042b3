package e2e_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"
)

// TestMCPConformanceScenarios runs the MCP scenarios of
// e2e/scenarios/mcp (a stdio server written in Python, seeded into the
// project) through the conformance harness, with that folder's suite.py
// wrapper, and requires every step to match the reference's recorded
// transcript: a direct tool call, the default codemode exposure (the
// script calls the MCP tool) and a deferred tool found by tool_search.
func TestMCPConformanceScenarios(t *testing.T) {
	t.Parallel()
	harness := conformanceDir()
	if harness == "" {
		t.Skip("../shared/conformance not found")
	}
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("python3 not found")
	}
	dir := scenarioDir("mcp")
	eachRecording(t, dir, ".jsonl", func(t *testing.T, name string) {
		inTwoRuns(t, "scenario "+name, func(t *testing.T) string {
			ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
			defer cancel()
			out := t.TempDir()
			c := exec.CommandContext(ctx, "python3", filepath.Join(dir, "suite.py"), "--pi", piBin,
				"--out", out, "--timeout-scale", "3", "-q", filepath.Join(dir, name+".json"))
			c.Env = append(os.Environ(), "PI_CONFORMANCE_DIR="+harness)
			got, err := c.CombinedOutput()
			if err == nil {
				return ""
			}
			diff, _ := os.ReadFile(filepath.Join(out, name+".diff.txt"))
			return err.Error() + "\n" + string(got) + "\n" + string(diff)
		})
	})
}
