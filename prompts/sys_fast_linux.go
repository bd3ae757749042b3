//go:build linux && (amd64 || arm64)

package prompts

import (
	"syscall"
	"unsafe"

	"golang.org/x/sys/unix"
)

// The system calls start-up makes per resource file (an open when reading,
// an fstatat when checking the index) take a path, and the syscall and
// unix packages copy every path into a fresh C string on the heap: a
// thousand skills' paths are tens of KiB of new heap pages. These versions
// build the C string in a buffer on the stack instead, falling back to the
// packages for paths that do not fit.

// cPathMax bounds the paths copied on the stack.
const cPathMax = 512

// openRaw is syscall.Open(path, flags, 0).
func openRaw(path string, flags int) (int, error) {
	var buf [cPathMax]byte
	if len(path) >= len(buf) || !copyCPath(buf[:], path) {
		return syscall.Open(path, flags, 0)
	}
	cwd := unix.AT_FDCWD
	fd, _, errno := syscall.Syscall6(syscall.SYS_OPENAT, uintptr(cwd), uintptr(unsafe.Pointer(&buf[0])), uintptr(flags|syscall.O_LARGEFILE), 0, 0, 0)
	if errno != 0 {
		return -1, errno
	}
	return int(fd), nil
}

// fstatatRaw is unix.Fstatat(dirfd, rel, st, flags).
func fstatatRaw(dirfd int, rel string, st *unix.Stat_t, flags int) error {
	var buf [cPathMax]byte
	if len(rel) >= len(buf) || !copyCPath(buf[:], rel) {
		return unix.Fstatat(dirfd, rel, st, flags)
	}
	_, _, errno := syscall.Syscall6(unix.SYS_NEWFSTATAT, uintptr(dirfd), uintptr(unsafe.Pointer(&buf[0])), uintptr(unsafe.Pointer(st)), uintptr(flags), 0, 0)
	if errno != 0 {
		return errno
	}
	return nil
}

// copyCPath copies s and a terminating NUL into buf; false when s holds a
// NUL (the packages report EINVAL for that, so the caller defers to them).
func copyCPath(buf []byte, s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] == 0 {
			return false
		}
		buf[i] = s[i]
	}
	buf[len(s)] = 0
	return true
}
