package main

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// TestRunExport checks the --export dispatch: the first message is the
// output path, success prints "Exported to: <path>" on stdout and exits
// 0, a missing file prints the error on stderr and exits 1.
func TestRunExport(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	sess := filepath.Join(dir, "s.jsonl")
	if err := os.WriteFile(sess, []byte(`{"type":"session","version":3,"id":"11111111-2222-3333-4444-555555555555","timestamp":"2026-01-01T00:00:00.000Z","cwd":"/x"}`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "o.html")
	missing := filepath.Join(dir, "nope.jsonl")
	tests := []struct {
		name           string
		argv           []string
		code           int
		stdout, stderr string
	}{
		{"ok", []string{"--export", sess, out}, 0, "Exported to: " + out + "\n", ""},
		{"missing", []string{"--export", missing}, 1, "", "Error: File not found: " + missing + "\n"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			a := ParseArgs(tc.argv)
			var so, se bytes.Buffer
			if code := runExport(a, &so, &se); code != tc.code || so.String() != tc.stdout || se.String() != tc.stderr {
				t.Fatalf("code %d stdout %q stderr %q, want %d %q %q", code, so.String(), se.String(), tc.code, tc.stdout, tc.stderr)
			}
		})
	}
}
