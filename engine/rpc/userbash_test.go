package rpc

import (
	"context"
	"errors"
	"testing"
)

// TestUserBashDecide checks the wire side of the three decisions an
// extension can make about an RPC bash command (the controller makes
// them; pi.Agent.RunBash asks the user_bash handlers): a failure becomes
// the error response, an answer the data, and a command run by the
// extension's own backend streams as bash_execution_update and is
// cancelled by abort_bash.
func TestUserBashDecide(t *testing.T) {
	t.Parallel()
	started := make(chan struct{})
	d := newDriver(t, driverOptions{tweak: func(s *Server, c *testController, dir string) {
		c.userBash = func(ctx context.Context, command string, exclude bool) (*BashResult, func(context.Context, func(string)) (BashResult, error), error) {
			switch command {
			case "fail":
				return nil, nil, errors.New("handler boom")
			case "answer":
				code := 7
				return &BashResult{Output: "answered", ExitCode: &code}, nil, nil
			case "run":
				return nil, func(ctx context.Context, onChunk func(string)) (BashResult, error) {
					onChunk("custom output")
					code := 3
					return BashResult{Output: "custom output", ExitCode: &code}, nil
				}, nil
			case "hang":
				return nil, func(ctx context.Context, onChunk func(string)) (BashResult, error) {
					close(started)
					<-ctx.Done()
					return BashResult{Cancelled: true}, nil
				}, nil
			}
			return nil, nil, nil
		}
	}})
	cases := []struct {
		command, want string
	}{
		{"fail", "handler boom"},
		{"answer", "answered"},
		{"run", "custom output"},
	}
	for _, tc := range cases {
		r := d.call(msg{"id": tc.command, "type": "bash", "command": tc.command})
		if tc.command == "fail" {
			if r["success"] != false || r["error"] != tc.want {
				t.Errorf("%s: got %v", tc.command, r)
			}
			continue
		}
		data, _ := r["data"].(map[string]any)
		if data == nil || data["output"] != tc.want {
			t.Errorf("%s: got %v", tc.command, r)
		}
	}
	d.sendJSON(msg{"id": "hang", "type": "bash", "command": "hang"})
	<-started
	d.call(msg{"id": "ab", "type": "abort_bash"})
	r := d.response("hang")
	if data, _ := r["data"].(map[string]any); data == nil || data["cancelled"] != true {
		t.Errorf("hang: got %v", r)
	}
	msgs := d.call(msg{"id": "m", "type": "get_messages"})
	list, _ := msgs["data"].(map[string]any)["messages"].([]any)
	if len(list) != 3 {
		t.Errorf("want answer, run and hang recorded, got %d messages: %v", len(list), list)
	}
}
