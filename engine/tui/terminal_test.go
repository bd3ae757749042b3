//go:build linux

package tui

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"syscall"
	"testing"

	"golang.org/x/sys/unix"
)

// openPty opens a pseudo-terminal pair with x/sys alone.
func openPty(t *testing.T) (master, slave *os.File) {
	t.Helper()
	m, err := os.OpenFile("/dev/ptmx", os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		t.Skipf("no pty: %v", err)
	}
	if err := unix.IoctlSetPointerInt(int(m.Fd()), unix.TIOCSPTLCK, 0); err != nil {
		t.Skipf("unlock pty: %v", err)
	}
	n, err := unix.IoctlGetInt(int(m.Fd()), unix.TIOCGPTN)
	if err != nil {
		t.Skipf("pty number: %v", err)
	}
	s, err := os.OpenFile(fmt.Sprintf("/dev/pts/%d", n), os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		t.Skipf("open pts: %v", err)
	}
	_ = unix.IoctlSetWinsize(int(s.Fd()), unix.TIOCSWINSZ, &unix.Winsize{Row: 10, Col: 40})
	t.Cleanup(func() { _ = m.Close(); _ = s.Close() })
	return m, s
}

// TestProcessTerminalSIGTERMRestores runs a Program on a real pty, sends
// this process SIGTERM, and checks Run returns a SignalError with the
// line discipline and every protocol mode restored. Not parallel: the
// signal is process-wide (the Program catches it while it runs).
func TestProcessTerminalSIGTERMRestores(t *testing.T) {
	master, slave := openPty(t)
	before, err := unix.IoctlGetTermios(int(slave.Fd()), unix.TCGETS)
	if err != nil {
		t.Fatal(err)
	}
	pt, err := NewProcessTerminal(slave, slave)
	if err != nil {
		t.Fatal(err)
	}
	out := make(chan string, 1)
	go func() {
		var b strings.Builder
		buf := make([]byte, 4096)
		for {
			n, err := master.Read(buf)
			b.Write(buf[:n])
			if err != nil || strings.Contains(b.String(), SeqShowCursor) {
				out <- b.String()
				_, _ = io.Copy(io.Discard, master)
				return
			}
		}
	}()
	p := NewProgram(pt, slave, ProgramOptions{Fullscreen: true})
	p.SetBody(Lines{"hello"})
	var raw bool
	p.Post(func() {
		st, _ := unix.IoctlGetTermios(int(slave.Fd()), unix.TCGETS)
		raw = st.Lflag&(unix.ICANON|unix.ECHO) == 0
		_ = syscall.Kill(os.Getpid(), syscall.SIGTERM)
	})
	err = p.Run(context.Background(), nil)
	var se *SignalError
	if !errors.As(err, &se) || se.Signal != syscall.SIGTERM {
		t.Fatalf("Run: %v", err)
	}
	if !raw {
		t.Fatal("terminal was not in raw mode while running")
	}
	after, _ := unix.IoctlGetTermios(int(slave.Fd()), unix.TCGETS)
	if after.Lflag != before.Lflag || after.Iflag != before.Iflag || after.Oflag != before.Oflag {
		t.Fatalf("termios not restored: %+v vs %+v", after, before)
	}
	got := <-out
	for _, seq := range []string{SeqAltScreenOn, SeqKittyPush, SeqKittyPop, SeqMouseOff, SeqAltScreenOff, SeqShowCursor} {
		if !strings.Contains(got, seq) {
			t.Errorf("stream lacks %q", seq)
		}
	}
	if !strings.Contains(got, "hello") {
		t.Error("no frame drawn")
	}
}
