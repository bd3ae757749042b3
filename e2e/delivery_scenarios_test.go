package e2e_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// deliveryScenarioDir is e2e/scenarios/delivery: where extension messages
// land when sent at each point of a run, and tree navigation with branch
// summaries, recorded from the reference (build.py writes the scenarios
// from src/delivery.ts).
func deliveryScenarioDir() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "scenarios", "delivery")
}

// TestDeliveryScenarios runs our binary through the conformance harness
// on every delivery scenario and requires each step, the LLM requests
// and the session entries the extension reports to match the
// reference's transcript.
func TestDeliveryScenarios(t *testing.T) {
	t.Parallel()
	harness := needHarness(t)
	dir := deliveryScenarioDir()
	expected, err := filepath.Glob(filepath.Join(dir, "expected", "*.jsonl"))
	if err != nil || len(expected) == 0 {
		t.Fatal("no expected transcripts under scenarios/delivery/expected")
	}
	for _, exp := range expected {
		name := strings.TrimSuffix(filepath.Base(exp), ".jsonl")
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			runSuiteScenario(t, harness, dir, name)
		})
	}
}

// TestDeliveryScenarioSources checks that each delivery scenario carries
// src/delivery.ts as it is now (run build.py after editing it).
func TestDeliveryScenarioSources(t *testing.T) {
	t.Parallel()
	dir := deliveryScenarioDir()
	want, err := os.ReadFile(filepath.Join(dir, "src", "delivery.ts"))
	if err != nil {
		t.Fatal(err)
	}
	files, err := filepath.Glob(filepath.Join(dir, "*.json"))
	if err != nil || len(files) == 0 {
		t.Fatal("no delivery scenarios")
	}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var sc struct {
			Files map[string]string `json:"files"`
		}
		if err := json.Unmarshal(b, &sc); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		if sc.Files["exts/delivery.ts"] != string(want) {
			t.Errorf("%s carries a stale src/delivery.ts; run build.py", filepath.Base(f))
		}
	}
}
