package engine

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestToolResultIsErrorKey checks the reference's distinction seen in
// tool_execution_end: a tool that returns isError itself (bash on a
// non-zero exit) keeps the key in the result object, a thrown error
// (ErrorResult) does not.
func TestToolResultIsErrorKey(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		in   ToolResult
		want string
	}{
		{"ok", ToolResult{Content: []Content{TextContent("hi")}}, `{"content":[{"type":"text","text":"hi"}]}`},
		{"returned error", ToolResult{Content: []Content{TextContent("x")}, StructuredContent: json.RawMessage(`{"exit_code":2}`), IsError: true},
			`{"content":[{"type":"text","text":"x"}],"structuredContent":{"exit_code":2},"isError":true}`},
		{"thrown error", ErrorResult("boom"), `{"content":[{"type":"text","text":"boom"}],"details":{}}`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			b, err := MarshalJSON(tc.in)
			require.NoError(t, err)
			require.Equal(t, tc.want, string(b))
		})
	}
}
