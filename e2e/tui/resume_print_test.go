package tui

import (
	"strings"
	"testing"

	"github.com/pi-go/pi/internal/mockllm"
	"github.com/pi-go/pi/internal/sdktest"
)

// TestResumeFlagInPrintMode: `-r -p` shows the session picker before the
// run, as the reference does; Enter resumes the highlighted session and
// the prompt is answered in it, Escape prints "No session selected" and
// exits 0 without a request.
func TestResumeFlagInPrintMode(t *testing.T) {
	t.Parallel()
	agentDir, project, srv := sdktest.Home(t, mockllm.Script{Turns: []mockllm.Turn{
		{Text: "first answer"}, {Text: "resumed answer"},
	}})
	first := startPi(t, agentDir, project, 100, 30, "--model", sdktest.Model, "-p", "remember this")
	if code := first.exitCode(); code != 0 {
		t.Fatalf("first run exit code %d", code)
	}
	cancel := startPi(t, agentDir, project, 100, 30, "--model", sdktest.Model, "-r", "-p", "never sent")
	cancel.waitFor("Resume Session")
	cancel.send("\x1b")
	// pi prints its answer and exits at once: exitCode reads the pty to
	// the end before the screen is looked at.
	if code := cancel.exitCode(); code != 0 {
		t.Fatalf("cancelled picker exit code %d", code)
	}
	if s := cancel.screen(); !strings.Contains(s, "No session selected") {
		t.Errorf("cancelled picker did not say so:\n%s", s)
	}
	if n := len(srv.Requests()); n != 1 {
		t.Fatalf("%d requests after the cancelled picker, want 1", n)
	}
	pick := startPi(t, agentDir, project, 100, 30, "--model", sdktest.Model, "-r", "-p", "again")
	s := pick.waitFor("Resume Session")
	if !strings.Contains(s, "remember this") {
		t.Errorf("the picker does not list the first session:\n%s", s)
	}
	pick.send("\r")
	if code := pick.exitCode(); code != 0 {
		t.Fatalf("resumed run exit code %d", code)
	}
	if s := pick.screen(); !strings.Contains(s, "resumed answer") {
		t.Errorf("the resumed run's answer is not on the screen:\n%s", s)
	}
	reqs := srv.Requests()
	if len(reqs) != 2 {
		t.Fatalf("%d requests, want 2", len(reqs))
	}
	if body := string(reqs[1].Body); !strings.Contains(body, "remember this") || !strings.Contains(body, "first answer") {
		t.Errorf("the resumed request lacks the first session's conversation: %s", body)
	}
}
