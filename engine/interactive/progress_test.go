package interactive

import (
	"strings"
	"testing"

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
