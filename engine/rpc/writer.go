package rpc

import (
	"errors"
	"fmt"
	"io"
	"sync"

	"github.com/pi-go/pi/engine"
)

// Writer is the one owner of the protocol stream. Records from any
// goroutine are serialised by a mutex and written with a single Write call
// each, so lines never interleave. Writes block while the reader is slow,
// which gives the same backpressure the reference gets by awaiting drain.
type Writer struct {
	mu  sync.Mutex
	out io.Writer
	err error
}

// NewWriter returns a Writer on out (normally the stdout TakeOverStdout
// returned).
func NewWriter(out io.Writer) *Writer { return &Writer{out: out} }

// ErrClosed is returned by writes after the stream failed once (for
// example EPIPE after the reader went away).
var ErrClosed = errors.New("rpc: output stream closed")

// WriteRecord writes v as one JSON line.
func (w *Writer) WriteRecord(v any) error {
	b, err := engine.MarshalJSON(v)
	if err != nil {
		return fmt.Errorf("marshal record: %w", err)
	}
	return w.WriteLine(b)
}

// WriteEvent writes a session event as one JSON line, in the wire shape
// of RPC and JSON modes.
func (w *Writer) WriteEvent(e engine.Event) error {
	b, err := engine.MarshalEvent(e)
	if err != nil {
		return fmt.Errorf("marshal %s event: %w", e.EventType(), err)
	}
	return w.WriteLine(b)
}

// WriteLine writes an already encoded JSON record and the line feed.
func (w *Writer) WriteLine(record []byte) error {
	line := make([]byte, 0, len(record)+1)
	line = append(line, record...)
	line = append(line, '\n')
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.err != nil {
		return ErrClosed
	}
	if _, err := w.out.Write(line); err != nil {
		// Once the reader is gone every later record would fail too; keep
		// the first error so the caller can report it once and move on.
		w.err = err
		return fmt.Errorf("write record: %w", err)
	}
	return nil
}

// Err returns the first write error, if any.
func (w *Writer) Err() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.err
}
