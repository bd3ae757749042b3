package mockllm

import (
	"encoding/json"
	"testing"
)

// TestPyDumpsRaw checks raw JSON re-emitted as the Python mock's
// json.dumps(json.loads(text)) writes it (want recorded with python3):
// key order, ", " and ": " separators, escapes with and without
// ensure_ascii, a repeated key once in its first place with its last
// value. Number literals stay as written, where Python would print 1.50
// as 1.5; the scripts use integers.
func TestPyDumpsRaw(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		in    string
		ascii bool
		want  string
	}{
		{"order and separators", `{"z": 1, "a": [true, null, {"k": "é😀"}]}`, false, `{"z": 1, "a": [true, null, {"k": "é😀"}]}`},
		{"ascii escapes", `{"z": 1, "a": [true, null, {"k": "é😀"}]}`, true, `{"z": 1, "a": [true, null, {"k": "\u00e9\ud83d\ude00"}]}`},
		{"repeated key", `{"a":1,"b":2,"a":3}`, false, `{"a": 3, "b": 2}`},
		{"separator escaped in ascii", `{"s":"\u2028<\n"}`, true, `{"s": "\u2028<\n"}`},
		{"empty containers", `{"o":{},"l":[]}`, false, `{"o": {}, "l": []}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			if got := string(pyDumps(raw(json.RawMessage(tt.in)), tt.ascii)); got != tt.want {
				t.Errorf("pyDumps(%s) = %s, want %s", tt.in, got, tt.want)
			}
		})
	}
}
