package e2e_test

import "testing"

// TestDeliveryScenarios runs our binary through the conformance harness
// on every scenario of e2e/scenarios/delivery (where extension messages
// land when sent at each point of a run, and tree navigation with branch
// summaries; build.py writes them from src/delivery.ts) and requires each
// step, the LLM requests and the session entries the extension reports to
// match the reference's transcript.
func TestDeliveryScenarios(t *testing.T) {
	t.Parallel()
	harness := needHarness(t)
	dir := scenarioDir("delivery")
	eachRecording(t, dir, ".jsonl", func(t *testing.T, name string) {
		runSuiteScenario(t, harness, dir, name)
	})
}

// TestDeliveryScenarioSources checks that each delivery scenario carries
// src/delivery.ts as it is now (run build.py after editing it).
func TestDeliveryScenarioSources(t *testing.T) {
	t.Parallel()
	checkScenarioSources(t, scenarioDir("delivery"))
}
