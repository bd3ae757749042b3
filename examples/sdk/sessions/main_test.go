package main

import (
	"bytes"
	"context"
	"testing"

	pi "github.com/pi-go/pi"
	"github.com/pi-go/pi/internal/mockllm"
	"github.com/pi-go/pi/internal/sdktest"
)

// TestSessions runs the walk through new, switch and fork against a
// scripted model with sessions saved in a temporary agent directory.
func TestSessions(t *testing.T) {
	t.Parallel()
	agentDir, project, _ := sdktest.Home(t, mockllm.Script{Turns: []mockllm.Turn{{Text: "Blue."}, {Text: "Apple."}}})
	var out bytes.Buffer
	if err := run(context.Background(), &out, pi.Options{AgentDir: agentDir, Cwd: project, Model: sdktest.Model}); err != nil {
		t.Fatal(err)
	}
	want := `  assistant: Blue.
first session (5 entries)
  assistant: Apple.
new session (5 entries)
switched back (5 entries)
forked, editing "Name a colour." (3 entries)
2 saved sessions
`
	if got := out.String(); got != want {
		t.Errorf("output\n%s\nwant\n%s", got, want)
	}
}
