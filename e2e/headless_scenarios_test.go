package e2e_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
)

// headlessScenarioDir is e2e/scenarios/headless: extensions in print mode
// (-p) and JSON mode, recorded from the reference by drive.py, which runs
// each case as one command line and keeps stdout, stderr, the exit code,
// the session files and the LLM requests.
func headlessScenarioDir() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "scenarios", "headless")
}

// TestHeadlessScenarios replays every recorded headless case against our
// binary: ctx.ui without a terminal, commands given as the prompt (with
// sendUserMessage, sendMessage, ctx.shutdown and ctx.newSession), a
// registered flag, a tool_call block, input transforms, extension tools
// in the JSON event stream, stdin piping and extensions that throw.
func TestHeadlessScenarios(t *testing.T) {
	t.Parallel()
	harness := needHarness(t)
	dir := headlessScenarioDir()
	expected, err := filepath.Glob(filepath.Join(dir, "expected", "*.json"))
	if err != nil || len(expected) == 0 {
		t.Fatal("no expected recordings under scenarios/headless/expected")
	}
	for _, exp := range expected {
		name := strings.TrimSuffix(filepath.Base(exp), ".json")
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			runHeadlessCase(t, harness, dir, name)
		})
	}
}

// runHeadlessCase runs one case through drive.py. A run on a loaded
// machine can differ by timing alone (a process killed before its last
// write), so one retry separates that from a real difference, which
// fails both runs; the first run's diff is logged either way.
func runHeadlessCase(t *testing.T, harness, dir, name string) {
	t.Helper()
	var last string
	for attempt := 1; attempt <= 2; attempt++ {
		ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
		c := exec.CommandContext(ctx, "python3", filepath.Join(dir, "drive.py"), "--pi", piBin,
			"--harness", harness, "--timeout-scale", "3", "--exact", name)
		got, err := c.CombinedOutput()
		cancel()
		if err == nil {
			if attempt > 1 {
				t.Logf("passed on retry; first run:\n%s", last)
			}
			return
		}
		last = err.Error() + "\n" + string(got)
		t.Logf("attempt %d differs:\n%s", attempt, last)
	}
	t.Fatalf("headless case %s differs from the reference in two runs", name)
}

// TestHeadlessScenarioCases checks that every case drive.py defines has a
// recording and every recording a case, so a new case cannot go
// unguarded.
func TestHeadlessScenarioCases(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("python3 not found")
	}
	dir := headlessScenarioDir()
	out, err := exec.Command("python3", filepath.Join(dir, "drive.py"), "--pi", "unused", "--names").Output()
	if err != nil {
		t.Fatal(err)
	}
	names := strings.Fields(string(out))
	if len(names) == 0 {
		t.Fatal("drive.py lists no cases")
	}
	want := map[string]bool{}
	for _, n := range names {
		want[n] = true
		if _, err := os.Stat(filepath.Join(dir, "expected", n+".json")); err != nil {
			t.Errorf("case %s has no recording (drive.py --pi \"$REF\" --record %s)", n, n)
		}
	}
	recs, _ := filepath.Glob(filepath.Join(dir, "expected", "*.json"))
	for _, r := range recs {
		if n := strings.TrimSuffix(filepath.Base(r), ".json"); !want[n] {
			t.Errorf("recording %s has no case in drive.py", n)
		}
	}
}
