package tuitest

import (
	"context"
	"io"
	"sync"
	"testing"

	"github.com/pi-go/pi/engine/tui"
)

// Input is the Program's input: bytes queued by Feed (and the terminal's
// answers) are handed out by Read, and idle reports when the reader has
// taken everything and come back for more, which means the program has
// posted every event of the earlier bytes.
type Input struct {
	mu      sync.Mutex
	cond    *sync.Cond
	queue   []byte
	reading bool // a Read is waiting for bytes
	closed  bool
}

func newInput() *Input {
	in := &Input{}
	in.cond = sync.NewCond(&in.mu)
	return in
}

// Read blocks until bytes are queued.
func (in *Input) Read(p []byte) (int, error) {
	in.mu.Lock()
	defer in.mu.Unlock()
	for len(in.queue) == 0 && !in.closed {
		in.reading = true
		in.cond.Broadcast()
		in.cond.Wait()
	}
	in.reading = false
	if len(in.queue) == 0 {
		return 0, io.EOF
	}
	n := copy(p, in.queue)
	in.queue = in.queue[n:]
	return n, nil
}

func (in *Input) enqueue(b []byte) {
	in.mu.Lock()
	in.queue = append(in.queue, b...)
	in.cond.Broadcast()
	in.mu.Unlock()
}

// waitIdle returns once every queued byte was read and the reader is
// waiting again (or the input is closed).
func (in *Input) waitIdle() {
	in.mu.Lock()
	defer in.mu.Unlock()
	for !in.closed && (len(in.queue) > 0 || !in.reading) {
		in.cond.Wait()
	}
}

func (in *Input) close() {
	in.mu.Lock()
	in.closed = true
	in.cond.Broadcast()
	in.mu.Unlock()
}

// Run is a Program running on a Term in its own goroutine.
type Run struct {
	P    *tui.Program
	T    *Term
	done chan struct{}
	err  error
	pan  any

	mu     sync.Mutex
	events []tui.Event
}

// Start runs a Program on term. setup runs on the UI goroutine before
// the first frame is awaited (set the body, dock and focus there);
// onEvent may be nil (unconsumed events are recorded, see Events).
// The program is stopped when the test ends.
func Start(tb testing.TB, term *Term, o tui.ProgramOptions, setup func(p *tui.Program), onEvent func(tui.Event)) *Run {
	tb.Helper()
	p := tui.NewProgram(term, term.Input(), o)
	r := &Run{P: p, T: term, done: make(chan struct{})}
	if setup != nil {
		setup(p)
	}
	go func() {
		defer close(r.done)
		defer func() { r.pan = recover() }()
		r.err = p.Run(context.Background(), func(ev tui.Event) {
			r.mu.Lock()
			r.events = append(r.events, ev)
			r.mu.Unlock()
			if onEvent != nil {
				onEvent(ev)
			}
		})
	}()
	r.Sync()
	tb.Cleanup(func() { _ = r.Stop() })
	return r
}

// Do runs fn on the UI goroutine, then draws a frame, and returns after
// both. It returns at once when the program has ended.
func (r *Run) Do(fn func()) {
	ran := make(chan struct{})
	r.P.Post(func() {
		if fn != nil {
			fn()
		}
		r.P.Render()
		close(ran)
	})
	select {
	case <-ran:
	case <-r.done:
	}
}

// Sync waits until every byte fed so far was decoded and dispatched and
// the resulting frame is on the virtual screen.
func (r *Run) Sync() {
	r.T.in.waitIdle()
	r.Do(nil)
}

// Feed types s (raw bytes: "\x1b[A" is Up) and waits for its frame.
func (r *Run) Feed(s string) {
	r.T.in.enqueue([]byte(s))
	r.Sync()
}

// Events returns the events that reached onEvent so far.
func (r *Run) Events() []tui.Event {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]tui.Event(nil), r.events...)
}

// Stop quits the program and returns Run's error (a panic inside Run is
// re-raised here).
func (r *Run) Stop() error {
	r.P.Quit()
	<-r.done
	if r.pan != nil {
		p := r.pan
		r.pan = nil
		panic(p)
	}
	return r.err
}

// Wait waits for Run to return on its own and returns its error and any
// panic value it re-raised.
func (r *Run) Wait() (err error, panicked any) {
	<-r.done
	p := r.pan
	r.pan = nil
	return r.err, p
}
