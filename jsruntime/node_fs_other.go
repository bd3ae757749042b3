//go:build !(linux || darwin)

package jsruntime

import (
	"errors"
	"os"
	"time"
)

// access has no access(2) here: existence is all it checks.
func access(path string, _ uint32) error { _, err := os.Stat(path); return err }

var errFSUnsupported = errors.New("not supported on this platform")

func lutimes(string, time.Time, time.Time) error { return errFSUnsupported }

type statfsResult struct{ typ, bsize, blocks, bfree, bavail, files, ffree int64 }

func statfs(string) (any, error) { return nil, errFSUnsupported }

// statTimesMs gives the modification time for every time here.
func statTimesMs(fi os.FileInfo) (a, m, c, b float64) {
	t := float64(fi.ModTime().UnixNano()) / 1e6
	return t, t, t, t
}
