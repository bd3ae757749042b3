package editor

import (
	"math/rand/v2"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/pi-go/pi/engine/tui"
)

// TestRandomEditsKeepInvariants drives the editor with a fixed pseudo-
// random mix of keys, text and pastes and checks after every step that
// the cursor is inside the buffer on a character boundary and that
// rendering stays within the width.
func TestRandomEditsKeepInvariants(t *testing.T) {
	t.Parallel()
	specs := []string{
		"left", "right", "up", "down", "home", "end", "alt+left", "alt+right", "ctrl+left",
		"backspace", "delete", "ctrl+w", "alt+d", "ctrl+u", "ctrl+k", "ctrl+y", "alt+y",
		"ctrl+-", "enter", "shift+enter", "ctrl+]", "ctrl+alt+]", "pageUp", "pageDown",
		"tab", "escape", "'a'", "'日'", "'👍🏽'", "' '", "'/'", "'@'", "'@src/'", "'x y'", "'\\'",
	}
	pastes := []string{"hello\nworld", strings.Repeat("p\n", 15), "日本語 テキスト", strings.Repeat("z", 1200), "./path"}
	dir := mkTree(t, testTree...)
	rng := rand.New(rand.NewPCG(1, 2))
	for run := 0; run < 16; run++ {
		e := newTestEditor(t)
		e.SetProviders(NewCommandProvider(testCommands()), NewFileProvider(dir))
		e.AddHistory("earlier prompt\nwith two lines")
		e.OnSubmit = func(s string) { e.AddHistory(s) }
		width := []int{5, 20, 40, 80}[run%4]
		for step := 0; step < 250; step++ {
			if rng.IntN(12) == 0 {
				e.HandlePaste(pastes[rng.IntN(len(pastes))])
			} else {
				for _, k := range keys(t, specs[rng.IntN(len(specs))]) {
					e.HandleKey(k)
				}
			}
			if e.line < 0 || e.line >= len(e.lines) {
				t.Fatalf("run %d step %d: line %d of %d", run, step, e.line, len(e.lines))
			}
			l := e.lines[e.line]
			if e.col < 0 || e.col > len(l) || e.col < len(l) && !utf8.RuneStart(l[e.col]) {
				t.Fatalf("run %d step %d: col %d in %q", run, step, e.col, l)
			}
			for i, r := range e.Render(width) {
				if w := tui.Width(r); w > width {
					t.Fatalf("run %d step %d: row %d is %d wide at %d: %q", run, step, i, w, width, r)
				}
			}
		}
	}
}
