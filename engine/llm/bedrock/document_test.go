package bedrock

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestSanitizeDocument pins what tool-call arguments become in a Bedrock
// document: empty keys dropped at any depth, the other keys in order, and
// a repeated key read as JSON.parse reads it (first place, last value),
// since the reference holds the arguments as a parsed object.
func TestSanitizeDocument(t *testing.T) {
	t.Parallel()
	tests := []struct{ name, in, want string }{
		{"missing", ``, `{}`},
		{"no empty key kept as sent", `{"b": 1, "a": "x"}`, `{"b": 1, "a": "x"}`},
		{"empty key dropped", `{"b":1,"":2,"a":"<&>"}`, `{"b":1,"a":"<&>"}`},
		{"nested", `{"l":[{"":1,"k":1.50}],"o":{"":{}}}`, `{"l":[{"k":1.50}],"o":{}}`},
		{"repeated key", `{"a":1,"":0,"b":2,"a":3}`, `{"a":3,"b":2}`},
		{"invalid kept", `{"":`, `{"":`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			assert.Equal(t, tc.want, string(sanitizeDocument(json.RawMessage(tc.in))))
		})
	}
}
