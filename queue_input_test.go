package pi_test

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	pi "github.com/pi-go/pi"
	"github.com/pi-go/pi/internal/mockllm"
	"github.com/pi-go/pi/internal/sdktest"
)

// TestQueueRunsInputHandlers checks that steer and follow_up go through
// the extensions' input handlers first, as the reference's do: the
// handler sees source "rpc" and no streamingBehavior while idle, its
// transform is what is queued, and text it handles is not queued.
func TestQueueRunsInputHandlers(t *testing.T) {
	t.Parallel()
	const ext = `export default function (pi) {
  pi.on("input", (e) => {
    if (e.text === "drop") return { action: "handled" };
    return { action: "transform", text: e.text.toUpperCase() + "|" + e.source + "|" + String(e.streamingBehavior) };
  });
}`
	agentDir, project, _ := sdktest.Home(t, mockllm.Script{})
	p := filepath.Join(project, "input.ts")
	if err := os.WriteFile(p, []byte(ext), 0o644); err != nil {
		t.Fatal(err)
	}
	var stderr bytes.Buffer
	ctx := context.Background()
	agent, err := pi.New(ctx, pi.Options{AgentDir: agentDir, Cwd: project, Model: sdktest.Model,
		NoSession: true, Mode: pi.ModeRPC, Extensions: []string{p}, Stderr: &stderr})
	if err != nil {
		t.Fatalf("New: %v (%s)", err, stderr.String())
	}
	defer agent.Close()
	for _, tc := range []struct {
		text, want string
		followUp   bool
	}{
		{"steer me", "queued", false},
		{"follow me", "queued", true},
		{"drop", "handled", false},
		{"drop", "handled", true},
	} {
		queue := agent.Steer
		if tc.followUp {
			queue = agent.FollowUp
		}
		disp, err := queue(ctx, tc.text)
		if err != nil || disp != tc.want {
			t.Errorf("queue %q (followUp %v): %q, %v; want %q", tc.text, tc.followUp, disp, err, tc.want)
		}
	}
	steering, followUp := agent.Session().ClearQueue()
	if !reflect.DeepEqual(steering, []string{"STEER ME|rpc|undefined"}) || !reflect.DeepEqual(followUp, []string{"FOLLOW ME|rpc|undefined"}) {
		t.Errorf("queued steering %q, follow-up %q; want the handler's transforms and nothing it handled", steering, followUp)
	}
}
