package jsruntime

import (
	"github.com/dop251/goja"
)

// asyncTracker carries AsyncLocalStorage's context (one JS value, the
// frame async_hooks.js keeps: a map from each storage to its store) across
// promise reactions through goja's AsyncContextTracker: Grab runs where a
// reaction is registered (then, await), Resumed and Exited around the
// reaction job. Timers, immediates and host callbacks capture it in
// asyncWrap. It is installed when async_hooks first loads, so a runtime
// that never needs it pays nothing per promise.
//
// The frame belongs to one loop task: a task that starts with the frame
// an earlier one left (enterWith in a host callback that nothing wrapped)
// sees none, as each Node callback starts in its own context.
type asyncTracker struct {
	loop       *Loop
	cur, saved goja.Value
	gen        uint64 // the loop task cur was set in
}

// current is the frame of the running task.
func (t *asyncTracker) current() goja.Value {
	if t.gen != loopTaskGen(t.loop) {
		t.cur = nil
	}
	return t.cur
}

func (t *asyncTracker) set(v goja.Value) {
	t.cur, t.gen = v, loopTaskGen(t.loop)
}

func (t *asyncTracker) Grab() any { return t.current() }

func (t *asyncTracker) Resumed(v any) {
	t.saved = t.current()
	f, _ := v.(goja.Value)
	t.set(f)
}

// Exited restores the frame of the code the job interrupted; goja never
// nests reaction jobs, so one saved value is enough.
func (t *asyncTracker) Exited() { t.set(t.saved); t.saved = nil }

// loopTaskGen identifies the loop task running now: the watchdog
// generation, which exec advances at the start and end of every task and
// only the loop goroutine writes (so reading it there needs no lock).
func loopTaskGen(l *Loop) uint64 { return l.wdGen }

const asyncTrackerKey = "\x00async_hooks/tracker"

// tracker is the runtime's asyncTracker, or nil before async_hooks loads.
func (r *Runtime) tracker() *asyncTracker {
	if v, ok := r.loaded[asyncTrackerKey]; ok {
		return v.Export().(*asyncTracker)
	}
	return nil
}

// asyncWrap captures the current async context where a host callback is
// scheduled; the returned function runs fn in that context later, on the
// loop. Without async_hooks loaded it costs one map lookup.
func (r *Runtime) asyncWrap() func(fn func()) {
	t := r.tracker()
	if t == nil {
		return func(fn func()) { fn() }
	}
	ctx := t.current()
	return func(fn func()) {
		prev := t.current()
		t.set(ctx)
		defer t.set(prev)
		fn()
	}
}

// loadAsyncHooks installs the tracker and evaluates hostjs/async_hooks.js
// with the primitives it needs: get and set the current frame.
func loadAsyncHooks(r *Runtime) (goja.Value, error) {
	t := &asyncTracker{loop: r.loop}
	r.loaded[asyncTrackerKey] = r.vm.ToValue(t)
	r.vm.SetAsyncContextTracker(t)
	prim := r.vm.NewObject()
	_ = prim.Set("get", func() goja.Value {
		if f := t.current(); f != nil {
			return f
		}
		return goja.Undefined()
	})
	_ = prim.Set("set", func(v goja.Value) { t.set(v) })
	_ = prim.Set("loadedTimers", func() goja.Value {
		if v, ok := r.loaded["timers"]; ok {
			return v
		}
		return goja.Undefined()
	})
	src, err := hostSource("async_hooks")
	if err != nil {
		return nil, err
	}
	return r.evalCommonJS("node:async_hooks", wrapModule, src, prim)
}
