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
