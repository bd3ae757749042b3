package jsruntime

import (
	"fmt"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/dop251/goja"

	"github.com/pi-go/pi/jsruntime/vmod"
)

// programCache holds compiled programs process-wide. A *goja.Program is
// immutable and may run in any runtime, so host modules, the prelude and
// extension bundles are parsed once per process, not once per runtime
// (a /reload or a second session reuses them).
//
// The key holds the unwrapped source itself rather than a hash of it:
// Go hashes and compares strings far faster than sha256, a lookup neither
// copies the source nor builds the wrapped text, and the strings are the
// ones the cache keeps alive anyway (the programs reference their source).
var programCache sync.Map // progKey → *programEntry

// progKey names one compilation: the program name, the wrapper the
// source is compiled in, and the source.
type progKey struct {
	name string
	wrap wrapper
	src  string
}

// wrapper is how a source is wrapped before compiling.
type wrapper uint8

const (
	wrapNone    wrapper = iota
	wrapModule          // (function(exports, require, module, __host){…})
	wrapBundle          // (function(exports, require, module, __filename, __dirname){…})
	wrapFSExtra         // (function(exports, require, module, fs){…})
)

// text returns src wrapped. The wrappers add no line before the source,
// so a bundle's inline source map keeps its line numbers.
func (w wrapper) text(src string) string {
	switch w {
	case wrapModule:
		return "(function(exports, require, module, __host){" + src + "\n})"
	case wrapBundle:
		return "(function(exports, require, module, __filename, __dirname){" + src + "\n})"
	case wrapFSExtra:
		return "(function(exports, require, module, fs){" + src + "\n})"
	}
	return src
}

// programEntry lets concurrent callers share one compilation.
type programEntry struct {
	once sync.Once
	p    *goja.Program
	err  error
}

// traceCompile prints each compilation (program, size, time) to stderr
// when PI_TRACE_STARTUP is set, as cmd/pi does for its start-up steps:
// compiling JS is the largest cost of a start with extensions, and this
// shows which programs a start compiles.
var traceCompile = os.Getenv("PI_TRACE_STARTUP") != ""

// compileCached compiles src under name, reusing an earlier (or running)
// compilation of the same name and source.
func compileCached(name, src string, strict bool) (*goja.Program, error) {
	return compileWrapped(name, wrapNone, src, strict)
}

// compileWrapped compiles src wrapped by w under name, reusing an earlier
// (or running) compilation of the same name, wrapper and source.
func compileWrapped(name string, w wrapper, src string, strict bool) (*goja.Program, error) {
	key := progKey{name: name, wrap: w, src: src}
	v, ok := programCache.Load(key)
	if !ok {
		v, _ = programCache.LoadOrStore(key, &programEntry{})
	}
	e := v.(*programEntry)
	e.once.Do(func() {
		t0 := time.Now()
		text := w.text(src)
		e.p, e.err = goja.Compile(name, text, strict)
		if traceCompile {
			fmt.Fprintf(os.Stderr, "trace js compile %-40s %7d B %7.2f ms\n", name, len(text), float64(time.Since(t0).Microseconds())/1000)
		}
	})
	return e.p, e.err
}

// hostSources memoizes the embedded host JS as strings: embed.FS.ReadFile
// returns a fresh copy on every call, and one string per file also makes
// the program cache's key comparison a pointer check.
var hostSources sync.Map // file name → string

// hostSource returns the text of hostjs/<file>.js.
func hostSource(file string) (string, error) {
	if v, ok := hostSources.Load(file); ok {
		return v.(string), nil
	}
	b, err := hostJS.ReadFile("hostjs/" + file + ".js")
	if err != nil {
		return "", err
	}
	v, _ := hostSources.LoadOrStore(file, string(b))
	return v.(string), nil
}

// requiredModules returns the names in the require("…") calls of src, in
// order. esbuild writes every external import as exactly that call, so a
// plain scan finds them without a regular expression.
func requiredModules(src string) []string {
	const open = `require("`
	var out []string
	for {
		i := strings.Index(src, open)
		if i < 0 {
			return out
		}
		src = src[i+len(open):]
		j := strings.IndexAny(src, "\"\n")
		if j < 0 {
			return out
		}
		if src[j] == '"' && j > 0 && strings.HasPrefix(src[j:], `")`) {
			out = append(out, src[:j])
		}
		src = src[j:]
	}
}

// prewarmer compiles host modules in the background so that parsing them
// overlaps with bundling and with the evaluation of earlier extensions,
// instead of happening when an extension first requires them.
type prewarmer struct {
	virtual map[string]string
	seen    map[string]bool
}

func newPrewarmer(virtual map[string]string) *prewarmer {
	return &prewarmer{virtual: virtual, seen: map[string]bool{}}
}

// job returns the program name and (unwrapped) source of a host module,
// or false when the module is not JS we compile (Go modules, unknown
// names).
func (w *prewarmer) job(name string) (string, string, bool) {
	if src, ok := w.virtual[name]; ok {
		return "host:" + name, src, true
	}
	if src, err := hostSource(hostJSFile(name)); err == nil {
		return "node:" + name, src, true
	}
	return "", "", false
}

// modules starts compiling the named modules and, transitively, the host
// modules their sources require. aliases maps other names to canonical ones.
func (w *prewarmer) modules(names []string, canonical func(string) string) {
	for len(names) > 0 {
		name := canonical(names[0])
		names = names[1:]
		if w.seen[name] {
			continue
		}
		w.seen[name] = true
		if _, lazy := vmod.Lazy(name); lazy {
			// A lazy package is compiled when an export is first read,
			// which a headless start often never does; parsing it
			// speculatively would cost CPU and heap on every start.
			// Its small core serves the usual load-time reads, though.
			if core, ok := vmod.Cores[name]; ok {
				names = append(names, core)
			}
			continue
		}
		prog, src, ok := w.job(name)
		if !ok {
			continue
		}
		names = append(names, requiredModules(src)...)
		go func() { _, _ = compileWrapped(prog, wrapModule, src, false) }()
	}
}

// prelude starts compiling the prelude itself.
func (w *prewarmer) prelude() {
	src, err := hostSource("prelude")
	if err != nil {
		return
	}
	go func() { _, _ = compileCached("node:internal/prelude", src, true) }()
}

// Prewarm starts compiling, in the background, the host code nearly every
// extension needs: the prelude, the API layer and typebox (the other pi
// packages load lazily, see lazyLoader). cmd/pi calls it first
// thing when extensions are likely to load, so the parsing overlaps with
// reading settings, models and the session before Load runs; compiled
// programs are shared process-wide, so Load then finds them ready.
func Prewarm() {
	w := newPrewarmer(defaultVirtualSources())
	w.prelude()
	w.modules([]string{"events", "typebox"}, func(s string) string { return s })
	go func() { _, _ = compileCached("pi:api.js", apiJS, false) }()
}
