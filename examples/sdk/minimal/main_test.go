package main

import (
	"bytes"
	"context"
	"strings"
	"testing"

	pi "github.com/pi-go/pi"
	"github.com/pi-go/pi/internal/mockllm"
	"github.com/pi-go/pi/internal/sdktest"
)

// TestMinimal runs the example against a scripted model and checks the
// streamed reply and the request the model got.
func TestMinimal(t *testing.T) {
	t.Parallel()
	agentDir, project, srv := sdktest.Home(t, mockllm.Script{Turns: []mockllm.Turn{{Text: "It holds a README.", ChunkSize: 4}}})
	var out bytes.Buffer
	opts := pi.Options{AgentDir: agentDir, Cwd: project, Model: sdktest.Model, NoSession: true}
	if err := run(context.Background(), &out, opts, "What is here?"); err != nil {
		t.Fatal(err)
	}
	if got := out.String(); got != "It holds a README.\n" {
		t.Errorf("output %q", got)
	}
	reqs := srv.Requests()
	if len(reqs) != 1 || !strings.Contains(string(reqs[0].Body), "What is here?") {
		t.Errorf("requests %d", len(reqs))
	}
}
