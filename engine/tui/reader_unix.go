//go:build unix

package tui

import (
	"errors"
	"io"
	"os"
	"sync"

	"golang.org/x/sys/unix"
)

// errReadCanceled ends a cancelable read.
var errReadCanceled = errors.New("tui: read canceled")

// fileReader reads a terminal file descriptor in a way that can be
// interrupted: it polls the descriptor together with a wake-up pipe.
// Suspending or releasing the terminal must stop our reads, or the
// shell or the external editor would lose keys to us.
type fileReader struct {
	fd     int
	wr, rd *os.File
	once   sync.Once
}

func newFileReader(f *os.File) (*fileReader, error) {
	rd, wr, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	return &fileReader{fd: int(f.Fd()), rd: rd, wr: wr}, nil
}

func (r *fileReader) Read(p []byte) (int, error) {
	fds := []unix.PollFd{
		{Fd: int32(r.fd), Events: unix.POLLIN},
		{Fd: int32(r.rd.Fd()), Events: unix.POLLIN},
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
			n, err := unix.Read(r.fd, p)
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
	r.once.Do(func() { _, _ = r.wr.Write([]byte{0}) })
}

// Close releases the wake-up pipe.
func (r *fileReader) Close() {
	r.Cancel()
	_ = r.wr.Close()
	_ = r.rd.Close()
}
