package e2e_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestStoredCwdGone reopens a session whose working directory was deleted:
// every headless mode refuses with the reference's three lines on stderr
// and exit 1, and sends nothing to the model.
func TestStoredCwdGone(t *testing.T) {
	t.Parallel()
	e := newEnv(t, "openai-completions", `[{"text":"first"},{"text":"never"}]`, nil)
	gone := filepath.Join(e.root, "gone")
	if err := os.MkdirAll(gone, 0o755); err != nil {
		t.Fatal(err)
	}
	c := e.cmd("", "-p", "hello")
	c.Dir = gone
	if out, err := c.CombinedOutput(); err != nil {
		t.Fatalf("first run: %v\n%s", err, out)
	}
	files := e.sessionFiles()
	if len(files) != 1 {
		t.Fatalf("session files = %v", files)
	}
	if err := os.RemoveAll(gone); err != nil {
		t.Fatal(err)
	}
	want := "Stored session working directory does not exist: " + gone + "\nSession file: " + files[0] + "\nCurrent working directory: " + e.proj + "\n"
	for _, args := range [][]string{{"-p", "again"}, {"--mode", "json", "again"}, {"--mode", "rpc"}} {
		r := e.run(`{"type":"get_state"}`+"\n", append([]string{"--session", files[0]}, args...)...)
		if r.code != 1 || r.stderr != want || strings.TrimSpace(r.stdout) != "" {
			t.Errorf("%v: code %d\nstdout %q\nstderr %q\nwant stderr %q", args, r.code, r.stdout, r.stderr, want)
		}
	}
	if n := len(e.srv.Requests()); n != 1 {
		t.Errorf("the model got %d requests, want only the first run's", n)
	}
}
