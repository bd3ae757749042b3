//go:build unix

package prompts

import (
	"errors"
	"sync"
	"syscall"
)

// readBufs holds the scratch buffers readFileFast reads into. Results are
// copied out at their exact size: a start-up that reads a thousand small
// files would otherwise leave a thousand 4 KiB buffers behind, and every
// fresh page of heap costs a page fault.
var readBufs = sync.Pool{New: func() any { b := make([]byte, 4096); return &b }}

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
		fd, err = openRaw(path, flags)
		if !errors.Is(err, syscall.EINTR) {
			break
		}
	}
	if err != nil {
		return nil, &pathError{Op: "open", Path: path, Err: err}
	}
	defer syscall.Close(fd)
	pooled := readBufs.Get().(*[]byte)
	defer readBufs.Put(pooled)
	buf := *pooled
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
				return exact(buf[:k], pooled), nil
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
	return exact(buf[:n], pooled), nil
}

// exact returns b in a slice of its own size, copying it when it lies in
// the pooled scratch buffer.
func exact(b []byte, pooled *[]byte) []byte {
	if len(b) > 0 && len(*pooled) > 0 && &b[0] != &(*pooled)[0] {
		return b
	}
	out := make([]byte, len(b))
	copy(out, b)
	return out
}
