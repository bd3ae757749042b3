//go:build unix

package packages

import (
	"fmt"
	"os"

	"golang.org/x/sys/unix"
)

// lockFile takes an exclusive lock on the file at p, so two pi
// processes never install into the same folder at once: the second
// blocks until the first is done. The lock is the kernel's (flock), so a
// crashed holder never leaves it stuck.
func lockFile(p string) (func(), error) {
	f, err := os.OpenFile(p, os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		return nil, fmt.Errorf("lock %s: %w", p, err)
	}
	for {
		err := unix.Flock(int(f.Fd()), unix.LOCK_EX)
		if err == unix.EINTR {
			continue
		}
		if err != nil {
			f.Close()
			return nil, fmt.Errorf("lock %s: %w", p, err)
		}
		return func() {
			_ = unix.Flock(int(f.Fd()), unix.LOCK_UN)
			f.Close()
		}, nil
	}
}
