// Package e2e holds end-to-end tests of the built pi binary: each test
// builds a throwaway HOME whose models.json points at an in-process mock
// LLM (internal/mockllm), runs the binary in print, JSON or RPC mode, and
// checks its output, exit code and session files. JSON-mode transcripts
// are compared, normalized, with golden files (go test ./e2e -update).
//
// Compatibility with the reference pi is checked in two ways. Scenarios
// under scenarios/ (and scenarios/ext/ for extensions) carry transcripts
// recorded from the reference; the conformance harness in
// ../shared/conformance replays them against our binary whenever it and
// python3 are present, CI included. Side-by-side runs with the live
// reference (session files opened by the other binary, JSON-mode tool
// runs compared step by step) need it installed with
// ../shared/conformance/install-reference.sh and are skipped in CI unless
// PI_REFERENCE_TESTS is set.
package e2e
