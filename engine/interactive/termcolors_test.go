package interactive

import (
	"strings"
	"testing"

	"github.com/pi-go/pi/engine/tui"
	"github.com/pi-go/pi/internal/mockllm"
)

func TestColorQueryString(t *testing.T) {
	t.Parallel()
	q := colorQuery()
	for _, want := range []string{"\x1b]10;?\x07\x1b]11;?\x07\x1b]4;0;?\x07", "\x1b]4;9;?\x07\x1b]4;10;?\x07", "\x1b]4;15;?\x07\x1b[c"} {
		if !strings.Contains(q, want) {
			t.Errorf("query %q lacks %q", q, want)
		}
	}
	if strings.Contains(q, "4;16;") || !strings.HasSuffix(q, "\x1b[c") {
		t.Errorf("query %q: want palette 0-15 then DA1", q)
	}
}

// The start-up query goes out, and the terminal's answer re-resolves the
// default "system" theme: a white background makes it light; a fixed
// "dark" setting ignores the answer; a DA1 before any colour reply (the
// program's own start-up DA1) does not end the query.
func TestTerminalColorsRethemeSystem(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, settings, want string
	}{
		{"system", `{}`, "light"},
		{"pair", `{"theme":"light/dark"}`, "light"},
		{"fixed", `{"theme":"dark"}`, "dark"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			ta := startApp(t, mockllm.Script{}, Options{}, tc.settings)
			ta.waitFor("v0.0.0-test")
			deadline := 0
			for !strings.Contains(ta.term.Output(), "\x1b]11;?\x07") {
				if deadline++; deadline > 2000 {
					t.Fatal("the colour query was never written")
				}
				ta.r.Sync()
			}
			ta.r.Do(func() {
				ta.a.onEvent(tui.Reply{Raw: "\x1b[?62;22c"}) // an earlier DA1
				ta.a.onEvent(tui.Reply{Raw: "\x1b]11;rgb:ffff/ffff/ffff\x1b\\"})
				ta.a.onEvent(tui.Reply{Raw: "\x1b]10;rgb:0000/0000/0000\x07"})
				ta.a.onEvent(tui.Reply{Raw: "\x1b[?62;22c"})
			})
			var got string
			ta.r.Do(func() { got = ta.a.v.th.Appearance })
			if got != tc.want {
				t.Fatalf("appearance %q, want %q", got, tc.want)
			}
			// Light/dark change reports are asked for while the theme
			// follows the terminal.
			if on := strings.Contains(ta.term.Output(), "\x1b[?2031h"); on != (tc.name != "fixed") {
				t.Fatalf("mode 2031 on: %v", on)
			}
		})
	}
}

// A light/dark report alone (no colours) re-resolves the system theme
// and asks for the colours again.
func TestColorSchemeReport(t *testing.T) {
	t.Parallel()
	ta := startApp(t, mockllm.Script{}, Options{}, `{}`)
	ta.waitFor("v0.0.0-test")
	ta.term.ResetOutput()
	var got string
	ta.r.Do(func() {
		ta.a.onEvent(tui.Reply{Raw: "\x1b[?997;2n"})
		got = ta.a.v.th.Appearance
	})
	if got != "light" {
		t.Fatalf("appearance %q after a light report", got)
	}
	if !strings.Contains(ta.term.Output(), "\x1b]11;?\x07") {
		t.Fatal("the colours were not asked for again")
	}
}
