package jsruntime

import (
	"bytes"
	"runtime"
	"strconv"
	"sync"

	"github.com/dop251/goja"
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
