package session

import (
	"errors"
)

// ErrLocked is wrapped by the error returned when another process holds
// the session file open for writing.
var ErrLocked = errors.New("session file is in use by another pi process")
