package tuitest_test

import (
	"encoding/base64"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/pi-go/pi/engine/tui"
	"github.com/pi-go/pi/engine/tui/tuitest"
)

// scrolled asks the UI goroutine whether the body is scrolled away.
func scrolled(r *tuitest.Run) bool {
	var s bool
	r.Do(func() { s = r.P.Scrolled() })
	return s
}

func startFull(t *testing.T, w, h int, o tui.ProgramOptions, body tui.Component, dock tui.Component) (*tuitest.Term, *tuitest.Run) {
	t.Helper()
	term := tuitest.NewTerm(w, h)
	o.Fullscreen = true
	r := tuitest.Start(t, term, o, func(p *tui.Program) {
		p.SetBody(body)
		p.SetDock(dock)
	}, nil)
	return term, r
}

func TestFullscreenFollowScrollAndJumpLabel(t *testing.T) {
	t.Parallel()
	body := &windowed{rows: numbered("msg", 100)}
	dock := &rowsBody{rows: []string{"── editor ──", "footer"}}
	term, r := startFull(t, 60, 10, tui.ProgramOptions{}, body, dock)
	if !term.AltScreen() {
		t.Fatal("not on the alternate screen")
	}
	s := term.Screen()
	if s[0] != "msg 92" || s[7] != "msg 99" || s[8] != "── editor ──" || s[9] != "footer" {
		t.Fatalf("following screen: %q", s)
	}
	r.Do(func() { r.P.ScrollBy(-10) })
	s = term.Screen()
	if s[0] != "msg 82" || s[6] != "msg 88" || strings.TrimSpace(s[7]) != tui.DefaultJumpLabel {
		t.Fatalf("scrolled screen: %q", s)
	}
	if got := strings.Index(s[7], "↓"); got <= 0 {
		t.Fatalf("jump label not centred: %q", s[7])
	}
	// New content while scrolled away keeps the view where the user put it.
	r.Do(func() { body.rows = append(body.rows, numbered("new", 5)...); r.P.RequestRender() })
	if s = term.Screen(); s[0] != "msg 82" {
		t.Fatalf("view moved while scrolled: %q", s)
	}
	r.Do(func() { r.P.ScrollToBottom() })
	s = term.Screen()
	if s[7] != "new 4" || scrolled(r) {
		t.Fatalf("bottom: %q", s)
	}
	r.Do(func() { r.P.ScrollToTop() })
	if s = term.Screen(); s[0] != "msg 0" {
		t.Fatalf("top: %q", s)
	}
	r.Do(func() { r.P.PageDown() })
	if s = term.Screen(); s[0] != "msg 4" {
		t.Fatalf("page down: %q", s)
	}
	if n := body.full.Load(); n != 0 {
		t.Fatalf("fullscreen rendered the whole body %d times", n)
	}
}

func TestFullscreenShortBodyPinsDock(t *testing.T) {
	t.Parallel()
	body := &rowsBody{rows: []string{"header"}}
	dock := &rowsBody{rows: []string{"editor", "footer"}}
	term, _ := startFull(t, 30, 8, tui.ProgramOptions{Scrollbar: true}, body, dock)
	s := term.Screen()
	if s[0] != "header" || s[5] != "" || s[6] != "editor" || s[7] != "footer" {
		t.Fatalf("screen: %q", s)
	}
	if strings.ContainsAny(term.ScreenText(), "┃│") {
		t.Fatal("scrollbar without overflow")
	}
}

func TestFullscreenScrollbarAndWheel(t *testing.T) {
	t.Parallel()
	body := &windowed{rows: numbered("line", 40)}
	dock := &rowsBody{rows: []string{"dock"}}
	term, r := startFull(t, 20, 9, tui.ProgramOptions{Scrollbar: true, WheelLines: 2}, body, dock)
	s := term.Screen()
	for i := 0; i < 8; i++ {
		if len([]rune(s[i])) != 20 {
			t.Fatalf("row %d has no scrollbar column: %q", i, s[i])
		}
	}
	// Following: the thumb is at the bottom of the track.
	if !strings.HasSuffix(s[7], "┃") || !strings.HasSuffix(s[0], "│") {
		t.Fatalf("thumb not at the bottom: %q", s)
	}
	r.Feed("\x1b[<64;3;3M") // wheel up
	s = term.Screen()
	if !strings.HasPrefix(s[0], "line 30") || !scrolled(r) {
		t.Fatalf("wheel did not scroll 2 rows: %q", s)
	}
	r.Feed("\x1b[<65;3;3M\x1b[<65;3;3M")
	if scrolled(r) {
		t.Fatal("wheel back down did not resume following")
	}
}

func TestFullscreenDragSelectCopies(t *testing.T) {
	t.Parallel()
	body := &rowsBody{rows: []string{"alpha beta", "gamma delta", "epsilon"}}
	dock := &rowsBody{rows: []string{"dock"}}
	term, r := startFull(t, 30, 6, tui.ProgramOptions{CopyOnSelect: true}, body, dock)
	term.ResetOutput()
	// Press at "beta" (row 1, col 7), drag to after "gamma" (row 2, col 6).
	r.Feed("\x1b[<0;7;1M")
	r.Feed("\x1b[<32;6;2M")
	if out := term.Output(); !strings.Contains(out, "\x1b[7m") {
		t.Fatalf("no selection highlight: %q", out)
	}
	r.Feed("\x1b[<0;6;2m")
	want := tui.OSC52("beta\ngamma")
	if out := term.Output(); !strings.Contains(out, want) {
		t.Fatalf("copy missing %q (%s) in %q", want, base64.StdEncoding.EncodeToString([]byte("beta\ngamma")), out)
	}
}

func TestFullscreenPrintsBodyOnExit(t *testing.T) {
	t.Parallel()
	body := &windowed{rows: numbered("item", 30)}
	term, r := startFull(t, 20, 8, tui.ProgramOptions{PrintBodyOnExit: true}, body, &rowsBody{rows: []string{"dock"}})
	if err := r.Stop(); err != nil {
		t.Fatal(err)
	}
	if term.AltScreen() {
		t.Fatal("still on the alternate screen")
	}
	all := strings.Split(term.All(), "\n")
	if len(all) != 31 || all[0] != "item 0" || all[29] != "item 29" || all[30] != "dock" {
		t.Fatalf("main screen after exit (%d rows): %q", len(all), all)
	}
	// A second 1049l would restore the cursor saved on entry (xterm,
	// tmux): what the application prints next would land over the rows.
	if n := strings.Count(term.Output(), "\x1b[?1049l"); n != 1 {
		t.Fatalf("the alternate screen is left %d times", n)
	}
}

func TestFullscreenViewportKeys(t *testing.T) {
	t.Parallel()
	km, errs := tui.NewKeymap(map[string][]string{
		"tui.altScreen.pageUp": {"pageUp"}, "tui.altScreen.pageDown": {"pageDown"},
		"tui.altScreen.top": {"ctrl+home"}, "tui.altScreen.bottom": {"ctrl+end"},
		"tui.select.pageUp": {"pageUp"}, "tui.select.pageDown": {"pageDown"},
	})
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	body := &windowed{rows: numbered("msg", 50)}
	ed := &keyLog{}
	term := tuitest.NewTerm(40, 10)
	r := tuitest.Start(t, term, tui.ProgramOptions{Fullscreen: true, Keymap: km}, func(p *tui.Program) {
		p.SetBody(body)
		p.SetDock(ed)
		p.SetFocus(ed)
	}, nil)
	r.Feed("\x1b[5~") // PageUp: the viewport, not the editor
	if s := term.Screen(); s[0] != "msg 36" {
		t.Fatalf("after PageUp: %q", s)
	}
	r.Feed("\x1b[1;5H") // Ctrl+Home
	if s := term.Screen(); s[0] != "msg 0" {
		t.Fatalf("after Ctrl+Home: %q", s)
	}
	r.Feed("\x1b[1;5F") // Ctrl+End
	if s := term.Screen(); s[0] != "msg 41" {
		t.Fatalf("after Ctrl+End: %q", s)
	}
	// A focused select list keeps the page keys.
	var items []tui.SelectItem
	for i := 0; i < 20; i++ {
		items = append(items, tui.SelectItem{Value: fmt.Sprint("item", i)})
	}
	list := tui.NewSelectList(items, 5, km, tui.SelectListStyle{})
	r.Do(func() { r.P.SetDock(list); r.P.SetFocus(list) })
	r.Feed("\x1b[6~")
	var sel tui.SelectItem
	var away bool
	r.Do(func() { sel, _ = list.Selected(); away = r.P.Scrolled() })
	if sel.Value != "item5" || away {
		t.Fatalf("list selection %q, body scrolled %v", sel.Value, away)
	}
}

func TestFullscreenDragPastTheWindowScrolls(t *testing.T) {
	t.Parallel()
	body := &windowed{rows: numbered("r", 30)}
	term, r := startFull(t, 20, 6, tui.ProgramOptions{CopyOnSelect: true}, body, &rowsBody{rows: []string{"dock"}})
	r.Do(func() { r.P.ScrollToTop() })
	r.Feed("\x1b[<0;1;1M")               // press on "r 0"
	r.Feed("\x1b[<32;4;6M\x1b[<32;4;6M") // drag onto the dock row twice: two rows down
	term.ResetOutput()
	r.Feed("\x1b[<0;4;6m")
	if want := tui.OSC52("r 0\nr 1\nr 2\nr 3\nr 4\nr 5\nr 6"); !strings.Contains(term.Output(), want) {
		t.Fatalf("copied text missing %q in %q", want, term.Output())
	}
}

// TestFullscreenScrollbarAuto: the reference's default "auto" scrollbar is
// hidden while following, drawn over the last column once the user
// scrolls, and gone again after the hide delay.
func TestFullscreenScrollbarAuto(t *testing.T) {
	t.Parallel()
	body := &windowed{rows: numbered("line", 40)}
	dock := &rowsBody{rows: []string{"dock"}}
	term, r := startFull(t, 20, 9, tui.ProgramOptions{ScrollbarAuto: true}, body, dock)
	if strings.ContainsAny(term.ScreenText(), "┃│") {
		t.Fatalf("scrollbar before any scroll:\n%s", term.ScreenText())
	}
	r.Feed("\x1b[<64;3;3M") // wheel up
	s := term.Screen()
	if !strings.HasSuffix(s[0], "│") && !strings.HasSuffix(s[0], "┃") {
		t.Fatalf("no scrollbar after scrolling: %q", s)
	}
	if !strings.HasPrefix(s[0], "line 29") || len([]rune(s[0])) != 20 {
		t.Fatalf("the bar took the body's width: %q", s[0])
	}
	deadline := time.Now().Add(10 * time.Second)
	for strings.ContainsAny(term.ScreenText(), "┃│") {
		if time.Now().After(deadline) {
			t.Fatal("the scrollbar never hid")
		}
		time.Sleep(50 * time.Millisecond)
		r.Sync()
	}
}

// markedBody is a windowed body whose messages start at marks.
type markedBody struct {
	windowed
	marks []int
}

func (m *markedBody) MarkRows(int) []int { return m.marks }

// The previous/next prompt keys put the previous or next message start
// at the top of the window; past the last one nothing moves.
func TestFullscreenPromptJumps(t *testing.T) {
	t.Parallel()
	km, errs := tui.NewKeymap(map[string][]string{
		"tui.altScreen.previousPrompt": {"ctrl+shift+up"}, "tui.altScreen.nextPrompt": {"ctrl+shift+down"},
	})
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	body := &markedBody{windowed: windowed{rows: numbered("msg", 100)}, marks: []int{10, 40, 70, 95}}
	term := tuitest.NewTerm(40, 10)
	r := tuitest.Start(t, term, tui.ProgramOptions{Fullscreen: true, Keymap: km}, func(p *tui.Program) {
		p.SetBody(body)
		p.SetDock(&rowsBody{rows: []string{"dock"}})
	}, nil)
	up, down := "\x1b[1;6A", "\x1b[1;6B"
	for _, step := range []struct{ keys, top string }{
		{up, "msg 70"}, // following the end (row 91): the previous mark
		{up, "msg 40"},
		{down, "msg 70"},
		{up, "msg 40"}, {up, "msg 10"}, {up, "msg 10"}, // none before the first
		{down, "msg 40"},
	} {
		r.Feed(step.keys)
		if s := term.Screen(); s[0] != step.top {
			t.Fatalf("top row %q, want %q", s[0], step.top)
		}
	}
	r.Feed(down)
	r.Feed(down) // 95 is past the last full window: the end, following again
	if s := term.Screen(); s[0] != "msg 91" || scrolled(r) {
		t.Fatalf("at the end: %q scrolled %v", s[0], scrolled(r))
	}
}

// The search box finds the query in the body, selects the first match
// after where the window was (wrapping), scrolls to it, moves with
// Enter and Shift+Enter, highlights the selected match, and closes on
// Escape.
func TestFullscreenSearch(t *testing.T) {
	t.Parallel()
	km, errs := tui.NewKeymap(map[string][]string{
		"tui.altScreen.search": {"ctrl+shift+f"}, "tui.altScreen.searchNext": {"enter", "ctrl+g"},
		"tui.altScreen.searchPrevious": {"shift+enter", "ctrl+shift+g"}, "tui.altScreen.searchClose": {"escape"},
		"tui.editor.deleteCharBackward": {"backspace"},
	})
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	body := &windowed{rows: numbered("msg", 100)}
	term := tuitest.NewTerm(60, 12)
	r := tuitest.Start(t, term, tui.ProgramOptions{Fullscreen: true, Keymap: km}, func(p *tui.Program) {
		p.SetBody(body)
		p.SetDock(&rowsBody{rows: []string{"dock"}})
	}, nil)
	r.Feed("\x1b[70;6u") // Ctrl+Shift+F (Kitty keyboard protocol)
	if s := term.ScreenText(); !strings.Contains(s, "Find in transcript") || !strings.Contains(s, "↑ Shift+Enter · ↓ Enter") {
		t.Fatalf("no search box:\n%s", s)
	}
	r.Feed("msg 5")
	s := term.ScreenText()
	shown := false
	for _, row := range term.Screen() {
		shown = shown || row == "msg 5" || strings.HasPrefix(row, "msg 5 ")
	}
	if !strings.Contains(s, "1/11") || !shown {
		t.Fatalf("after typing:\n%s", s)
	}
	term.ResetOutput()
	r.Feed("\r")
	if s := term.ScreenText(); !strings.Contains(s, "2/11") || !strings.Contains(term.Output(), "\x1b[1;7mmsg 5\x1b[22;27m") {
		t.Fatalf("after Enter:\n%s\n%q", s, term.Output())
	}
	r.Feed("\x1b[13;2u") // Shift+Enter
	if s := term.ScreenText(); !strings.Contains(s, "1/11") {
		t.Fatalf("after Shift+Enter:\n%s", s)
	}
	r.Feed("zzz")
	if s := term.ScreenText(); !strings.Contains(s, "No matches") {
		t.Fatalf("no matches:\n%s", s)
	}
	r.Feed("\x1b")
	r.Feed("\x1b[27u") // Escape, unambiguous
	if s := term.ScreenText(); strings.Contains(s, "Find in transcript") || strings.Contains(s, "No matches") {
		t.Fatalf("box still open:\n%s", s)
	}
}
