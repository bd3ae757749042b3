package jsruntime

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/dop251/goja"
)

// Host lets the layer above (the pi.* API) shape the runtime without
// restructuring it. Every hook runs on the loop goroutine.
type Host struct {
	// Setup runs once after globals and module map exist and before any
	// extension is evaluated; it may fill r.HostObject() (the __host
	// object the vmod sources receive) with Go-backed functions.
	Setup func(r *Runtime) error
	// NewAPI builds the `pi` object handed to one extension's factory.
	// nil uses the recording placeholder (see api.go).
	NewAPI func(r *Runtime, ext *Extension) goja.Value
}

// LoadOptions configures Load.
type LoadOptions struct {
	AgentDir string
	Cwd      string
	// Sources are the entries to load, in order (usually from Discover).
	Sources []Source
	// Paths are extra entry paths, loaded first as CLI extensions.
	Paths []string
	// Watchdog bounds synchronous JS runs; 0 means DefaultWatchdog.
	Watchdog time.Duration
	// Stderr receives console output and process.stdout/stderr writes;
	// nil means os.Stderr. Extension output never reaches stdout.
	Stderr io.Writer
	// OnError receives extension errors after loading (timers, rejected
	// promises, interrupted scripts). nil writes them to Stderr as the
	// print mode does: "Extension error (<path>): <message>".
	OnError func(ExtensionError)
	// VirtualSources overrides the vmod module sources (tests).
	VirtualSources map[string]string
	// Argv is process.argv; nil gives ["pi"].
	Argv []string
	Host Host
}

// LoadError is a fatal extension load failure. Message is worded as the
// reference's loader words it ("Failed to load extension: boom").
type LoadError struct {
	Path    string
	Message string
	Err     error // the underlying error, e.g. *CompileError
}

// Error is the stderr line: Failed to load extension "<path>": <message>.
func (e *LoadError) Error() string {
	return fmt.Sprintf("Failed to load extension %q: %s", e.Path, e.Message)
}

func (e *LoadError) Unwrap() error { return e.Err }

// Runtime is the shared goja runtime with every loaded extension.
type Runtime struct {
	vm      *goja.Runtime
	loop    *Loop
	opts    LoadOptions
	stderr  io.Writer
	modules map[string]moduleDef
	loaded  map[string]goja.Value
	// evaluated lists the lazy packages whose real module has run (see
	// lazyLoader), for tests and start-up diagnostics.
	evaluated []string
	requireFn *goja.Object
	host      *goja.Object

	mu         sync.Mutex
	extensions []*Extension

	// shared is what every generation of this runtime holds in common
	// (generation.go): the sources and the module cache of factories.
	shared *generations
}

// VM returns the goja runtime. Use it only on the loop goroutine.
func (r *Runtime) VM() *goja.Runtime { return r.vm }

// Loop returns the event loop owning the runtime.
func (r *Runtime) Loop() *Loop { return r.loop }

// HostObject is the __host object passed to every vmod module.
func (r *Runtime) HostObject() *goja.Object { return r.host }

// Extensions returns the loaded extensions in load order.
func (r *Runtime) Extensions() []*Extension {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]*Extension(nil), r.extensions...)
}

// Close stops the loop; the runtime must not be used afterwards.
func (r *Runtime) Close() { r.loop.Close() }

// Stderr is where extension output goes.
func (r *Runtime) Stderr() io.Writer { return r.stderr }

// New creates a runtime with globals and host modules but no extension.
func New(opts LoadOptions) (*Runtime, error) {
	r := &Runtime{opts: opts, stderr: opts.Stderr, loaded: map[string]goja.Value{}, shared: &generations{factories: map[string]goja.Callable{}}}
	if r.stderr == nil {
		r.stderr = os.Stderr
	}
	onError := opts.OnError
	if onError == nil {
		onError = func(e ExtensionError) {
			fmt.Fprintf(r.stderr, "Extension error (%s): %s\n", e.Path, e.Error)
		}
	}
	r.opts.OnError = onError
	virtual := opts.VirtualSources
	if virtual == nil {
		virtual = defaultVirtualSources()
	}
	r.modules = buildModuleMap(virtual, opts.VirtualSources == nil)
	vm := goja.New()
	vm.SetFieldNameMapper(goja.UncapFieldNameMapper())
	r.vm = vm
	r.loop = newLoop(vm, opts.Watchdog, onError)
	err := r.loop.do(context.Background(), func(vm *goja.Runtime) error {
		r.host = vm.NewObject()
		r.requireFn = vm.ToValue(func(name string) goja.Value { return r.require(name) }).ToObject(vm)
		_ = r.requireFn.Set("resolve", func(name string) string { return name })
		_ = r.requireFn.Set("cache", vm.NewObject())
		if err := r.installGlobals(); err != nil {
			return err
		}
		r.installHostDefaults()
		if opts.Host.Setup != nil {
			return r.withGlobalRequire(func() error { return opts.Host.Setup(r) })
		}
		return nil
	}, true)
	if err != nil {
		r.loop.Close()
		return nil, fmt.Errorf("jsruntime: setting up the runtime: %w", err)
	}
	return r, nil
}

// Load bundles the extensions in parallel, then evaluates each factory in
// load order on the loop. Load errors (compile errors, throwing factories,
// missing default exports, tool and flag conflicts) are returned, not
// fatal here: the caller decides to exit as the reference does. The error
// result is for host failures only.
func Load(ctx context.Context, opts LoadOptions) (*Runtime, []LoadError, error) {
	sources := make([]Source, 0, len(opts.Paths)+len(opts.Sources))
	for _, p := range opts.Paths {
		sources = append(sources, Source{Path: resolveFrom(opts.Cwd, p), Scope: ScopeCLI, Source: SourceCLI})
	}
	sources = append(sources, opts.Sources...)
	// The same file given twice (an -e path that discovery also finds)
	// loads once, at its first position, as in the reference.
	seen := map[string]bool{}
	uniq := sources[:0]
	for _, s := range sources {
		if !seen[s.Path] {
			seen[s.Path] = true
			uniq = append(uniq, s)
		}
	}
	sources = uniq
	virtual := opts.VirtualSources
	if virtual == nil {
		virtual = defaultVirtualSources()
	}
	warm := newPrewarmer(virtual)
	warm.prelude()
	// The prelude needs only events (process); the other globals load
	// their modules on first use.
	warm.modules([]string{"events"}, func(s string) string { return s })
	entries := make([]string, len(sources))
	for i, s := range sources {
		entries[i] = s.Path
	}
	// Bundling runs while the runtime is set up on the loop goroutine.
	bundled := make(chan []CompileResult, 1)
	go func() { bundled <- NewCompiler(opts.AgentDir).CompileAll(ctx, entries) }()
	r, err := New(opts)
	if err != nil {
		return nil, nil, err
	}
	r.shared.sources = sources
	compiled := <-bundled
	var hostMods []string
	for _, c := range compiled {
		if c.Bundle != nil {
			// Parse bundles in the background while earlier ones run.
			go func(b *Bundle) { _, _ = compileWrapped(b.Entry, wrapBundle, b.Code, false) }(c.Bundle)
			hostMods = append(hostMods, requiredModules(c.Bundle.Code)...)
		}
	}
	warm.modules(hostMods, func(name string) string { c, _, _ := r.canonical(name); return c })
	var loadErrs []LoadError
	for i, s := range sources {
		if err := ctx.Err(); err != nil {
			r.Close()
			return nil, nil, err
		}
		res := compiled[i]
		if res.Err != nil {
			loadErrs = append(loadErrs, compileLoadError(s, res.Err))
			continue
		}
		ext, lerr := r.evaluate(ctx, s, res.Bundle)
		if lerr != nil {
			loadErrs = append(loadErrs, *lerr)
			continue
		}
		r.mu.Lock()
		r.extensions = append(r.extensions, ext)
		r.mu.Unlock()
	}
	loadErrs = append(loadErrs, detectConflicts(r.Extensions())...)
	return r, loadErrs, nil
}

// settled is what a factory's outcome sends back to the Load goroutine.
type settled struct{ err error }

// evaluate runs one bundle and its factory. An async factory is awaited
// without holding the loop, so its timers and I/O can progress.
func (r *Runtime) evaluate(ctx context.Context, s Source, b *Bundle) (*Extension, *LoadError) {
	// Compile before taking the loop: the watchdog bounds JS that runs
	// without yielding, and compiling is Go work that does not run any JS.
	// Inside the loop task a large bundle (pi-mermaid's is 23 MB) could take
	// longer than the watchdog to compile on a loaded machine, and the
	// interrupt then stopped the module before its first statement ran.
	prg, cerr := compileWrapped(s.Path, wrapBundle, b.Code, false)
	return r.runFactory(ctx, s, func() (goja.Callable, error) {
		if cerr != nil {
			return nil, cerr
		}
		factory, err := r.runBundle(s.Path, prg, b.Code)
		if err == nil && factory != nil {
			// The module cache: later generations call the factory
			// again without evaluating the module (generation.go).
			r.shared.factories[s.Path] = factory
		}
		return factory, err
	})
}

// runFactory gets the factory of s on the loop (evaluating its module, or
// from the module cache) and calls it with a new pi object.
func (r *Runtime) runFactory(ctx context.Context, s Source, get func() (goja.Callable, error)) (*Extension, *LoadError) {
	ext := newExtension(s)
	done := make(chan settled, 1)
	fail := func(msg string, err error) *LoadError {
		return &LoadError{Path: s.Path, Message: msg, Err: err}
	}
	var invalid bool // written on the loop, read after Do returns
	err := r.loop.Do(context.WithoutCancel(ctx), func(vm *goja.Runtime) error {
		r.loop.owner, r.loop.event = s.Path, "load"
		factory, err := get()
		if err != nil {
			return err
		}
		if factory == nil {
			invalid = true
			return nil
		}
		api := r.newAPI(ext)
		ret, err := guard(func() (goja.Value, error) { return factory(goja.Undefined(), api) })
		if err != nil {
			return err
		}
		p, ok := ret.Export().(*goja.Promise)
		if !ok {
			done <- settled{}
			return nil
		}
		r.awaitPromise(p, func(err error) { done <- settled{err: err} })
		return nil
	})
	if invalid {
		return nil, fail("Extension does not export a valid factory function: "+s.Path, nil)
	}
	if err != nil {
		return nil, fail("Failed to load extension: "+errorMessage(err), err)
	}
	select {
	case res := <-done:
		if res.err != nil {
			return nil, fail("Failed to load extension: "+res.err.Error(), res.err)
		}
	case <-ctx.Done():
		return nil, fail("Failed to load extension: "+ctx.Err().Error(), ctx.Err())
	}
	ext.loaded = true
	return ext, nil
}

// awaitPromise calls settle once p settles; the promise counts as pending
// loop work meanwhile. Must run on the loop.
func (r *Runtime) awaitPromise(p *goja.Promise, settle func(error)) {
	switch p.State() {
	case goja.PromiseStateFulfilled:
		settle(nil)
		return
	case goja.PromiseStateRejected:
		settle(errors.New(valueMessage(p.Result())))
		return
	}
	vm := r.vm
	then, _ := goja.AssertFunction(vm.ToValue(p).ToObject(vm).Get("then"))
	onOK := func(goja.Value) { settle(nil) }
	onErr := func(v goja.Value) { settle(errors.New(valueMessage(v))) }
	_, _ = then(vm.ToValue(p), vm.ToValue(onOK), vm.ToValue(onErr))
}

// runBundle evaluates the CommonJS bundle (code, compiled as prg) and
// returns its factory, or nil when there is no default-export function.
func (r *Runtime) runBundle(path string, prg *goja.Program, code string) (goja.Callable, error) {
	fnv, err := r.vm.RunProgram(prg)
	if err != nil {
		return nil, err
	}
	fn, _ := goja.AssertFunction(fnv)
	vm := r.vm
	module := vm.NewObject()
	exports := vm.NewObject()
	_ = module.Set("exports", exports)
	_ = module.Set("id", path)
	_ = module.Set("filename", path)
	if _, err := guard(func() (goja.Value, error) {
		// A bundle of strict sources sees an undefined top-level this, as
		// the reference's transformed modules do (see esmStrictPrefix).
		this := goja.Value(exports)
		if strings.HasPrefix(code, esmStrictPrefix) {
			this = goja.Undefined()
		}
		return fn(this, exports, r.requireFn, module, vm.ToValue(path), vm.ToValue(filepath.Dir(path)))
	}); err != nil {
		return nil, err
	}
	ex := module.Get("exports")
	if f, ok := goja.AssertFunction(ex); ok {
		return f, nil
	}
	if o, ok := ex.(*goja.Object); ok {
		if f, ok := goja.AssertFunction(o.Get("default")); ok {
			return f, nil
		}
	}
	return nil, nil
}

func (r *Runtime) newAPI(ext *Extension) goja.Value {
	if r.opts.Host.NewAPI != nil {
		return r.opts.Host.NewAPI(r, ext)
	}
	return r.placeholderAPI(ext)
}
