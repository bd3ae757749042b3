package tuitest_test

import (
	"errors"
	"fmt"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/pi-go/pi/engine/tui"
	"github.com/pi-go/pi/engine/tui/tuitest"
)

func TestOverlayCompositesOverWideChars(t *testing.T) {
	t.Parallel()
	for _, full := range []bool{false, true} {
		t.Run(map[bool]string{false: "regular", true: "fullscreen"}[full], func(t *testing.T) {
			t.Parallel()
			term := tuitest.NewTerm(21, 7)
			base := make([]string, 7)
			for i := range base {
				base[i] = "日本語日本語日本語日本語" // 24 cells, cut to 21 (a wide char at the edge)
			}
			body := &rowsBody{rows: base}
			r := tuitest.Start(t, term, tui.ProgramOptions{Fullscreen: full}, func(p *tui.Program) { p.SetBody(body) }, nil)
			var hide func()
			// Odd column and width: both edges cut a wide character.
			r.Do(func() {
				hide = r.P.ShowOverlay(tui.Lines{"[ov]", "[x]"}, tui.OverlayOptions{Width: 4, Anchor: tui.AnchorTopLeft, OffsetX: 3, OffsetY: 2})
			})
			s := term.Screen()
			if s[2] != "日 [ov] 本語日本語日" || s[3] != "日 [x]  本語日本語日" {
				t.Fatalf("composited rows:\n%q\n%q", s[2], s[3])
			}
			for i, row := range s {
				if w := tui.Width(row); w > 21 {
					t.Fatalf("row %d is %d cells: %q", i, w, row)
				}
			}
			r.Do(hide)
			if s = term.Screen(); strings.Contains(strings.Join(s, ""), "[ov]") {
				t.Fatalf("overlay still shown after hide: %q", s)
			}
		})
	}
}

func TestOverlayTakesFocusAndGivesItBack(t *testing.T) {
	t.Parallel()
	term := tuitest.NewTerm(30, 6)
	main, ovl := &keyLog{}, &keyLog{}
	r := tuitest.Start(t, term, tui.ProgramOptions{}, func(p *tui.Program) {
		p.SetDock(main)
		p.SetFocus(main)
	}, nil)
	var hide func()
	r.Do(func() { hide = r.P.ShowOverlay(ovl, tui.OverlayOptions{Anchor: tui.AnchorTop}) })
	r.Feed("ab")
	r.Do(hide)
	r.Feed("c")
	if strings.Join(ovl.keys, "") != "ab" || strings.Join(main.keys, "") != "c" || !main.focused || ovl.focused {
		t.Fatalf("overlay %v (focused %v), main %v (focused %v)", ovl.keys, ovl.focused, main.keys, main.focused)
	}
}

func TestEventRouting(t *testing.T) {
	t.Parallel()
	term := tuitest.NewTerm(30, 6)
	ed := &keyLog{}
	var intercepted []string
	r := tuitest.Start(t, term, tui.ProgramOptions{}, func(p *tui.Program) {
		p.SetDock(ed)
		p.SetFocus(ed)
		p.SetInterceptor(func(ev tui.Event) bool {
			if k, ok := ev.(tui.Key); ok && k.Is("ctrl+c") {
				intercepted = append(intercepted, k.String())
				return true
			}
			return false
		})
	}, nil)
	r.Feed("a\x03\r\x1b[200~pasted\x1b[201~b")
	var rest []string
	for _, ev := range r.Events() {
		switch e := ev.(type) {
		case tui.Key:
			rest = append(rest, e.String())
		case tui.Paste:
			rest = append(rest, "paste:"+e.Text)
		}
	}
	if got := strings.Join(ed.keys, ""); got != "ab" {
		t.Errorf("focused component got %q", got)
	}
	if strings.Join(intercepted, ",") != "ctrl+c" {
		t.Errorf("interceptor got %v", intercepted)
	}
	if strings.Join(rest, ",") != "enter,paste:pasted" {
		t.Errorf("onEvent got %v", rest)
	}
	if s := term.Screen(); s[0] != "keys: a,b" {
		t.Errorf("screen %q", s)
	}
}

func TestKeyboardProtocolProbe(t *testing.T) {
	t.Parallel()
	for _, kitty := range []bool{false, true} {
		t.Run(map[bool]string{false: "tmux-like", true: "kitty"}[kitty], func(t *testing.T) {
			t.Parallel()
			term := tuitest.NewTerm(20, 4)
			term.Kitty = kitty
			r := tuitest.Start(t, term, tui.ProgramOptions{}, nil, nil)
			if err := r.Stop(); err != nil {
				t.Fatal(err)
			}
			out := term.Output()
			if !strings.HasPrefix(out, tui.SeqHideCursor+tui.SeqPasteOn+tui.SeqKittyPush+tui.SeqKittyQuery+tui.ProgramStatusQuery+tui.SeqCursorQuery+tui.SeqDA1) {
				t.Fatalf("setup: %q", out[:min(len(out), 80)])
			}
			fallback := strings.Contains(out, tui.SeqModifyOtherOn)
			if fallback == kitty {
				t.Fatalf("modifyOtherKeys fallback %v with kitty=%v: %q", fallback, kitty, out)
			}
			if kitty == strings.Contains(out, tui.SeqModifyOtherOff) {
				t.Fatalf("modifyOtherKeys not undone exactly when set: %q", out)
			}
		})
	}
}

// The exit sequence undoes every mode on each way out of Run.
func TestTerminalModesRestored(t *testing.T) {
	t.Parallel()
	regularExit := tui.SeqSyncEnd + tui.SeqKittyPop + tui.SeqModifyOtherOff + tui.SeqPasteOff + tui.SeqShowCursor
	fullExit := tui.SeqSyncEnd + tui.SeqKittyPop + tui.SeqModifyOtherOff + tui.SeqPasteOff +
		tui.SeqFocusOff + tui.SeqMouseOff + tui.SeqAutowrapOn + tui.SeqAltScreenOff + tui.SeqShowCursor
	cases := []struct {
		name string
		full bool
		stop func(r *tuitest.Run) (error, any)
		want string
	}{
		{"quit", false, func(r *tuitest.Run) (error, any) { r.P.Quit(); return r.Wait() }, regularExit},
		{"quit fullscreen", true, func(r *tuitest.Run) (error, any) { r.P.Quit(); return r.Wait() }, fullExit},
		{"panic in onEvent", true, func(r *tuitest.Run) (error, any) {
			r.T.Input() // the program panics on the next key
			r.Feed("p")
			return r.Wait()
		}, fullExit},
		{"input EOF", false, func(r *tuitest.Run) (error, any) { r.T.Close(); return r.Wait() }, regularExit},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			term := tuitest.NewTerm(20, 4)
			r := tuitest.Start(t, term, tui.ProgramOptions{Fullscreen: c.full}, func(p *tui.Program) {
				p.SetBody(tui.Lines{"hello"})
			}, func(ev tui.Event) {
				if k, ok := ev.(tui.Key); ok && k.Code == "p" {
					panic("boom")
				}
			})
			err, pan := c.stop(r)
			if c.name == "panic in onEvent" && pan != "boom" {
				t.Fatalf("panic not re-raised: %v", pan)
			}
			if c.name == "input EOF" && !errors.Is(err, tui.ErrInputClosed) {
				t.Fatalf("err %v", err)
			}
			out := term.Output()
			if !strings.Contains(out, c.want) {
				t.Fatalf("exit sequence missing:\nwant %q\nin   %q", c.want, out[max(0, len(out)-200):])
			}
			if term.AltScreen() {
				t.Fatal("left on the alternate screen")
			}
		})
	}
}

func TestHardwareCursorAtMarker(t *testing.T) {
	t.Parallel()
	term := tuitest.NewTerm(30, 6)
	ed := &keyLog{}
	r := tuitest.Start(t, term, tui.ProgramOptions{Fullscreen: true, ShowHardwareCursor: true}, func(p *tui.Program) {
		p.SetDock(ed)
		p.SetFocus(ed)
	}, nil)
	r.Feed("q")
	x, y, visible := term.Cursor()
	if x != len("keys: q") || y != 5 || !visible {
		t.Fatalf("cursor %d,%d visible=%v", x, y, visible)
	}
	if strings.Contains(term.Output(), "pi:c") {
		t.Fatal("cursor marker reached the terminal")
	}
}

// countingBody counts its renders.
type countingBody struct{ n int }

func (c *countingBody) Render(int) []string { c.n++; return []string{fmt.Sprint("renders ", c.n)} }

func TestRenderRequestsCoalesce(t *testing.T) {
	t.Parallel()
	term := tuitest.NewTerm(30, 5)
	body := &countingBody{}
	r := tuitest.Start(t, term, tui.ProgramOptions{}, func(p *tui.Program) { p.SetBody(body) }, nil)
	var before int
	r.Do(func() { before = body.n })
	// Fifty requests posted together are drained in one pass and drawn
	// as one frame (Do adds its own render at the end).
	done := make(chan struct{})
	r.Do(func() {
		for i := 0; i < 50; i++ {
			r.P.Post(func() { r.P.RequestRender() })
		}
		r.P.Post(func() { close(done) })
	})
	<-done
	r.Sync()
	var n int
	r.Do(func() { n = body.n - before })
	if n > 4 { // the requests' frame, and Sync's and Do's own
		t.Fatalf("50 render requests drew %d frames", n)
	}
}

func TestLoneEscapeIsFlushedAsEscapeKey(t *testing.T) {
	t.Parallel()
	term := tuitest.NewTerm(20, 4)
	r := tuitest.Start(t, term, tui.ProgramOptions{EscapeTimeout: time.Microsecond}, nil, nil)
	r.Feed("\x1b")
	// The flush arrives from the ESC timer; wait for it without a deadline
	// of our own (the test binary's timeout bounds a hang).
	for {
		r.Sync()
		for _, ev := range r.Events() {
			if k, ok := ev.(tui.Key); ok {
				if k.Code != "escape" || k.Raw != "\x1b" {
					t.Fatalf("got %+v", k)
				}
				return
			}
		}
		runtime.Gosched()
	}
}

func TestOverlayHandle(t *testing.T) {
	t.Parallel()
	term := tuitest.NewTerm(40, 10)
	main, ovl := &keyLog{}, &keyLog{}
	r := tuitest.Start(t, term, tui.ProgramOptions{Fullscreen: true}, func(p *tui.Program) {
		p.SetDock(main)
		p.SetFocus(main)
	}, nil)
	var h *tui.Overlay
	r.Do(func() { h = r.P.OpenOverlay(ovl, tui.OverlayOptions{Width: 20, Anchor: tui.AnchorTopRight, Margin: 1}) })
	r.Feed("a")
	var x, y, w, ht int
	var focused bool
	r.Do(func() { x, y, w, ht = h.Bounds(); h.Unfocus(); focused = h.Focused() })
	if x != 19 || y != 1 || w != 20 || ht != 1 || focused || !main.focused || ovl.focused {
		t.Fatalf("bounds %d,%d %dx%d focused=%v main=%v ovl=%v", x, y, w, ht, focused, main.focused, ovl.focused)
	}
	r.Feed("b")
	if s := term.Screen(); !strings.Contains(s[1], "keys: a") {
		t.Fatalf("unfocused overlay not drawn: %q", s[1])
	}
	r.Do(func() { h.Focus(); h.SetHidden(true) })
	r.Feed("c")
	if s := term.Screen(); strings.Contains(s[1], "keys") {
		t.Fatalf("hidden overlay drawn: %q", s[1])
	}
	r.Do(func() { h.SetHidden(false) })
	r.Feed("d")
	r.Do(h.Hide)
	r.Feed("e")
	if got, want := strings.Join(ovl.keys, "")+"|"+strings.Join(main.keys, ""), "ad|bce"; got != want {
		t.Fatalf("keys overlay|main = %s, want %s", got, want)
	}
}

// A progress indicator or light/dark reports still on at exit are
// turned off with the other modes; ones turned off before are not.
func TestProgressAndColorSchemeRestored(t *testing.T) {
	t.Parallel()
	for _, leave := range []bool{true, false} {
		term := tuitest.NewTerm(20, 4)
		r := tuitest.Start(t, term, tui.ProgramOptions{}, func(p *tui.Program) { p.SetBody(tui.Lines{"hi"}) }, nil)
		r.Do(func() {
			r.P.SetProgress(true)
			r.P.SetColorSchemeNotifications(true)
			if !leave {
				r.P.SetProgress(false)
				r.P.SetColorSchemeNotifications(false)
			}
		})
		out := term.Output()
		if !strings.Contains(out, tui.SeqProgressActive) || !strings.Contains(out, tui.SeqColorSchemeOn) {
			t.Fatalf("not turned on: %q", out)
		}
		term.ResetOutput()
		r.P.Quit()
		if _, pan := r.Wait(); pan != nil {
			t.Fatal(pan)
		}
		exit := term.Output()
		if got := strings.Contains(exit, tui.SeqProgressClear) && strings.Contains(exit, tui.SeqColorSchemeOff); got != leave {
			t.Fatalf("leave=%v: exit %q", leave, exit)
		}
	}
	if s, ok := (tui.Reply{Raw: "\x1b[?997;2n"}).ColorScheme(); !ok || s != "light" {
		t.Fatalf("scheme %q %v", s, ok)
	}
}

// Program status goes out only once the terminal answered the OSC 7501
// query (or PI_PROGRAM_STATUS=1 says it takes it), and is cleared on exit.
func TestProgramStatus(t *testing.T) {
	t.Parallel()
	working := tui.ProgramStatus{State: "working", App: "pi", Message: "demo\x07name"}
	want := "\x1b]7501;state=working:app=pi:msg=" + "ZGVtbyBuYW1l" + "\x1b\\"
	if got := tui.FormatProgramStatus(working); got != want {
		t.Fatalf("format %q, want %q", got, want)
	}
	for _, tc := range []struct {
		name, opt string
		answer    bool
		want      bool
	}{
		{"asked and answered", "", true, true},
		{"asked, no answer", "", false, false},
		{"forced on", "1", false, true},
		{"forced off", "0", true, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			term := tuitest.NewTerm(20, 4)
			r := tuitest.Start(t, term, tui.ProgramOptions{ProgramStatus: tc.opt}, nil, nil)
			if asked := strings.Contains(term.Output(), tui.ProgramStatusQuery); asked != (tc.opt == "") {
				t.Fatalf("query written: %v", asked)
			}
			r.Do(func() { r.P.SetProgramStatus(working) })
			if tc.answer {
				r.Do(func() { r.P.Dispatch(tui.Reply{Raw: "\x1b]7501;?state=idle\x1b\\"}) })
			}
			if err := r.Stop(); err != nil {
				t.Fatal(err)
			}
			out := term.Output()
			shown := strings.Contains(out, want)
			cleared := strings.Contains(out, "\x1b]7501;state=clear\x1b\\")
			if shown != tc.want || cleared != tc.want {
				t.Fatalf("shown %v cleared %v, want %v: %q", shown, cleared, tc.want, out)
			}
		})
	}
}
