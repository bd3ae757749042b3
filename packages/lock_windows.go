//go:build windows

package packages

import (
	"fmt"
	"os"
	"path/filepath"

	"golang.org/x/sys/windows"
)

// lockDir takes an exclusive lock on root (a lock file inside it) so two
// pi processes never install into the same folder at once: the second
// blocks until the first is done. The lock is the kernel's (LockFileEx),
// so a crashed holder never leaves it stuck.
func lockDir(root string) (func(), error) {
	p := filepath.Join(root, ".pi-install.lock")
	f, err := os.OpenFile(p, os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		return nil, fmt.Errorf("lock %s: %w", root, err)
	}
	ol := new(windows.Overlapped)
	h := windows.Handle(f.Fd())
	if err := windows.LockFileEx(h, windows.LOCKFILE_EXCLUSIVE_LOCK, 0, 1, 0, ol); err != nil {
		f.Close()
		return nil, fmt.Errorf("lock %s: %w", root, err)
	}
	return func() {
		_ = windows.UnlockFileEx(h, 0, 1, 0, ol)
		f.Close()
	}, nil
}
