package jsruntime

import (
	"embed"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"os"
	"runtime"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/dop251/goja"

	"github.com/pi-go/pi/engine"
	"github.com/pi-go/pi/engine/config"
)

//go:embed hostjs/*.js
var hostJS embed.FS

var processStart = time.Now()

// bytesOf reads the bytes of a string, ArrayBuffer, typed array, DataView
// or Buffer. Strings are UTF-8 encoded.
func bytesOf(vm *goja.Runtime, v goja.Value) []byte {
	if v == nil || goja.IsUndefined(v) || goja.IsNull(v) {
		return nil
	}
	switch x := v.Export().(type) {
	case string:
		return []byte(x)
	case goja.ArrayBuffer:
		return x.Bytes()
	case []byte:
		return x
	}
	o := v.ToObject(vm)
	if ab, ok := o.Get("buffer").Export().(goja.ArrayBuffer); ok {
		off := int(o.Get("byteOffset").ToInteger())
		n := int(o.Get("byteLength").ToInteger())
		b := ab.Bytes()
		if off+n <= len(b) {
			return b[off : off+n]
		}
	}
	return []byte(v.String())
}

// newUint8Array copies b into a fresh Uint8Array.
func newUint8Array(vm *goja.Runtime, b []byte) goja.Value {
	ab := vm.NewArrayBuffer(append([]byte(nil), b...))
	ctor, _ := goja.AssertConstructor(vm.Get("Uint8Array"))
	o, err := ctor(nil, vm.ToValue(ab))
	if err != nil {
		panic(err)
	}
	return o
}

// installGlobals defines the Go primitives (__go) and runs the JS prelude
// that builds the Node/Web globals goja lacks on top of them.
func (r *Runtime) installGlobals() error {
	vm := r.vm
	g := vm.GlobalObject()
	r.loop.installTimers(vm)
	if err := patchJSONStringify(vm); err != nil {
		return err
	}
	prim := vm.NewObject()
	set := func(name string, v any) { _ = prim.Set(name, v) }
	set("write", func(s string) { _, _ = r.stderr.Write([]byte(s)) })
	set("utf8Encode", func(s string) goja.Value { return newUint8Array(vm, []byte(s)) })
	set("utf8Decode", func(v goja.Value, fatal bool) string {
		b := bytesOf(vm, v)
		if fatal && !utf8.Valid(b) {
			e := vm.NewTypeError("The encoded data was not valid for encoding utf-8")
			_ = e.Set("code", "ERR_ENCODING_INVALID_ENCODED_DATA")
			panic(e)
		}
		return strings.ToValidUTF8(string(b), "\uFFFD")
	})
	set("utf8DecodeStream", func(prev, v goja.Value, fatal, stream bool) goja.Value {
		b := bytesOf(vm, v)
		if p := bytesOf(vm, prev); len(p) > 0 {
			b = append(append([]byte(nil), p...), b...)
		}
		var tail goja.Value = goja.Null()
		if stream {
			if n := incompleteUTF8Tail(b); n > 0 {
				tail = newUint8Array(vm, b[len(b)-n:])
				b = b[:len(b)-n]
			}
		}
		if fatal && !utf8.Valid(b) {
			e := vm.NewTypeError("The encoded data was not valid for encoding utf-8")
			_ = e.Set("code", "ERR_ENCODING_INVALID_ENCODED_DATA")
			panic(e)
		}
		return vm.NewArray(strings.ToValidUTF8(string(b), "\uFFFD"), tail)
	})
	set("btoa", func(s string) string {
		b := make([]byte, 0, len(s))
		for _, c := range s {
			if c > 0xff {
				panic(domException(vm, "Invalid character", "InvalidCharacterError"))
			}
			b = append(b, byte(c))
		}
		return base64.StdEncoding.EncodeToString(b)
	})
	set("atob", func(s string) string {
		s = strings.Map(func(c rune) rune {
			if c == ' ' || c == '\t' || c == '\n' || c == '\f' || c == '\r' {
				return -1
			}
			return c
		}, s)
		b, err := base64.StdEncoding.DecodeString(s)
		if err != nil {
			b, err = base64.RawStdEncoding.DecodeString(strings.TrimRight(s, "="))
		}
		if err != nil {
			panic(domException(vm, "The string to be decoded is not correctly encoded.", "InvalidCharacterError"))
		}
		rs := make([]rune, len(b))
		for i, c := range b {
			rs[i] = rune(c)
		}
		return string(rs)
	})
	set("now", func() float64 { return float64(time.Since(processStart).Nanoseconds()) / 1e6 })
	set("timeOrigin", float64(processStart.UnixNano())/1e6)
	set("hrtime", func() int64 { return time.Since(processStart).Nanoseconds() })
	set("cwd", func() string {
		if r.opts.Cwd != "" {
			return r.opts.Cwd
		}
		wd, _ := os.Getwd()
		return wd
	})
	set("env", func() map[string]any {
		m := map[string]any{}
		for _, kv := range os.Environ() {
			if k, v, ok := strings.Cut(kv, "="); ok {
				m[k] = v
			}
		}
		return m
	})
	set("exit", func(code int) {
		// An extension must never end the host process; the attempt is
		// reported and the calling script stops here.
		panic(vm.NewGoError(fmt.Errorf("process.exit(%d) called by an extension; the host keeps running", code)))
	})
	argv := r.opts.Argv
	if argv == nil {
		argv = []string{"pi"}
	}
	args := make([]any, 0, len(argv)+1)
	exe, _ := os.Executable()
	args = append(args, exe)
	for _, a := range argv[min(1, len(argv)):] {
		args = append(args, a)
	}
	set("argv", vm.NewArray(args...))
	set("platform", runtime.GOOS)
	set("arch", nodeArch())
	set("pid", os.Getpid())
	set("expandUnicodeProps", expandUnicodeProps)
	set("ttys", vm.NewArray(isTerminal(os.Stdin), isTerminal(os.Stdout), isTerminal(os.Stderr)))
	set("fetch", r.fetch)
	// Node has no global require (an extension's require is its module
	// wrapper's parameter), so the prelude gets ours through __go.
	set("require", r.requireFn)
	set("webCrypto", func(goja.FunctionCall) goja.Value {
		v, err := r.newWebCrypto(r.require("crypto"))
		if err != nil {
			panic(vm.NewGoError(err))
		}
		return v
	})
	_ = g.Set("__go", prim)
	_ = g.Set("global", g)
	src, err := hostSource("prelude")
	if err != nil {
		return err
	}
	prg, err := compileCached("node:internal/prelude", src, true)
	if err != nil {
		return err
	}
	if _, err := vm.RunProgram(prg); err != nil {
		return err
	}
	if err := g.Delete("__go"); err != nil {
		return err
	}
	r.installLocaleMethods()
	r.installDOMExceptionCode()
	r.lazyGlobals(webStreamGlobals, func() (goja.Value, error) { return r.require("stream/web"), nil })
	r.lazyGlobals([]string{"navigator"}, func() (goja.Value, error) { return r.newNavigator(), nil })
	r.lazyGlobals([]string{"SharedArrayBuffer", "Atomics"}, r.newAtomicsGlobals)
	r.lazyGlobals([]string{"WebAssembly"}, r.newWebAssemblyGlobal)
	r.installWellFormed()
	r.patchTypedArrayFrom()
	r.installProcessExtras()
	// pi-ai's getModel/getModels/getProviders read the built-in catalog
	// through these on first use, one provider at a time: the whole
	// catalog is ~1 MB of JSON, which goja parses slowly.
	_ = r.host.Set("catalogProviders", func(goja.FunctionCall) goja.Value {
		return vm.ToValue(catalogProvidersJSON())
	})
	_ = r.host.Set("catalogModels", func(call goja.FunctionCall) goja.Value {
		b, err := engine.MarshalJSON(config.CatalogProviderModels(call.Argument(0).String()))
		if err != nil || string(b) == "null" {
			return vm.ToValue("[]")
		}
		return vm.ToValue(string(b))
	})
	return nil
}

// catalogProvidersJSON is the built-in providers' ids as a JSON array,
// in catalog order.
var catalogProvidersJSON = sync.OnceValue(func() string {
	b, err := json.Marshal(config.CatalogProviderIDs())
	if err != nil {
		return "[]"
	}
	return string(b)
})

// withGlobalRequire runs f, a host setup, with require defined on the
// global object: api.js reads the host's require there when its glue is
// built. It is removed afterwards because in Node typeof
// globalThis.require is "undefined", and extensions test it.
func (r *Runtime) withGlobalRequire(f func() error) error {
	g := r.vm.GlobalObject()
	_ = g.Set("require", r.requireFn)
	defer func() { _ = g.Delete("require") }()
	return f()
}

// webStreamGlobals are the WHATWG stream classes Node puts on the global
// object; they come from node:stream/web on first read.
var webStreamGlobals = []string{
	"ReadableStream", "ReadableStreamDefaultReader", "ReadableStreamBYOBReader", "ReadableStreamBYOBRequest",
	"ReadableByteStreamController", "ReadableStreamDefaultController", "TransformStream", "TransformStreamDefaultController",
	"WritableStream", "WritableStreamDefaultWriter", "WritableStreamDefaultController", "ByteLengthQueuingStrategy",
	"CountQueuingStrategy", "TextEncoderStream", "TextDecoderStream", "CompressionStream", "DecompressionStream",
}

// lazyGlobals defines globals whose values come from load the first time
// one of them is read or assigned, as the prelude's lazy does, but from Go,
// so the prelude compiled at every start does not grow with their names.
func (r *Runtime) lazyGlobals(names []string, load func() (goja.Value, error)) {
	vm := r.vm
	g := vm.GlobalObject()
	var values *goja.Object
	get := func() *goja.Object {
		if values == nil {
			v, err := load()
			if err != nil {
				panic(vm.NewGoError(err))
			}
			values = v.ToObject(vm)
			for _, n := range names {
				_ = g.DefineDataProperty(n, values.Get(n), goja.FLAG_TRUE, goja.FLAG_TRUE, goja.FLAG_FALSE)
			}
		}
		return values
	}
	for _, n := range names {
		getter := vm.ToValue(func(goja.FunctionCall) goja.Value { return get().Get(n) })
		setter := vm.ToValue(func(c goja.FunctionCall) goja.Value {
			get()
			_ = g.DefineDataProperty(n, c.Argument(0), goja.FLAG_TRUE, goja.FLAG_TRUE, goja.FLAG_FALSE)
			return goja.Undefined()
		})
		_ = g.DefineAccessorProperty(n, getter, setter, goja.FLAG_TRUE, goja.FLAG_FALSE)
	}
}

// newNavigator is Node 22's global navigator, as {navigator: …}.
func (r *Runtime) newNavigator() goja.Value {
	vm := r.vm
	nav := vm.NewObject()
	_ = nav.Set("hardwareConcurrency", runtime.NumCPU())
	_ = nav.Set("language", "en-US")
	_ = nav.Set("languages", vm.NewArray("en-US"))
	_ = nav.Set("platform", runtime.GOOS)
	_ = nav.Set("userAgent", "Node.js/22")
	o := vm.NewObject()
	_ = o.Set("navigator", nav)
	return o
}

// patchTypedArrayFrom lets %TypedArray%.from take a string, which goja
// refuses ("Value is not an object") though a string is iterable: the
// idiom Uint8Array.from(atob(b64), (c) => c.charCodeAt(0)) relies on it.
// The string is split into code points first, as iterating it does.
func (r *Runtime) patchTypedArrayFrom() {
	vm := r.vm
	ta := vm.Get("Uint8Array").ToObject(vm).Prototype()
	if ta == nil {
		return
	}
	orig, ok := goja.AssertFunction(ta.Get("from"))
	if !ok {
		return
	}
	from := func(c goja.FunctionCall) goja.Value {
		args := c.Arguments
		if len(args) > 0 {
			if s, isStr := args[0].Export().(string); isStr {
				parts := make([]any, 0, len(s))
				for _, ch := range s {
					parts = append(parts, string(ch))
				}
				args = append([]goja.Value{vm.NewArray(parts...)}, args[1:]...)
			}
		}
		v, err := orig(c.This, args...)
		if err != nil {
			panic(err)
		}
		return v
	}
	_ = ta.DefineDataProperty("from", vm.ToValue(from), goja.FLAG_TRUE, goja.FLAG_TRUE, goja.FLAG_FALSE)
}

// installWellFormed adds String.prototype.isWellFormed and toWellFormed
// (ES2024, in Node 22, not in goja) as native functions: a lone surrogate
// makes a string ill-formed, and toWellFormed replaces each with U+FFFD.
func (r *Runtime) installWellFormed() {
	vm := r.vm
	lone := func(s goja.String, i int) bool {
		c := s.CharAt(i)
		switch {
		case c >= 0xD800 && c <= 0xDBFF:
			return i+1 >= s.Length() || s.CharAt(i+1) < 0xDC00 || s.CharAt(i+1) > 0xDFFF
		case c >= 0xDC00 && c <= 0xDFFF:
			return i == 0 || s.CharAt(i-1) < 0xD800 || s.CharAt(i-1) > 0xDBFF
		}
		return false
	}
	str := func(c goja.FunctionCall) goja.String {
		if c.This == nil || goja.IsUndefined(c.This) || goja.IsNull(c.This) {
			panic(vm.NewTypeError("String.prototype method called on null or undefined"))
		}
		return c.This.ToString().(goja.String)
	}
	proto := vm.Get("String").ToObject(vm).Get("prototype").ToObject(vm)
	_ = proto.DefineDataProperty("isWellFormed", vm.ToValue(func(c goja.FunctionCall) goja.Value {
		s := str(c)
		for i := range s.Length() {
			if lone(s, i) {
				return vm.ToValue(false)
			}
		}
		return vm.ToValue(true)
	}), goja.FLAG_TRUE, goja.FLAG_TRUE, goja.FLAG_FALSE)
	_ = proto.DefineDataProperty("toWellFormed", vm.ToValue(func(c goja.FunctionCall) goja.Value {
		s := str(c)
		var out []uint16
		for i := range s.Length() {
			if lone(s, i) {
				if out == nil {
					out = make([]uint16, i, s.Length())
					for j := range i {
						out[j] = s.CharAt(j)
					}
				}
				out = append(out, 0xFFFD)
			} else if out != nil {
				out = append(out, s.CharAt(i))
			}
		}
		if out == nil {
			return s
		}
		return goja.StringFromUTF16(out)
	}), goja.FLAG_TRUE, goja.FLAG_TRUE, goja.FLAG_FALSE)
}

// domExceptionCodes are the legacy numeric codes of DOMException names.
var domExceptionCodes = map[string]int{
	"IndexSizeError": 1, "InvalidCharacterError": 5, "NotFoundError": 8, "NotSupportedError": 9,
	"InvalidStateError": 11, "SyntaxError": 12, "InvalidAccessError": 15, "QuotaExceededError": 22, "AbortError": 20, "TimeoutError": 23, "DataCloneError": 25,
}

// installDOMExceptionCode adds DOMException.prototype.code from Go, so the
// prelude (compiled at every start) stays as small as it was.
func (r *Runtime) installDOMExceptionCode() {
	vm := r.vm
	ctor, ok := vm.Get("DOMException").(*goja.Object)
	if !ok {
		return
	}
	proto, ok := ctor.Get("prototype").(*goja.Object)
	if !ok {
		return
	}
	get := vm.ToValue(func(c goja.FunctionCall) goja.Value {
		if o, ok := c.This.(*goja.Object); ok {
			if n := o.Get("name"); n != nil {
				return vm.ToValue(domExceptionCodes[n.String()])
			}
		}
		return vm.ToValue(0)
	})
	_ = proto.DefineAccessorProperty("code", get, nil, goja.FLAG_TRUE, goja.FLAG_FALSE)
}

// installLocaleMethods routes Number's and Date's toLocale*String through
// our Intl, as Node's go through ICU: goja's own ignore grouping
// ((1234567).toLocaleString() was "1234567") and throw on a locale
// argument. They are native functions, so nothing is compiled at start;
// Intl itself loads on the first call.
func (r *Runtime) installLocaleMethods() {
	vm := r.vm
	format := func(ctor string, defaults map[string]string) func(goja.FunctionCall) goja.Value {
		return func(c goja.FunctionCall) goja.Value {
			intl := r.require("pi:internal/intl").ToObject(vm)
			opts := vm.NewObject()
			if o, ok := c.Argument(1).(*goja.Object); ok {
				for _, k := range o.Keys() {
					_ = opts.Set(k, o.Get(k))
				}
			}
			hasOwn := false
			for _, k := range []string{"year", "month", "day", "weekday", "hour", "minute", "second", "dateStyle", "timeStyle"} {
				if v := opts.Get(k); v != nil && !goja.IsUndefined(v) {
					hasOwn = true
				}
			}
			if !hasOwn {
				for k, v := range defaults {
					_ = opts.Set(k, v)
				}
			}
			f, err := vm.New(intl.Get(ctor), c.Argument(0), opts)
			if err != nil {
				panic(err)
			}
			fn, _ := goja.AssertFunction(f.Get("format"))
			v, err := fn(f, c.This)
			if err != nil {
				panic(err)
			}
			return v
		}
	}
	set := func(proto, name string, fn func(goja.FunctionCall) goja.Value) {
		p := vm.Get(proto).ToObject(vm).Get("prototype").ToObject(vm)
		_ = p.DefineDataProperty(name, vm.ToValue(fn), goja.FLAG_TRUE, goja.FLAG_TRUE, goja.FLAG_FALSE)
	}
	set("Number", "toLocaleString", format("NumberFormat", nil))
	date := map[string]string{"year": "numeric", "month": "numeric", "day": "numeric"}
	tm := map[string]string{"hour": "numeric", "minute": "2-digit", "second": "2-digit"}
	both := map[string]string{"year": "numeric", "month": "numeric", "day": "numeric", "hour": "numeric", "minute": "2-digit", "second": "2-digit"}
	set("Date", "toLocaleDateString", format("DateTimeFormat", date))
	set("Date", "toLocaleTimeString", format("DateTimeFormat", tm))
	set("Date", "toLocaleString", format("DateTimeFormat", both))
}

// domException builds the prelude's DOMException (a TypeError before the
// prelude has run).
func domException(vm *goja.Runtime, msg, name string) goja.Value {
	if e, err := vm.New(vm.Get("DOMException"), vm.ToValue(msg), vm.ToValue(name)); err == nil {
		return e
	}
	return vm.NewTypeError(msg)
}

// incompleteUTF8Tail is the length of a UTF-8 sequence cut short at the
// end of b (0 when b ends on a boundary or with invalid bytes): a
// streaming decoder keeps those bytes for the next chunk.
func incompleteUTF8Tail(b []byte) int {
	for n := 1; n <= 3 && n <= len(b); n++ {
		c := b[len(b)-n]
		if c&0xC0 == 0x80 {
			continue // a continuation byte: look further back for the lead
		}
		need := 0
		switch {
		case c&0xE0 == 0xC0:
			need = 2
		case c&0xF0 == 0xE0:
			need = 3
		case c&0xF8 == 0xF0:
			need = 4
		}
		if need > n {
			return n
		}
		return 0
	}
	return 0
}

func nodeArch() string {
	switch runtime.GOARCH {
	case "amd64":
		return "x64"
	case "386":
		return "ia32"
	default:
		return runtime.GOARCH
	}
}
