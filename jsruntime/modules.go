package jsruntime

import (
	"fmt"
	"strings"

	"github.com/dop251/goja"
	nodebuffer "github.com/dop251/goja_nodejs/buffer"

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
	"fs":                loadFS,
	"fs/promises":       func(r *Runtime) (goja.Value, error) { return r.requireProp("fs", "promises") },
	"path":              loadPath,
	"path/posix":        loadPath,
	"os":                loadOS,
	"child_process":     loadChildProcess,
	"crypto":            loadCrypto,
	"url":               loadURL,
	"util":              hostJSModule("util"),
	"events":            hostJSModule("events"),
	"readline":          hostJSModule("readline"),
	"stream":            hostJSModule("stream"),
	"string_decoder":    hostJSModule("string_decoder"),
	"timers":            hostJSModule("timers"),
	"timers/promises":   hostJSModule("timers/promises"),
	"buffer":            func(r *Runtime) (goja.Value, error) { return r.nativeModule(nodebuffer.Require), nil },
	"process":           func(r *Runtime) (goja.Value, error) { return r.vm.Get("process"), nil },
	"assert":            hostJSModule("assert"),
	"perf_hooks":        func(r *Runtime) (goja.Value, error) { return r.vm.RunString(`({performance})`) },
	"util/types":        func(r *Runtime) (goja.Value, error) { return r.requireProp("util", "types") },
	"readline/promises": hostJSModule("readline"),
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
	m["pi:internal/intl"] = moduleDef{load: hostJSModule("pi:internal/intl")}
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
	e := r.vm.NewGoError(fmt.Errorf("%s", msg))
	_ = e.Set("code", code)
	return e
}

// virtualLoader evaluates a vmod source with the contract
// (function(exports, require, module, __host){…}).
func virtualLoader(name, src string) moduleLoader {
	return func(r *Runtime) (goja.Value, error) {
		return r.evalCommonJS("host:"+name, wrapModule(src), r.host)
	}
}

// lazyExportsSrc builds the stand-in exports of a lazy module: one
// accessor per export name. The first read of a name that the core module
// exports too is served from the core; any other first read or write
// evaluates the real module and then turns every property of the stand-in
// into a copy of the real one (same descriptor), so later reads are plain
// property reads with no call into Go. __esModule is a plain value, as in
// the real module, so esbuild's interop helper can test it without loading
// anything.
const lazyExportsSrc = `(function (names, load, coreNames, loadCore) {
  const o = {};
  let real, core;
  const full = () => {
    if (real) return real;
    real = load();
    for (const n of names) {
      if (n !== "__esModule") Object.defineProperty(o, n, Object.getOwnPropertyDescriptor(real, n));
    }
    return real;
  };
  const fromCore = new Set(coreNames);
  for (const n of names) {
    if (n === "__esModule") { Object.defineProperty(o, n, { value: true }); continue; }
    const isCore = fromCore.has(n);
    Object.defineProperty(o, n, {
      get() { return isCore ? (core || (core = loadCore()))[n] : full()[n]; },
      set(v) { full(); o[n] = v; },
      enumerable: true,
      configurable: true,
    });
  }
  return o;
})`

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
		load := func() goja.Value {
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
		loadCore := func() goja.Value { return r.require(core) }
		return build(goja.Undefined(), stringArray(r.vm, ex.Names), r.vm.ToValue(load), stringArray(r.vm, ex.CoreNames), r.vm.ToValue(loadCore))
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
		src, err := hostJS.ReadFile("hostjs/" + hostJSFile(name) + ".js")
		if err != nil {
			return nil, fmt.Errorf("host module %s: %w", name, err)
		}
		return r.evalCommonJS("node:"+name, wrapModule(string(src)), r.host)
	}
}

// evalCommonJS runs a wrapped CommonJS source and returns module.exports.
func (r *Runtime) evalCommonJS(file, wrapped string, host *goja.Object) (goja.Value, error) {
	prg, err := compileCached(file, wrapped, false)
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
	_ = o.Set("createRequire", func(goja.Value) goja.Value { return r.requireFn })
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
