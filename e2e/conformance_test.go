package e2e_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"testing"
)

// conformanceDir is the shared conformance harness next to the repository
// (../shared/conformance), or "" when it is not there.
func conformanceDir() string {
	_, file, _, _ := runtime.Caller(0)
	dir := filepath.Join(filepath.Dir(file), "..", "..", "shared", "conformance")
	if _, err := os.Stat(filepath.Join(dir, "suite.py")); err != nil {
		return ""
	}
	return dir
}

// TestConformanceScenarios runs our binary through the conformance
// harness on the scenarios in e2e/scenarios whose expected transcripts
// (e2e/scenarios/expected, recorded from the reference) are committed, and
// requires every step to match. The skills_*_pi_agent expectations are the
// reference's .pi/ transcripts with the paths moved to .pi/agent/, since
// the reference does not look there (see each scenario's description).
func TestConformanceScenarios(t *testing.T) {
	t.Parallel()
	harness := conformanceDir()
	if harness == "" {
		t.Skip("../shared/conformance not found")
	}
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("python3 not found")
	}
	scenarios := scenarioDir()
	eachRecording(t, scenarios, ".jsonl", func(t *testing.T, name string) {
		runSuiteScenario(t, harness, scenarios, name)
	})
}
