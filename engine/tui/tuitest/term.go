// Package tuitest runs a tui.Program on a virtual terminal (the x/vt
// emulator) so tests can assert what a user would see: the screen, the
// scrollback, the cursor and every byte the program wrote.
//
// It answers the terminal queries a Program sends at start (the cursor
// position, DA1, and the Kitty keyboard query when Term.Kitty is set)
// synchronously, so what a
// test sees does not depend on goroutine timing. Input is fed through a
// reader that reports when the Program has taken every byte, which makes
// Feed followed by Sync deterministic.
package tuitest

import (
	"bytes"
	"fmt"
	"io"
	"strings"
	"sync"

	uv "github.com/charmbracelet/ultraviolet"
	"github.com/charmbracelet/x/vt"
)

// Term is a virtual terminal implementing tui.Terminal and
// tui.ResizeNotifier.
type Term struct {
	mu     sync.Mutex
	emu    *vt.Emulator
	w, h   int
	out    bytes.Buffer
	resize func()
	in     *Input

	// Kitty makes the terminal answer the Kitty keyboard query (as
	// kitty, WezTerm, foot and Ghostty do); otherwise only DA1 answers,
	// as in tmux.
	Kitty bool
}

// NewTerm is a w×h terminal with a 10,000-row scrollback.
func NewTerm(w, h int) *Term {
	t := &Term{emu: vt.NewEmulator(w, h), w: w, h: h, in: newInput()}
	// Anything else the emulator answers is drained and dropped, so its
	// reply pipe never blocks a write.
	go func() {
		buf := make([]byte, 256)
		for {
			if _, err := t.emu.Read(buf); err != nil {
				return
			}
		}
	}()
	return t
}

// Write feeds the program's output to the emulator, answering queries.
func (t *Term) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.out.Write(p)
	s := string(p)
	var replies strings.Builder
	pos := t.emu.CursorPosition()
	for _, q := range []struct{ seq, reply string }{
		{"\x1b[?u", "\x1b[?7u"},
		// The cursor report gives the position before this write: the
		// query is sent before anything moves the cursor.
		{"\x1b[6n", fmt.Sprintf("\x1b[%d;%dR", pos.Y+1, pos.X+1)},
		{"\x1b[c", "\x1b[?62;22c"},
	} {
		if !strings.Contains(s, q.seq) {
			continue
		}
		s = strings.ReplaceAll(s, q.seq, "")
		if q.seq == "\x1b[?u" && !t.Kitty {
			continue
		}
		replies.WriteString(q.reply)
	}
	if _, err := t.emu.Write([]byte(s)); err != nil {
		return 0, err
	}
	if replies.Len() > 0 {
		t.in.enqueue([]byte(replies.String()))
	}
	return len(p), nil
}

// Size is the terminal size.
func (t *Term) Size() (int, int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.w, t.h, nil
}

// NotifyResize registers the callback Resize calls.
func (t *Term) NotifyResize(fn func()) (stop func()) {
	t.mu.Lock()
	t.resize = fn
	t.mu.Unlock()
	return func() {
		t.mu.Lock()
		t.resize = nil
		t.mu.Unlock()
	}
}

// Resize changes the size and notifies the program, like SIGWINCH.
func (t *Term) Resize(w, h int) {
	t.mu.Lock()
	t.w, t.h = w, h
	t.emu.Resize(w, h)
	fn := t.resize
	t.mu.Unlock()
	if fn != nil {
		fn()
	}
}

// Input is the reader to give the Program.
func (t *Term) Input() io.Reader { return t.in }

// Screen is the visible rows, trailing spaces trimmed.
func (t *Term) Screen() []string {
	t.mu.Lock()
	defer t.mu.Unlock()
	rows := make([]string, t.h)
	for y := range t.h {
		line := make(uv.Line, t.w)
		for x := range t.w {
			if c := t.emu.CellAt(x, y); c != nil {
				line[x] = *c
			}
		}
		rows[y] = line.String()
	}
	return rows
}

// ScreenText is the screen as one string, trailing blank rows dropped.
func (t *Term) ScreenText() string {
	return strings.TrimRight(strings.Join(t.Screen(), "\n"), "\n")
}

// Scrollback is the rows that scrolled off the top, oldest first.
func (t *Term) Scrollback() []string {
	t.mu.Lock()
	defer t.mu.Unlock()
	var out []string
	for _, l := range t.emu.Scrollback().Lines() {
		out = append(out, l.String())
	}
	return out
}

// All is scrollback followed by the screen, trailing blank rows dropped:
// the whole document a regular-mode program printed.
func (t *Term) All() string {
	all := append(t.Scrollback(), t.Screen()...)
	return strings.TrimRight(strings.Join(all, "\n"), "\n")
}

// Output is every byte written so far.
func (t *Term) Output() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.out.String()
}

// ResetOutput forgets the bytes written so far (to measure one frame).
func (t *Term) ResetOutput() {
	t.mu.Lock()
	t.out.Reset()
	t.mu.Unlock()
}

// Cursor is the cursor position (zero-based) and whether it is visible.
func (t *Term) Cursor() (x, y int, visible bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	p := t.emu.CursorPosition()
	return p.X, p.Y, !t.emu.CursorHidden()
}

// AltScreen reports whether the alternate screen is active.
func (t *Term) AltScreen() bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.emu.IsAltScreen()
}

// Close ends the input: the program sees EOF. (The emulator stays open:
// closing it races with its own reply reader.)
func (t *Term) Close() { t.in.close() }
