// Package e2e holds end-to-end tests of the built pi binary: each test
// builds a throwaway HOME whose models.json points at an in-process mock
// LLM (internal/mockllm), runs the binary in print or JSON mode, and
// checks its output, exit code and session files. JSON-mode transcripts
// are compared, normalized, with golden files (go test ./e2e -update).
package e2e
