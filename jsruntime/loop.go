package jsruntime

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/dop251/goja"
)

// DefaultWatchdog is how long JS may run without yielding to the loop
// before it is interrupted.
const DefaultWatchdog = 5 * time.Second

// ExtensionError is a failure inside an extension that does not stop the
// agent: a throwing timer, an unhandled rejection, an interrupted script.
// The RPC layer turns it into {"type":"extension_error",…}.
type ExtensionError struct {
	Path  string // extension path ("" when no extension was running)
	Event string // the event or phase that failed
	Error string // the message, as the reference prints it
}

// WatchdogError is the value a runaway script is interrupted with.
type WatchdogError struct{ Limit time.Duration }

func (e *WatchdogError) Error() string {
	return fmt.Sprintf("script ran for more than %s without yielding and was interrupted", e.Limit)
}

type task struct {
	fn    func(*goja.Runtime)
	owner string // extension the work belongs to, for error reports
	event string
	// trusted marks host setup work that the watchdog must not interrupt.
	trusted bool
}

// Loop owns a goja runtime. Only the loop goroutine touches the runtime;
// every other goroutine hands work to it through enqueue, the one funnel.
type Loop struct {
	vm       *goja.Runtime
	watchdog time.Duration
	onError  func(ExtensionError)

	mu      sync.Mutex
	queue   []task
	pending int // reserved callbacks not yet completed
	closed  bool
	wake    chan struct{}
	idle    chan struct{} // closed and replaced whenever the loop goes idle
	done    chan struct{}

	// Owned by the loop goroutine.
	owner      string
	event      string
	rejections map[*goja.Promise]string
	timers     map[int64]*timer
	nextTimer  int64

	wdMu  sync.Mutex
	wdGen uint64
}

func newLoop(vm *goja.Runtime, watchdog time.Duration, onError func(ExtensionError)) *Loop {
	if watchdog <= 0 {
		watchdog = DefaultWatchdog
	}
	l := &Loop{
		vm:         vm,
		watchdog:   watchdog,
		onError:    onError,
		wake:       make(chan struct{}, 1),
		idle:       make(chan struct{}),
		done:       make(chan struct{}),
		rejections: map[*goja.Promise]string{},
		timers:     map[int64]*timer{},
	}
	vm.SetPromiseRejectionTracker(func(p *goja.Promise, op goja.PromiseRejectionOperation) {
		if op == goja.PromiseRejectionReject {
			l.rejections[p] = l.owner
		} else {
			delete(l.rejections, p)
		}
	})
	go l.run()
	return l
}

// RunOnLoop queues fn to run on the loop goroutine. It never blocks and
// may be called from any goroutine, including the loop itself.
func (l *Loop) RunOnLoop(fn func(*goja.Runtime)) bool {
	return l.enqueue(task{fn: fn})
}

func (l *Loop) enqueue(t task) bool {
	l.mu.Lock()
	if l.closed {
		l.mu.Unlock()
		return false
	}
	l.queue = append(l.queue, t)
	// The wake-up is sent under the lock so that Close cannot close the
	// channel between the closed check and the send.
	select {
	case l.wake <- struct{}{}:
	default:
	}
	l.mu.Unlock()
	return true
}

// Reserve announces async work that will come back to the loop later
// (a timer, a child process, an HTTP response, a UI answer). The returned
// function must be called exactly once, from any goroutine, with the code
// that settles the work on the loop; until then the loop is not idle. The
// extension that was running when Reserve was called owns the callback.
// Reserve itself is called on the loop goroutine, by host functions.
func (l *Loop) Reserve() func(func(*goja.Runtime)) {
	l.mu.Lock()
	l.pending++
	l.mu.Unlock()
	owner, event := l.owner, l.event
	var once sync.Once
	return func(fn func(*goja.Runtime)) {
		done := false
		once.Do(func() {
			done = true
			l.mu.Lock()
			l.pending--
			l.mu.Unlock()
			l.enqueue(task{fn: fn, owner: owner, event: event})
		})
		if !done {
			panic("jsruntime: reserved callback completed twice")
		}
	}
}

// Do runs fn on the loop and waits for it. It must not be called from the
// loop goroutine itself (that would deadlock).
func (l *Loop) Do(ctx context.Context, fn func(*goja.Runtime) error) error {
	return l.do(ctx, fn, false)
}

func (l *Loop) do(ctx context.Context, fn func(*goja.Runtime) error, trusted bool) error {
	errc := make(chan error, 1)
	run := func(vm *goja.Runtime) {
		var err error
		defer func() {
			// A panic must still answer the waiting caller.
			if r := recover(); r != nil {
				err = panicError(r)
			}
			errc <- err
		}()
		err = fn(vm)
	}
	if !l.enqueue(task{fn: run, trusted: trusted}) {
		return errors.New("jsruntime: loop is closed")
	}
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
		return ctx.Err()
	}
}

// WaitIdle blocks until no task is queued and no reserved callback is
// outstanding, or ctx ends.
func (l *Loop) WaitIdle(ctx context.Context) error {
	for {
		l.mu.Lock()
		idle := len(l.queue) == 0 && l.pending == 0
		ch := l.idle
		l.mu.Unlock()
		if idle {
			// A task may still be executing; wait for the loop to pass by.
			if err := l.Do(ctx, func(*goja.Runtime) error { return nil }); err != nil {
				return err
			}
			l.mu.Lock()
			idle = len(l.queue) == 0 && l.pending == 0
			l.mu.Unlock()
			if idle {
				return nil
			}
			continue
		}
		select {
		case <-ch:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

// Close stops the loop after the task running now; queued work is dropped
// and pending timers are cancelled.
func (l *Loop) Close() {
	l.mu.Lock()
	if l.closed {
		l.mu.Unlock()
		return
	}
	l.closed = true
	l.queue = nil
	close(l.wake)
	l.mu.Unlock()
	<-l.done
}

func (l *Loop) run() {
	defer close(l.done)
	for {
		l.mu.Lock()
		if len(l.queue) == 0 {
			if l.pending == 0 {
				close(l.idle)
				l.idle = make(chan struct{})
			}
			l.mu.Unlock()
			if _, ok := <-l.wake; !ok {
				l.stopTimers()
				return
			}
			continue
		}
		t := l.queue[0]
		l.queue[0] = task{}
		l.queue = l.queue[1:]
		l.mu.Unlock()
		l.exec(t)
	}
}

func (l *Loop) stopTimers() {
	for _, t := range l.timers {
		t.t.Stop()
	}
}

// exec runs one task under the watchdog, recovers panics and reports
// throws and unhandled rejections as extension errors.
func (l *Loop) exec(t task) {
	l.owner, l.event = t.owner, t.event
	l.wdMu.Lock()
	l.wdGen++
	gen := l.wdGen
	l.wdMu.Unlock()
	var wd *time.Timer
	if !t.trusted {
		wd = time.AfterFunc(l.watchdog, func() {
			l.wdMu.Lock()
			defer l.wdMu.Unlock()
			if l.wdGen == gen {
				l.vm.Interrupt(&WatchdogError{Limit: l.watchdog})
			}
		})
	}
	err := l.call(t.fn)
	if wd != nil {
		wd.Stop()
	}
	l.wdMu.Lock()
	l.wdGen++
	l.wdMu.Unlock()
	l.vm.ClearInterrupt()
	if err != nil {
		l.report(t.owner, t.event, err)
	}
	for p, owner := range l.rejections {
		delete(l.rejections, p)
		l.report(owner, "unhandledRejection", rejectionError(l.vm, p.Result()))
	}
	l.owner, l.event = "", ""
}

func (l *Loop) call(fn func(*goja.Runtime)) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = panicError(r)
		}
	}()
	fn(l.vm)
	return nil
}

func (l *Loop) report(owner, event string, err error) {
	if l.onError == nil {
		return
	}
	if event == "" {
		event = "runtime"
	}
	l.onError(ExtensionError{Path: owner, Event: event, Error: errorMessage(err)})
}

// panicError turns a recovered panic into an error; goja throws arrive as
// *goja.Exception or *goja.InterruptedError values.
func panicError(r any) error {
	switch v := r.(type) {
	case *goja.Exception:
		return v
	case *goja.InterruptedError:
		return v
	case error:
		return v
	default:
		return fmt.Errorf("%v", v)
	}
}

// errorMessage is the text the reference shows for a thrown value: an
// Error's message, else the value as a string.
func errorMessage(err error) string {
	var ex *goja.Exception
	if errors.As(err, &ex) {
		return valueMessage(ex.Value())
	}
	var ie *goja.InterruptedError
	if errors.As(err, &ie) {
		if wd, ok := ie.Value().(*WatchdogError); ok {
			return wd.Error()
		}
		return fmt.Sprint(ie.Value())
	}
	return err.Error()
}

func valueMessage(v goja.Value) string {
	if v == nil || goja.IsUndefined(v) {
		return "undefined"
	}
	if o, ok := v.(*goja.Object); ok {
		if m := o.Get("message"); m != nil && !goja.IsUndefined(m) {
			return m.String()
		}
	}
	return v.String()
}

func rejectionError(_ *goja.Runtime, v goja.Value) error {
	return errors.New(valueMessage(v))
}

// guard runs a JS callable for a Go caller on the loop and converts a
// throw into an error instead of a panic.
func guard(fn func() (goja.Value, error)) (v goja.Value, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = panicError(r)
		}
	}()
	return fn()
}
