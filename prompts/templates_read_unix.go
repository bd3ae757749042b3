//go:build unix

package prompts

import (
	"errors"
	"syscall"
)

// readFileFast reads a small resource file with raw system calls. Start-up
// reads every skill and template, and os.ReadFile costs an fstat, a
// registration with the poller and an extra read for EOF on top of
// open/read/close; with a thousand files that difference is most of the
// discovery time. A short read ends the file: regular files on local file
// systems never return less than asked before EOF.
//
// noFollow refuses a symbolic link as the last component (ELOOP), so a
// caller that knows every directory above is real can use the path as its
// real path. Anything that is not a regular file is reported as
// errNotRegular, never blocked on (a FIFO opens non-blocking). prefix
// stops reading once the frontmatter is complete (frontmatterPrefix).
func readFileFast(path string, noFollow, prefix bool) ([]byte, error) {
	flags := syscall.O_RDONLY | syscall.O_CLOEXEC | syscall.O_NONBLOCK
	if noFollow {
		flags |= syscall.O_NOFOLLOW
	}
	var fd int
	var err error
	for {
		fd, err = syscall.Open(path, flags, 0)
		if !errors.Is(err, syscall.EINTR) {
			break
		}
	}
	if err != nil {
		return nil, &pathError{Op: "open", Path: path, Err: err}
	}
	defer syscall.Close(fd)
	buf := make([]byte, 4096)
	n := 0
	for {
		m, err := syscall.Read(fd, buf[n:])
		if errors.Is(err, syscall.EINTR) {
			continue
		}
		if errors.Is(err, syscall.EAGAIN) {
			return nil, &pathError{Op: "read", Path: path, Err: errNotRegular}
		}
		if err != nil {
			return nil, &pathError{Op: "read", Path: path, Err: err}
		}
		n += m
		if m == 0 || n < len(buf) {
			break
		}
		if prefix {
			if k := frontmatterPrefix(buf[:n]); k >= 0 {
				return buf[:k], nil
			}
		}
		buf = append(buf, make([]byte, len(buf))...)
	}
	if n == 0 {
		// An empty read is also what a FIFO without a writer or an odd
		// device gives; only then is the fstat worth its cost.
		var st syscall.Stat_t
		if err := syscall.Fstat(fd, &st); err != nil || st.Mode&syscall.S_IFMT != syscall.S_IFREG {
			return nil, &pathError{Op: "read", Path: path, Err: errNotRegular}
		}
	}
	return buf[:n], nil
}
