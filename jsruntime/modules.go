package jsruntime

import (
	"fmt"
	"strings"
	"sync"

	"github.com/dop251/goja"

	"github.com/pi-go/pi/jsruntime/vmod"
)

// moduleLoader builds a host module's exports. It runs on the loop, once
// per runtime; the result is cached by canonical name.
type moduleLoader func(r *Runtime) (goja.Value, error)

// moduleDef is one entry of the module map: either a loader or an alias
// to another entry (renamed packages, the "node:" prefix).
type moduleDef struct {
	load  moduleLoader
	alias string
}

// piPackages are the host packages whose JS comes from the vmod sources.
// Their legacy @mariozechner names are aliases.
var piPackages = []string{
	"@earendil-works/pi-coding-agent",
	"@earendil-works/pi-ai",
	"@earendil-works/pi-ai/compat",
	"@earendil-works/pi-ai/models",
	"@earendil-works/pi-ai/oauth",
	"@earendil-works/pi-ai/providers/all",
	"@earendil-works/pi-agent-core",
	"@earendil-works/pi-tui",
}

// nodeBuiltins are the Node modules the host implements. Each also answers
// to its "node:" name.
var nodeBuiltins = map[string]moduleLoader{
	"fs":                  loadFS,
	"fs/promises":         func(r *Runtime) (goja.Value, error) { return r.requireProp("fs", "promises") },
	"path":                loadPath,
	"path/posix":          func(r *Runtime) (goja.Value, error) { return r.requireProp("path", "posix") },
	"path/win32":          func(r *Runtime) (goja.Value, error) { return r.requireProp("path", "win32") },
	"os":                  loadOS,
	"child_process":       loadChildProcess,
	"crypto":              loadCrypto,
	"url":                 loadURL,
	"util":                hostJSModule("util"),
	"events":              hostJSModule("events"),
	"readline":            hostJSModule("readline"),
	"stream":              hostJSModule("stream"),
	"string_decoder":      hostJSModule("string_decoder"),
	"timers":              hostJSModule("timers"),
	"timers/promises":     hostJSModule("timers/promises"),
	"buffer":              loadBuffer,
	"process":             func(r *Runtime) (goja.Value, error) { return r.vm.Get("process"), nil },
	"assert":              hostJSModule("assert"),
	"perf_hooks":          func(r *Runtime) (goja.Value, error) { return r.vm.RunString(`({performance})`) },
	"util/types":          func(r *Runtime) (goja.Value, error) { return r.requireProp("util", "types") },
	"readline/promises":   hostJSModule("readline"),
	"stream/promises":     func(r *Runtime) (goja.Value, error) { return r.requireProp("stream", "promises") },
	"stream/web":          hostJSModule("stream/web"),
	"zlib":                loadZlib,
	"querystring":         hostJSModule("querystring"),
	"stream/consumers":    hostJSModule("stream/consumers"),
	"assert/strict":       func(r *Runtime) (goja.Value, error) { return r.requireProp("assert", "strict") },
	"http":                loadHTTP("http:"),
	"https":               loadHTTP("https:"),
	"net":                 loadNet,
	"tls":                 loadTLS,
	"tty":                 loadTTY,
	"async_hooks":         loadAsyncHooks,
	"diagnostics_channel": hostJSModule("diagnostics_channel"),
	"worker_threads":      loadWorkerThreads,
	"v8":                  loadV8,
	"vm":                  loadVM,
	"dns":                 loadDNS,
	"dns/promises":        func(r *Runtime) (goja.Value, error) { return r.requireProp("dns", "promises") },
	"punycode":            hostJSModule("punycode"),
	"console":             hostJSModule("console"),
}

// buildModuleMap makes the one map: Node built-ins and their node: names,
// the pi packages and their legacy names, typebox and @sinclair/typebox.
// lazy makes the vmod packages that allow it load on first use (see
// lazyLoader); it is off when a test supplies its own sources.
func buildModuleMap(virtual map[string]string, lazy bool) map[string]moduleDef {
	m := map[string]moduleDef{}
	for name, load := range nodeBuiltins {
		m[name] = moduleDef{load: load}
		m["node:"+name] = moduleDef{alias: name}
	}
	// "module" lists the built-ins, so it cannot sit in nodeBuiltins itself.
	m["module"] = moduleDef{load: loadModuleModule}
	m["node:module"] = moduleDef{alias: "module"}
	for name, src := range virtual {
		load := virtualLoader(name, src)
		if ex, ok := vmod.Lazy(name); ok && lazy {
			load = lazyLoader(name, ex, vmod.Cores[name], load)
		}
		m[name] = moduleDef{load: load}
	}
	for name, target := range virtualAliases() {
		if _, ok := m[name]; !ok {
			m[name] = moduleDef{alias: target}
		}
	}
	for _, name := range piPackages {
		legacy := "@mariozechner/" + strings.TrimPrefix(name, "@earendil-works/")
		if _, ok := m[legacy]; !ok {
			m[legacy] = moduleDef{alias: name}
		}
	}
	// Internal modules of the prelude; extensions have no reason to use them.
	m["pi:internal/fetch"] = moduleDef{load: hostJSModule("pi:internal/fetch")}
	m["pi:internal/events-on"] = moduleDef{load: loadEventsOn}
	m["pi:internal/intl"] = moduleDef{load: hostJSModule("pi:internal/intl")}
	m["pi:internal/require"] = moduleDef{load: hostJSModule("pi:internal/require")}
	m["pi:internal/theme"] = moduleDef{load: hostJSModule("pi:internal/theme")}
	m["pi:internal/stubs"] = moduleDef{load: hostJSModule("pi:internal/stubs")}
	m["pi:internal/http-server"] = moduleDef{load: hostJSModule("pi:internal/http-server")}
	// Parts of api.js compiled on first use (see the comments there).
	for _, name := range []string{"pi:internal/models", "pi:internal/commandctx", "pi:internal/dispatch", "pi:internal/tools", "pi:internal/shapes", "pi:internal/views", "pi:internal/sdk_settings", "pi:internal/sdk_session", "pi:internal/sdk_functions", "pi:internal/sdk_agent"} {
		m[name] = moduleDef{load: hostJSModule(name)}
	}
	for _, sub := range []string{"", "/value", "/compile"} {
		if _, ok := m["@sinclair/typebox"+sub]; !ok {
			m["@sinclair/typebox"+sub] = moduleDef{alias: "typebox" + sub}
		}
	}
	return m
}

// canonical follows alias entries to the name that has a loader.
func (r *Runtime) canonical(name string) (string, moduleDef, bool) {
	for range 4 {
		d, ok := r.modules[name]
		if !ok {
			return name, moduleDef{}, false
		}
		if d.alias == "" {
			return name, d, true
		}
		name = d.alias
	}
	return name, moduleDef{}, false
}

// require resolves a module for bundled code. Relative and absolute paths
// were inlined by esbuild, so only host modules remain.
func (r *Runtime) require(name string) goja.Value {
	canon, def, ok := r.canonical(name)
	if !ok {
		panic(r.nodeError("MODULE_NOT_FOUND", fmt.Sprintf("Cannot find module '%s'", name)))
	}
	if v, ok := r.loaded[canon]; ok {
		return v
	}
	v, err := def.load(r)
	if err != nil {
		panic(r.vm.NewGoError(fmt.Errorf("loading module %q: %w", name, err)))
	}
	r.loaded[canon] = v
	return v
}

// requireProp returns one property of another module's exports.
func (r *Runtime) requireProp(mod, prop string) (goja.Value, error) {
	return r.require(mod).ToObject(r.vm).Get(prop), nil
}

// nodeError is an Error with a Node-style code property.
func (r *Runtime) nodeError(code, msg string) *goja.Object {
	e, err := r.vm.New(r.vm.Get("Error"), r.vm.ToValue(msg))
	if err != nil {
		e = r.vm.NewGoError(fmt.Errorf("%s", msg))
	}
	_ = e.Set("code", code)
	return e
}

// virtualLoader evaluates a vmod source with the contract
// (function(exports, require, module, __host){…}).
func virtualLoader(name, src string) moduleLoader {
	return func(r *Runtime) (goja.Value, error) {
		return r.evalCommonJS("host:"+name, wrapModule, src, r.host)
	}
}

// lazyExportsSrc builds the stand-in exports of a lazy module: a Proxy
// over an object that holds only __esModule (a plain value, as in the real
// module, so esbuild's interop helper can test it without loading
// anything). The traps report the real module's names, in order, without
// evaluating it; the first read of a name the core module exports too is
// served from the core; any other read, write, definition, deletion or
// descriptor query of an export name evaluates the real module and copies
// every property onto the target (same descriptors), after which every
// trap is a plain forward to the target. A Proxy costs a handful of
// closures per package, where one accessor pair per export name cost about
// a thousand function objects per start (pi-ai, pi-tui and
// pi-coding-agent export some 450 names together).
//
// namesOf() returns the export names in order (an array built only when
// a trap needs it); kind(name) is 0 for a name the module does not export, 1 for an export,
// 2 for an export the core serves and 3 for __esModule (on the target).
const lazyExportsSrc = `(function (namesOf, kind, load, loadCore) {
  const t = {};
  let list;
  const names = () => list || (list = namesOf());
  Object.defineProperty(t, "__esModule", { value: true });
  let core, loaded = false;
  const full = () => {
    if (loaded) return;
    const real = load();
    loaded = true;
    const all = names();
    for (let i = 0; i < all.length; i++) {
      const n = all[i];
      if (n !== "__esModule") Object.defineProperty(t, n, Object.getOwnPropertyDescriptor(real, n));
    }
  };
  const pending = (k) => {
    if (loaded || typeof k !== "string") return false;
    const c = kind(k);
    return c === 1 || c === 2;
  };
  return new Proxy(t, {
    get(t, k) {
      if (pending(k)) {
        if (kind(k) === 2) return (core || (core = loadCore()))[k];
        full();
      }
      return t[k];
    },
    set(t, k, v) {
      if (pending(k)) full();
      return Reflect.set(t, k, v);
    },
    has(t, k) { return pending(k) || Reflect.has(t, k); },
    ownKeys(t) {
      const own = Reflect.ownKeys(t);
      if (loaded) return own;
      const out = names().slice();
      for (let i = 0; i < own.length; i++) if (typeof own[i] !== "string" || kind(own[i]) === 0) out.push(own[i]);
      return out;
    },
    getOwnPropertyDescriptor(t, k) {
      if (pending(k)) full();
      return Reflect.getOwnPropertyDescriptor(t, k);
    },
    defineProperty(t, k, d) {
      if (pending(k)) full();
      return Reflect.defineProperty(t, k, d);
    },
    deleteProperty(t, k) {
      if (pending(k)) full();
      return Reflect.deleteProperty(t, k);
    },
  });
})`

// lazyKinds maps each lazy package's export names to their kind (see
// lazyExportsSrc), built once per process.
var lazyKinds sync.Map // package name → map[string]int64

func lazyKind(name string, ex vmod.LazyExports) map[string]int64 {
	if v, ok := lazyKinds.Load(name); ok {
		return v.(map[string]int64)
	}
	m := make(map[string]int64, len(ex.Names))
	for _, n := range ex.Names {
		m[n] = 1
	}
	for _, n := range ex.CoreNames {
		m[n] = 2
	}
	m["__esModule"] = 3
	v, _ := lazyKinds.LoadOrStore(name, m)
	return v.(map[string]int64)
}

// lazyLoader defers a vmod module until one of its exports is read.
// Extensions import pi-tui and pi-coding-agent for renderers, UI
// components and tool helpers that a headless start never calls, so
// compiling those packages (tens of KB of JS each) is the largest cost of
// a start with extensions; with the stand-in, import costs nothing and the
// module is compiled and run at its first real use. The names a small core
// module provides too (StringEnum, getAgentDir …) are served by the core
// alone. The stand-in has the real module's property names in the same
// order, so Object.keys, export * and esbuild's namespace copies see the
// same shape.
func lazyLoader(name string, ex vmod.LazyExports, core string, real moduleLoader) moduleLoader {
	return func(r *Runtime) (goja.Value, error) {
		prg, err := compileCached("pi:internal/lazy-exports", lazyExportsSrc, true)
		if err != nil {
			return nil, err
		}
		fnv, err := r.vm.RunProgram(prg)
		if err != nil {
			return nil, err
		}
		build, ok := goja.AssertFunction(fnv)
		if !ok {
			return nil, fmt.Errorf("lazy exports of %s: builder is not a function", name)
		}
		var exports goja.Value
		loading := false
		load := func(goja.FunctionCall) goja.Value {
			if exports != nil {
				return exports
			}
			if loading {
				panic(r.vm.NewGoError(fmt.Errorf("loading module %q: circular use during its own evaluation", name)))
			}
			loading = true
			v, err := real(r)
			loading = false
			if err != nil {
				panic(r.vm.NewGoError(fmt.Errorf("loading module %q: %w", name, err)))
			}
			exports = v
			r.evaluated = append(r.evaluated, name)
			return v
		}
		kinds := lazyKind(name, ex)
		// kind and load are native functions of the FunctionCall form,
		// which goja calls without reflection.
		kind := func(c goja.FunctionCall) goja.Value { return r.vm.ToValue(kinds[c.Argument(0).String()]) }
		loadCore := func(goja.FunctionCall) goja.Value { return r.require(core) }
		namesOf := func(goja.FunctionCall) goja.Value { return stringArray(r.vm, ex.Names) }
		return build(goja.Undefined(), r.vm.ToValue(namesOf), r.vm.ToValue(kind), r.vm.ToValue(load), r.vm.ToValue(loadCore))
	}
}

func stringArray(vm *goja.Runtime, list []string) goja.Value {
	out := make([]any, len(list))
	for i, s := range list {
		out[i] = s
	}
	return vm.NewArray(out...)
}

// hostJSModule evaluates one of our own JS modules from hostjs/.
func hostJSModule(name string) moduleLoader {
	return func(r *Runtime) (goja.Value, error) {
		src, err := hostSource(hostJSFile(name))
		if err != nil {
			return nil, fmt.Errorf("host module %s: %w", name, err)
		}
		return r.evalCommonJS("node:"+name, wrapModule, src, r.host)
	}
}

// evalCommonJS runs a CommonJS source in the wrapper w (one taking
// exports, require, module and host) and returns module.exports.
func (r *Runtime) evalCommonJS(file string, w wrapper, src string, host *goja.Object) (goja.Value, error) {
	prg, err := compileWrapped(file, w, src, false)
	if err != nil {
		return nil, err
	}
	fnv, err := r.vm.RunProgram(prg)
	if err != nil {
		return nil, err
	}
	fn, ok := goja.AssertFunction(fnv)
	if !ok {
		return nil, fmt.Errorf("%s: wrapper is not a function", file)
	}
	module := r.vm.NewObject()
	exports := r.vm.NewObject()
	_ = module.Set("exports", exports)
	if _, err := fn(goja.Undefined(), exports, r.requireFn, module, host); err != nil {
		return nil, err
	}
	return module.Get("exports"), nil
}

func loadModuleModule(r *Runtime) (goja.Value, error) {
	o := r.vm.NewObject()
	// createRequire lives in JS, loaded when an extension first calls it.
	_ = o.Set("createRequire", func(call goja.FunctionCall) goja.Value {
		create, _ := goja.AssertFunction(r.require("pi:internal/require").ToObject(r.vm).Get("createRequire"))
		v, err := create(goja.Undefined(), call.Arguments...)
		if err != nil {
			panic(err)
		}
		return v
	})
	builtins := make([]any, 0, len(nodeBuiltins)+1)
	builtins = append(builtins, "module")
	for k := range nodeBuiltins {
		builtins = append(builtins, k)
	}
	_ = o.Set("builtinModules", r.vm.NewArray(builtins...))
	_ = o.Set("isBuiltin", func(name string) bool {
		_, ok := nodeBuiltins[strings.TrimPrefix(name, "node:")]
		return ok
	})
	return o, nil
}

// nativeModule runs a goja_nodejs module loader. Those loaders find their
// own dependencies through the global require, which is ours.
func (r *Runtime) nativeModule(load func(*goja.Runtime, *goja.Object)) goja.Value {
	module := r.vm.NewObject()
	_ = module.Set("exports", r.vm.NewObject())
	load(r.vm, module)
	return module.Get("exports")
}

// hostJSFile and hostModuleName map module names to hostjs/ file names
// ("timers/promises" ↔ "timers_promises", "pi:internal/fetch" ↔
// "pi_internal_fetch").
func hostJSFile(name string) string { return strings.NewReplacer("/", "_", ":", "_").Replace(name) }
