package jsruntime

import (
	"os"

	"golang.org/x/sys/unix"
)

// isTerminal reports whether f is a terminal, as Node's isatty decides
// whether a standard stream is a TTY (/dev/null is a character device but
// not a terminal).
func isTerminal(f *os.File) bool {
	_, err := unix.IoctlGetTermios(int(f.Fd()), unix.TCGETS)
	return err == nil
}
