package engine

import (
	"encoding/json"
	"testing"
)

// TestToolResultKeepsToolKeys checks that a result decoded from a tool's
// JSON (an extension tool) is written back with its isError, false
// included, at the place the tool put it, as the reference's
// tool_execution_end.result does (checked live with an extension).
func TestToolResultKeepsToolKeys(t *testing.T) {
	t.Parallel()
	tests := []struct{ in, want string }{
		{`{"content":[{"type":"text","text":"bad y"}],"details":{"why":"x"},"isError":true}`, `{"content":[{"type":"text","text":"bad y"}],"details":{"why":"x"},"isError":true}`},
		{`{"isError":true,"content":[{"type":"text","text":"bad2"}],"details":{}}`, `{"isError":true,"content":[{"type":"text","text":"bad2"}],"details":{}}`},
		{`{"content":[{"type":"text","text":"ok"}],"isError":false,"details":{}}`, `{"content":[{"type":"text","text":"ok"}],"isError":false,"details":{}}`},
		{`{"details":{"a":[1,"}"]},"content":[]}`, `{"details":{"a":[1,"}"]},"content":[]}`},
		{`{"isError":true}`, `{"content":[],"isError":true}`},
	}
	for _, tt := range tests {
		var r ToolResult
		if err := json.Unmarshal([]byte(tt.in), &r); err != nil {
			t.Fatal(err)
		}
		got, err := MarshalJSON(r)
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != tt.want {
			t.Errorf("%s\n  written as %s\n  want       %s", tt.in, got, tt.want)
		}
	}
	// Results built in Go keep the default shape.
	got, _ := MarshalJSON(ErrorResult("boom"))
	if want := `{"content":[{"type":"text","text":"boom"}],"details":{}}`; string(got) != want {
		t.Errorf("ErrorResult written as %s, want %s", got, want)
	}
	got, _ = MarshalJSON(ToolResult{Content: []Content{TextContent("x")}, IsError: true})
	if want := `{"content":[{"type":"text","text":"x"}],"isError":true}`; string(got) != want {
		t.Errorf("built result written as %s, want %s", got, want)
	}
}
