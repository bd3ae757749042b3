package e2e_test

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
)

// scenarioDir is e2e/scenarios, or the named folder below it.
func scenarioDir(sub ...string) string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(append([]string{filepath.Dir(file), "scenarios"}, sub...)...)
}

// eachRecording runs one parallel subtest per recording in dir/expected
// whose name ends in ext (".jsonl" transcripts, ".json" headless
// recordings), named after the recording. A folder without recordings
// fails: they are committed, so none means a broken checkout.
func eachRecording(t *testing.T, dir, ext string, run func(t *testing.T, name string)) {
	t.Helper()
	expected, err := filepath.Glob(filepath.Join(dir, "expected", "*"+ext))
	if err != nil || len(expected) == 0 {
		t.Fatalf("no expected recordings under %s", filepath.Join(dir, "expected"))
	}
	for _, exp := range expected {
		name := strings.TrimSuffix(filepath.Base(exp), ext)
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			run(t, name)
		})
	}
}

// inTwoRuns runs a comparison with the reference up to twice and fails
// the test only when both runs differ. The harnesses drive real processes
// with timeouts and record the mock's requests from another thread, so on
// a loaded machine a run can differ by timing alone (a record landing
// between two merged updates, a step boundary racing a stream event, a
// process killed before its last write); a real difference fails both
// runs. run returns "" when the run matches, or what differed; the first
// run's difference is logged either way.
func inTwoRuns(t *testing.T, what string, run func(t *testing.T) string) {
	t.Helper()
	var last string
	for attempt := 1; attempt <= 2; attempt++ {
		diff := run(t)
		if diff == "" {
			if attempt > 1 {
				t.Logf("passed on retry; first run:\n%s", last)
			}
			return
		}
		last = diff
		t.Logf("attempt %d differs:\n%s", attempt, last)
	}
	t.Fatalf("%s differs from the reference in two runs:\n%s", what, last)
}

// runSuiteScenario runs one scenario of dir through the conformance
// harness's suite.py against our binary and fails the test unless every
// step matches the recorded transcript (in one of two runs, inTwoRuns).
func runSuiteScenario(t *testing.T, harness, dir, name string) {
	t.Helper()
	inTwoRuns(t, "scenario "+name, func(t *testing.T) string {
		ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
		defer cancel()
		out := t.TempDir()
		c := exec.CommandContext(ctx, "python3", filepath.Join(harness, "suite.py"), "--pi", piBin,
			"--scenarios", dir, "--out", out, "--timeout-scale", "3", "-q", filepath.Join(dir, name+".json"))
		got, err := c.CombinedOutput()
		if err == nil {
			return ""
		}
		diff, _ := os.ReadFile(filepath.Join(out, name+".diff.txt"))
		return err.Error() + "\n" + string(got) + "\n" + string(diff)
	})
}

// checkScenarioSources checks that every extension source a scenario of
// dir carries inline is the file of that name under dir/src (the folder's
// build.py writes them), so the readable sources and the scenarios cannot
// drift apart.
func checkScenarioSources(t *testing.T, dir string) {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "*.json"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no scenarios under %s", dir)
	}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var sc struct {
			Files map[string]any `json:"files"`
		}
		if err := json.Unmarshal(b, &sc); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		n := 0
		for path, v := range sc.Files {
			if !strings.HasSuffix(path, ".ts") {
				continue
			}
			n++
			want, err := os.ReadFile(filepath.Join(dir, "src", filepath.Base(path)))
			if err != nil {
				t.Fatalf("%s: %s has no source under src/: %v", filepath.Base(f), path, err)
			}
			if got, _ := v.(string); got != string(want) {
				t.Errorf("%s: %s differs from src/%s; run build.py", filepath.Base(f), path, filepath.Base(path))
			}
		}
		if n == 0 {
			t.Errorf("%s carries no extension source", filepath.Base(f))
		}
	}
}
