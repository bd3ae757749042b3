//go:build linux

package prompts

import (
	"errors"
	"syscall"

	"golang.org/x/sys/unix"
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

// statFileAt is statFile for rel under the directory open as dirfd; path
// (dirfd's path joined with rel) is what errors report.
func statFileAt(dirfd int, rel, path string, noFollow bool) (fileStamp, error) {
	var st unix.Stat_t
	flags := 0
	if noFollow {
		flags = unix.AT_SYMLINK_NOFOLLOW
	}
	var err error
	for {
		err = fstatatRaw(dirfd, rel, &st, flags)
		if !errors.Is(err, syscall.EINTR) {
			break
		}
	}
	if err != nil {
		return fileStamp{}, &pathError{Op: "stat", Path: path, Err: err}
	}
	if st.Mode&unix.S_IFMT != unix.S_IFREG {
		return fileStamp{}, &pathError{Op: "stat", Path: path, Err: errNotRegular}
	}
	return fileStamp{
		Size: st.Size, Ino: uint64(st.Ino),
		Mtime: st.Mtim.Sec*1e9 + st.Mtim.Nsec, Ctime: st.Ctim.Sec*1e9 + st.Ctim.Nsec,
	}, nil
}

// openDirFD opens dir for path lookups only (O_PATH), or returns -1.
func openDirFD(dir string) int {
	fd, err := unix.Open(dir, unix.O_PATH|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		return -1
	}
	return fd
}

func closeDirFD(fd int) {
	if fd >= 0 {
		unix.Close(fd)
	}
}

// cacheSupported says whether statFile works here.
const cacheSupported = true
