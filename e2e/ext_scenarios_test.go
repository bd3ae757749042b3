package e2e_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// extScenarioDir is e2e/scenarios/ext: extension scenarios whose expected
// transcripts were recorded from the reference (the .pi/agent/extensions
// ones are the .pi/extensions transcripts with the path moved, since the
// reference does not look there).
func extScenarioDir() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "scenarios", "ext")
}

// TestExtensionScenarios runs our binary through the conformance harness
// on every extension scenario and requires each step to match the
// reference's transcript: a permission gate answered through select, a
// typebox tool the model calls, input transforms, a command that selects
// and then sends a user message, and project-local extensions with and
// without trust.
func TestExtensionScenarios(t *testing.T) {
	t.Parallel()
	harness := needHarness(t)
	dir := extScenarioDir()
	expected, err := filepath.Glob(filepath.Join(dir, "expected", "*.jsonl"))
	if err != nil || len(expected) == 0 {
		t.Fatal("no expected transcripts under scenarios/ext/expected")
	}
	for _, exp := range expected {
		name := strings.TrimSuffix(filepath.Base(exp), ".jsonl")
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			runSuiteScenario(t, harness, dir, name)
		})
	}
}

// TestExtensionScenarioSources checks that every extension source a
// scenario carries inline is the file under scenarios/ext/src (build.py
// writes them), so the readable sources and the scenarios cannot drift.
func TestExtensionScenarioSources(t *testing.T) {
	t.Parallel()
	dir := extScenarioDir()
	files, err := filepath.Glob(filepath.Join(dir, "*.json"))
	if err != nil || len(files) == 0 {
		t.Fatal("no extension scenarios")
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
