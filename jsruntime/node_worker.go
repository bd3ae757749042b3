package jsruntime

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"sync"
	"sync/atomic"

	"github.com/dop251/goja"
)

// worker_threads: each Worker is a Runtime of its own (its own goja VM
// and loop goroutine), supervised by one more goroutine. Messages cross
// between the two as strings (the structured-clone encoding of
// hostjs/worker_threads.js), handed to the other side's loop through its
// funnel, so neither VM is ever touched from another goroutine.

// newWorkerRuntime is New, reached through a variable: New builds the
// module map, which names this module's loader, which calls New.
var newWorkerRuntime func(LoadOptions) (*Runtime, error)

func init() { newWorkerRuntime = New }

// nextThreadID numbers workers process-wide; the main thread is 0.
var nextThreadID atomic.Int64

// workerSelf is what a worker runtime knows of itself, kept in its
// r.loaded under workerSelfKey.
type workerSelf struct {
	id       int64
	data     string // encoded workerData ("" for undefined)
	toParent func(msg string)
	// exit ends the worker with a code (process.exit inside it).
	exit func(code int)
	// Loop-only state of the worker's parentPort.
	receiver goja.Callable
	hold     func(func(*goja.Runtime))
	// rt is the worker's runtime; thrown the last value a timer callback
	// threw (loop-only), for the parent's 'error' event.
	rt     *Runtime
	thrown goja.Value
}

const workerSelfKey = "\x00worker_threads/self"

// workerPrimKey holds the primitives object worker_threads.js was given;
// the JS sets its encoder there (encode) for the Go side's error reports.
const workerPrimKey = "\x00worker_threads/prim"

func (r *Runtime) workerSelf() *workerSelf {
	if v, ok := r.loaded[workerSelfKey]; ok {
		return v.Export().(*workerSelf)
	}
	return nil
}

// workerHandle is the parent's side of one worker.
type workerHandle struct {
	id     int64
	parent *Runtime

	mu      sync.Mutex
	child   *Runtime // the worker's runtime once created; nil after exit
	ready   bool     // the script has run: messages go straight to it
	pending []string // messages posted before the worker was ready
	done    bool

	ctx    context.Context
	cancel context.CancelFunc
	// stopping is why the worker ends early: "" while it runs,
	// "terminate" or "exit" (process.exit) or "error".
	stopping atomic.Value // string
	exitCode atomic.Int64

	// Loop-only (parent) state.
	hold func(func(*goja.Runtime))
}

// workerSpec is what Worker's constructor passes to spawn.
type workerSpec struct {
	file, code string // one of them: a script path, or eval code
	data       string
	env        string // JSON of the env option, "" to inherit
	argv       []string
	onMessage  goja.Callable
	onError    goja.Callable
	onExit     goja.Callable
	onOnline   goja.Callable
}

func loadWorkerThreads(r *Runtime) (goja.Value, error) {
	vm := r.vm
	prim := vm.NewObject()
	self := r.workerSelf()
	_ = prim.Set("isMainThread", self == nil)
	if self != nil {
		_ = prim.Set("threadId", self.id)
		_ = prim.Set("workerData", self.data)
		_ = prim.Set("post", func(msg string) { self.toParent(msg) })
		_ = prim.Set("setReceiver", func(fn goja.Value) {
			f, _ := goja.AssertFunction(fn)
			self.receiver = f
		})
		// portRef keeps the worker alive while its parentPort listens,
		// as an open MessagePort keeps a Node thread alive.
		_ = prim.Set("portRef", func(on bool) {
			switch {
			case on && self.hold == nil:
				self.hold = r.loop.Reserve()
			case !on && self.hold != nil:
				h := self.hold
				self.hold = nil
				h(func(*goja.Runtime) {})
			}
		})
		_ = prim.Set("exit", func(code int) { self.exit(code) })
	} else {
		_ = prim.Set("threadId", 0)
	}
	_ = prim.Set("spawn", func(call goja.FunctionCall) goja.Value { return r.spawnWorker(call) })
	var lazy goja.Value
	_ = prim.Set("loadLazy", func(goja.FunctionCall) goja.Value {
		if lazy == nil {
			src, err := hostSource("worker_threads_lazy")
			if err != nil {
				panic(vm.NewGoError(err))
			}
			v, err := r.evalCommonJS("node:worker_threads/lazy", wrapModule, src, prim)
			if err != nil {
				panic(err)
			}
			lazy = v
		}
		return lazy
	})
	r.loaded[workerPrimKey] = prim
	src, err := hostSource("worker_threads")
	if err != nil {
		return nil, err
	}
	return r.evalCommonJS("node:worker_threads", wrapModule, src, prim)
}

// spawnWorker is spawn(file, isEval, data, argv, env, onOnline,
// onMessage, onError, onExit) → {post, terminate, ref, unref}. It runs on the parent
// loop; the worker is set up on its own goroutines.
func (r *Runtime) spawnWorker(call goja.FunctionCall) goja.Value {
	vm := r.vm
	fn := func(i int) goja.Callable { f, _ := goja.AssertFunction(call.Argument(i)); return f }
	spec := workerSpec{data: call.Argument(2).String(), env: call.Argument(4).String(), onOnline: fn(5), onMessage: fn(6), onError: fn(7), onExit: fn(8)}
	if call.Argument(1).ToBoolean() {
		spec.code = call.Argument(0).String()
	} else {
		spec.file = r.pathArg(call.Argument(0))
	}
	if goja.IsUndefined(call.Argument(2)) {
		spec.data = ""
	}
	if a, ok := call.Argument(3).Export().([]any); ok {
		for _, x := range a {
			spec.argv = append(spec.argv, fmt.Sprint(x))
		}
	}
	h := &workerHandle{id: nextThreadID.Add(1), parent: r}
	h.stopping.Store("")
	h.ctx, h.cancel = context.WithCancel(context.Background())
	h.hold = r.loop.Reserve()
	wrap := r.asyncWrap()
	// toParent runs fn on the parent loop in the context Worker was made in.
	toParent := func(fn func()) { r.loop.RunOnLoop(func(*goja.Runtime) { wrap(fn) }) }
	go h.run(spec, toParent)
	// A worker does not outlive the runtime that started it.
	go func() {
		select {
		case <-r.loop.done:
			h.stop("terminate", 1)
		case <-h.ctx.Done():
		}
	}()
	o := vm.NewObject()
	_ = o.Set("threadId", h.id)
	_ = o.Set("post", func(msg string) {
		h.mu.Lock()
		defer h.mu.Unlock()
		switch {
		case h.done:
		case !h.ready:
			h.pending = append(h.pending, msg)
		default:
			h.deliver(h.child, msg)
		}
	})
	_ = o.Set("terminate", func() { h.stop("terminate", 1) })
	_ = o.Set("ref", func() {
		if h.hold == nil && !h.isDone() {
			h.hold = r.loop.Reserve()
		}
	})
	_ = o.Set("unref", func() {
		if h.hold != nil {
			hold := h.hold
			h.hold = nil
			hold(func(*goja.Runtime) {})
		}
	})
	return o
}

func (h *workerHandle) isDone() bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.done
}

// stop ends the worker early with code; the first reason wins.
func (h *workerHandle) stop(why string, code int) {
	if !h.stopping.CompareAndSwap("", why) {
		return
	}
	h.exitCode.Store(int64(code))
	h.cancel()
	h.mu.Lock()
	child := h.child
	h.mu.Unlock()
	if child != nil {
		// A script busy in a loop stops at its next instruction.
		child.vm.Interrupt(errWorkerStopped)
	}
}

var errWorkerStopped = errors.New("worker stopped")

// deliver hands one message to the worker's loop; h.mu is held.
func (h *workerHandle) deliver(child *Runtime, msg string) {
	child.loop.RunOnLoop(func(vm *goja.Runtime) {
		self := child.workerSelf()
		if self == nil || self.receiver == nil {
			return
		}
		if _, err := self.receiver(goja.Undefined(), vm.ToValue(msg)); err != nil {
			panic(err)
		}
	})
}

// run is the worker's supervisor goroutine: it creates the runtime,
// evaluates the script, waits until the worker has nothing left to do
// (or is stopped) and reports the exit to the parent.
func (h *workerHandle) run(spec workerSpec, toParent func(func())) {
	parent := h.parent
	pvm := parent.vm
	// errMsg is the first uncaught error, encoded by the worker for the
	// parent's 'error' event (or a plain message).
	var errMu sync.Mutex
	var errEncoded string
	var errPlain string
	fail := func(encoded, plain string) {
		if h.stopping.Load().(string) != "" {
			return // a terminated worker's own failures are not reported
		}
		errMu.Lock()
		if errEncoded == "" && errPlain == "" {
			errEncoded, errPlain = encoded, plain
		}
		errMu.Unlock()
		h.stop("error", 1)
	}
	self := &workerSelf{id: h.id, data: spec.data}
	self.toParent = func(msg string) {
		toParent(func() {
			if spec.onMessage != nil {
				if _, err := spec.onMessage(goja.Undefined(), pvm.ToValue(msg)); err != nil {
					panic(err)
				}
			}
		})
	}
	self.exit = func(code int) {
		h.stop("exit", code)
		panic(errWorkerStopped)
	}
	argv := append([]string{"pi", spec.file}, spec.argv...)
	if spec.file == "" {
		argv = append([]string{"pi", "[worker eval]"}, spec.argv...)
	}
	opts := LoadOptions{
		AgentDir: parent.opts.AgentDir,
		Cwd:      parent.opts.Cwd,
		// A test's own module sources serve its workers too.
		VirtualSources: parent.opts.VirtualSources,
		Stderr:         loopWriter{parent},
		Watchdog:       parent.opts.Watchdog,
		Argv:           argv,
		OnError: func(e ExtensionError) {
			if h.stopping.Load().(string) != "" {
				return // the interruption of a stopped worker
			}
			// A throw from a timer was caught on its way out (see
			// workerThrowCapture), so the parent gets the value itself.
			encoded := ""
			if self.thrown != nil && self.rt != nil {
				encoded = self.rt.encodeError(self.thrown)
				self.thrown = nil
			}
			fail(encoded, e.Error)
		},
		Host: Host{Setup: func(wr *Runtime) error {
			wr.loaded[workerSelfKey] = wr.vm.ToValue(self)
			self.rt = wr
			if err := installThrowCapture(wr, self); err != nil {
				return err
			}
			// process.exit ends this worker, not the process.
			proc := wr.vm.Get("process").ToObject(wr.vm)
			if spec.env != "" {
				parse, _ := goja.AssertFunction(wr.vm.Get("JSON").ToObject(wr.vm).Get("parse"))
				env, err := parse(goja.Undefined(), wr.vm.ToValue(spec.env))
				if err != nil {
					return err
				}
				if err := proc.Set("env", env); err != nil {
					return err
				}
			}
			return proc.Set("exit", func(call goja.FunctionCall) goja.Value {
				code := 0
				if v := call.Argument(0); !goja.IsUndefined(v) {
					code = int(v.ToInteger())
				} else if c := proc.Get("exitCode"); c != nil && !goja.IsUndefined(c) {
					code = int(c.ToInteger())
				}
				self.exit(code)
				return goja.Undefined()
			})
		}},
	}
	child, err := newWorkerRuntime(opts)
	if err != nil {
		fail("", err.Error())
	}
	var code string
	var file = spec.file
	compiled := false
	if err == nil {
		h.mu.Lock()
		h.child = child
		h.mu.Unlock()
		// The thread is up: Node says 'online' before loading the script.
		toParent(func() {
			if spec.onOnline != nil {
				_, _ = spec.onOnline(goja.Undefined())
			}
		})
		compiled = true
		if spec.code != "" {
			code = spec.code
		} else {
			b, cerr := NewCompiler(parent.opts.AgentDir).Compile(h.ctx, spec.file)
			if cerr != nil {
				compiled = false
				fail("", cerr.Error())
			} else {
				code, file = b.Code, b.Entry
			}
		}
	}
	if compiled && h.stopping.Load().(string) == "" {
		derr := child.loop.Do(h.ctx, func(vm *goja.Runtime) error {
			_, err := guard(func() (goja.Value, error) { return child.runWorkerScript(file, code) })
			var ex *goja.Exception
			if err != nil && h.stopping.Load().(string) == "" {
				if errors.As(err, &ex) {
					fail(child.encodeError(ex.Value()), errorMessage(err))
				} else {
					fail("", errorMessage(err))
				}
			}
			return nil
		})
		if derr == nil && h.stopping.Load().(string) == "" {
			h.mu.Lock()
			h.ready = true
			for _, m := range h.pending {
				h.deliver(child, m)
			}
			h.pending = nil
			h.mu.Unlock()
			_ = child.loop.WaitIdle(h.ctx)
		}
	}
	h.mu.Lock()
	h.done = true
	h.child = nil
	h.pending = nil
	h.mu.Unlock()
	if child != nil {
		child.Close()
	}
	exit := 0
	// Read the code before cancel, which only releases the goroutine
	// watching the parent.
	defer h.cancel()
	if h.stopping.Load().(string) != "" {
		exit = int(h.exitCode.Load())
	}
	errMu.Lock()
	encoded, plain := errEncoded, errPlain
	errMu.Unlock()
	parent.loop.RunOnLoop(func(*goja.Runtime) {
		finish := func(*goja.Runtime) {
			if (encoded != "" || plain != "") && spec.onError != nil {
				_, _ = spec.onError(goja.Undefined(), pvm.ToValue(encoded), pvm.ToValue(plain))
			}
			if spec.onExit != nil {
				if _, err := spec.onExit(goja.Undefined(), pvm.ToValue(exit)); err != nil {
					panic(err)
				}
			}
		}
		if h.hold != nil {
			hold := h.hold
			h.hold = nil
			hold(finish)
			return
		}
		finish(pvm)
	})
}

// runWorkerScript evaluates a worker's bundle (or eval code) as a
// CommonJS module with the worker's own require.
func (r *Runtime) runWorkerScript(file, code string) (goja.Value, error) {
	name := file
	if name == "" {
		name = "[worker eval]"
	}
	prg, err := compileWrapped(name, wrapBundle, code, false)
	if err != nil {
		return nil, err
	}
	fnv, err := r.vm.RunProgram(prg)
	if err != nil {
		return nil, err
	}
	fn, _ := goja.AssertFunction(fnv)
	module := r.vm.NewObject()
	exports := r.vm.NewObject()
	_ = module.Set("exports", exports)
	dir := r.cwd()
	if file != "" {
		dir = filepath.Dir(file)
	}
	return fn(exports, exports, r.requireFn, module, r.vm.ToValue(name), r.vm.ToValue(dir))
}

// workerThrowCapture wraps a worker's timers so that a callback's throw
// is recorded (as the value thrown) before the loop reports it by message.
const workerThrowCapture = `(function (capture) {
  for (const name of ["setTimeout", "setInterval", "setImmediate"]) {
    const orig = globalThis[name];
    const w = function (fn, ...rest) {
      if (typeof fn !== "function") return orig(fn, ...rest);
      return orig(function (...args) { try { return fn.apply(this, args); } catch (e) { capture(e); throw e; } }, ...rest);
    };
    Object.defineProperty(w, "name", { value: name });
    globalThis[name] = w;
  }
})`

func installThrowCapture(r *Runtime, self *workerSelf) error {
	prg, err := compileCached("node:internal/worker-throw-capture", workerThrowCapture, true)
	if err != nil {
		return err
	}
	fnv, err := r.vm.RunProgram(prg)
	if err != nil {
		return err
	}
	fn, _ := goja.AssertFunction(fnv)
	_, err = fn(goja.Undefined(), r.vm.ToValue(func(v goja.Value) { self.thrown = v }))
	return err
}

// encodeError encodes a thrown value v for the parent (structured
// clone), or "" when worker_threads' encoder cannot be had.
func (r *Runtime) encodeError(v goja.Value) string {
	r.require("worker_threads")
	prim, ok := r.loaded[workerPrimKey].(*goja.Object)
	if !ok {
		return ""
	}
	if load, ok := goja.AssertFunction(prim.Get("loadLazy")); ok {
		if _, err := guard(func() (goja.Value, error) { return load(goja.Undefined()) }); err != nil {
			return ""
		}
	}
	enc, ok := goja.AssertFunction(prim.Get("encode"))
	if !ok {
		return ""
	}
	out, gerr := guard(func() (goja.Value, error) { return enc(goja.Undefined(), v) })
	if gerr != nil {
		return ""
	}
	return out.String()
}

// loopWriter is a worker's console: its output is written by the parent's
// loop, in order with the worker's messages, so the parent's writer is
// only ever used from one goroutine (as a Node worker's stdout is piped
// through its parent).
type loopWriter struct{ parent *Runtime }

func (w loopWriter) Write(p []byte) (int, error) {
	b := append([]byte(nil), p...)
	w.parent.loop.RunOnLoop(func(*goja.Runtime) { _, _ = w.parent.stderr.Write(b) })
	return len(p), nil
}
