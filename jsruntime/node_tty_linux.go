package jsruntime

import "golang.org/x/sys/unix"

// fdIsTerminal is isatty(fd) for any descriptor (tty.isatty).
func fdIsTerminal(fd int) bool {
	_, err := unix.IoctlGetTermios(fd, unix.TCGETS)
	return err == nil
}

// fdWinsize is the terminal's size in columns and rows; ok is false when
// fd is not a terminal.
func fdWinsize(fd int) (cols, rows int, ok bool) {
	ws, err := unix.IoctlGetWinsize(fd, unix.TIOCGWINSZ)
	if err != nil {
		return 0, 0, false
	}
	return int(ws.Col), int(ws.Row), true
}
