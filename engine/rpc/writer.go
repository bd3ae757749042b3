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

	// Batched mode (NewBatchedWriter) only: records wait in pending while
	// a drain goroutine writes, and go out together in its next write.
	batched bool
	cond    *sync.Cond // signalled when pending shrinks or draining stops
	pending []byte
	spare   []byte
	drain   bool // a drain goroutine is running
}

// NewWriter returns a Writer on out (normally the stdout TakeOverStdout
// returned) that writes each record before WriteLine returns.
func NewWriter(out io.Writer) *Writer { return &Writer{out: out} }

// maxPending bounds the queued bytes of a batched Writer; a producer
// waits beyond it, which keeps the backpressure of a slow reader.
const maxPending = 1 << 20

// NewBatchedWriter returns a Writer whose records are written by a
// background goroutine: the first record of a burst goes out at once, and
// records that arrive while a write is in flight are written together by
// the next one. A streamed reply costs one write per burst, not one per
// delta, and no record waits for a timer. Callers must call Flush before
// the process exits.
func NewBatchedWriter(out io.Writer) *Writer {
	w := &Writer{out: out, batched: true}
	w.cond = sync.NewCond(&w.mu)
	return w
}

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
	if w.batched {
		return w.queueLine(record)
	}
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

// queueLine appends a record to the pending batch and makes sure a drain
// goroutine is running to write it.
func (w *Writer) queueLine(record []byte) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	for w.err == nil && len(w.pending) >= maxPending {
		w.cond.Wait()
	}
	if w.err != nil {
		return ErrClosed
	}
	w.pending = append(w.pending, record...)
	w.pending = append(w.pending, '\n')
	if !w.drain {
		w.drain = true
		go w.drainLoop()
	}
	return nil
}

// drainLoop writes pending batches until none is left.
func (w *Writer) drainLoop() {
	w.mu.Lock()
	defer w.mu.Unlock()
	for len(w.pending) > 0 && w.err == nil {
		batch := w.pending
		w.pending = w.spare[:0]
		w.mu.Unlock()
		_, err := w.out.Write(batch)
		w.mu.Lock()
		if err != nil {
			w.err = err
		}
		if cap(batch) <= maxPending*2 {
			w.spare = batch[:0]
		}
		w.cond.Broadcast()
	}
	w.pending = w.pending[:0]
	w.drain = false
	w.cond.Broadcast()
}

// Flush waits until every queued record is written and returns the first
// write error, if any. For a Writer from NewWriter it only reports Err.
func (w *Writer) Flush() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	for w.drain {
		w.cond.Wait()
	}
	if w.err != nil {
		return fmt.Errorf("write record: %w", w.err)
	}
	return nil
}

// Err returns the first write error, if any.
func (w *Writer) Err() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.err
}
