//go:build !linux

package jsruntime

import "os"

// fdIsTerminal approximates isatty for the standard descriptors where no
// termios ioctl is wired; other descriptors report false.
func fdIsTerminal(fd int) bool {
	switch fd {
	case 0:
		return isTerminal(os.Stdin)
	case 1:
		return isTerminal(os.Stdout)
	case 2:
		return isTerminal(os.Stderr)
	}
	return false
}

// fdWinsize has no ioctl here; ok is false and callers keep 80×24.
func fdWinsize(int) (cols, rows int, ok bool) { return 0, 0, false }
