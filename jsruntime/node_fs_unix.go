//go:build linux || darwin

package jsruntime

import (
	"os"
	"time"

	"golang.org/x/sys/unix"
)

// access checks mode (fs.constants' R_OK|W_OK|X_OK, or F_OK) as access(2)
// does, for the real user.
func access(path string, mode uint32) error {
	if err := unix.Access(path, mode); err != nil {
		return &os.PathError{Op: "access", Path: path, Err: err}
	}
	return nil
}

// lutimes sets a symlink's own times.
func lutimes(path string, atime, mtime time.Time) error {
	ts := []unix.Timespec{unix.NsecToTimespec(atime.UnixNano()), unix.NsecToTimespec(mtime.UnixNano())}
	return unix.UtimesNanoAt(unix.AT_FDCWD, path, ts, unix.AT_SYMLINK_NOFOLLOW)
}

// statfsResult becomes Node's StatFs on the loop.
type statfsResult struct{ typ, bsize, blocks, bfree, bavail, files, ffree int64 }

func statfs(path string) (any, error) {
	var st unix.Statfs_t
	if err := unix.Statfs(path, &st); err != nil {
		return nil, err
	}
	return statfsResult{int64(st.Type), int64(st.Bsize), int64(st.Blocks), int64(st.Bfree), int64(st.Bavail), int64(st.Files), int64(st.Ffree)}, nil
}
