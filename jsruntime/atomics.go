package jsruntime

import (
	"encoding/binary"
	"math"
	"math/big"
	"sync"
	"time"
	"unsafe"

	"github.com/dop251/goja"
)

// goja has neither SharedArrayBuffer nor Atomics, and libraries probe for
// both (typeof SharedArrayBuffer, Atomics.wait as a sleep). They are built
// here on first touch of either global (see lazyGlobals in globals.go).
//
// A SharedArrayBuffer is a goja ArrayBuffer whose prototype is
// SharedArrayBuffer.prototype: the typed array constructors accept it as
// it is, its bytes can be handed to another runtime without a copy, and
// a WeakSet brands the instances, so ArrayBuffers are not mistaken for
// shared ones. Atomics works on the raw bytes under one process-wide lock,
// which makes every Atomics operation atomic with respect to every other
// one, in this runtime or another that shares the bytes; JS promises no
// more than that for plain reads and writes.

// maxSharedBytes bounds new SharedArrayBuffer(n), as V8's 4 GiB does.
const maxSharedBytes = 1 << 32

// atomicsMu guards every Atomics read-modify-write and the waiter lists.
var atomicsMu sync.Mutex

// atomicWaiters are the agents blocked in Atomics.wait or waitAsync, by the
// address of the element they wait on, in arrival order (notify wakes the
// oldest first).
var atomicWaiters map[uintptr][]*atomicWaiter

type atomicWaiter struct {
	wake func() // called once, under atomicsMu, by notify
	done bool
}

// elemKind describes one integer typed array type.
type elemKind struct {
	size     int
	signed   bool
	bigint   bool
	waitable bool
}

// atomicKind is the element type of an integer typed array by its
// toStringTag; ok is false for the other typed arrays (Uint8ClampedArray
// is an integer array Atomics refuses). A switch rather than a map keeps
// package init free of allocations.
func atomicKind(tag string) (k elemKind, ok bool) {
	switch tag {
	case "Int8Array":
		return elemKind{size: 1, signed: true}, true
	case "Uint8Array":
		return elemKind{size: 1}, true
	case "Int16Array":
		return elemKind{size: 2, signed: true}, true
	case "Uint16Array":
		return elemKind{size: 2}, true
	case "Int32Array":
		return elemKind{size: 4, signed: true, waitable: true}, true
	case "Uint32Array":
		return elemKind{size: 4}, true
	case "BigInt64Array":
		return elemKind{size: 8, signed: true, bigint: true, waitable: true}, true
	case "BigUint64Array":
		return elemKind{size: 8, bigint: true}, true
	}
	return elemKind{}, false
}

// atomicsEnv holds what the Atomics functions of one runtime read the
// typed arrays with: %TypedArray%.prototype's own getters, so a subclass
// or an overridden property cannot fool them.
type atomicsEnv struct {
	r                               *Runtime
	vm                              *goja.Runtime
	tag, buffer, byteOffset, length goja.Callable
	objToString                     goja.Callable
	isShared                        func(goja.Value) bool
	sharedProto                     *goja.Object
}

// view is a validated integer typed array: its element type and its bytes.
type view struct {
	kind  elemKind
	bytes []byte // from the array's byteOffset to the end of its buffer
	n     int64  // element count
	obj   goja.Value
}

// newAtomicsGlobals builds {SharedArrayBuffer, Atomics} for lazyGlobals.
func (r *Runtime) newAtomicsGlobals() (goja.Value, error) {
	vm := r.vm
	e := &atomicsEnv{r: r, vm: vm}
	taProto := vm.Get("Uint8Array").ToObject(vm).Prototype().Get("prototype").ToObject(vm)
	desc, err := vm.RunString("(p, k) => Object.getOwnPropertyDescriptor(p, k).get")
	if err != nil {
		return nil, err
	}
	get, _ := goja.AssertFunction(desc)
	getter := func(name string) goja.Callable {
		var key goja.Value = vm.ToValue(name)
		if name == "@@toStringTag" {
			key = goja.SymToStringTag
		}
		g, err := get(nil, taProto, key)
		if err != nil {
			panic(err)
		}
		fn, _ := goja.AssertFunction(g)
		return fn
	}
	e.tag, e.buffer, e.byteOffset, e.length = getter("@@toStringTag"), getter("buffer"), getter("byteOffset"), getter("length")
	e.objToString, _ = goja.AssertFunction(vm.Get("Object").ToObject(vm).Get("prototype").ToObject(vm).Get("toString"))

	sab := e.newSharedArrayBufferCtor()
	atomics := vm.NewObject()
	method := func(name string, length int, fn func(goja.FunctionCall) goja.Value) {
		f := vm.ToValue(fn).(*goja.Object)
		_ = f.DefineDataProperty("name", vm.ToValue(name), goja.FLAG_FALSE, goja.FLAG_TRUE, goja.FLAG_FALSE)
		_ = f.DefineDataProperty("length", vm.ToValue(length), goja.FLAG_FALSE, goja.FLAG_TRUE, goja.FLAG_FALSE)
		_ = atomics.DefineDataProperty(name, f, goja.FLAG_TRUE, goja.FLAG_TRUE, goja.FLAG_FALSE)
	}
	method("load", 2, func(c goja.FunctionCall) goja.Value {
		v, i := e.access(c, false)
		return e.toJS(v.kind, loadElem(v, i))
	})
	method("store", 3, func(c goja.FunctionCall) goja.Value {
		v, i := e.access(c, false)
		bits, ret := e.operand(v.kind, c.Argument(2), true)
		atomicsMu.Lock()
		storeElem(v, i, bits)
		atomicsMu.Unlock()
		return ret
	})
	rmw := func(name string, op func(old, x uint64) uint64) {
		method(name, 3, func(c goja.FunctionCall) goja.Value {
			v, i := e.access(c, false)
			x, _ := e.operand(v.kind, c.Argument(2), false)
			atomicsMu.Lock()
			old := loadElem(v, i)
			storeElem(v, i, op(old, x))
			atomicsMu.Unlock()
			return e.toJS(v.kind, old)
		})
	}
	rmw("add", func(a, b uint64) uint64 { return a + b })
	rmw("sub", func(a, b uint64) uint64 { return a - b })
	rmw("and", func(a, b uint64) uint64 { return a & b })
	rmw("or", func(a, b uint64) uint64 { return a | b })
	rmw("xor", func(a, b uint64) uint64 { return a ^ b })
	rmw("exchange", func(_, b uint64) uint64 { return b })
	method("compareExchange", 4, func(c goja.FunctionCall) goja.Value {
		v, i := e.access(c, false)
		expected, _ := e.operand(v.kind, c.Argument(2), false)
		replacement, _ := e.operand(v.kind, c.Argument(3), false)
		atomicsMu.Lock()
		old := loadElem(v, i)
		if old == truncBits(v.kind, expected) {
			storeElem(v, i, replacement)
		}
		atomicsMu.Unlock()
		return e.toJS(v.kind, old)
	})
	method("isLockFree", 1, func(c goja.FunctionCall) goja.Value {
		n := toIntegerOrInfinity(c.Argument(0).ToFloat())
		return vm.ToValue(n == 1 || n == 2 || n == 4 || n == 8)
	})
	method("wait", 4, func(c goja.FunctionCall) goja.Value { return e.wait(c, false) })
	method("waitAsync", 4, func(c goja.FunctionCall) goja.Value { return e.wait(c, true) })
	method("notify", 3, func(c goja.FunctionCall) goja.Value {
		v, i := e.access(c, true)
		count := math.Inf(1)
		if a := c.Argument(2); !goja.IsUndefined(a) {
			count = max(toIntegerOrInfinity(a.ToFloat()), 0)
		}
		if !e.isShared(v.obj) {
			return vm.ToValue(0)
		}
		addr := elemAddr(v, i)
		woken := 0
		atomicsMu.Lock()
		list := atomicWaiters[addr]
		for len(list) > 0 && float64(woken) < count {
			w := list[0]
			list = list[1:]
			w.done = true
			w.wake()
			woken++
		}
		if len(list) == 0 {
			delete(atomicWaiters, addr)
		} else {
			atomicWaiters[addr] = list
		}
		atomicsMu.Unlock()
		return vm.ToValue(woken)
	})
	_ = atomics.DefineDataPropertySymbol(goja.SymToStringTag, vm.ToValue("Atomics"), goja.FLAG_FALSE, goja.FLAG_TRUE, goja.FLAG_FALSE)

	out := vm.NewObject()
	_ = out.Set("SharedArrayBuffer", sab)
	_ = out.Set("Atomics", atomics)
	return out, nil
}

// sharedArrayBufferJS makes the constructor: only JS sees new.target.
const sharedArrayBufferJS = `(function (make) {
  return function SharedArrayBuffer(length) {
    if (new.target === undefined) throw new TypeError("Constructor SharedArrayBuffer requires 'new'");
    return make(length, new.target);
  };
})`

// newSharedArrayBufferCtor builds the SharedArrayBuffer constructor and
// prototype (byteLength, slice, growable, maxByteLength, grow) and sets
// e.isShared to its brand check.
func (e *atomicsEnv) newSharedArrayBufferCtor() *goja.Object {
	vm := e.vm
	brandSet, err := vm.New(vm.Get("WeakSet"))
	if err != nil {
		panic(err)
	}
	add, _ := goja.AssertFunction(brandSet.Get("add"))
	has, _ := goja.AssertFunction(brandSet.Get("has"))
	e.isShared = func(v goja.Value) bool {
		ta, ok := v.(*goja.Object)
		if !ok {
			return false
		}
		buf, err := e.buffer(ta)
		if err != nil {
			return false
		}
		res, err := has(brandSet, buf)
		return err == nil && res.ToBoolean()
	}
	var proto *goja.Object
	// make allocates the buffer for the JS constructor below: a Go
	// constructor cannot tell new X() from X() in goja, and Node throws
	// for the latter.
	mk := func(c goja.FunctionCall) goja.Value {
		n := toIntegerOrInfinity(c.Argument(0).ToFloat())
		if n < 0 || n > 1<<53-1 {
			panic(e.rangeError("Invalid array buffer length"))
		}
		if n > maxSharedBytes {
			// Go cannot recover from a failed huge allocation, so the
			// limit is checked first; V8 throws the same RangeError.
			panic(e.rangeError("Array buffer allocation failed"))
		}
		o := vm.ToValue(vm.NewArrayBuffer(make([]byte, int(n)))).(*goja.Object)
		p := proto
		if nt, ok := c.Argument(1).(*goja.Object); ok {
			if np, ok := nt.Get("prototype").(*goja.Object); ok {
				p = np
			}
		}
		_ = o.SetPrototype(p)
		if _, err := add(brandSet, o); err != nil {
			panic(err)
		}
		return o
	}
	prg, err := compileCached("node:internal/sharedarraybuffer", sharedArrayBufferJS, true)
	if err != nil {
		panic(err)
	}
	factory, err := vm.RunProgram(prg)
	if err != nil {
		panic(err)
	}
	build, _ := goja.AssertFunction(factory)
	ctorV, err := build(nil, vm.ToValue(mk))
	if err != nil {
		panic(err)
	}
	ctor := ctorV.(*goja.Object)
	proto = ctor.Get("prototype").(*goja.Object)
	_ = ctor.DefineAccessorPropertySymbol(goja.SymSpecies, vm.ToValue(func(c goja.FunctionCall) goja.Value { return c.This }), nil, goja.FLAG_TRUE, goja.FLAG_FALSE)

	abProto := vm.Get("ArrayBuffer").ToObject(vm).Get("prototype").ToObject(vm)
	slice, _ := goja.AssertFunction(abProto.Get("slice"))
	self := func(c goja.FunctionCall, method string) (*goja.Object, goja.ArrayBuffer) {
		o, ok := c.This.(*goja.Object)
		if ok {
			if res, err := has(brandSet, o); err == nil && res.ToBoolean() {
				return o, o.Export().(goja.ArrayBuffer)
			}
		}
		panic(vm.NewTypeError("Method SharedArrayBuffer.prototype." + method + " called on incompatible receiver " + e.describe(c.This)))
	}
	getter := func(name string, fn func(goja.FunctionCall) goja.Value) {
		_ = proto.DefineAccessorProperty(name, vm.ToValue(fn), nil, goja.FLAG_TRUE, goja.FLAG_FALSE)
	}
	getter("byteLength", func(c goja.FunctionCall) goja.Value {
		_, ab := self(c, "byteLength")
		return vm.ToValue(len(ab.Bytes()))
	})
	getter("maxByteLength", func(c goja.FunctionCall) goja.Value {
		_, ab := self(c, "maxByteLength")
		return vm.ToValue(len(ab.Bytes()))
	})
	getter("growable", func(c goja.FunctionCall) goja.Value {
		self(c, "growable")
		return vm.ToValue(false)
	})
	_ = proto.DefineDataProperty("slice", vm.ToValue(func(c goja.FunctionCall) goja.Value {
		o, _ := self(c, "slice")
		// ArrayBuffer.prototype.slice copies into a new buffer made by the
		// species constructor, which is SharedArrayBuffer here.
		v, err := slice(o, c.Arguments...)
		if err != nil {
			panic(err)
		}
		return v
	}), goja.FLAG_TRUE, goja.FLAG_TRUE, goja.FLAG_FALSE)
	_ = proto.DefineDataProperty("grow", vm.ToValue(func(c goja.FunctionCall) goja.Value {
		self(c, "grow")
		panic(vm.NewTypeError("SharedArrayBuffer.prototype.grow: this SharedArrayBuffer is not growable"))
	}), goja.FLAG_TRUE, goja.FLAG_TRUE, goja.FLAG_FALSE)
	_ = proto.DefineDataPropertySymbol(goja.SymToStringTag, vm.ToValue("SharedArrayBuffer"), goja.FLAG_FALSE, goja.FLAG_TRUE, goja.FLAG_FALSE)
	e.sharedProto = proto
	return ctor
}

func (e *atomicsEnv) rangeError(msg string) *goja.Object {
	o, err := e.vm.New(e.vm.Get("RangeError"), e.vm.ToValue(msg))
	if err != nil {
		panic(err)
	}
	return o
}

// describe is Object.prototype.toString of v, which V8's messages start with.
func (e *atomicsEnv) describe(v goja.Value) string {
	s, err := e.objToString(v)
	if err != nil {
		return v.String()
	}
	return s.String()
}

// access validates arguments 0 and 1 of an Atomics call: an integer typed
// array (Int32Array or BigInt64Array when waitable) and an index into it.
func (e *atomicsEnv) access(c goja.FunctionCall, waitable bool) (view, int64) {
	vm := e.vm
	ta := c.Argument(0)
	var kind elemKind
	ok := false
	if o, isObj := ta.(*goja.Object); isObj {
		if t, err := e.tag(o); err == nil {
			kind, ok = atomicKind(t.String())
		}
	}
	if !ok {
		panic(vm.NewTypeError(e.describe(ta) + " is not an integer typed array."))
	}
	if waitable && !kind.waitable {
		panic(vm.NewTypeError(e.describe(ta) + " is not an int32 or BigInt64 typed array."))
	}
	o := ta.(*goja.Object)
	bufV, _ := e.buffer(o)
	offV, _ := e.byteOffset(o)
	lenV, _ := e.length(o)
	ab, _ := bufV.Export().(goja.ArrayBuffer)
	v := view{kind: kind, n: lenV.ToInteger(), obj: ta}
	if b := ab.Bytes(); !ab.Detached() && int(offV.ToInteger()) <= len(b) {
		v.bytes = b[offV.ToInteger():]
	}
	idx := e.index(c.Argument(1), v.n)
	if int64(len(v.bytes)) < (idx+1)*int64(kind.size) {
		panic(vm.NewTypeError("Cannot perform Atomics operation on a detached ArrayBuffer"))
	}
	return v, idx
}

// index is ToIndex(arg) checked against n elements.
func (e *atomicsEnv) index(arg goja.Value, n int64) int64 {
	f := 0.0
	if !goja.IsUndefined(arg) {
		f = toIntegerOrInfinity(arg.ToFloat())
	}
	if f < 0 || f >= float64(n) {
		panic(e.rangeError("Invalid atomic access index"))
	}
	return int64(f)
}

// operand converts a value to store: ToBigInt for the BigInt arrays,
// ToIntegerOrInfinity for the others. ret is what Atomics.store returns.
func (e *atomicsEnv) operand(kind elemKind, v goja.Value, wantRet bool) (bits uint64, ret goja.Value) {
	if kind.bigint {
		x := toBigInt(e.vm, v)
		bits = bigIntBits(x)
		if wantRet {
			ret = e.vm.ToValue(x)
		}
		return bits, ret
	}
	f := toIntegerOrInfinity(v.ToFloat())
	if wantRet {
		ret = e.vm.ToValue(f)
	}
	return modular64(f), ret
}

// bigIntBits is x modulo 2^64 (BigInt.asUintN(64, x)).
func bigIntBits(x *big.Int) uint64 {
	return new(big.Int).And(x, new(big.Int).SetUint64(math.MaxUint64)).Uint64()
}

// toBigInt is the spec's ToBigInt: BigInts, booleans and numeric strings
// convert; a Number is a TypeError, as in V8.
func toBigInt(vm *goja.Runtime, v goja.Value) *big.Int {
	switch x := v.Export().(type) {
	case *big.Int:
		return x
	case bool:
		if x {
			return big.NewInt(1)
		}
		return big.NewInt(0)
	case string:
		b, err := vm.RunString("BigInt")
		if err == nil {
			if fn, ok := goja.AssertFunction(b); ok {
				r, err := fn(nil, v)
				if err != nil {
					panic(err)
				}
				return r.Export().(*big.Int)
			}
		}
	}
	if _, isObj := v.(*goja.Object); isObj {
		// ToPrimitive first, as the spec does: an object with valueOf
		// returning a BigInt converts.
		prim := v.ToObject(vm)
		if fn, ok := goja.AssertFunction(prim.Get("valueOf")); ok {
			if r, err := fn(prim); err == nil && r != v {
				return toBigInt(vm, r)
			}
		}
	}
	panic(vm.NewTypeError("Cannot convert " + v.String() + " to a BigInt"))
}

// toIntegerOrInfinity is the spec operation on a Number.
func toIntegerOrInfinity(f float64) float64 {
	if math.IsNaN(f) || f == 0 {
		return 0
	}
	if math.IsInf(f, 0) {
		return f
	}
	return math.Trunc(f)
}

// modular64 is an integral Number modulo 2^64, the bits that ToInt8 …
// ToUint32 then truncate (NaN and the infinities give 0).
func modular64(f float64) uint64 {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return 0
	}
	f = math.Trunc(f)
	if f >= -(1<<63) && f < 1<<63 {
		return uint64(int64(f)) // exact, and two's complement for negatives
	}
	f = math.Mod(f, 1<<64)
	if f < 0 {
		f += 1 << 64 // exact: f is a multiple of 2^11 at this magnitude
	}
	if f >= 1<<63 {
		return uint64(f-(1<<63)) | 1<<63
	}
	return uint64(f)
}

func truncBits(k elemKind, x uint64) uint64 {
	if k.size == 8 {
		return x
	}
	return x & (1<<(8*k.size) - 1)
}

// loadElem reads element i's bits, zero-extended.
func loadElem(v view, i int64) uint64 {
	b := v.bytes[i*int64(v.kind.size):]
	switch v.kind.size {
	case 1:
		return uint64(b[0])
	case 2:
		return uint64(binary.NativeEndian.Uint16(b))
	case 4:
		return uint64(binary.NativeEndian.Uint32(b))
	default:
		return binary.NativeEndian.Uint64(b)
	}
}

func storeElem(v view, i int64, x uint64) {
	b := v.bytes[i*int64(v.kind.size):]
	switch v.kind.size {
	case 1:
		b[0] = byte(x)
	case 2:
		binary.NativeEndian.PutUint16(b, uint16(x))
	case 4:
		binary.NativeEndian.PutUint32(b, uint32(x))
	default:
		binary.NativeEndian.PutUint64(b, x)
	}
}

func elemAddr(v view, i int64) uintptr {
	return uintptr(unsafe.Pointer(&v.bytes[i*int64(v.kind.size)]))
}

// toJS converts element bits to the array's JS value.
func (e *atomicsEnv) toJS(k elemKind, x uint64) goja.Value {
	vm := e.vm
	switch {
	case k.bigint && k.signed:
		return vm.ToValue(big.NewInt(int64(x)))
	case k.bigint:
		return vm.ToValue(new(big.Int).SetUint64(x))
	case k.signed:
		shift := 64 - 8*k.size
		return vm.ToValue(int64(x<<shift) >> shift)
	default:
		return vm.ToValue(x)
	}
}

// wait is Atomics.wait (blocking this goroutine, which Node allows on its
// main thread too) and Atomics.waitAsync (a promise settled on the loop).
func (e *atomicsEnv) wait(c goja.FunctionCall, async bool) goja.Value {
	vm := e.vm
	v, i := e.access(c, true)
	if !e.isShared(v.obj) {
		panic(vm.NewTypeError(e.describe(v.obj) + " is not a shared typed array."))
	}
	want, _ := e.operand(v.kind, c.Argument(2), false)
	want = truncBits(v.kind, want)
	timeout := math.Inf(1)
	if a := c.Argument(3); !goja.IsUndefined(a) {
		if t := a.ToFloat(); !math.IsNaN(t) {
			timeout = max(t, 0)
		}
	}
	result := func(async bool, value any) goja.Value {
		o := vm.NewObject()
		_ = o.Set("async", async)
		_ = o.Set("value", value)
		return o
	}
	addr := elemAddr(v, i)
	atomicsMu.Lock()
	if loadElem(v, i) != want {
		atomicsMu.Unlock()
		if async {
			return result(false, "not-equal")
		}
		return vm.ToValue("not-equal")
	}
	if async && timeout == 0 {
		atomicsMu.Unlock()
		return result(false, "timed-out")
	}
	w := &atomicWaiter{}
	var woken chan struct{}
	var promise *goja.Promise
	var resolve func(any) error
	if async {
		promise, resolve, _ = vm.NewPromise()
		loop := e.r.loop
		// Node does not keep the process alive for a pending waitAsync,
		// so neither does the loop: no reservation, just a queued task.
		w.wake = func() { loop.RunOnLoop(func(*goja.Runtime) { _ = resolve("ok") }) }
	} else {
		woken = make(chan struct{})
		w.wake = func() { close(woken) }
	}
	if atomicWaiters == nil {
		atomicWaiters = map[uintptr][]*atomicWaiter{}
	}
	atomicWaiters[addr] = append(atomicWaiters[addr], w)
	atomicsMu.Unlock()

	// timedOut removes w if notify has not taken it yet; it reports
	// whether the wait ended by its timeout.
	timedOut := func() bool {
		atomicsMu.Lock()
		defer atomicsMu.Unlock()
		if w.done {
			return false
		}
		w.done = true
		list := atomicWaiters[addr]
		for j, x := range list {
			if x == w {
				list = append(list[:j:j], list[j+1:]...)
				break
			}
		}
		if len(list) == 0 {
			delete(atomicWaiters, addr)
		} else {
			atomicWaiters[addr] = list
		}
		return true
	}
	if async {
		if !math.IsInf(timeout, 1) {
			loop := e.r.loop
			time.AfterFunc(time.Duration(timeout*float64(time.Millisecond)), func() {
				if timedOut() {
					loop.RunOnLoop(func(*goja.Runtime) { _ = resolve("timed-out") })
				}
			})
		}
		return result(true, promise)
	}
	// A blocked wait is outside goja, where the loop's watchdog cannot
	// interrupt it, and with no other thread to notify, a long wait would
	// hang the host. So it blocks at most one watchdog period (the task
	// began before the wait, so by then the watchdog has fired) and then
	// ends as a runaway script does: interrupted on its next instruction.
	limit := e.r.loop.watchdog
	d := time.Duration(limit)
	capped := true
	if ms := timeout * float64(time.Millisecond); ms < float64(limit) {
		d, capped = time.Duration(ms), false
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-woken:
		return vm.ToValue("ok")
	case <-t.C:
		if !timedOut() {
			return vm.ToValue("ok")
		}
		if capped {
			vm.Interrupt(&WatchdogError{Limit: limit})
		}
		return vm.ToValue("timed-out")
	}
}
