package e2e_test

import "testing"

// TestExtensionScenarios runs our binary through the conformance harness
// on every scenario of e2e/scenarios/ext and requires each step to match
// the reference's transcript: a permission gate answered through select,
// a typebox tool the model calls, input transforms, a command that selects
// and then sends a user message, project-local extensions with and
// without trust, lifecycle and generations. The .pi/agent/extensions
// transcripts are the .pi/extensions ones with the path moved, since the
// reference does not look there.
func TestExtensionScenarios(t *testing.T) {
	t.Parallel()
	harness := needHarness(t)
	dir := scenarioDir("ext")
	eachRecording(t, dir, ".jsonl", func(t *testing.T, name string) {
		runSuiteScenario(t, harness, dir, name)
	})
}

// TestExtensionScenarioSources checks that every extension source a
// scenario carries inline is the file under scenarios/ext/src.
func TestExtensionScenarioSources(t *testing.T) {
	t.Parallel()
	checkScenarioSources(t, scenarioDir("ext"))
}
