//go:build unix

package tui

import (
	"errors"
	"io"
	"os"
	"sync"

	"golang.org/x/sys/unix"
)

// fileReader reads a terminal file descriptor in a way that can be
// interrupted: it polls the descriptor together with a wake-up pipe.
// Suspending or releasing the terminal must stop our reads, or the
// shell or the external editor would lose keys to us.
//
// The reading goroutine owns the pipe: it closes it (Close) when it
// stops; Cancel only writes to it, under the mutex, while it is open.
type fileReader struct {
	fd       int
	rd, wr   int
	mu       sync.Mutex
	closed   bool
	canceled bool
}

func newFileReader(f *os.File) (*fileReader, error) {
	var p [2]int
	if err := unix.Pipe(p[:]); err != nil {
		return nil, err
	}
	unix.CloseOnExec(p[0])
	unix.CloseOnExec(p[1])
	return &fileReader{fd: int(f.Fd()), rd: p[0], wr: p[1]}, nil
}

func (r *fileReader) Read(b []byte) (int, error) {
	fds := []unix.PollFd{
		{Fd: int32(r.fd), Events: unix.POLLIN},
		{Fd: int32(r.rd), Events: unix.POLLIN},
	}
	for {
		_, err := unix.Poll(fds, -1)
		if errors.Is(err, unix.EINTR) {
			continue
		}
		if err != nil {
			return 0, err
		}
		if fds[1].Revents != 0 {
			return 0, errReadCanceled
		}
		if fds[0].Revents&(unix.POLLIN|unix.POLLHUP|unix.POLLERR) != 0 {
			n, err := unix.Read(r.fd, b)
			if errors.Is(err, unix.EINTR) || errors.Is(err, unix.EAGAIN) {
				continue
			}
			if err != nil {
				return 0, err
			}
			if n == 0 {
				return 0, io.EOF
			}
			return n, nil
		}
	}
}

// Cancel wakes a pending Read (and fails every later one).
func (r *fileReader) Cancel() {
	r.mu.Lock()
	defer r.mu.Unlock()
	if !r.closed && !r.canceled {
		r.canceled = true
		_, _ = unix.Write(r.wr, []byte{0})
	}
}

// Close releases the pipe; the reading goroutine calls it when it stops.
func (r *fileReader) Close() {
	r.mu.Lock()
	defer r.mu.Unlock()
	if !r.closed {
		r.closed = true
		_ = unix.Close(r.rd)
		_ = unix.Close(r.wr)
	}
}
