package jsruntime

import (
	"crypto/sha256"
	"fmt"
	"os"
	"regexp"
	"sync"
	"time"

	"github.com/dop251/goja"

	"github.com/pi-go/pi/jsruntime/vmod"
)

// programCache holds compiled programs process-wide. A *goja.Program is
// immutable and may run in any runtime, so host modules, the prelude and
// extension bundles are parsed once per process, not once per runtime
// (a /reload or a second session reuses them).
var programCache sync.Map // [32]byte → *programEntry

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
	key := sha256.Sum256([]byte(name + "\x00" + src))
	v, _ := programCache.LoadOrStore(key, &programEntry{})
	e := v.(*programEntry)
	e.once.Do(func() {
		t0 := time.Now()
		e.p, e.err = goja.Compile(name, src, strict)
		if traceCompile {
			fmt.Fprintf(os.Stderr, "trace js compile %-40s %7d B %7.2f ms\n", name, len(src), float64(time.Since(t0).Microseconds())/1000)
		}
	})
	return e.p, e.err
}

// wrapModule is the CommonJS wrapper host modules are evaluated in.
func wrapModule(src string) string {
	return "(function(exports, require, module, __host){" + src + "\n})"
}

var requireCall = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`require\("([^"]+)"\)`) })

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

// job returns the program name and wrapped source of a host module, or
// false when the module is not JS we compile (Go modules, unknown names).
func (w *prewarmer) job(name string) (string, string, bool) {
	if src, ok := w.virtual[name]; ok {
		return "host:" + name, wrapModule(src), true
	}
	if b, err := hostJS.ReadFile("hostjs/" + hostJSFile(name) + ".js"); err == nil {
		return "node:" + name, wrapModule(string(b)), true
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
		for _, m := range requireCall().FindAllStringSubmatch(src, -1) {
			names = append(names, m[1])
		}
		go func() { _, _ = compileCached(prog, src, false) }()
	}
}

// prelude starts compiling the prelude itself.
func (w *prewarmer) prelude() {
	b, err := hostJS.ReadFile("hostjs/prelude.js")
	if err != nil {
		return
	}
	go func() { _, _ = compileCached("node:internal/prelude", string(b), true) }()
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
