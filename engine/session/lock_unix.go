//go:build unix

package session

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"syscall"
)

// lockFile takes an exclusive, non-blocking flock on f. flock locks belong
// to the open file description, so they are released by the kernel when
// the holder dies (a crashed pi never leaves a stale lock behind) and two
// opens inside one process still exclude each other.
func lockFile(f *os.File) error {
	err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
	if err == nil {
		return nil
	}
	if errors.Is(err, syscall.EWOULDBLOCK) {
		if pid := lockHolder(f); pid > 0 {
			return fmt.Errorf("%w (pid %d): %s", ErrLocked, pid, f.Name())
		}
		return fmt.Errorf("%w: %s", ErrLocked, f.Name())
	}
	return fmt.Errorf("lock session file %s: %w", f.Name(), err)
}

// unlockFile releases the lock; closing the descriptor would too.
func unlockFile(f *os.File) {
	_ = syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
}

// lockHolder finds the pid holding a flock on f's inode in /proc/locks, so
// the error can say which process to look at. It returns 0 when unknown
// (not Linux, or the holder went away meanwhile).
func lockHolder(f *os.File) int {
	fi, err := f.Stat()
	if err != nil {
		return 0
	}
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return 0
	}
	lf, err := os.Open("/proc/locks")
	if err != nil {
		return 0
	}
	defer lf.Close()
	suffix := ":" + strconv.FormatUint(st.Ino, 10)
	sc := bufio.NewScanner(lf)
	for sc.Scan() {
		// "1: FLOCK  ADVISORY  WRITE 1234 08:01:5678 0 EOF"; blocked
		// waiters carry a "->" marker and are skipped.
		fields := strings.Fields(sc.Text())
		if len(fields) < 6 || fields[1] != "FLOCK" {
			continue
		}
		if !strings.HasSuffix(fields[5], suffix) {
			continue
		}
		if pid, err := strconv.Atoi(fields[4]); err == nil {
			return pid
		}
	}
	return 0
}
