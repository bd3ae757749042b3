package e2e_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

// TestPipelinedGetStateAllAnswered pipes 10,000 get_state commands into
// the binary and closes stdin at once: every command gets its answer, in
// order, and the process exits 0 (issue 11: 623 answered, the rest lost
// at exit).
func TestPipelinedGetStateAllAnswered(t *testing.T) {
	t.Parallel()
	const n = 10000
	e := newEnv(t, "openai-completions", `[]`, nil)
	var in strings.Builder
	for i := range n {
		fmt.Fprintf(&in, "{\"id\":\"g%d\",\"type\":\"get_state\"}\n", i)
	}
	r := e.run(in.String(), "--mode", "rpc", "--no-session")
	if r.code != 0 {
		t.Fatalf("exit %d, stderr:\n%s", r.code, r.stderr)
	}
	next := 0
	for _, line := range bytes.Split([]byte(strings.TrimSuffix(r.stdout, "\n")), []byte("\n")) {
		var rec struct {
			ID      string `json:"id"`
			Type    string `json:"type"`
			Success bool   `json:"success"`
		}
		if err := json.Unmarshal(line, &rec); err != nil {
			t.Fatalf("bad line %q: %v", line, err)
		}
		if rec.Type != "response" {
			continue
		}
		if want := fmt.Sprintf("g%d", next); rec.ID != want || !rec.Success {
			t.Fatalf("answer %d: id %q success %v, want %q", next, rec.ID, rec.Success, want)
		}
		next++
	}
	if next != n {
		t.Fatalf("%d of %d commands answered", next, n)
	}
}
