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

	// Batched mode (NewBatchedWriter) only: streamed deltas wait in
	// pending while a write is in flight and go out together in the next
	// one; every other record is written before its call returns.
	batched bool
	cond    *sync.Cond // signalled when pending shrinks or writing ends
	pending []byte
	spare   []byte
	line    []byte // the synchronous record and its line feed (writing only)
	writing bool   // a goroutine is inside out.Write
	drain   bool   // a drain goroutine is running
}

// NewWriter returns a Writer on out (normally the stdout TakeOverStdout
// returned) that writes each record before WriteLine returns.
func NewWriter(out io.Writer) *Writer { return &Writer{out: out} }

// maxPending bounds the queued bytes of a batched Writer; a producer
// waits beyond it, which keeps the backpressure of a slow reader.
const maxPending = 1 << 20

// NewBatchedWriter returns a Writer that batches streamed deltas
// (message_update, tool_execution_update, bash_execution_update): the
// first delta of a burst goes out at once from a background goroutine,
// and deltas that arrive while a write is in flight are written together
// by the next one, so a streamed reply costs one write per burst, not one
// per delta, and no record waits for a timer. Every other record (a
// response, tool_execution_start, turn_end, agent_end, a UI request) is
// written by a write of its own, after the deltas queued before it, before
// the call returns: an event that precedes a side effect (a tool run, the
// next request, the exit) is on the wire before the side effect starts,
// and a client reading lifecycle events sees each in its own read.
// Callers must call Flush before the process exits.
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

// WriteDeltaRecord writes v as one JSON line that a batched Writer may
// hold back and write together with the deltas around it: only for a
// streamed piece of output that no side effect waits on.
func (w *Writer) WriteDeltaRecord(v any) error {
	b, err := engine.MarshalJSON(v)
	if err != nil {
		return fmt.Errorf("marshal record: %w", err)
	}
	if !w.batched {
		return w.WriteLine(b)
	}
	return w.queue(func(dst []byte) ([]byte, error) { return append(dst, b...), nil })
}

// WriteEvent writes a session event as one JSON line, in the wire shape
// of RPC and JSON modes.
func (w *Writer) WriteEvent(e engine.Event) error {
	if w.batched && isDelta(e) {
		// Encoded straight into the pending batch: no buffer of its own,
		// no copy.
		err := w.queue(func(dst []byte) ([]byte, error) { return engine.AppendEvent(dst, e) })
		if err != nil && !errors.Is(err, ErrClosed) {
			return fmt.Errorf("marshal %s event: %w", e.EventType(), err)
		}
		return err
	}
	b, err := engine.MarshalEvent(e)
	if err != nil {
		return fmt.Errorf("marshal %s event: %w", e.EventType(), err)
	}
	return w.WriteLine(b)
}

// isDelta reports whether e is a piece of streamed output, which a
// batched Writer may write together with its neighbours.
func isDelta(e engine.Event) bool {
	switch e.(type) {
	case engine.MessageUpdate, engine.ToolExecutionUpdate, engine.BashExecutionUpdate:
		return true
	}
	return false
}

// WriteLine writes an already encoded JSON record and the line feed, in
// a write of its own, before it returns.
func (w *Writer) WriteLine(record []byte) error {
	if w.batched {
		return w.writeNow(record)
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

// writeNow writes the deltas queued so far, then record in a write of its
// own, in the caller's goroutine.
func (w *Writer) writeNow(record []byte) error {
	w.mu.Lock()
	for w.writing && w.err == nil {
		w.cond.Wait()
	}
	if w.err != nil {
		w.mu.Unlock()
		return ErrClosed
	}
	w.writing = true
	batch := w.pending
	w.pending = w.spare[:0]
	w.spare = nil
	line := append(append(w.line[:0], record...), '\n')
	w.mu.Unlock()

	var err error
	if len(batch) > 0 {
		_, err = w.out.Write(batch)
	}
	if err == nil {
		_, err = w.out.Write(line)
	}

	w.mu.Lock()
	defer w.mu.Unlock()
	w.writing = false
	w.keepSpare(batch)
	if cap(line) <= maxPending {
		w.line = line[:0]
	}
	if err != nil && w.err == nil {
		w.err = err
	}
	w.cond.Broadcast()
	if err != nil {
		return fmt.Errorf("write record: %w", err)
	}
	return nil
}

// queue appends one delta record (encode writes it at the end of the
// buffer it is given) to the pending batch and makes sure a drain
// goroutine is running to write it.
func (w *Writer) queue(encode func(dst []byte) ([]byte, error)) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	for w.err == nil && len(w.pending) >= maxPending {
		w.cond.Wait()
	}
	if w.err != nil {
		return ErrClosed
	}
	mark := len(w.pending)
	out, err := encode(w.pending)
	if err != nil {
		w.pending = w.pending[:mark]
		return err
	}
	w.pending = append(out, '\n')
	if !w.drain {
		w.drain = true
		go w.drainLoop()
	}
	return nil
}

// keepSpare keeps a written batch's buffer for reuse unless it grew huge.
func (w *Writer) keepSpare(batch []byte) {
	if cap(batch) > 0 && cap(batch) <= maxPending*2 && cap(batch) > cap(w.spare) {
		w.spare = batch[:0]
	}
}

// drainLoop writes pending batches until none is left.
func (w *Writer) drainLoop() {
	w.mu.Lock()
	defer w.mu.Unlock()
	for w.err == nil {
		for w.writing && w.err == nil {
			w.cond.Wait()
		}
		if len(w.pending) == 0 || w.err != nil {
			break
		}
		w.writing = true
		batch := w.pending
		w.pending = w.spare[:0]
		w.spare = nil
		w.mu.Unlock()
		_, err := w.out.Write(batch)
		w.mu.Lock()
		w.writing = false
		if err != nil && w.err == nil {
			w.err = err
		}
		w.keepSpare(batch)
		w.cond.Broadcast()
	}
	if w.err != nil {
		w.pending = w.pending[:0]
	}
	w.drain = false
	w.cond.Broadcast()
}

// Flush waits until every queued record is written and returns the first
// write error, if any. For a Writer from NewWriter it only reports Err.
func (w *Writer) Flush() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	for w.drain || w.writing {
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
