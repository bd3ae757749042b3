//go:build linux

package rpc

import (
	"fmt"
	"os"
	"syscall"
)

// TakeOverStdout duplicates the process's stdout to a new descriptor,
// returns it as the protocol stream, and points descriptor 1 (and
// os.Stdout) at stderr. Afterwards anything that prints to "stdout"
// without going through the returned file lands on stderr, where clients
// do not parse it.
func TakeOverStdout() (*os.File, error) {
	fd, err := syscall.Dup(int(os.Stdout.Fd()))
	if err != nil {
		return nil, fmt.Errorf("dup stdout: %w", err)
	}
	syscall.CloseOnExec(fd)
	if err := syscall.Dup3(int(os.Stderr.Fd()), 1, 0); err != nil {
		_ = syscall.Close(fd)
		return nil, fmt.Errorf("redirect stdout to stderr: %w", err)
	}
	real := os.NewFile(uintptr(fd), "/dev/stdout")
	os.Stdout = os.Stderr
	return real, nil
}
