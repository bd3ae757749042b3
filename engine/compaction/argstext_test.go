package compaction

import (
	"encoding/json"
	"testing"
)

// TestArgsText pins how tool-call arguments read in a summary transcript:
// the model's key order, strings re-escaped as JSON.stringify writes them,
// other values compacted, the members before a break in broken JSON, and
// nothing for what is not an object.
func TestArgsText(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, in, want string
	}{
		{"order kept", `{"z": 1, "a": "x"}`, `z=1, a="x"`},
		{"string re-escaped", `{"s":"\u003c\u00e9\u2028"}`, "s=\"<é\u2028\""},
		{"nested compacted", `{"o": { "k" : [1, 2] }}`, `o={"k":[1,2]}`},
		{"repeated key twice", `{"a":1,"a":2}`, `a=1, a=2`},
		{"broken keeps the members before", `{"a":1,"b":`, `a=1`},
		{"not an object", `[1]`, ``},
		{"empty", ``, ``},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			if got := argsText(json.RawMessage(tt.in)); got != tt.want {
				t.Errorf("argsText(%s) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}
