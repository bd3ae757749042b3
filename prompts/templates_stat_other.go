//go:build !linux

package prompts

import "os"

// statFile is not used where cacheSupported is false.
func statFile(path string, noFollow bool) (fileStamp, error) {
	return fileStamp{}, &pathError{Op: "stat", Path: path, Err: errNotRegular}
}

func statFileAt(dirfd int, rel, path string, noFollow bool) (fileStamp, error) {
	return statFile(path, noFollow)
}

func openDirFD(dir string) int { return -1 }

func closeDirFD(fd int) {}

// cacheSupported is false: without inode and change time a cached file
// could not be told from a rewritten one reliably.
const cacheSupported = false

// readIndexFile is not used where cacheSupported is false.
func readIndexFile(path string) ([]byte, error) { return os.ReadFile(path) }
