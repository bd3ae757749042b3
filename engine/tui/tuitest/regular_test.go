package tuitest_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/pi-go/pi/engine/tui"
	"github.com/pi-go/pi/engine/tui/tuitest"
)

// rowsBody is a body of numbered rows, optionally Windowed.
type rowsBody struct {
	rows []string
}

func (b *rowsBody) Render(w int) []string { return tui.Lines(b.rows).Render(w) }

func numbered(prefix string, n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprintf("%s %d", prefix, i)
	}
	return out
}

func TestRegularScrollbackAfterGrowth(t *testing.T) {
	t.Parallel()
	term := tuitest.NewTerm(30, 8)
	body := &rowsBody{rows: numbered("row", 3)}
	dock := &rowsBody{rows: []string{"-- dock --"}}
	r := tuitest.Start(t, term, tui.ProgramOptions{}, func(p *tui.Program) {
		p.SetBody(body)
		p.SetDock(dock)
	}, nil)
	if got := term.ScreenText(); got != "row 0\nrow 1\nrow 2\n-- dock --" {
		t.Fatalf("screen:\n%s", got)
	}
	r.Do(func() { body.rows = numbered("row", 20); r.P.RequestRender() })
	want := strings.Join(append(numbered("row", 20), "-- dock --"), "\n")
	if got := term.All(); got != want {
		t.Fatalf("document:\n%s\nwant:\n%s", got, want)
	}
	if sb := term.Scrollback(); len(sb) != 13 || sb[0] != "row 0" {
		t.Fatalf("scrollback %d rows: %q", len(sb), sb)
	}
}

func TestRegularRepaintsOnlyChangedRows(t *testing.T) {
	t.Parallel()
	term := tuitest.NewTerm(40, 10)
	body := &windowed{rows: numbered("body", 2000)}
	dock := &keyLog{}
	r := tuitest.Start(t, term, tui.ProgramOptions{}, func(p *tui.Program) {
		p.SetBody(body)
		p.SetDock(dock)
		p.SetFocus(dock)
	}, nil)
	term.ResetOutput()
	before := body.rendered.Load()
	r.Feed("x")
	out := term.Output()
	if strings.Contains(out, "body") {
		t.Errorf("typing rewrote body rows: %q", out)
	}
	if !strings.Contains(out, "keys: x") || !strings.HasPrefix(out, tui.SeqSyncBegin) || !strings.HasSuffix(out, tui.SeqSyncEnd) {
		t.Errorf("frame not a synchronized update of the dock row: %q", out)
	}
	// A few frames may run (input, posted work, the test's own), each
	// rendering at most the 10-row window: far from the 2,000 rows.
	if n := body.rendered.Load() - before; n > 50 {
		t.Errorf("a keystroke rendered %d body rows; want only the window", n)
	}
	if body.full.Load() != 0 { // even the first frame goes through RenderRange
		t.Errorf("full renders of a Windowed body: %d", body.full.Load())
	}
	screen := term.Screen()
	if screen[9] != "keys: x" || screen[8] != "body 1999" {
		t.Errorf("screen bottom: %q", screen[7:])
	}
	if x, y, _ := term.Cursor(); y != 9 || x != len("keys: x") {
		t.Errorf("cursor at %d,%d; want the marker at 7,9", x, y)
	}
}

func TestRegularReprintOnWidthChange(t *testing.T) {
	t.Parallel()
	term := tuitest.NewTerm(30, 6)
	body := &rowsBody{rows: numbered("a fairly long row number", 12)}
	r := tuitest.Start(t, term, tui.ProgramOptions{}, func(p *tui.Program) { p.SetBody(body) }, nil)
	term.ResetOutput()
	term.Resize(20, 6)
	r.Sync()
	out := term.Output()
	if !strings.Contains(out, tui.SeqSyncBegin+tui.SeqClearAll) {
		t.Fatalf("no clear-and-reprint after a width change: %q", out)
	}
	all := strings.Split(term.All(), "\n")
	if len(all) != 12 || all[0] != "a fairly long row nu" || all[11] != "a fairly long row nu" {
		t.Fatalf("document after reprint (%d rows): %q", len(all), all)
	}
}

func TestRegularExplicitReprintAndChangesAboveViewport(t *testing.T) {
	t.Parallel()
	term := tuitest.NewTerm(30, 5)
	body := &rowsBody{rows: numbered("row", 10)}
	r := tuitest.Start(t, term, tui.ProgramOptions{}, func(p *tui.Program) { p.SetBody(body) }, nil)
	// A change in the scrollback without a reprint leaves the scrollback
	// alone (it cannot be edited) but updates the screen rows.
	r.Do(func() { body.rows[0] = "CHANGED"; body.rows[9] = "last changed"; r.P.RequestRender() })
	if sb := term.Scrollback(); sb[0] != "row 0" {
		t.Fatalf("scrollback rewritten without a reprint: %q", sb)
	}
	if s := term.Screen(); s[4] != "last changed" {
		t.Fatalf("screen: %q", s)
	}
	r.Do(func() { r.P.Reprint() })
	if sb := term.Scrollback(); len(sb) != 5 || sb[0] != "CHANGED" {
		t.Fatalf("scrollback after Reprint: %q", sb)
	}
}

func TestRegularShrink(t *testing.T) {
	t.Parallel()
	for _, clear := range []bool{false, true} {
		t.Run(fmt.Sprint("clearOnShrink=", clear), func(t *testing.T) {
			t.Parallel()
			term := tuitest.NewTerm(20, 6)
			body := &rowsBody{rows: numbered("row", 8)}
			dock := &rowsBody{rows: []string{"sel 1", "sel 2", "sel 3", "footer"}}
			r := tuitest.Start(t, term, tui.ProgramOptions{ClearOnShrink: clear}, func(p *tui.Program) {
				p.SetBody(body)
				p.SetDock(dock)
			}, nil)
			r.Do(func() { dock.rows = []string{"footer"}; r.P.RequestRender() })
			screen := term.Screen()
			if clear {
				if screen[5] != "footer" || screen[4] != "row 7" {
					t.Fatalf("clearOnShrink: dock not back at the bottom: %q", screen)
				}
				if all := strings.Split(term.All(), "\n"); len(all) != 9 {
					t.Fatalf("document duplicated: %q", all)
				}
				return
			}
			if screen[2] != "footer" || screen[3] != "" || screen[5] != "" {
				t.Fatalf("freed rows not blanked below the dock: %q", screen)
			}
		})
	}
}

func TestRegularDocumentShrinkingIntoScrollbackReprints(t *testing.T) {
	t.Parallel()
	term := tuitest.NewTerm(20, 5)
	body := &rowsBody{rows: numbered("old", 30)}
	r := tuitest.Start(t, term, tui.ProgramOptions{}, func(p *tui.Program) { p.SetBody(body) }, nil)
	r.Do(func() { body.rows = []string{"fresh"}; r.P.RequestRender() })
	if got := term.All(); got != "fresh" {
		t.Fatalf("document after clearing the body: %q", got)
	}
}

// The first regular frame starts below what the shell printed (at the
// reported cursor row), and the document's own rows scroll from there.
func TestRegularStartsBelowShellOutput(t *testing.T) {
	t.Parallel()
	term := tuitest.NewTerm(20, 6)
	_, _ = term.Write([]byte("$ ls\r\nfile.txt\r\n$ pi\r\n"))
	body := &rowsBody{rows: numbered("row", 2)}
	r := tuitest.Start(t, term, tui.ProgramOptions{}, func(p *tui.Program) {
		p.SetBody(body)
		p.SetDock(&rowsBody{rows: []string{"dock"}})
	}, nil)
	if got := term.ScreenText(); got != "$ ls\nfile.txt\n$ pi\nrow 0\nrow 1\ndock" {
		t.Fatalf("first frame:\n%s", got)
	}
	r.Do(func() { body.rows = numbered("row", 5); r.P.RequestRender() })
	if got := term.All(); got != "$ ls\nfile.txt\n$ pi\nrow 0\nrow 1\nrow 2\nrow 3\nrow 4\ndock" {
		t.Fatalf("after growth (scrollback+screen):\n%s", got)
	}
	// A change on a row still on screen repaints in place.
	r.Do(func() { body.rows[2] = "ROW 2"; r.P.RequestRender() })
	if s := term.Screen(); s[2] != "ROW 2" {
		t.Fatalf("screen %q", s)
	}
	for _, ev := range r.Events() {
		if k, ok := ev.(tui.Key); ok {
			t.Fatalf("the cursor report leaked as a key: %+v", k)
		}
	}
}

// TestRegularSkipsUnchangedRowsBelow: a change in the middle of the dock
// (the editor line above the rules and the footer) rewrites that row
// only, not everything below it.
func TestRegularSkipsUnchangedRowsBelow(t *testing.T) {
	t.Parallel()
	term := tuitest.NewTerm(40, 10)
	body := &windowed{rows: numbered("body", 50)}
	log := &keyLog{}
	dock := &tui.Container{}
	dock.Add(log, tui.Lines{"---- rule ----", "footer line"})
	r := tuitest.Start(t, term, tui.ProgramOptions{}, func(p *tui.Program) {
		p.SetBody(body)
		p.SetDock(dock)
		p.SetFocus(log)
	}, nil)
	term.ResetOutput()
	r.Feed("x")
	out := term.Output()
	if !strings.Contains(out, "keys: x") || strings.Contains(out, "rule") || strings.Contains(out, "footer") {
		t.Errorf("keystroke frame: %q", out)
	}
	screen := term.Screen()
	if screen[7] != "keys: x" || screen[8] != "---- rule ----" || screen[9] != "footer line" {
		t.Errorf("screen bottom: %q", screen[6:])
	}
}

// Leaving after the document shrank (a dialog closed) puts the cursor
// one blank row below the document's end, not below the rows the dialog
// once took.
func TestRegularLeaveAfterShrink(t *testing.T) {
	t.Parallel()
	term := tuitest.NewTerm(30, 20)
	body := &rowsBody{rows: numbered("row", 3)}
	dock := &rowsBody{rows: numbered("dialog", 10)}
	r := tuitest.Start(t, term, tui.ProgramOptions{}, func(p *tui.Program) {
		p.SetBody(body)
		p.SetDock(dock)
	}, nil)
	r.Do(func() { dock.rows = []string{"footer"}; r.P.RequestRender() })
	if err := r.Stop(); err != nil {
		t.Fatal(err)
	}
	_, _ = term.Write([]byte("NEXT"))
	s := term.Screen()
	if s[5] != "NEXT" {
		t.Fatalf("the cursor is not one blank row below the document:\n%s", term.ScreenText())
	}
}
