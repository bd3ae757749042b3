package tui

import (
	"errors"
	"fmt"
	"io"
	"os"
	"sync"

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

// SignalError is what Run returns when SIGTERM or SIGHUP ended it; the
// terminal was restored before Run returned.
type SignalError struct{ Signal os.Signal }

func (e *SignalError) Error() string { return "tui: terminated by " + e.Signal.String() }

// errReadCanceled ends a canceled read of the terminal.
var errReadCanceled = errors.New("tui: read canceled")

// ErrNoTerminalSize is returned when a terminal reports a zero size.
var ErrNoTerminalSize = errors.New("tui: terminal reports no size")
