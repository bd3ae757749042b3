//go:build linux

package prompts

import (
	"errors"
	"syscall"
)

// statFile is the identity of a file for the resource cache: size,
// modification and change times and inode. noFollow uses lstat and
// reports a symbolic link as errNotRegular, as readFileFast does.
func statFile(path string, noFollow bool) (fileStamp, error) {
	var st syscall.Stat_t
	var err error
	for {
		if noFollow {
			err = syscall.Lstat(path, &st)
		} else {
			err = syscall.Stat(path, &st)
		}
		if !errors.Is(err, syscall.EINTR) {
			break
		}
	}
	if err != nil {
		return fileStamp{}, &pathError{Op: "stat", Path: path, Err: err}
	}
	if st.Mode&syscall.S_IFMT != syscall.S_IFREG {
		return fileStamp{}, &pathError{Op: "stat", Path: path, Err: errNotRegular}
	}
	return fileStamp{
		Size: st.Size, Ino: uint64(st.Ino),
		Mtime: st.Mtim.Sec*1e9 + st.Mtim.Nsec, Ctime: st.Ctim.Sec*1e9 + st.Ctim.Nsec,
	}, nil
}

// cacheSupported says whether statFile works here.
const cacheSupported = true
