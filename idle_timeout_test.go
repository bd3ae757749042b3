package pi_test

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	pi "github.com/pi-go/pi"
	"github.com/pi-go/pi/engine"
	"github.com/pi-go/pi/engine/llm"
	"github.com/pi-go/pi/internal/mockllm"
	"github.com/pi-go/pi/internal/sdktest"
)

// TestHTTPIdleTimeoutRetries checks httpIdleTimeoutMs end to end: a
// stream that falls silent mid-answer is aborted after the timeout with
// Node's "terminated: Body Timeout Error (UND_ERR_BODY_TIMEOUT)" and
// retried after the retry delay, as the reference does (checked live
// against it with the conformance mock).
//
// Not parallel: the timeout is process-wide, as the reference's HTTP
// dispatcher is, and every pi.New applies its own settings; parallel
// tests only run after the sequential ones.
func TestHTTPIdleTimeoutRetries(t *testing.T) {
	defer llm.SetHTTPIdleTimeout(llm.DefaultHTTPIdleTimeout)
	agentDir, project, srv := sdktest.Home(t, mockllm.Script{Turns: []mockllm.Turn{
		{Text: "abcdefghijklmnop", ChunkSize: 4, DelayMs: 5000},
		{Text: "recovered"},
	}})
	settings := `{"httpIdleTimeoutMs": 300, "retry": {"baseDelayMs": 20}}`
	if err := os.WriteFile(filepath.Join(agentDir, "settings.json"), []byte(settings), 0o600); err != nil {
		t.Fatal(err)
	}
	var stderr bytes.Buffer
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	agent, err := pi.New(ctx, pi.Options{AgentDir: agentDir, Cwd: project, Model: sdktest.Model,
		NoSession: true, Mode: pi.ModeJSON, Stderr: &stderr})
	if err != nil {
		t.Fatalf("New: %v (%s)", err, stderr.String())
	}
	defer agent.Close()
	var retry *engine.AutoRetryStart
	var last string
	for ev, err := range agent.Run(ctx, "hello") {
		if err != nil {
			t.Fatal(err)
		}
		switch e := ev.(type) {
		case engine.AutoRetryStart:
			retry = &e
		case engine.MessageEnd:
			if e.Message.Role == engine.RoleAssistant {
				last = e.Message.Content.Text()
			}
		}
	}
	if retry == nil {
		t.Fatal("no auto_retry_start: the stalled stream was not aborted")
	}
	if retry.ErrorMessage != "terminated: Body Timeout Error (UND_ERR_BODY_TIMEOUT)" || retry.DelayMs != 20 {
		t.Errorf("auto_retry_start %+v", *retry)
	}
	if last != "recovered" {
		t.Errorf("final answer %q, want the retried one", last)
	}
	if n := len(srv.Requests()); n != 2 {
		t.Errorf("%d requests, want 2", n)
	}
	if stderr.Len() > 0 {
		t.Errorf("stderr: %s", stderr.String())
	}
}
