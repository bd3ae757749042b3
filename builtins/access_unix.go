//go:build unix

package builtins

import "syscall"

// access checks that path may be opened with mode (R_OK 4, W_OK 2), as the
// reference's fs.access does before reading or editing.
func access(path string, mode uint32) error { return syscall.Access(path, mode) }
