package anthropic

import (
	"bytes"
	"context"
	"encoding/json"
	"testing"

	"github.com/pi-go/pi/engine"
	"github.com/pi-go/pi/internal/mockllm"
)

// TestAgainstConformanceMock drives the provider with the Go port of the
// conformance mock, whose bytes equal the Python mock's that the
// reference was recorded against.
func TestAgainstConformanceMock(t *testing.T) {
	t.Parallel()
	bodies, _, _ := scenario04(t)
	srv, err := mockllm.StartJSON(t, []byte(`{"turns": [
		{"thinking": "I need to look at notes.txt first.", "text": "Let me read the file.", "tool_calls": [{"name": "read", "arguments": {"path": "notes.txt"}}]},
		{"text": "notes.txt has three lines: alpha, beta and gamma."},
		{"status": 529},
		{"text": "hello there world", "disconnect_after_chunks": 4}
	]}`))
	if err != nil {
		t.Fatal(err)
	}
	req := scenario04Request(t, bodies[0], srv.BaseURL())
	_, first := run(context.Background(), req)
	b, _ := engine.MarshalJSON(first.Content)
	if first.StopReason != engine.StopToolUse || string(b) != `[{"type":"thinking","thinking":"I need to look at notes.txt first.","thinkingSignature":"mock-sig-0"},{"type":"text","text":"Let me read the file."},{"type":"toolCall","id":"toolu_mock_0_0","name":"read","arguments":{"path":"notes.txt"}}]` {
		t.Fatalf("first turn: %s %s %s", first.StopReason, first.ErrorMessage, b)
	}
	req.Messages = append(req.Messages, first, &engine.Message{
		Role: engine.RoleToolResult, ToolCallID: "toolu_mock_0_0", ToolName: "read",
		Content: engine.Blocks(engine.TextContent("alpha\nbeta\ngamma\n")), Timestamp: 3,
	})
	_, second := run(context.Background(), req)
	if second.StopReason != engine.StopStop || second.Content.Text() != "notes.txt has three lines: alpha, beta and gamma." {
		t.Fatalf("second turn: %s %s", second.StopReason, second.ErrorMessage)
	}
	for i, r := range srv.Requests()[:2] {
		var c bytes.Buffer
		if err := json.Compact(&c, r.Body); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(c.Bytes(), bodies[i]) {
			t.Errorf("request %d differs from the reference:\n got: %s\nwant: %s", i, firstDiff(c.Bytes(), bodies[i]), firstDiff(bodies[i], c.Bytes()))
		}
	}

	_, overloaded := run(context.Background(), req)
	if want := `529 {"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}`; overloaded.ErrorMessage != want {
		t.Errorf("529: %q, want %q", overloaded.ErrorMessage, want)
	}
	_, cut := run(context.Background(), req)
	if cut.StopReason != engine.StopError || cut.ErrorMessage != errStreamCut || cut.Content.Text() != "hello there worl" {
		t.Errorf("cut: %s %q %q", cut.StopReason, cut.ErrorMessage, cut.Content.Text())
	}
}
