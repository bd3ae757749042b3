package jsruntime

import (
	"context"
	_ "embed"
	"errors"
	"fmt"
	"math"
	"math/big"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"time"
	"unsafe"

	"github.com/dop251/goja"
	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/api"
	"github.com/tetratelabs/wazero/experimental"
)

// WebAssembly is the JS API over wazero. The namespace (wasm.js) is built
// the first time a script touches globalThis.WebAssembly, and wazero's
// runtime when the first module is compiled, so a start that never uses
// WebAssembly pays for neither. Wasm runs synchronously on the loop
// goroutine, as JS expects; wazero compiles to machine code where it can
// and interprets elsewhere, and nothing is cached across processes.
//
// wazero links imports by module name, and its host modules export only
// functions, while a JS import object hands an instance any mix of
// functions, memories, globals and tables. So each instantiation makes an
// anonymous host module holding its JS functions and, for each import
// module name, a small anonymous glue module that imports every value from
// where it lives (the host module, the module behind a Memory or Global,
// another instance) and re-exports it under the name the instance asks
// for; wazero's import resolver points the instance at the glue.

//go:embed wasm.js
var wasmJS string

type wasmEnv struct {
	r   *Runtime
	vm  *goja.Runtime
	ctx context.Context
	rt  wazero.Runtime // nil until the first compile

	compileError, linkError, runtimeError goja.Value
	wrapMemory, wrapGlobal, wrapTable     goja.Callable
	unwrap                                goja.Callable

	memories map[api.Memory]*wasmMemory
	globals  map[api.Global]*wasmGlobal

	// pending is what a JS import threw (or any panic in the host side of
	// a call): wazero turns it into an error, and the call that started
	// the wasm rethrows the original.
	pending any
	// depth counts the wasm calls on the stack (JS → wasm → JS → wasm …).
	// All run under callCtx, which the watchdog timer cancels when the
	// outermost one outlives the loop's watchdog period: wazero then stops
	// the call (closing the instance, as a runaway deserves). One context
	// serves every call until it is cancelled, so a call costs arming a
	// timer, not a new context.
	depth    int
	callCtx  context.Context
	wdMu     sync.Mutex // guards cancel and wdGen against the timer
	cancel   context.CancelFunc
	wdGen    uint64
	watchdog *time.Timer
	// externs holds the JS values passed to wasm as externref; the
	// reference is the index plus one, 0 being null.
	externs []goja.Value
}

type wasmModule struct {
	compiled wazero.CompiledModule
	imports  []wasmImport
	exports  []wasmExport
}

type wasmMemory struct {
	owner api.Module // the module defining the memory
	name  string     // its export name there
	mem   api.Memory
	js    *goja.Object
	// The ArrayBuffer last handed out as buffer, and the bytes it covers:
	// when wasm (or grow) moves or resizes the memory, it is detached and
	// a new one made.
	ab    goja.ArrayBuffer
	abObj goja.Value
	abPtr *byte
	abLen int
}

type wasmGlobal struct {
	owner api.Module
	name  string
	g     api.Global
	js    *goja.Object
}

type wasmTable struct {
	owner api.Module
	name  string // its export name there
	index uint32 // in the owner's table index space
	js    *goja.Object
}

// newWebAssemblyGlobal builds {WebAssembly} for lazyGlobals.
func (r *Runtime) newWebAssemblyGlobal() (goja.Value, error) {
	vm := r.vm
	w := &wasmEnv{r: r, vm: vm, ctx: context.Background(), memories: map[api.Memory]*wasmMemory{}, globals: map[api.Global]*wasmGlobal{}}
	prim := vm.NewObject()
	set := func(name string, fn func(goja.FunctionCall) goja.Value) { _ = prim.Set(name, fn) }
	set("init", func(c goja.FunctionCall) goja.Value {
		o := c.Argument(0).ToObject(vm)
		w.compileError, w.linkError, w.runtimeError = o.Get("CompileError"), o.Get("LinkError"), o.Get("RuntimeError")
		w.wrapMemory, _ = goja.AssertFunction(o.Get("wrapMemory"))
		w.wrapGlobal, _ = goja.AssertFunction(o.Get("wrapGlobal"))
		w.wrapTable, _ = goja.AssertFunction(o.Get("wrapTable"))
		w.unwrap, _ = goja.AssertFunction(o.Get("unwrap"))
		return goja.Undefined()
	})
	set("compile", func(c goja.FunctionCall) goja.Value {
		m, err := w.compile(bytesOf(vm, c.Argument(0)))
		if err != nil {
			panic(w.newError(w.compileError, c.Argument(1).String()+": "+err.Error()))
		}
		return vm.ToValue(m)
	})
	set("validate", func(c goja.FunctionCall) goja.Value {
		m, err := w.compile(bytesOf(vm, c.Argument(0)))
		if err == nil {
			_ = m.compiled.Close(w.ctx)
		}
		return vm.ToValue(err == nil)
	})
	set("moduleImports", func(c goja.FunctionCall) goja.Value {
		m := c.Argument(0).Export().(*wasmModule)
		out := make([]any, 0, len(m.imports))
		for _, im := range m.imports {
			out = append(out, map[string]any{"module": im.module, "name": im.name, "kind": wasmKindNames[im.kind]})
		}
		return w.plainArray(out, []string{"module", "name", "kind"})
	})
	set("moduleExports", func(c goja.FunctionCall) goja.Value {
		m := c.Argument(0).Export().(*wasmModule)
		out := make([]any, 0, len(m.exports))
		for _, ex := range m.exports {
			out = append(out, map[string]any{"name": ex.name, "kind": wasmKindNames[ex.kind]})
		}
		return w.plainArray(out, []string{"name", "kind"})
	})
	set("customSections", func(c goja.FunctionCall) goja.Value {
		m := c.Argument(0).Export().(*wasmModule)
		name := c.Argument(1).String()
		var out []any
		for _, s := range m.compiled.CustomSections() {
			if s.Name() == name {
				out = append(out, vm.NewArrayBuffer(append([]byte(nil), s.Data()...)))
			}
		}
		return vm.NewArray(out...)
	})
	set("instantiate", func(c goja.FunctionCall) goja.Value {
		return w.instantiate(c.Argument(0).Export().(*wasmModule), c.Argument(1), c.Argument(2).String())
	})
	set("newMemory", func(c goja.FunctionCall) goja.Value {
		m, err := w.newMemory(uint32(c.Argument(1).ToInteger()), c.Argument(2).ToInteger())
		if err != nil {
			panic(w.rangeError("WebAssembly.Memory(): could not allocate memory: " + err.Error()))
		}
		m.js = c.Argument(0).(*goja.Object)
		return vm.ToValue(m)
	})
	set("memoryBuffer", func(c goja.FunctionCall) goja.Value {
		return w.memoryBuffer(c.Argument(0).Export().(*wasmMemory))
	})
	set("memoryGrow", func(c goja.FunctionCall) goja.Value {
		m := c.Argument(0).Export().(*wasmMemory)
		delta := c.Argument(1).ToInteger()
		if delta > math.MaxUint32 {
			panic(w.rangeError("WebAssembly.Memory.grow(): Maximum memory size exceeded"))
		}
		prev, ok := m.mem.Grow(uint32(delta))
		if !ok {
			panic(w.rangeError("WebAssembly.Memory.grow(): Maximum memory size exceeded"))
		}
		// Growing, even by zero pages, detaches the old buffer.
		w.detachBuffer(m)
		return vm.ToValue(prev)
	})
	set("newGlobal", func(c goja.FunctionCall) goja.Value {
		vt := wasmValueType(c.Argument(1).String())
		var bits uint64
		if c.Argument(4).ToBoolean() {
			bits = w.toWasm(vt, c.Argument(3))
		} else if vt == api.ValueTypeExternref {
			bits = w.toWasm(vt, goja.Undefined())
		}
		g, err := w.newGlobal(vt, c.Argument(2).ToBoolean(), bits)
		if err != nil {
			panic(vm.NewTypeError("WebAssembly.Global(): " + err.Error()))
		}
		g.js = c.Argument(0).(*goja.Object)
		return vm.ToValue(g)
	})
	set("globalGet", func(c goja.FunctionCall) goja.Value {
		g := c.Argument(0).Export().(*wasmGlobal)
		return w.toJS(g.g.Type(), g.g.Get())
	})
	set("globalSet", func(c goja.FunctionCall) goja.Value {
		g := c.Argument(0).Export().(*wasmGlobal)
		mg, ok := g.g.(api.MutableGlobal)
		if !ok {
			panic(vm.NewTypeError("set WebAssembly.Global.value: Can't set the value of an immutable global."))
		}
		mg.Set(w.toWasm(g.g.Type(), c.Argument(1)))
		return goja.Undefined()
	})
	set("tableLength", func(c goja.FunctionCall) goja.Value {
		t := c.Argument(0).Export().(*wasmTable)
		n, err := wasmTableLength(t.owner, t.index)
		if err != nil {
			panic(vm.NewTypeError("WebAssembly.Table.length: " + err.Error()))
		}
		return vm.ToValue(n)
	})

	prg, err := compileCached("node:internal/wasm", wasmJS, true)
	if err != nil {
		return nil, err
	}
	factory, err := vm.RunProgram(prg)
	if err != nil {
		return nil, err
	}
	build, ok := goja.AssertFunction(factory)
	if !ok {
		return nil, errors.New("wasm.js does not evaluate to a function")
	}
	return build(nil, prim)
}

// watchdogError ends a wasm call the watchdog stopped: the script is
// interrupted, as a runaway JS loop is, and the next call gets a fresh
// context.
func (w *wasmEnv) watchdogError() *goja.Object {
	w.pending = nil
	limit := w.r.loop.watchdog
	w.vm.Interrupt(&WatchdogError{Limit: limit})
	return w.newError(w.runtimeError, (&WatchdogError{Limit: limit}).Error())
}

// armWatchdog starts the watchdog period of an outermost wasm call.
func (w *wasmEnv) armWatchdog() {
	w.wdMu.Lock()
	defer w.wdMu.Unlock()
	w.wdGen++
	if w.callCtx == nil || w.callCtx.Err() != nil {
		w.callCtx, w.cancel = context.WithCancel(w.ctx)
	}
	gen := w.wdGen
	if w.watchdog == nil {
		w.watchdog = time.AfterFunc(w.r.loop.watchdog, func() { w.fireWatchdog(gen) })
		return
	}
	w.watchdog.Stop()
	w.watchdog = time.AfterFunc(w.r.loop.watchdog, func() { w.fireWatchdog(gen) })
}

// disarmWatchdog ends the period; a timer already firing sees a newer
// generation and leaves the context alone.
func (w *wasmEnv) disarmWatchdog() {
	w.wdMu.Lock()
	defer w.wdMu.Unlock()
	w.wdGen++
	w.watchdog.Stop()
}

func (w *wasmEnv) fireWatchdog(gen uint64) {
	w.wdMu.Lock()
	defer w.wdMu.Unlock()
	if w.wdGen == gen {
		w.cancel()
	}
}

// runtime starts wazero on first use.
func (w *wasmEnv) runtime() wazero.Runtime {
	if w.rt == nil {
		w.rt = wazero.NewRuntimeWithConfig(w.ctx, wazero.NewRuntimeConfig().WithCustomSections(true).WithCloseOnContextDone(true))
	}
	return w.rt
}

func (w *wasmEnv) compile(b []byte) (*wasmModule, error) {
	b = append([]byte(nil), b...) // the caller may change its buffer later
	compiled, err := w.runtime().CompileModule(w.ctx, b)
	if err != nil {
		return nil, err
	}
	imports, exports, err := parseWasmInterface(b)
	if err != nil {
		_ = compiled.Close(w.ctx)
		return nil, err
	}
	return &wasmModule{compiled: compiled, imports: imports, exports: exports}, nil
}

// plainArray makes an array of plain objects whose keys are in the
// given order (a Go map would not keep it).
func (w *wasmEnv) plainArray(items []any, keys []string) goja.Value {
	vals := make([]any, len(items))
	for i, it := range items {
		o := w.vm.NewObject()
		m := it.(map[string]any)
		for _, k := range keys {
			_ = o.Set(k, m[k])
		}
		vals[i] = o
	}
	return w.vm.NewArray(vals...)
}

func (w *wasmEnv) newError(ctor goja.Value, msg string) *goja.Object {
	o, err := w.vm.New(ctor, w.vm.ToValue(msg))
	if err != nil {
		panic(err)
	}
	return o
}

func (w *wasmEnv) rangeError(msg string) *goja.Object {
	return w.newError(w.vm.Get("RangeError"), msg)
}

// instantiateAnon instantiates a module under no name (so any number of
// instances coexist) without running _start, which is WASI's business and
// not the JS API's; the start section still runs.
func (w *wasmEnv) instantiateAnon(ctx context.Context, compiled wazero.CompiledModule) (api.Module, error) {
	return w.runtime().InstantiateModule(ctx, compiled, wazero.NewModuleConfig().WithName("").WithStartFunctions())
}

func (w *wasmEnv) instantiateBytes(ctx context.Context, b []byte) (api.Module, error) {
	compiled, err := w.runtime().CompileModule(ctx, b)
	if err != nil {
		return nil, err
	}
	return w.instantiateAnon(ctx, compiled)
}

func (w *wasmEnv) newMemory(initial uint32, maximum int64) (*wasmMemory, error) {
	mod, err := w.instantiateBytes(w.ctx, memoryModuleWasm(initial, maximum))
	if err != nil {
		return nil, err
	}
	m := &wasmMemory{owner: mod, name: "m", mem: mod.ExportedMemory("m")}
	w.memories[m.mem] = m
	return m, nil
}

func (w *wasmEnv) newGlobal(vt api.ValueType, mutable bool, bits uint64) (*wasmGlobal, error) {
	mod, err := w.instantiateBytes(w.ctx, globalModuleWasm(vt, mutable, bits))
	if err != nil {
		return nil, err
	}
	g := &wasmGlobal{owner: mod, name: "g", g: mod.ExportedGlobal("g")}
	w.globals[g.g] = g
	return g, nil
}

// memoryBuffer is Memory.prototype.buffer: an ArrayBuffer over the wasm
// memory's own bytes (no copy), the same object until the memory grows.
func (w *wasmEnv) memoryBuffer(m *wasmMemory) goja.Value {
	b, _ := m.mem.Read(0, m.mem.Size())
	if m.abObj != nil && len(b) == m.abLen && unsafe.SliceData(b) == m.abPtr {
		return m.abObj
	}
	w.detachBuffer(m)
	m.ab = w.vm.NewArrayBuffer(b)
	m.abObj = w.vm.ToValue(m.ab)
	m.abPtr, m.abLen = unsafe.SliceData(b), len(b)
	return m.abObj
}

func (w *wasmEnv) detachBuffer(m *wasmMemory) {
	if m.abObj != nil {
		m.ab.Detach()
		m.abObj = nil
	}
}

// memoryObject is the JS Memory for a wasm memory, made once per memory.
func (w *wasmEnv) memoryObject(owner api.Module, name string, mem api.Memory) goja.Value {
	m := w.memories[mem]
	if m == nil {
		m = &wasmMemory{owner: owner, name: name, mem: mem}
		w.memories[mem] = m
	}
	if m.js == nil {
		v, err := w.wrapMemory(nil, w.vm.ToValue(m))
		if err != nil {
			panic(err)
		}
		m.js = v.(*goja.Object)
	}
	return m.js
}

func (w *wasmEnv) globalObject(owner api.Module, name string, g api.Global) goja.Value {
	h := w.globals[g]
	if h == nil {
		h = &wasmGlobal{owner: owner, name: name, g: g}
		w.globals[g] = h
	}
	if h.js == nil {
		v, err := w.wrapGlobal(nil, w.vm.ToValue(h))
		if err != nil {
			panic(err)
		}
		h.js = v.(*goja.Object)
	}
	return h.js
}

// wasmTableLength reads a table's current length. wazero's API has no
// table access, so this reads its module instance's exported Tables
// field by reflection and fails cleanly if that ever changes.
func wasmTableLength(mod api.Module, index uint32) (int, error) {
	v := reflect.ValueOf(mod)
	for v.Kind() == reflect.Interface || v.Kind() == reflect.Pointer {
		if v.IsNil() {
			return 0, errors.New("no module")
		}
		v = v.Elem()
	}
	if v.Kind() != reflect.Struct {
		return 0, errors.New("table length is not available")
	}
	tables := v.FieldByName("Tables")
	if !tables.IsValid() || tables.Kind() != reflect.Slice || int(index) >= tables.Len() {
		return 0, errors.New("table length is not available")
	}
	t := tables.Index(int(index))
	for t.Kind() == reflect.Pointer {
		if t.IsNil() {
			return 0, errors.New("table length is not available")
		}
		t = t.Elem()
	}
	refs := t.FieldByName("References")
	if !refs.IsValid() || refs.Kind() != reflect.Slice {
		return 0, errors.New("table length is not available")
	}
	return refs.Len(), nil
}

// importError builds the LinkError (or TypeError) for import #i.
func (w *wasmEnv) importError(ctor goja.Value, apiName string, i int, im wasmImport, msg string) *goja.Object {
	return w.newError(ctor, fmt.Sprintf("%s: Import #%d %q %q: %s", apiName, i, im.module, im.name, msg))
}

// instantiate links m against a JS import object and returns its exports
// as [name, value] pairs in export order.
func (w *wasmEnv) instantiate(m *wasmModule, importObject goja.Value, apiName string) goja.Value {
	vm := w.vm
	ctx := w.ctx
	if len(m.imports) > 0 {
		if _, ok := importObject.(*goja.Object); !ok {
			panic(vm.NewTypeError(apiName + ": Imports argument must be present and must be an object"))
		}
	}
	fnDefs := m.compiled.ImportedFunctions()
	// The name only satisfies the builder: the instance is anonymous.
	host := w.runtime().NewHostModuleBuilder("js")
	hostFuncs := 0
	owners := map[string]api.Module{}
	glue := map[string][]glueItem{}
	var order []string
	seen := map[[2]string]bool{}
	fi := 0
	for i, im := range m.imports {
		modV := importObject.(*goja.Object).Get(im.module)
		modObj, ok := modV.(*goja.Object)
		if !ok {
			panic(vm.NewTypeError(fmt.Sprintf("%s: Import #%d %q: module is not an object or function", apiName, i, im.module)))
		}
		v := modObj.Get(im.name)
		if v == nil {
			v = goja.Undefined()
		}
		key := [2]string{im.module, im.name}
		item := glueItem{name: im.name, kind: im.kind}
		switch im.kind {
		case wasmKindFunc:
			def := fnDefs[fi]
			fi++
			fn, ok := goja.AssertFunction(v)
			if !ok {
				panic(w.importError(w.linkError, apiName, i, im, "function import requires a callable"))
			}
			field := "f" + strconv.Itoa(hostFuncs)
			hostFuncs++
			params, results := def.ParamTypes(), def.ResultTypes()
			host.NewFunctionBuilder().WithGoModuleFunction(w.hostFunc(fn, params, results), params, results).Export(field)
			item.src, item.field = "h", field
			item.params, item.results = params, results
		case wasmKindMemory:
			mem, _ := w.unwrapValue(v).(*wasmMemory)
			if mem == nil {
				panic(w.importError(w.linkError, apiName, i, im, "memory import must be a WebAssembly.Memory object"))
			}
			src := "o" + strconv.Itoa(i)
			owners[src] = mem.owner
			item.src, item.field, item.shared = src, mem.name, im.shared
		case wasmKindGlobal:
			g, _ := w.unwrapValue(v).(*wasmGlobal)
			if g == nil {
				if im.mutable {
					panic(w.importError(w.linkError, apiName, i, im, "imported mutable global must be a WebAssembly.Global object"))
				}
				if _, isObj := v.(*goja.Object); isObj || goja.IsUndefined(v) {
					panic(w.importError(w.linkError, apiName, i, im, "global import must be a number, valid Wasm reference, or WebAssembly.Global object"))
				}
				var err error
				if g, err = w.newGlobal(im.valType, false, w.toWasm(im.valType, v)); err != nil {
					panic(w.importError(w.linkError, apiName, i, im, err.Error()))
				}
			} else if g.g.Type() != im.valType {
				panic(w.importError(w.linkError, apiName, i, im, "imported global does not match the expected type"))
			} else if _, mut := g.g.(api.MutableGlobal); mut != im.mutable {
				panic(w.importError(w.linkError, apiName, i, im, "imported global does not match the expected mutability"))
			}
			src := "o" + strconv.Itoa(i)
			owners[src] = g.owner
			item.src, item.field, item.valType, item.mutable = src, g.name, im.valType, im.mutable
		case wasmKindTable:
			t, _ := w.unwrapValue(v).(*wasmTable)
			if t == nil {
				panic(w.importError(w.linkError, apiName, i, im, "table import requires a WebAssembly.Table"))
			}
			src := "o" + strconv.Itoa(i)
			owners[src] = t.owner
			item.src, item.valType = src, im.valType
			item.field = t.name
		default:
			panic(w.importError(w.linkError, apiName, i, im, "tag imports are not supported"))
		}
		if seen[key] {
			continue // imported twice: wazero resolves both to one export
		}
		seen[key] = true
		if _, ok := glue[im.module]; !ok {
			order = append(order, im.module)
		}
		glue[im.module] = append(glue[im.module], item)
	}

	resolved := map[string]api.Module{}
	if len(order) > 0 {
		compiledHost, err := host.Compile(ctx)
		if err != nil {
			panic(w.newError(w.linkError, apiName+": "+err.Error()))
		}
		hostMod, err := w.instantiateAnon(ctx, compiledHost)
		if err != nil {
			panic(w.newError(w.linkError, apiName+": "+err.Error()))
		}
		owners["h"] = hostMod
		gctx := experimental.WithImportResolver(ctx, func(name string) api.Module { return owners[name] })
		for _, name := range order {
			g, err := w.instantiateBytes(gctx, glueModuleWasm(glue[name]))
			if err != nil {
				panic(w.newError(w.linkError, fmt.Sprintf("%s: import module %q: %v", apiName, name, err)))
			}
			resolved[name] = g
		}
	}
	// The start function runs here, under the watchdog like any call.
	if w.depth == 0 {
		w.armWatchdog()
	}
	ictx := experimental.WithImportResolver(w.callCtx, func(name string) api.Module { return resolved[name] })
	w.depth++
	inst, err := w.instantiateAnon(ictx, m.compiled)
	w.depth--
	if w.depth == 0 {
		w.disarmWatchdog()
	}
	if err != nil {
		if ictx.Err() != nil {
			panic(w.watchdogError())
		}
		if p := w.pending; p != nil {
			w.pending = nil
			panic(p)
		}
		if strings.Contains(err.Error(), "wasm error:") {
			panic(w.trapError(err))
		}
		panic(w.newError(w.linkError, apiName+": "+err.Error()))
	}

	exportedFns := m.compiled.ExportedFunctions()
	pairs := make([]any, 0, len(m.exports))
	for _, ex := range m.exports {
		var v goja.Value
		switch ex.kind {
		case wasmKindFunc:
			v = w.exportFunc(inst, ex.name, exportedFns[ex.name])
		case wasmKindMemory:
			v = w.memoryObject(inst, ex.name, inst.ExportedMemory(ex.name))
		case wasmKindGlobal:
			v = w.globalObject(inst, ex.name, inst.ExportedGlobal(ex.name))
		case wasmKindTable:
			t := &wasmTable{owner: inst, name: ex.name, index: ex.index}
			tv, err := w.wrapTable(nil, vm.ToValue(t))
			if err != nil {
				panic(err)
			}
			t.js = tv.(*goja.Object)
			v = tv
		default:
			v = goja.Undefined()
		}
		pairs = append(pairs, vm.NewArray(ex.name, v))
	}
	return vm.NewArray(pairs...)
}

func (w *wasmEnv) unwrapValue(v goja.Value) any {
	h, err := w.unwrap(nil, v)
	if err != nil || h == nil || goja.IsUndefined(h) {
		return nil
	}
	return h.Export()
}

// hostFunc calls a JS function from wasm.
func (w *wasmEnv) hostFunc(fn goja.Callable, params, results []api.ValueType) api.GoModuleFunction {
	return api.GoModuleFunc(func(_ context.Context, _ api.Module, stack []uint64) {
		defer func() {
			if p := recover(); p != nil {
				w.pending = p
				panic(errJSImportThrew{})
			}
		}()
		args := make([]goja.Value, len(params))
		for i, t := range params {
			args[i] = w.toJS(t, stack[i])
		}
		res, err := fn(goja.Undefined(), args...)
		if err != nil {
			panic(err)
		}
		switch len(results) {
		case 0:
		case 1:
			stack[0] = w.toWasm(results[0], res)
		default:
			o, ok := res.(*goja.Object)
			if !ok {
				panic(w.vm.NewTypeError("multi-return value must be iterable"))
			}
			arr := w.vm.Get("Array").ToObject(w.vm)
			from, _ := goja.AssertFunction(arr.Get("from"))
			list, err := from(arr, o)
			if err != nil {
				panic(err)
			}
			lo := list.ToObject(w.vm)
			if lo.Get("length").ToInteger() != int64(len(results)) {
				panic(w.vm.NewTypeError("multi-return length mismatch"))
			}
			for i, t := range results {
				stack[i] = w.toWasm(t, lo.Get(strconv.Itoa(i)))
			}
		}
	})
}

// errJSImportThrew unwinds wazero from a host function whose JS threw;
// the original exception is in wasmEnv.pending.
type errJSImportThrew struct{}

func (errJSImportThrew) Error() string { return "a JavaScript import threw" }

// exportFunc wraps an exported wasm function for JS: its name is its
// function index and its length its parameter count, as in V8.
func (w *wasmEnv) exportFunc(inst api.Module, name string, def api.FunctionDefinition) goja.Value {
	vm := w.vm
	params, results := def.ParamTypes(), def.ResultTypes()
	fn := inst.ExportedFunction(name)
	busy := false
	call := func(c goja.FunctionCall) goja.Value {
		f := fn
		if busy {
			// wazero's function handles are not reentrant: a wasm call
			// that reaches JS, which calls the same export again, gets
			// a fresh one.
			f = inst.ExportedFunction(name)
		} else {
			busy = true
			defer func() { busy = false }()
		}
		stack := make([]uint64, max(len(params), len(results)))
		for i, t := range params {
			stack[i] = w.toWasm(t, c.Argument(i))
		}
		if w.depth == 0 {
			w.armWatchdog()
		}
		ctx := w.callCtx
		w.depth++
		err := f.CallWithStack(ctx, stack)
		w.depth--
		if w.depth == 0 {
			w.disarmWatchdog()
		}
		if err != nil {
			if ctx.Err() != nil {
				panic(w.watchdogError())
			}
			if p := w.pending; p != nil {
				w.pending = nil
				panic(p)
			}
			panic(w.trapError(err))
		}
		switch len(results) {
		case 0:
			return goja.Undefined()
		case 1:
			return w.toJS(results[0], stack[0])
		}
		out := make([]any, len(results))
		for i, t := range results {
			out[i] = w.toJS(t, stack[i])
		}
		return vm.NewArray(out...)
	}
	f := vm.ToValue(call).(*goja.Object)
	_ = f.DefineDataProperty("name", vm.ToValue(strconv.Itoa(int(def.Index()))), goja.FLAG_FALSE, goja.FLAG_TRUE, goja.FLAG_FALSE)
	_ = f.DefineDataProperty("length", vm.ToValue(len(params)), goja.FLAG_FALSE, goja.FLAG_TRUE, goja.FLAG_FALSE)
	return f
}

// wasmTrapMessage maps wazero's trap texts to V8's.
func wasmTrapMessage(msg string) string {
	switch msg {
	case "integer divide by zero":
		return "divide by zero"
	case "integer overflow":
		return "divide result unrepresentable"
	case "invalid conversion to integer":
		return "float unrepresentable in integer range"
	case "out of bounds memory access":
		return "memory access out of bounds"
	case "invalid table access":
		return "table index is out of bounds"
	case "indirect call type mismatch":
		return "null function or function signature mismatch"
	case "null reference":
		return "dereferencing a null pointer"
	case "unaligned atomic":
		return "operation does not support unaligned accesses"
	}
	return msg
}

// trapError turns a failed wasm call into V8's RuntimeError (RangeError
// for a stack overflow).
func (w *wasmEnv) trapError(err error) *goja.Object {
	msg := err.Error()
	if i := strings.Index(msg, "wasm error: "); i >= 0 {
		msg = msg[i+len("wasm error: "):]
	}
	if i := strings.IndexByte(msg, '\n'); i >= 0 {
		msg = msg[:i]
	}
	if msg == "stack overflow" {
		return w.rangeError("Maximum call stack size exceeded")
	}
	return w.newError(w.runtimeError, wasmTrapMessage(msg))
}

// wasmValueType is the type a Global descriptor names.
func wasmValueType(name string) api.ValueType {
	switch name {
	case "i32":
		return api.ValueTypeI32
	case "i64":
		return api.ValueTypeI64
	case "f32":
		return api.ValueTypeF32
	case "f64":
		return api.ValueTypeF64
	case "externref":
		return api.ValueTypeExternref
	}
	return wasmValueTypeFuncref
}

// toWasm is the JS API's ToWebAssemblyValue.
func (w *wasmEnv) toWasm(t api.ValueType, v goja.Value) uint64 {
	return wasmFromJS(w.vm, t, v, w.externRef)
}

func (w *wasmEnv) externRef(v goja.Value) uint64 {
	if goja.IsNull(v) {
		return 0
	}
	w.externs = append(w.externs, v)
	return uint64(len(w.externs))
}

// wasmFromJS converts v to the bits of a wasm value of type t: ToInt32 for
// i32, ToBigInt64 for i64 (a Number is a TypeError), ToNumber rounded to
// float32 for f32, ToNumber for f64.
func wasmFromJS(vm *goja.Runtime, t api.ValueType, v goja.Value, extern func(goja.Value) uint64) uint64 {
	switch t {
	case api.ValueTypeI32:
		return uint64(uint32(modular64(v.ToFloat())))
	case api.ValueTypeI64:
		return bigIntBits(toBigInt(vm, v))
	case api.ValueTypeF32:
		return api.EncodeF32(float32(v.ToFloat()))
	case api.ValueTypeF64:
		return api.EncodeF64(v.ToFloat())
	case api.ValueTypeExternref:
		return extern(v)
	case wasmValueTypeFuncref:
		if goja.IsNull(v) {
			return 0
		}
		panic(vm.NewTypeError("type incompatibility when transforming from/to JS: only null is supported as a funcref here"))
	}
	panic(vm.NewTypeError(fmt.Sprintf("unsupported wasm value type 0x%x", t)))
}

// toJS is the JS API's ToJSValue.
func (w *wasmEnv) toJS(t api.ValueType, bits uint64) goja.Value {
	if t == api.ValueTypeExternref {
		if bits == 0 || bits > uint64(len(w.externs)) {
			return goja.Null()
		}
		return w.externs[bits-1]
	}
	return wasmToJS(w.vm, t, bits)
}

func wasmToJS(vm *goja.Runtime, t api.ValueType, bits uint64) goja.Value {
	switch t {
	case api.ValueTypeI32:
		return vm.ToValue(int32(uint32(bits)))
	case api.ValueTypeI64:
		return vm.ToValue(big.NewInt(int64(bits)))
	case api.ValueTypeF32:
		return vm.ToValue(float64(api.DecodeF32(bits)))
	case api.ValueTypeF64:
		return vm.ToValue(api.DecodeF64(bits))
	case wasmValueTypeFuncref:
		if bits == 0 {
			return goja.Null()
		}
		panic(vm.NewTypeError("type incompatibility when transforming from/to JS: funcref values cannot be passed to JavaScript here"))
	}
	panic(vm.NewTypeError(fmt.Sprintf("unsupported wasm value type 0x%x", t)))
}

// wasmValueTypeFuncref is funcref's type byte, which wazero's api does not
// name.
const wasmValueTypeFuncref api.ValueType = 0x70
