package e2e_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestHeadlessScenarios replays every case of e2e/scenarios/headless
// (extensions in print mode (-p) and JSON mode, recorded from the
// reference by drive.py, which runs each case as one command line and
// keeps stdout, stderr, the exit code, the session files and the LLM
// requests) against our binary: ctx.ui without a terminal, commands given
// as the prompt (with sendUserMessage, sendMessage, ctx.shutdown and
// ctx.newSession), a registered flag, a tool_call block, input
// transforms, extension tools in the JSON event stream, stdin piping and
// extensions that throw.
func TestHeadlessScenarios(t *testing.T) {
	t.Parallel()
	harness := needHarness(t)
	dir := scenarioDir("headless")
	eachRecording(t, dir, ".json", func(t *testing.T, name string) {
		inTwoRuns(t, "headless case "+name, func(t *testing.T) string {
			ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
			defer cancel()
			c := exec.CommandContext(ctx, "python3", filepath.Join(dir, "drive.py"), "--pi", piBin,
				"--harness", harness, "--timeout-scale", "3", "--exact", name)
			got, err := c.CombinedOutput()
			if err == nil {
				return ""
			}
			return err.Error() + "\n" + string(got)
		})
	})
}

// TestHeadlessScenarioCases checks that every case drive.py defines has a
// recording and every recording a case, so a new case cannot go
// unguarded.
func TestHeadlessScenarioCases(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("python3 not found")
	}
	dir := scenarioDir("headless")
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
