package editor

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pi-go/pi/engine/tui"
)

// TestMatchesReferenceScreens replays keystrokes that were typed into the
// reference pi in tmux (100×30, see testdata/reference-*.txt: its editor
// rows, captured with tmux capture-pane) and compares our editor's rows,
// styles stripped, with them.
func TestMatchesReferenceScreens(t *testing.T) {
	t.Parallel()
	// press renders after every key, as the program does: the scroll
	// offset follows the frames the user saw.
	press := func(t *testing.T, e *Editor, specs ...string) {
		for _, k := range keys(t, specs...) {
			e.HandleKey(k)
			e.Render(100)
		}
	}
	twelve := func(t *testing.T, e *Editor) {
		for i := 1; i <= 12; i++ {
			press(t, e, fmt.Sprintf("'line %d'", i), "ctrl+j")
		}
	}
	cases := []struct {
		file   string
		keys   func(t *testing.T, e *Editor)
		cursor string // the text with | at the cursor, after the keys
	}{
		{"reference-A1.txt", twelve, ""},
		{"reference-A2.txt", func(t *testing.T, e *Editor) {
			twelve(t, e)
			for range 10 {
				press(t, e, "up")
			}
		}, ""},
		{"reference-D.txt", func(t *testing.T, e *Editor) {
			press(t, e, "'The quick brown fox jumps over the lazy dog and keeps running far away from the hunters who chase it through the woods 日本語のテキストを折り返す'")
			press(t, e, "ctrl+a", "alt+f", "alt+f", "alt+f")
		}, "The quick brown| fox"},
	}
	for _, c := range cases {
		want, err := os.ReadFile(filepath.Join("testdata", c.file))
		if err != nil {
			t.Fatal(err)
		}
		e := newTestEditor(t)
		e.opt.TerminalRows = func() int { return 30 }
		c.keys(t, e)
		var b strings.Builder
		for _, r := range e.Render(100) {
			b.WriteString(strings.TrimRight(tui.Strip(r), " ") + "\n")
		}
		if b.String() != string(want) {
			t.Errorf("%s:\n--- ours\n%s--- reference\n%s", c.file, b.String(), want)
		}
		if c.cursor != "" && !strings.HasPrefix(state(e), c.cursor) {
			t.Errorf("%s: cursor at %q, want %q", c.file, state(e), c.cursor)
		}
	}
}
