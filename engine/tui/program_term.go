package tui

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"golang.org/x/term"
)

// acquire takes the terminal: raw mode, protocol setup, resize
// notification and the input reader. release undoes whatever part of it
// happened, so it is safe after a failed acquire.
func (p *Program) acquire() error {
	// A terminal without a size cannot be drawn on; say so instead of
	// running without frames.
	if w, h, err := p.term.Size(); err != nil {
		return err
	} else if w <= 0 || h <= 0 {
		return ErrNoTerminalSize
	}
	if rm, ok := p.term.(RawModer); ok {
		if err := rm.EnterRaw(); err != nil {
			return err
		}
		p.modes.raw = true
	}
	p.modes.fullscreen = p.o.Fullscreen
	p.modes.setup = true
	p.modes.probed, p.modes.kitty, p.modes.modifyKeys = false, false, false
	// PI_PROGRAM_STATUS=1 says the terminal takes OSC 7501 without asking,
	// 0 that it does not; otherwise it is asked.
	p.modes.programStatus, p.modes.statusShown = p.o.ProgramStatus == "1", false
	p.modes.statusQueried = p.o.ProgramStatus != "1" && p.o.ProgramStatus != "0"
	p.write(enterSequence(p.o.Fullscreen, p.modes.statusQueried))
	if p.modes.programStatus && p.status != nil {
		p.write(FormatProgramStatus(*p.status))
		p.modes.statusShown = true
	}
	if rn, ok := p.term.(ResizeNotifier); ok {
		p.stopResize = rn.NotifyResize(func() { p.Post(p.onResize) })
	}
	p.startInput()
	p.released = false
	return nil
}

// release gives the terminal back: stops reading, undoes every mode
// acquire set and leaves raw mode.
func (p *Program) release() {
	if p.stopInput != nil {
		p.stopInput()
		p.stopInput = nil
	}
	if p.stopResize != nil {
		p.stopResize()
		p.stopResize = nil
	}
	if p.escTimer != nil {
		p.escTimer.Stop()
	}
	if p.modes.setup {
		p.write(p.modes.exitSequence())
		p.modes.setup = false
	}
	if p.modes.raw {
		if rm, ok := p.term.(RawModer); ok {
			_ = rm.ExitRaw()
		}
		p.modes.raw = false
	}
	p.released = true
}

// finalFrame leaves the screen tidy before release: in regular mode the
// cursor goes below the document so the shell prompt starts on a fresh
// row; in fullscreen the body may be printed into the main screen after
// the alternate screen is left.
func (p *Program) finalFrame() {
	if p.released {
		return
	}
	if !p.o.Fullscreen {
		// What the last handler changed (a submitted /quit clears the
		// editor) is drawn before leaving, as the reference's last frame.
		if p.dirty.Load() && !p.waitStart {
			p.Render()
		}
		var b bytes.Buffer
		p.reg.leave(&b)
		p.write(b.String())
		return
	}
	if !p.o.PrintBodyOnExit {
		return
	}
	// Leave the alternate screen first so the rows land in the main
	// screen's scrollback; exitSequence then leaves out its own 1049l.
	var b bytes.Buffer
	b.WriteString(SeqAltScreenOff)
	p.modes.altLeft = true
	b.WriteString(SeqAutowrapOn)
	// The dock (editor, footer) follows the transcript, as the
	// reference's exit output shows the last screen's bottom too.
	rows := p.bodyAll(p.width)
	if p.dock != nil {
		rows = append(rows, p.dock.Render(p.width)...)
	}
	for _, row := range rows {
		b.WriteString(stripMarkers(row))
		b.WriteString(SeqResetLine)
		b.WriteString("\r\n")
	}
	p.write(b.String())
}

// bodyAll renders the whole body at width.
func (p *Program) bodyAll(width int) []string {
	if p.body == nil || width <= 0 {
		return nil
	}
	if w, ok := p.body.(Windowed); ok {
		return w.RenderRange(width, 0, w.Height(width))
	}
	return p.body.Render(width)
}

// SetTitle sets the terminal window title (OSC 0).
func (p *Program) SetTitle(title string) {
	p.WriteRaw("\x1b]0;" + strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f {
			return -1
		}
		return r
	}, title) + "\x07")
}

// WriteRaw writes s to the terminal between frames (UI goroutine): for
// queries and notifications the renderer does not own, such as colour
// queries, OSC 9;4 progress or a bell. It is dropped while the terminal
// is released.
func (p *Program) WriteRaw(s string) {
	if p.released || !p.running {
		return
	}
	p.write(s)
}

// SetColorSchemeNotifications turns the terminal's light/dark change
// reports (mode 2031) on or off (UI goroutine); they arrive as Reply
// events (CSI ? 997 ; 1 n dark, 2 n light), and are turned off on exit.
func (p *Program) SetColorSchemeNotifications(on bool) {
	if p.modes.colorScheme == on || p.released || !p.running {
		return
	}
	p.modes.colorScheme = on
	if on {
		p.write(SeqColorSchemeOn)
	} else {
		p.write(SeqColorSchemeOff)
	}
}

// SetProgress shows or clears the terminal's progress indicator (OSC
// 9;4, indeterminate) (UI goroutine); one still showing is cleared on
// exit. Writing it again while active refreshes it (terminals drop a
// report after a few silent seconds).
func (p *Program) SetProgress(active bool) {
	if p.released || !p.running || (!active && !p.modes.progress) {
		return
	}
	p.modes.progress = active
	if active {
		p.write(SeqProgressActive)
	} else {
		p.write(SeqProgressClear)
	}
}

// ColorScheme reads a light/dark report (CSI ? 997 ; 1 n is dark, 2 n
// light).
func (r Reply) ColorScheme() (string, bool) {
	switch r.Raw {
	case "\x1b[?997;1n":
		return "dark", true
	case "\x1b[?997;2n":
		return "light", true
	}
	return "", false
}

// onResize runs on the UI goroutine after SIGWINCH (or the test
// terminal's resize).
func (p *Program) onResize() {
	w, h, err := p.term.Size()
	if err != nil {
		return
	}
	p.dispatch(Resize{Width: w, Height: h})
}

// startInput reads input on its own goroutine and posts each chunk to
// the UI goroutine, where it is decoded (the decoder is not shared
// between goroutines).
func (p *Program) startInput() {
	if p.in == nil {
		p.stopInput = func() {}
		return
	}
	r := p.in
	cancel, cleanup := func() {}, func() {}
	if f, ok := p.in.(*os.File); ok && term.IsTerminal(int(f.Fd())) {
		if fr, err := newFileReader(f); err == nil {
			r, cancel, cleanup = fr, fr.Cancel, fr.Close
		}
	}
	done := make(chan struct{})
	go func() {
		defer cleanup()
		buf := make([]byte, 4096)
		for {
			n, err := r.Read(buf)
			if n > 0 {
				chunk := append([]byte(nil), buf[:n]...)
				p.Post(func() { p.feed(chunk) })
			}
			if err != nil {
				select {
				case <-done:
				default:
					if !errors.Is(err, errReadCanceled) {
						p.Post(func() {
							if errors.Is(err, io.EOF) {
								p.runErr = ErrInputClosed
							} else {
								p.runErr = fmt.Errorf("tui: read input: %w", err)
							}
						})
					}
				}
				return
			}
		}
	}()
	p.stopInput = func() { close(done); cancel() }
}

// feed decodes a chunk and dispatches its events. When the decoder keeps
// an incomplete sequence (it reports Pending, or, for a decoder that
// cannot tell, the chunk had an escape byte), it is flushed after
// EscapeTimeout without more input: a lone ESC is the Escape key.
func (p *Program) feed(b []byte) {
	p.escGen++
	for _, ev := range p.dec.Feed(b) {
		p.dispatch(ev)
	}
	// The decoder says how long its pending bytes may wait (a lone ESC the
	// ESC timeout, a half sequence or a terminal reply longer); a decoder
	// that cannot tell gets the ESC timeout after any chunk with an ESC.
	wait := time.Duration(0)
	switch d := p.dec.(type) {
	case interface {
		Timeout(esc time.Duration) time.Duration
	}:
		wait = d.Timeout(p.o.EscapeTimeout)
	case interface{ Pending() bool }:
		if d.Pending() {
			wait = p.o.EscapeTimeout
		}
	default:
		if bytesHasEsc(b) {
			wait = p.o.EscapeTimeout
		}
	}
	if wait > 0 {
		gen := p.escGen
		if p.escTimer != nil {
			p.escTimer.Stop()
		}
		p.escTimer = time.AfterFunc(wait, func() {
			p.Post(func() {
				if p.escGen != gen {
					return
				}
				for _, ev := range p.dec.Flush() {
					p.dispatch(ev)
				}
			})
		})
	}
}

func bytesHasEsc(b []byte) bool {
	for _, c := range b {
		if c == 0x1b {
			return true
		}
	}
	return false
}

// notifyTermSignals catches SIGTERM and SIGHUP for a real terminal so
// Run can restore it before the process ends.
func notifyTermSignals(t Terminal) (<-chan os.Signal, func()) {
	if _, ok := t.(*ProcessTerminal); !ok {
		return nil, func() {}
	}
	ch := make(chan os.Signal, 1)
	signal.Notify(ch, syscall.SIGTERM, syscall.SIGHUP)
	return ch, func() { signal.Stop(ch) }
}

// ReleaseTerminal gives the terminal back for a while (an external
// editor, an interactive child): input stops, every mode is undone and
// raw mode is left. RestoreTerminal takes it back and redraws.
func (p *Program) ReleaseTerminal() error {
	if !p.running || p.released {
		return errors.New("tui: terminal is not held")
	}
	if !p.o.Fullscreen {
		var b bytes.Buffer
		p.reg.leave(&b)
		p.write(b.String())
	}
	p.release()
	return nil
}

// RestoreTerminal takes the terminal back after ReleaseTerminal and
// redraws everything (what the other program printed is cleared).
func (p *Program) RestoreTerminal() error {
	if !p.running || !p.released {
		return errors.New("tui: terminal is not released")
	}
	if err := p.acquire(); err != nil {
		p.release()
		return err
	}
	// Whatever ran meanwhile drew on the screen: the regular renderer
	// clears screen and scrollback and prints the document again (it is
	// still "started", so the reprint clears), the fullscreen one
	// repaints every row.
	p.full.reset()
	p.Reprint()
	p.inputSeen = true
	return nil
}

// Suspend is Ctrl+Z: it gives the terminal back, stops the process group
// and, once the shell continues it, takes the terminal back and redraws.
// It returns an error when the terminal cannot suspend (a test terminal).
func (p *Program) Suspend() error {
	s, ok := p.term.(Suspender)
	if !ok {
		return errors.New("tui: this terminal cannot suspend")
	}
	if err := p.ReleaseTerminal(); err != nil {
		return err
	}
	serr := s.Suspend()
	if err := p.RestoreTerminal(); err != nil {
		return err
	}
	return serr
}
