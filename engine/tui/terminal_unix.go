//go:build unix

package tui

import (
	"fmt"
	"os"
	"os/signal"
	"sync"
	"syscall"
	"time"
)

const suspendGrace = 250 * time.Millisecond

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
