package prompts

import (
	"errors"
	"io/fs"
	"unsafe"
)

// errNotRegular marks a path that is not a regular file (a directory, a
// FIFO, a symbolic link refused by noFollow).
var errNotRegular = errors.New("not a regular file")

// pathError is fs.PathError with the message os.ReadFile would give, so
// diagnostics read the same whichever reader produced them.
type pathError = fs.PathError

// ReadResource reads a skill or template file: the whole file, with the
// fewest system calls (see readFileFast). Errors are *fs.PathError.
func ReadResource(path string) ([]byte, error) { return readFileFast(path, false, false) }

// ReadPlainFile reads path like ReadResource but refuses a symbolic link as
// the last component and anything that is not a regular file, so a caller
// that walked only real directories to reach it knows its real path.
func ReadPlainFile(path string) ([]byte, error) { return readFileFast(path, true, false) }

// ResourceString views the bytes ReadResource, ReadPlainFile or a
// FileCache returned as a string without copying them. Those bytes are
// never written to again (a read gets a buffer of its own, the index keeps
// its records as read), so strings cut from the view, such as a template's
// body or a skill's description, stay valid; a caller must not modify raw
// afterwards.
func ResourceString(raw []byte) string {
	return unsafe.String(unsafe.SliceData(raw), len(raw))
}
