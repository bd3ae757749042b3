package interactive

import (
	"strings"
	"testing"
	"time"

	"github.com/pi-go/pi/engine/tui"
	"github.com/pi-go/pi/internal/mockllm"
)

// With terminal.showTerminalProgress on, a turn sets the indeterminate
// OSC 9;4 progress and the run's end clears it; with it off (the
// default) neither is written.
func TestTerminalProgress(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name     string
		settings string
		want     bool
	}{
		{"on", `{"terminal":{"showTerminalProgress":true}}`, true},
		{"off", `{}`, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			ta := startApp(t, mockllm.Script{Turns: []mockllm.Turn{{Text: "Progress reply."}}}, Options{Initial: "go"}, tc.settings)
			ta.waitFor("Progress reply.")
			ta.waitGone("Working")
			out := ta.term.Output()
			on, off := strings.Index(out, progressActive), strings.LastIndex(out, progressClear)
			if !tc.want {
				if on >= 0 || off >= 0 {
					t.Fatalf("progress written with the setting off: %q", out)
				}
				return
			}
			if on < 0 || off < on {
				t.Fatalf("want %q then %q in the output, got indexes %d, %d", progressActive, progressClear, on, off)
			}
		})
	}
}

// A reply that fails with a lasting error (not a transient one, which is
// retried) points at /bug, once.
func TestBugHintAfterAnError(t *testing.T) {
	t.Parallel()
	bad := mockllm.Turn{Status: 400, Body: []byte(`{"error":{"message":"invalid request shape"}}`)}
	ta := startApp(t, mockllm.Script{Turns: []mockllm.Turn{bad, bad}}, Options{Initial: "first"})
	ta.waitFor("/bug sends a report")
	ta.waitGone("Working")
	ta.r.Feed("second\r")
	for i := 0; strings.Count(ta.screen(), "invalid request shape") < 2; i++ {
		if i > 2000 {
			t.Fatalf("the second error never showed:\n%s", ta.screen())
		}
		time.Sleep(10 * time.Millisecond)
	}
	if n := strings.Count(ta.screen(), "/bug sends a report"); n != 1 {
		t.Fatalf("hint shown %d times:\n%s", n, ta.screen())
	}
}

// Once the terminal answers the OSC 7501 query, pi reports working (with
// the session name) during a run and done after it.
func TestProgramStatusReport(t *testing.T) {
	t.Parallel()
	ta := startApp(t, mockllm.Script{Turns: []mockllm.Turn{{Text: "Status reply.", DelayMs: 20}}}, Options{})
	ta.waitFor("v0.0.0-test")
	ta.r.Do(func() { ta.r.P.Dispatch(tui.Reply{Raw: "\x1b]7501;?\x1b\\"}) })
	ta.r.Feed("go\r")
	ta.waitFor("Status reply.")
	ta.waitGone("Working")
	out := ta.term.Output()
	idle, working, done := strings.Index(out, "\x1b]7501;state=idle:app=pi\x1b\\"), strings.Index(out, "\x1b]7501;state=working:app=pi"), strings.LastIndex(out, "\x1b]7501;state=done:app=pi")
	if idle < 0 || working < idle || done < working {
		t.Fatalf("status reports idle %d, working %d, done %d", idle, working, done)
	}
}
