package tui

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"sync"
	"syscall"
	"time"

	"golang.org/x/term"
)

// Terminal is where a Program draws. Size is the size in cells. The
// process terminal (NewProcessTerminal) adds raw mode, resize
// notification and signals; a test terminal (package tuitest) is a
// virtual screen. Optional abilities are the interfaces RawModer,
// ResizeNotifier and Suspender.
type Terminal interface {
	io.Writer
	Size() (w, h int, err error)
}

// RawModer is a terminal that has a line discipline to switch off.
// EnterRaw puts it into raw mode; ExitRaw restores the mode it had.
type RawModer interface {
	EnterRaw() error
	ExitRaw() error
}

// ResizeNotifier is a terminal that reports size changes: fn is called
// (on any goroutine) after every change until stop is called.
type ResizeNotifier interface {
	NotifyResize(fn func()) (stop func())
}

// Suspender is a terminal whose process can be stopped by job control
// (Ctrl+Z). Suspend stops the process group and returns after it was
// continued.
type Suspender interface {
	Suspend() error
}

// ProcessTerminal is the controlling terminal of this process: input
// from in, output to out (normally os.Stdin and os.Stdout).
type ProcessTerminal struct {
	in, out *os.File
	mu      sync.Mutex
	state   *term.State
}

// NewProcessTerminal wraps the terminal on in and out. It fails when
// either is not a terminal, since a TUI on a pipe would print escape
// sequences into a file.
func NewProcessTerminal(in, out *os.File) (*ProcessTerminal, error) {
	if !term.IsTerminal(int(in.Fd())) {
		return nil, fmt.Errorf("tui: input %s is not a terminal", in.Name())
	}
	if !term.IsTerminal(int(out.Fd())) {
		return nil, fmt.Errorf("tui: output %s is not a terminal", out.Name())
	}
	return &ProcessTerminal{in: in, out: out}, nil
}

// Write writes to the terminal. A Program hands it one buffer per frame,
// so a frame reaches the terminal in one write.
func (t *ProcessTerminal) Write(p []byte) (int, error) { return t.out.Write(p) }

// Size is the terminal's size in cells.
func (t *ProcessTerminal) Size() (int, int, error) {
	w, h, err := term.GetSize(int(t.out.Fd()))
	if err != nil {
		return 0, 0, fmt.Errorf("tui: terminal size: %w", err)
	}
	return w, h, nil
}

// Input is the terminal's input file (what NewProgram reads).
func (t *ProcessTerminal) Input() *os.File { return t.in }

// EnterRaw switches the input to raw mode, remembering the previous mode.
func (t *ProcessTerminal) EnterRaw() error {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.state != nil {
		return nil
	}
	st, err := term.MakeRaw(int(t.in.Fd()))
	if err != nil {
		return fmt.Errorf("tui: raw mode: %w", err)
	}
	t.state = st
	return nil
}

// ExitRaw restores the mode EnterRaw found. It is safe to call twice.
func (t *ProcessTerminal) ExitRaw() error {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.state == nil {
		return nil
	}
	err := term.Restore(int(t.in.Fd()), t.state)
	t.state = nil
	if err != nil {
		return fmt.Errorf("tui: restore terminal mode: %w", err)
	}
	return nil
}

// NotifyResize calls fn on every SIGWINCH.
func (t *ProcessTerminal) NotifyResize(fn func()) (stop func()) {
	ch := make(chan os.Signal, 1)
	signal.Notify(ch, syscall.SIGWINCH)
	done := make(chan struct{})
	go func() {
		for {
			select {
			case <-ch:
				fn()
			case <-done:
				return
			}
		}
	}()
	var once sync.Once
	return func() {
		once.Do(func() {
			signal.Stop(ch)
			close(done)
		})
	}
}

// Suspend stops the process group as the terminal's Ctrl+Z would
// (children such as a running bash tool stop too) and returns once the
// shell continued us (SIGCONT). The caller restores the terminal first.
func (t *ProcessTerminal) Suspend() error {
	cont := make(chan os.Signal, 1)
	signal.Notify(cont, syscall.SIGCONT)
	defer signal.Stop(cont)
	if err := syscall.Kill(0, syscall.SIGTSTP); err != nil {
		return fmt.Errorf("tui: suspend: %w", err)
	}
	// The kernel discards SIGTSTP for an orphaned process group (no
	// shell with job control above us): then nothing stops us and no
	// SIGCONT comes. A stopped process runs no timers, so the grace
	// timer can only fire before the stop (it is far longer than the
	// stop takes) or after the continue, and both mean "carry on".
	t0 := time.NewTimer(suspendGrace)
	defer t0.Stop()
	select {
	case <-cont:
	case <-t0.C:
	}
	return nil
}

const suspendGrace = 250 * time.Millisecond

// SignalError is what Run returns when SIGTERM or SIGHUP ended it; the
// terminal was restored before Run returned.
type SignalError struct{ Signal os.Signal }

func (e *SignalError) Error() string { return "tui: terminated by " + e.Signal.String() }

// ErrNoTerminalSize is returned when a terminal reports a zero size.
var ErrNoTerminalSize = errors.New("tui: terminal reports no size")
