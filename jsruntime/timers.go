package jsruntime

import (
	"time"

	"github.com/dop251/goja"
)

// timer is one setTimeout/setInterval. Its callback runs on the loop; the
// Go timer only hands the firing to the loop through the funnel.
type timer struct {
	id       int64
	t        *time.Timer
	fn       goja.Callable
	args     []goja.Value
	interval time.Duration
	repeat   bool
	ref      bool // keeps the loop busy (Node's ref/unref)
	due      time.Time
	owner    string
	obj      *goja.Object
}

// setTimer implements setTimeout/setInterval. The returned object mimics
// Node's Timeout: ref/unref/hasRef/refresh and a numeric primitive value.
func (l *Loop) setTimer(vm *goja.Runtime, call goja.FunctionCall, repeat bool) goja.Value {
	fn, ok := goja.AssertFunction(call.Argument(0))
	if !ok {
		panic(vm.NewTypeError("The \"callback\" argument must be of type function"))
	}
	ms := call.Argument(1).ToFloat()
	if ms != ms || ms < 1 { // NaN or below Node's 1 ms floor
		ms = 1
	}
	l.nextTimer++
	tm := &timer{id: l.nextTimer, fn: fn, interval: time.Duration(ms * float64(time.Millisecond)), repeat: repeat, ref: true, owner: l.owner}
	if len(call.Arguments) > 2 {
		tm.args = append([]goja.Value(nil), call.Arguments[2:]...)
	}
	tm.obj = l.timerObject(vm, tm)
	l.timers[tm.id] = tm
	l.hold(1)
	l.arm(tm)
	return tm.obj
}

// arm schedules tm. Its Go timer does not name tm: each wake-up fires the
// live timer that is due first (fireDue), so callbacks run in deadline
// order, as Node's do, even when the Go runtime delivers the wake-ups of
// two timers in the other order (a busy machine does).
func (l *Loop) arm(tm *timer) {
	tm.due = time.Now().Add(tm.interval)
	tm.t = time.AfterFunc(tm.interval, func() {
		l.enqueue(task{event: "timer", fn: func(*goja.Runtime) { l.fireDue() }})
	})
}

// fireDue runs the live timer with the earliest deadline that has passed
// (ties by creation order), if any. Every arm adds one wake-up, so each
// due timer gets its turn: a wake-up that ran another timer leaves that
// timer's own wake-up for this one. A wake-up left over from a cleared or
// re-armed timer finds nothing due, or a timer that is due anyway.
func (l *Loop) fireDue() {
	now := time.Now()
	var next *timer
	for _, tm := range l.timers {
		if tm.due.After(now) {
			continue
		}
		if next == nil || tm.due.Before(next.due) || (tm.due.Equal(next.due) && tm.id < next.id) {
			next = tm
		}
	}
	if next == nil {
		return
	}
	// Errors and the timers the callback creates belong to the timer's
	// extension.
	l.owner = next.owner
	if err := l.fire(next); err != nil {
		l.report(next.owner, "timer", err)
	}
	// One wake-up per arm is not enough on its own: this wake-up may have
	// been another timer's (the one it ran was due first), and when the
	// timer it ran is cleared before its own Go timer fired (a busy
	// machine delivers them late), Stop removes the wake-up that timer
	// would have passed on. So while a timer is due, another turn comes.
	now = time.Now()
	for _, tm := range l.timers {
		if !tm.due.After(now) {
			l.enqueue(task{event: "timer", fn: func(*goja.Runtime) { l.fireDue() }})
			return
		}
	}
}

func (l *Loop) fire(tm *timer) error {
	if !tm.repeat {
		l.dropTimer(tm)
	}
	_, err := guard(func() (goja.Value, error) { return tm.fn(goja.Undefined(), tm.args...) })
	if tm.repeat {
		if _, live := l.timers[tm.id]; live {
			l.arm(tm)
		}
	}
	return err
}

func (l *Loop) dropTimer(tm *timer) {
	if _, live := l.timers[tm.id]; !live {
		return
	}
	delete(l.timers, tm.id)
	if tm.t != nil {
		tm.t.Stop()
	}
	if tm.ref {
		l.setRef(tm, false)
	}
}

func (l *Loop) setRef(tm *timer, ref bool) {
	if tm.ref == ref {
		return
	}
	tm.ref = ref
	if ref {
		l.hold(1)
	} else {
		l.hold(-1)
	}
}

func (l *Loop) timerObject(vm *goja.Runtime, tm *timer) *goja.Object {
	o := vm.NewObject()
	_ = o.Set("_id", tm.id)
	_ = o.Set("ref", func() goja.Value {
		if _, live := l.timers[tm.id]; live {
			l.setRef(tm, true)
		}
		return o
	})
	_ = o.Set("unref", func() goja.Value {
		if _, live := l.timers[tm.id]; live {
			l.setRef(tm, false)
		}
		return o
	})
	_ = o.Set("hasRef", func() bool { return tm.ref })
	_ = o.Set("refresh", func() goja.Value {
		if _, live := l.timers[tm.id]; live && tm.t != nil {
			tm.due = time.Now().Add(tm.interval)
			tm.t.Reset(tm.interval)
		}
		return o
	})
	_ = o.Set("close", func() goja.Value { l.dropTimer(tm); return o })
	_ = o.SetSymbol(goja.SymToPrimitive, func() int64 { return tm.id })
	return o
}

// clearTimer accepts a Timeout object or its numeric id.
func (l *Loop) clearTimer(v goja.Value) {
	if v == nil || goja.IsUndefined(v) || goja.IsNull(v) {
		return
	}
	var id int64
	if o, ok := v.(*goja.Object); ok {
		id = o.Get("_id").ToInteger()
	} else {
		id = v.ToInteger()
	}
	if tm, ok := l.timers[id]; ok {
		l.dropTimer(tm)
	}
}

// installTimers defines the timer globals on vm.
func (l *Loop) installTimers(vm *goja.Runtime) {
	g := vm.GlobalObject()
	_ = g.Set("setTimeout", func(call goja.FunctionCall) goja.Value { return l.setTimer(vm, call, false) })
	_ = g.Set("setInterval", func(call goja.FunctionCall) goja.Value { return l.setTimer(vm, call, true) })
	_ = g.Set("clearTimeout", func(v goja.Value) { l.clearTimer(v) })
	_ = g.Set("clearInterval", func(v goja.Value) { l.clearTimer(v) })
	_ = g.Set("setImmediate", func(call goja.FunctionCall) goja.Value {
		fn, ok := goja.AssertFunction(call.Argument(0))
		if !ok {
			panic(vm.NewTypeError("The \"callback\" argument must be of type function"))
		}
		args := append([]goja.Value(nil), call.Arguments[min(1, len(call.Arguments)):]...)
		cancelled := false
		done := l.Reserve()
		done(func(*goja.Runtime) {
			if !cancelled {
				if _, err := guard(func() (goja.Value, error) { return fn(goja.Undefined(), args...) }); err != nil {
					panic(err)
				}
			}
		})
		o := vm.NewObject()
		_ = o.Set("_cancel", func() { cancelled = true })
		_ = o.Set("ref", func() goja.Value { return o })
		_ = o.Set("unref", func() goja.Value { return o })
		return o
	})
	_ = g.Set("clearImmediate", func(v goja.Value) {
		if o, ok := v.(*goja.Object); ok {
			if c, ok := goja.AssertFunction(o.Get("_cancel")); ok {
				_, _ = c(o)
			}
		}
	})
}
