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
type asyncTracker struct {
	cur, saved goja.Value
}

func (t *asyncTracker) Grab() any { return t.cur }

func (t *asyncTracker) Resumed(v any) {
	t.saved = t.cur
	t.cur, _ = v.(goja.Value)
}

// Exited restores the frame of the code the job interrupted; goja never
// nests reaction jobs, so one saved value is enough.
func (t *asyncTracker) Exited() { t.cur, t.saved = t.saved, nil }

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
	ctx := t.cur
	return func(fn func()) {
		prev := t.cur
		t.cur = ctx
		defer func() { t.cur = prev }()
		fn()
	}
}

// loadAsyncHooks installs the tracker and evaluates hostjs/async_hooks.js
// with the primitives it needs: get and set the current frame.
func loadAsyncHooks(r *Runtime) (goja.Value, error) {
	t := &asyncTracker{}
	r.loaded[asyncTrackerKey] = r.vm.ToValue(t)
	r.vm.SetAsyncContextTracker(t)
	prim := r.vm.NewObject()
	_ = prim.Set("get", func() goja.Value {
		if t.cur == nil {
			return goja.Undefined()
		}
		return t.cur
	})
	_ = prim.Set("set", func(v goja.Value) { t.cur = v })
	src, err := hostSource("async_hooks")
	if err != nil {
		return nil, err
	}
	return r.evalCommonJS("node:async_hooks", wrapModule, src, prim)
}
