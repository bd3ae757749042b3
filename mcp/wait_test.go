package mcp

import "testing"

// TestNamesServer checks which servers a codemode script waits for: a
// word of the script that contains the server's namespace, with "-"
// written as "_" or as configured.
func TestNamesServer(t *testing.T) {
	t.Parallel()
	cases := []struct {
		code, server string
		want         bool
	}{
		{"await tools.mcp__echo__ping({})", "echo", true},
		{"await tools.mcp__echoes__ping({})", "echo", true}, // the word contains mcp__echo
		{"await tools.mcp__ech__ping({})", "echo", false},
		{"describeNamespace('mcp__dev_radius')", "dev-radius", true},
		{"describeNamespace('mcp__dev-radius')", "dev-radius", true},
		{"await tools.read({path: 'echo'})", "echo", false},
		{"", "echo", false},
	}
	for _, c := range cases {
		if got := namesServer(c.code, c.server); got != c.want {
			t.Errorf("namesServer(%q, %q) = %v, want %v", c.code, c.server, got, c.want)
		}
	}
}
