package jsruntime

import (
	"context"
	"fmt"
	"io"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/dop251/goja"
	"github.com/tetratelabs/wazero/api"
)

// TestWasmValueConversions checks ToWebAssemblyValue and ToJSValue of the
// JS API for each number type: i32 wraps modulo 2^32, i64 takes only
// BigInts and wraps modulo 2^64, f32 rounds to single precision.
func TestWasmValueConversions(t *testing.T) {
	t.Parallel()
	vm := goja.New()
	noExtern := func(goja.Value) uint64 { t.Fatal("externref conversion not expected"); return 0 }
	tests := []struct {
		name   string
		typ    api.ValueType
		js     string // a JS expression
		bits   uint64
		backJS string // what the bits convert back to, as JS source; "" = same as js
	}{
		{"i32 small", api.ValueTypeI32, "5", 5, ""},
		{"i32 negative", api.ValueTypeI32, "-1", math.MaxUint32, ""},
		{"i32 wraps", api.ValueTypeI32, "2**31", 1 << 31, "-2147483648"},
		{"i32 wraps 2^32+3", api.ValueTypeI32, "2**32 + 3", 3, "3"},
		{"i32 truncates", api.ValueTypeI32, "-7.9", uint64(uint32(0xfffffff9)), "-7"},
		{"i32 NaN", api.ValueTypeI32, "NaN", 0, "0"},
		{"i32 string", api.ValueTypeI32, "'12'", 12, "12"},
		{"i32 huge negative", api.ValueTypeI32, "-(2**64) - 2**12", uint64(uint32(0xfffff000)), "-4096"},
		{"i64", api.ValueTypeI64, "-2n", math.MaxUint64 - 1, ""},
		{"i64 wraps", api.ValueTypeI64, "2n**64n + 5n", 5, "5n"},
		{"i64 max", api.ValueTypeI64, "2n**63n - 1n", math.MaxInt64, ""},
		{"i64 wraps to min", api.ValueTypeI64, "2n**63n", 1 << 63, "-9223372036854775808n"},
		{"i64 boolean", api.ValueTypeI64, "true", 1, "1n"},
		{"f32 rounds", api.ValueTypeF32, "0.1", api.EncodeF32(0.1), "0.10000000149011612"},
		{"f32 overflow", api.ValueTypeF32, "2**130", api.EncodeF32(float32(math.Inf(1))), "Infinity"},
		{"f64", api.ValueTypeF64, "0.1", api.EncodeF64(0.1), ""},
		{"f64 negative zero", api.ValueTypeF64, "-0", api.EncodeF64(math.Copysign(0, -1)), ""},
	}
	for _, tt := range tests {
		v, err := vm.RunString(tt.js)
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		if got := wasmFromJS(vm, tt.typ, v, noExtern); got != tt.bits {
			t.Errorf("%s: to wasm = %#x, want %#x", tt.name, got, tt.bits)
		}
		back := tt.backJS
		if back == "" {
			back = tt.js
		}
		want, err := vm.RunString(back)
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		if got := wasmToJS(vm, tt.typ, tt.bits); !got.SameAs(want) && !(got.Equals(want) && got.ExportType() == want.ExportType()) {
			t.Errorf("%s: to JS = %v (%T), want %v", tt.name, got, got.Export(), want)
		}
	}
}

// TestWasmValueConversionErrors checks the TypeErrors of the JS API: a
// BigInt is no i32 and a Number no i64.
func TestWasmValueConversionErrors(t *testing.T) {
	t.Parallel()
	vm := goja.New()
	for _, tt := range []struct {
		typ  api.ValueType
		js   string
		want string
	}{
		{api.ValueTypeI32, "1n", "TypeError: Cannot convert a BigInt value to a number"},
		{api.ValueTypeI64, "1", "TypeError: Cannot convert 1 to a BigInt"},
		{api.ValueTypeF64, "2n", "TypeError: Cannot convert a BigInt value to a number"},
		{wasmValueTypeFuncref, "() => 1", "TypeError: type incompatibility when transforming from/to JS: only null is supported as a funcref here"},
	} {
		v, err := vm.RunString(tt.js)
		if err != nil {
			t.Fatal(err)
		}
		got := func() (msg string) {
			defer func() {
				if p := recover(); p != nil {
					if o, ok := p.(*goja.Object); ok {
						msg = o.String()
					} else {
						// goja panics with its own error types
						// here; the VM makes them TypeErrors.
						msg = "TypeError: " + fmt.Sprint(p)
					}
				}
			}()
			wasmFromJS(vm, tt.typ, v, nil)
			return ""
		}()
		if got != tt.want {
			t.Errorf("%s as %#x: got %q, want %q", tt.js, tt.typ, got, tt.want)
		}
	}
}

// TestModular64 checks the integer wrapping the i32 conversion and the
// Atomics operands share, at the edges where float64 loses precision.
func TestModular64(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		f    float64
		want uint64
	}{
		{0, 0},
		{-1, math.MaxUint64},
		{-0.5, 0},
		{1 << 63, 1 << 63},
		{-(1 << 63), 1 << 63},
		{1 << 64, 0},
		{1<<64 + 4096, 4096},
		{-(1 << 64) - 4096, math.MaxUint64 - 4095},
		{math.Inf(1), 0},
		{math.NaN(), 0},
	} {
		if got := modular64(tt.f); got != tt.want {
			t.Errorf("modular64(%v) = %#x, want %#x", tt.f, got, tt.want)
		}
	}
}

// TestWasmBinaryInterface parses the imports and exports of a module the
// writer made, so the two halves of wasm_binary.go agree.
func TestWasmBinaryInterface(t *testing.T) {
	t.Parallel()
	b := glueModuleWasm([]glueItem{
		{name: "f", src: "h", field: "f0", kind: wasmKindFunc, params: []byte{0x7f}, results: []byte{0x7e}},
		{name: "memory", src: "o1", field: "m", kind: wasmKindMemory},
		{name: "g", src: "o2", field: "g", kind: wasmKindGlobal, valType: 0x7c, mutable: true},
	})
	imports, exports, err := parseWasmInterface(b)
	if err != nil {
		t.Fatal(err)
	}
	wantImports := []wasmImport{
		{module: "h", name: "f0", kind: wasmKindFunc},
		{module: "o1", name: "m", kind: wasmKindMemory},
		{module: "o2", name: "g", kind: wasmKindGlobal, valType: 0x7c, mutable: true},
	}
	if len(imports) != len(wantImports) {
		t.Fatalf("imports = %+v", imports)
	}
	for i := range imports {
		if imports[i] != wantImports[i] {
			t.Errorf("import %d = %+v, want %+v", i, imports[i], wantImports[i])
		}
	}
	wantExports := []wasmExport{{"f", wasmKindFunc, 0}, {"memory", wasmKindMemory, 0}, {"g", wasmKindGlobal, 0}}
	if len(exports) != len(wantExports) {
		t.Fatalf("exports = %+v", exports)
	}
	for i := range exports {
		if exports[i] != wantExports[i] {
			t.Errorf("export %d = %+v, want %+v", i, exports[i], wantExports[i])
		}
	}
	if _, _, err := parseWasmInterface(b[:len(b)-2]); err == nil {
		t.Error("a truncated module parsed")
	}
}

// TestWatchdogStopsBlockingCalls checks that a wasm loop and an endless
// Atomics.wait, which the watchdog's goja interrupt cannot reach, still end
// within the watchdog and leave the loop serving the next task.
func TestWatchdogStopsBlockingCalls(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct{ name, body string }{
		{"wasm loop", `const spin = new WebAssembly.Instance(new WebAssembly.Module(new Uint8Array([
    0x00, 0x61, 0x73, 0x6d, 1, 0, 0, 0,
    0x01, 0x04, 0x01, 0x60, 0x00, 0x00,
    0x03, 0x02, 0x01, 0x00,
    0x07, 0x08, 0x01, 0x04, 0x73, 0x70, 0x69, 0x6e, 0x00, 0x00,
    0x0a, 0x09, 0x01, 0x07, 0x00, 0x03, 0x40, 0x0c, 0x00, 0x0b, 0x0b,
  ]))).exports.spin;
  setTimeout(() => { try { spin(); } catch (e) { console.log("caught", e.message); } console.log("not reached"); }, 1);`},
		{"wasm start function loop", `setTimeout(() => { new WebAssembly.Instance(new WebAssembly.Module(new Uint8Array([
    0x00, 0x61, 0x73, 0x6d, 1, 0, 0, 0,
    0x01, 0x04, 0x01, 0x60, 0x00, 0x00,
    0x03, 0x02, 0x01, 0x00,
    0x08, 0x01, 0x00,
    0x0a, 0x09, 0x01, 0x07, 0x00, 0x03, 0x40, 0x0c, 0x00, 0x0b, 0x0b,
  ]))); console.log("not reached"); }, 1);`},
		{"Atomics.wait forever", `setTimeout(() => { Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0); console.log("not reached"); }, 1);`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			h := runTS(t, map[string]string{"ext.ts": "export default function () {\n  " + tt.body + `
  setTimeout(() => console.log("next task runs"), 5);
}`}, func(o *LoadOptions) { o.Watchdog = 200 * time.Millisecond })
			if len(h.loadErrs) > 0 {
				t.Fatal(h.loadErrs)
			}
			h.settle(t)
			errs := h.extErrors()
			if len(errs) != 1 || !strings.Contains(errs[0].Error, "interrupted") {
				t.Errorf("errors = %+v", errs)
			}
			out := h.stderr.String()
			if strings.Contains(out, "not reached") || !strings.Contains(out, "next task runs") {
				t.Errorf("output = %q", out)
			}
		})
	}
}

// BenchmarkWasmCall measures one JS → wasm call (add) and one wasm → JS
// import call (run → log, twice): the per-call cost undici's parser pays
// for each chunk and each callback.
func BenchmarkWasmCall(b *testing.B) {
	rt, err := New(LoadOptions{Stderr: io.Discard})
	if err != nil {
		b.Fatal(err)
	}
	defer rt.Close()
	err = rt.Loop().Do(context.Background(), func(vm *goja.Runtime) error {
		_, err := vm.RunString(`
const add = new WebAssembly.Instance(new WebAssembly.Module(new Uint8Array([
  0x00, 0x61, 0x73, 0x6d, 1, 0, 0, 0,
  0x01, 0x07, 0x01, 0x60, 0x02, 0x7f, 0x7f, 0x01, 0x7f,
  0x03, 0x02, 0x01, 0x00,
  0x07, 0x07, 0x01, 0x03, 0x61, 0x64, 0x64, 0x00, 0x00,
  0x0a, 0x09, 0x01, 0x07, 0x00, 0x20, 0x00, 0x20, 0x01, 0x6a, 0x0b,
]))).exports.add;
// (import "env" "f" (func (param i32) (result i32))) (func (export "g") (param i32) (result i32) local.get 0 call 0)
const g = new WebAssembly.Instance(new WebAssembly.Module(new Uint8Array([
  0x00, 0x61, 0x73, 0x6d, 1, 0, 0, 0,
  0x01, 0x06, 0x01, 0x60, 0x01, 0x7f, 0x01, 0x7f,
  0x02, 0x09, 0x01, 0x03, 0x65, 0x6e, 0x76, 0x01, 0x66, 0x00, 0x00,
  0x03, 0x02, 0x01, 0x00,
  0x07, 0x05, 0x01, 0x01, 0x67, 0x00, 0x01,
  0x0a, 0x08, 0x01, 0x06, 0x00, 0x20, 0x00, 0x10, 0x00, 0x0b,
])), { env: { f: (x) => x + 1 } }).exports.g;
globalThis.benchAdd = (n) => { let s = 0; for (let i = 0; i < n; i++) s = add(s, 1); return s; };
globalThis.benchImport = (n) => { let s = 0; for (let i = 0; i < n; i++) s = g(s); return s; };`)
		return err
	})
	if err != nil {
		b.Fatal(err)
	}
	for _, name := range []string{"benchAdd", "benchImport"} {
		b.Run(name, func(b *testing.B) {
			err := rt.Loop().Do(context.Background(), func(vm *goja.Runtime) error {
				fn, _ := goja.AssertFunction(vm.Get(name))
				b.ResetTimer()
				v, err := fn(nil, vm.ToValue(b.N))
				if err == nil && v.ToInteger() != int64(b.N) {
					err = fmt.Errorf("%s(%d) = %v", name, b.N, v)
				}
				return err
			})
			if err != nil {
				b.Fatal(err)
			}
		})
	}
}
