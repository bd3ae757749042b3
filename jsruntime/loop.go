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

// errLoopClosed is what a closed loop answers Do and WaitIdle with.
var errLoopClosed = errors.New("jsruntime: loop is closed")

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

	// mu guards the loop's busy state. The loop is idle exactly when no
	// task is queued, none is running and no reservation is outstanding;
	// every change to those three happens under mu, and a reservation is
	// released in the same locked step that queues its task (settle), so
	// no observer can see the loop idle while work is still on its way.
	mu      sync.Mutex
	queue   []task
	pending int  // reserved callbacks and ref'd timers not yet completed
	running bool // the loop goroutine is executing a task
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
	installV8Errors(vm)
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
	return l.push(t, false)
}

// settle queues the task of a completed reservation and releases the
// reservation in one locked step. Done as two steps (lower pending, then
// queue), an observer between them sees nothing queued and nothing
// pending and reports the loop idle while the callback is still to run.
func (l *Loop) settle(t task) bool {
	return l.push(t, true)
}

// push is the one funnel through which work reaches the loop goroutine.
func (l *Loop) push(t task, release bool) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	if release {
		l.pending--
	}
	if l.closed {
		return false
	}
	l.queue = append(l.queue, t)
	// The wake-up is sent under the lock so that Close cannot close the
	// channel between the closed check and the send.
	select {
	case l.wake <- struct{}{}:
	default:
	}
	return true
}

// hold adds n (positive or negative) to the loop's outstanding work. Only
// the loop goroutine calls it, while it runs a task, so a release here is
// seen together with the running flag and cannot make the loop look idle
// before the task that released it has finished.
func (l *Loop) hold(n int) {
	l.mu.Lock()
	l.pending += n
	l.mu.Unlock()
}

// Reserve announces async work that will come back to the loop later
// (a timer, a child process, an HTTP response, a UI answer). The returned
// function must be called exactly once, from any goroutine, with the code
// that settles the work on the loop; until that code has run the loop is
// not idle. The extension that was running when Reserve was called owns
// the callback. Reserve itself is called on the loop goroutine, by host
// functions.
func (l *Loop) Reserve() func(func(*goja.Runtime)) {
	l.hold(1)
	owner, event := l.owner, l.event
	var once sync.Once
	return func(fn func(*goja.Runtime)) {
		done := false
		once.Do(func() {
			done = true
			l.settle(task{fn: fn, owner: owner, event: event})
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
		return errLoopClosed
	}
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
		return ctx.Err()
	}
}

// WaitIdle blocks until no task is queued or running and no reserved
// callback is outstanding, or ctx ends. It must not be called from the
// loop goroutine (the task calling it would keep the loop busy). On a
// closed loop, which will never run its work, it returns errLoopClosed.
func (l *Loop) WaitIdle(ctx context.Context) error {
	for {
		l.mu.Lock()
		idle, closed := l.isIdle(), l.closed
		ch := l.idle
		l.mu.Unlock()
		switch {
		case closed:
			return errLoopClosed
		case idle:
			return nil
		}
		select {
		case <-ch:
		case <-l.done:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

// isIdle reports whether the loop has nothing to do; l.mu must be held.
func (l *Loop) isIdle() bool {
	return len(l.queue) == 0 && !l.running && l.pending == 0
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
		l.running = false
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
		// The task counts as work until it has finished: what it queues
		// or reserves is seen before running drops, at the next turn.
		l.running = true
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
		fixV8Error(o)
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
