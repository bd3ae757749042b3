package main

import (
	"bytes"
	"strings"
	"testing"
)

// TestReservedWordsNeverPrompt checks that each command word is taken by
// its command (given an unknown option, so nothing is installed or
// fetched, each fails loudly with exit 1), and that other first words are
// left to the prompt parser.
func TestReservedWordsNeverPrompt(t *testing.T) {
	t.Parallel()
	for _, w := range []string{"install", "remove", "uninstall", "update", "list", "config", "auth", "mcp"} {
		var out, errOut bytes.Buffer
		code, ok := runSubcommand([]string{w, "--no-such-option", "npm:pi-aliases"}, &out, &errOut)
		if !ok {
			t.Errorf("%s: left to the prompt parser", w)
			continue
		}
		if code == 0 && errOut.Len() == 0 && out.Len() == 0 {
			t.Errorf("%s: exit 0 with no output", w)
		}
		if code != 0 && !strings.Contains(errOut.String(), "pi ") {
			t.Errorf("%s: error %q does not name the command", w, errOut.String())
		}
	}
	if _, ok := runSubcommand([]string{"hello", "world"}, nil, nil); ok {
		t.Error("a prompt word was taken as a command")
	}
}
