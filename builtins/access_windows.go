package builtins

import (
	"errors"
	"io/fs"
	"os"
	"syscall"
)

// access approximates fs.access on Windows, which has no access(2): the
// file must exist, and W_OK fails on a read-only file. Errors carry the
// POSIX errno values errnoName knows, so the messages match Unix.
func access(path string, mode uint32) error {
	fi, err := os.Stat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return &fs.PathError{Op: "access", Path: path, Err: syscall.ENOENT}
	case errors.Is(err, fs.ErrPermission):
		return &fs.PathError{Op: "access", Path: path, Err: syscall.EACCES}
	case err != nil:
		return err
	}
	if mode&2 != 0 && fi.Mode().Perm()&0o200 == 0 {
		return &fs.PathError{Op: "access", Path: path, Err: syscall.EACCES}
	}
	return nil
}
