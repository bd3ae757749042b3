//go:build !linux

package jsruntime

import "os"

// isTerminal approximates isatty where no termios ioctl is wired: a
// character device counts as a terminal.
func isTerminal(f *os.File) bool {
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}
