package jsruntime

import (
	"bytes"
	"context"
	"runtime"
	"strconv"
	"sync"

	"github.com/dop251/goja"

	"github.com/pi-go/pi/engine"
)

// The extension loop runs handlers while the session may be waiting for
// them (an event dispatch holds up the run until its handlers settle). The
// actions those handlers take (appendEntry, setSessionName, sendMessage …)
// therefore take effect synchronously on the loop, so that their records
// come before the event being dispatched, as in the reference; an event
// they raise in turn cannot wait for the loop it runs on, and is queued
// behind the running task instead, which is what the reference's
// fire-and-forget emits (session_info_changed) amount to.

// goid returns the calling goroutine's id, read from its stack header
// ("goroutine 123 [running]:"). Go has no public accessor; this is only
// used to detect a call that arrives on the loop goroutine itself.
func goid() uint64 {
	var buf [64]byte
	b := buf[:runtime.Stack(buf[:], false)]
	b = bytes.TrimPrefix(b, []byte("goroutine "))
	if i := bytes.IndexByte(b, ' '); i > 0 {
		b = b[:i]
	}
	id, _ := strconv.ParseUint(string(b), 10, 64)
	return id
}

// onLoop reports whether the caller runs on the extension loop.
func (a *API) onLoop() bool {
	return a.rt != nil && a.loopGID != 0 && goid() == a.loopGID
}

// dispatchQueued starts one event's handlers without waiting for them; a
// failure is reported as an extension error. On the loop the handlers are
// scheduled as promise jobs of the running task, so they run before the
// handler that raised the event is reported settled, as the reference's
// un-awaited emit runs its handlers before the emitting handler's caller
// resumes; elsewhere they run in a new loop task.
func (a *API) dispatchQueued(typ, payload string) {
	run := func(vm *goja.Runtime, now bool) {
		ok := vm.ToValue(func(string) {})
		fail := vm.ToValue(func(m string) { a.reportError("", typ, m) })
		if _, err := a.dispatchFn(goja.Undefined(), vm.ToValue(typ), vm.ToValue(payload), ok, fail, vm.ToValue(now)); err != nil {
			a.reportError("", typ, errorMessage(err))
		}
	}
	if a.onLoop() {
		// The reference's un-awaited emit calls the first handler at once
		// (up to its first await), before the raising action returns.
		run(a.rt.vm, true)
		return
	}
	a.rt.loop.RunOnLoop(func(vm *goja.Runtime) { run(vm, false) })
}

// deferredReports are extension errors that the reference raises a few
// promise hops after the action that caused them: they surface just after
// the event being dispatched, before the next one.
type deferredReports struct {
	mu   sync.Mutex
	list []ExtensionError
}

// reportAtNextEvent queues an extension error for the next session event.
func (a *API) reportAtNextEvent(path, event, msg string) {
	a.deferred.mu.Lock()
	a.deferred.list = append(a.deferred.list, ExtensionError{Path: path, Event: event, Error: msg})
	a.deferred.mu.Unlock()
}

// flushDeferred reports the queued errors; hooks.Event calls it first.
func (a *API) flushDeferred() {
	a.deferred.mu.Lock()
	list := a.deferred.list
	a.deferred.list = nil
	a.deferred.mu.Unlock()
	for _, e := range list {
		a.reportError(e.Path, e.Event, e.Error)
	}
}

// sendBatch holds what pi.sendUserMessage calls made on the loop during a
// run do, until the running task's promise jobs run. The reference's
// sendUserMessage is async: a steer or follow-up reaches its queue (and
// queue_update goes out) a few promise hops after the call, once the
// handler's synchronous code (a ctx.ui.notify after the send) is done;
// a refusal (no deliverAs during a run) surfaces a few hops later than
// the queueing of any send made alongside it.
type sendBatch struct {
	mu        sync.Mutex
	ops       []func()
	errs      []ExtensionError
	scheduled bool
}

// batchSend defers op (a queueing) or err (a refusal) to the batch,
// flushed in a promise job of the running task; it reports false off the
// loop, where the caller acts at once.
func (a *API) batchSend(op func(), err *ExtensionError) bool {
	if !a.onLoop() {
		return false
	}
	b := &a.sends
	b.mu.Lock()
	if op != nil {
		b.ops = append(b.ops, op)
	}
	if err != nil {
		b.errs = append(b.errs, *err)
	}
	schedule := !b.scheduled
	b.scheduled = true
	b.mu.Unlock()
	if schedule {
		vm := a.rt.vm
		p, resolve, _ := vm.NewPromise()
		_ = resolve(goja.Undefined())
		then, ok := goja.AssertFunction(vm.ToValue(p).ToObject(vm).Get("then"))
		if !ok {
			a.flushSends()
			return true
		}
		if _, err := then(vm.ToValue(p), vm.ToValue(func(goja.FunctionCall) goja.Value {
			a.flushSends()
			return goja.Undefined()
		})); err != nil {
			a.flushSends()
		}
	}
	return true
}

// flushSends queues the batch's messages in order, then hands its
// refusals to the next event (reportAtNextEvent), so that they follow
// the queue_update of a steer sent next to them.
func (a *API) flushSends() {
	b := &a.sends
	b.mu.Lock()
	ops, errs := b.ops, b.errs
	b.ops, b.errs, b.scheduled = nil, nil, false
	b.mu.Unlock()
	for _, op := range ops {
		op()
	}
	for _, e := range errs {
		a.reportAtNextEvent(e.Path, e.Event, e.Error)
	}
}

// commandSettled wraps a command's settle callback so that the session
// learns, on the loop, the moment the handler is done
// (engine.InputSettled): a run the command started then holds its
// agent_start until the command's prompt has answered, as in the
// reference.
func commandSettled(ctx context.Context, vm *goja.Runtime, cb goja.Value) goja.Value {
	fn, ok := goja.AssertFunction(cb)
	if !ok {
		return cb
	}
	return vm.ToValue(func(c goja.FunctionCall) goja.Value {
		engine.InputSettled(ctx)
		v, _ := fn(goja.Undefined(), c.Arguments...)
		return v
	})
}
