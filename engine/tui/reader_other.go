//go:build !unix

package tui

import (
	"errors"
	"os"
)

// fileReader is the unix poll-based reader; elsewhere input is read with
// plain blocking reads (suspend does not exist, and a released terminal
// may lose a key to the pending read).
type fileReader struct{}

func newFileReader(*os.File) (*fileReader, error) {
	return nil, errors.New("tui: cancelable terminal reads need unix")
}

func (*fileReader) Read([]byte) (int, error) { return 0, errReadCanceled }
func (*fileReader) Cancel()                  {}
func (*fileReader) Close()                   {}
