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
	first.waitFor("first answer")
	if code := first.exitCode(); code != 0 {
		t.Fatalf("first run exit code %d", code)
	}
	cancel := startPi(t, agentDir, project, 100, 30, "--model", sdktest.Model, "-r", "-p", "never sent")
	cancel.waitFor("Resume Session")
	cancel.send("\x1b")
	cancel.waitFor("No session selected")
	if code := cancel.exitCode(); code != 0 {
		t.Fatalf("cancelled picker exit code %d", code)
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
	pick.waitFor("resumed answer")
	if code := pick.exitCode(); code != 0 {
		t.Fatalf("resumed run exit code %d", code)
	}
	reqs := srv.Requests()
	if len(reqs) != 2 {
		t.Fatalf("%d requests, want 2", len(reqs))
	}
	if body := string(reqs[1].Body); !strings.Contains(body, "remember this") || !strings.Contains(body, "first answer") {
		t.Errorf("the resumed request lacks the first session's conversation: %s", body)
	}
}
