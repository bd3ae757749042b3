package jsruntime

import (
	"errors"
	"io/fs"
	"os"
)

// compileLoadError is the LoadError of a source that did not compile. A
// path that does not exist (an -e path with a typo) is reported in the
// reference's words, without the "Failed to load extension:" prefix its
// other load errors carry.
func compileLoadError(s Source, err error) LoadError {
	if _, serr := os.Stat(s.Path); errors.Is(serr, fs.ErrNotExist) {
		return LoadError{Path: s.Path, Message: "Extension path does not exist: " + s.Path, Err: err}
	}
	return LoadError{Path: s.Path, Message: "Failed to load extension: " + err.Error(), Err: err}
}
