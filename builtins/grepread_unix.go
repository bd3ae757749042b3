//go:build unix

package builtins

import (
	"bytes"
	"syscall"

	"golang.org/x/sys/unix"
)

// readForGrep reads the part of the file at abs that ripgrep would search
// while walking a directory (rgTextEnd); when the first 64 KiB hold a NUL
// byte, the rest of the file is never read. The returned
// slice is valid until the next call.
func (w *walkWorker) readForGrep(abs, name string) ([]byte, error) {
	// Raw system calls: os.File would register each file with the poller
	// and toggle its blocking mode, three extra calls per file for nothing.
	fd, err := w.open(abs, name)
	if err != nil {
		return nil, err
	}
	defer syscall.Close(fd)
	if cap(w.buf) < rgChunk {
		w.buf = make([]byte, rgChunk)
	}
	buf := w.buf[:cap(w.buf)]
	n, eof, err := readFull(fd, buf[:rgChunk])
	if err != nil {
		return nil, err
	}
	if bytes.IndexByte(buf[:n], 0) >= 0 {
		// The NUL is in ripgrep's first read or the one after: at most a
		// few bytes before it are searched, and the rest is never read.
		return buf[:rgTextEnd(buf[:n])], nil
	}
	if !eof {
		var st syscall.Stat_t
		if syscall.Fstat(fd, &st) == nil && st.Size >= mmapMin && st.Size < 1<<40 {
			// A large file is mapped rather than copied into fresh memory.
			if m, err := syscall.Mmap(fd, 0, int(st.Size), syscall.PROT_READ, mmapFlags); err == nil {
				w.mapped = m
				return m[:rgTextEnd(m)], nil
			}
		}
		if int(st.Size)+1 > len(buf) {
			nb := make([]byte, int(st.Size)+1)
			copy(nb, buf[:n])
			buf = nb
		}
		for !eof {
			if n == len(buf) {
				nb := make([]byte, 2*len(buf))
				copy(nb, buf[:n])
				buf = nb
			}
			var k int
			k, eof, err = readFull(fd, buf[n:])
			n += k
			if err != nil {
				return nil, err
			}
		}
	}
	if cap(buf) <= maxKeptBuf {
		w.buf = buf
	}
	data := buf[:n]
	return data[:rgTextEnd(data)], nil
}

// mmapMin is the size from which readForGrep maps a file.
const mmapMin = 1 << 20

// release unmaps what readForGrep mapped; call it when done with the data.
func (w *walkWorker) release() {
	if w.mapped != nil {
		syscall.Munmap(w.mapped)
		w.mapped = nil
	}
}

// open opens name in the batch's directory (abs when there is none).
func (w *walkWorker) open(abs, name string) (int, error) {
	for {
		var fd int
		var err error
		if w.dirfd >= 0 {
			fd, err = unix.Openat(w.dirfd, name, unix.O_RDONLY|unix.O_CLOEXEC, 0)
		} else {
			fd, err = syscall.Open(abs, syscall.O_RDONLY|syscall.O_CLOEXEC, 0)
		}
		if err != syscall.EINTR {
			return fd, err
		}
	}
}

// readFull fills b from fd; eof reports that the file ended first.
func readFull(fd int, b []byte) (n int, eof bool, err error) {
	for n < len(b) {
		k, err := syscall.Read(fd, b[n:])
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return n, false, err
		}
		if k == 0 {
			return n, true, nil
		}
		n += k
	}
	return n, false, nil
}

// openDir opens dir for openat, so that each file of a batch is opened
// without the kernel walking its whole path again; on failure files are
// opened by their full paths.
func (w *walkWorker) openDir(dir string) {
	fd, err := syscall.Open(dir, syscall.O_RDONLY|syscall.O_DIRECTORY|syscall.O_CLOEXEC, 0)
	if err != nil {
		fd = -1
	}
	w.dirfd = fd
}

func (w *walkWorker) closeDir() {
	if w.dirfd >= 0 {
		syscall.Close(w.dirfd)
		w.dirfd = -1
	}
}
