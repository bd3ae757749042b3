package jsruntime

import (
	"bytes"
	"encoding/base64"
	"encoding/hex"
	"strings"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/dop251/goja"
	nodebuffer "github.com/dop251/goja_nodejs/buffer"
)

// loadBuffer is goja_nodejs's Buffer completed with what extensions expect
// of Node's: the static helpers it lacks (isBuffer, byteLength, compare …),
// the encodings it does not know (latin1, binary, ascii, utf16le, ucs2,
// base64url), string and Buffer search (indexOf, includes,
// lastIndexOf) and toJSON. The patch is compiled when buffer is first
// required, never at start.
func loadBuffer(r *Runtime) (goja.Value, error) {
	vm := r.vm
	mod := r.nativeModule(nodebuffer.Require).ToObject(vm)
	helpers := vm.NewObject()
	// encode turns a string into bytes in one of the extra encodings.
	_ = helpers.Set("encode", func(s, enc string) goja.Value {
		return nodebuffer.WrapBytes(vm, encodeString(s, enc))
	})
	// decode turns bytes into a string in any encoding.
	_ = helpers.Set("decode", func(v goja.Value, enc string) string {
		return decodeString(bytesOf(vm, v), enc)
	})
	_ = helpers.Set("indexOf", func(hay, needle goja.Value, from int, last bool) int {
		h, n := bytesOf(vm, hay), bytesOf(vm, needle)
		if from < 0 {
			from = max(0, len(h)+from)
		}
		if last {
			if from >= len(h) || from < 0 {
				from = len(h)
			}
			end := min(len(h), from+len(n))
			return bytes.LastIndex(h[:end], n)
		}
		if from > len(h) {
			return -1
		}
		i := bytes.Index(h[from:], n)
		if i < 0 {
			return -1
		}
		return i + from
	})
	prg, err := compileCached("node:internal/buffer", bufferPatch, true)
	if err != nil {
		return nil, err
	}
	fnv, err := vm.RunProgram(prg)
	if err != nil {
		return nil, err
	}
	fn, _ := goja.AssertFunction(fnv)
	if _, err := fn(goja.Undefined(), mod.Get("Buffer"), helpers); err != nil {
		return nil, err
	}
	r.addBufferExports(mod)
	return mod, nil
}

// extraEncodings are the encodings goja_nodejs does not implement; the
// patch routes them to encodeString and decodeString.
const bufferPatch = `(function (B, go) {
  "use strict";
  const extra = { latin1: 1, binary: 1, ascii: 1, utf16le: 1, "utf-16le": 1, ucs2: 1, "ucs-2": 1, base64url: 1 };
  const known = { utf8: 1, "utf-8": 1, hex: 1, base64: 1, ...extra };
  const norm = (e) => e === undefined || e === null ? "utf8" : String(e).toLowerCase();
  const check = (e) => {
    if (!known[e]) { const err = new TypeError("Unknown encoding: " + e); err.code = "ERR_UNKNOWN_ENCODING"; throw err; }
    return e;
  };
  const from = B.from;
  B.from = function (v, enc, len) {
    if (typeof v === "string" && enc !== undefined) {
      const e = norm(enc);
      if (extra[e]) return go.encode(v, e);
      return from.call(this, v, e);
    }
    return from.call(this, v, enc, len);
  };
  const toString = B.prototype.toString;
  B.prototype.toString = function (enc, start, end) {
    const e = check(norm(enc));
    if (start !== undefined || end !== undefined) {
      const s = Math.max(0, start | 0), t = end === undefined ? this.length : Math.min(this.length, end | 0);
      if (t <= s) return "";
      return this.subarray(s, t).toString(e);
    }
    if (extra[e]) return go.decode(this, e);
    return toString.call(this, e);
  };
  B.prototype.toLocaleString = B.prototype.toString;
  // Node's slice is a view like subarray; the typed-array slice would
  // construct a Buffer through its species with a length, which
  // goja_nodejs does not implement.
  B.prototype.slice = function (s, e) { return this.subarray(s, e); };
  B.prototype.toJSON = function () { return { type: "Buffer", data: Array.from(this) }; };
  const needle = (v, enc) => typeof v === "number" ? B.from([v & 255]) : typeof v === "string" ? B.from(v, enc) : v;
  const args = (off, enc) => typeof off === "string" ? [0, off] : [off === undefined ? 0 : off | 0, enc];
  B.prototype.indexOf = function (v, off, enc) { const [o, e] = args(off, enc); return go.indexOf(this, needle(v, e), o, false); };
  B.prototype.lastIndexOf = function (v, off, enc) { const [o, e] = args(off === undefined ? this.length : off, enc); return go.indexOf(this, needle(v, e), o, true); };
  B.prototype.includes = function (v, off, enc) { return this.indexOf(v, off, enc) !== -1; };
  const def = (k, v) => { if (!B[k]) B[k] = v; };
  def("isBuffer", (b) => b instanceof B);
  def("isEncoding", (e) => typeof e === "string" && !!known[e.toLowerCase()]);
  def("byteLength", (s, enc) => typeof s === "string" ? B.from(s, enc).length : s.byteLength);
  def("allocUnsafe", (n) => B.alloc(n));
  def("allocUnsafeSlow", (n) => B.alloc(n));
  def("compare", (a, b) => { const n = Math.min(a.length, b.length); for (let i = 0; i < n; i++) if (a[i] !== b[i]) return a[i] < b[i] ? -1 : 1; return a.length === b.length ? 0 : a.length < b.length ? -1 : 1; });
  if (!B.prototype.compare) B.prototype.compare = function (o) { return B.compare(this, o); };
  if (!B.prototype.copy) B.prototype.copy = function (target, ts = 0, ss = 0, se = this.length) { const part = this.subarray(ss, se); const n = Math.min(part.length, target.length - ts); target.set(part.subarray(0, n), ts); return n; };
})`

// encodeString converts a JS string to bytes in one of Node's encodings.
func encodeString(s, enc string) []byte {
	switch enc {
	case "latin1", "binary", "ascii":
		units := utf16.Encode([]rune(s))
		b := make([]byte, len(units))
		for i, u := range units {
			b[i] = byte(u)
		}
		return b
	case "utf16le", "utf-16le", "ucs2", "ucs-2":
		units := utf16.Encode([]rune(s))
		b := make([]byte, 2*len(units))
		for i, u := range units {
			b[2*i], b[2*i+1] = byte(u), byte(u>>8)
		}
		return b
	case "base64url", "base64":
		// Node accepts both alphabets, with or without padding, in
		// either encoding.
		t := strings.NewReplacer("-", "+", "_", "/").Replace(strings.TrimRight(s, "="))
		b, _ := base64.RawStdEncoding.DecodeString(t)
		return b
	case "hex":
		b, _ := hex.DecodeString(s)
		return b
	}
	return []byte(s)
}

// addBufferExports adds node:buffer's exports beyond Buffer: the size
// limits and constants, atob/btoa, Blob/File (read on use, from fetch's
// globals), isUtf8/isAscii and SlowBuffer.
func (r *Runtime) addBufferExports(mod *goja.Object) {
	vm := r.vm
	const maxLength = 1<<53 - 1
	const maxString = 1<<29 - 24
	_ = mod.Set("kMaxLength", maxLength)
	_ = mod.Set("kStringMaxLength", maxString)
	_ = mod.Set("INSPECT_MAX_BYTES", 50)
	consts := vm.NewObject()
	_ = consts.Set("MAX_LENGTH", maxLength)
	_ = consts.Set("MAX_STRING_LENGTH", maxString)
	_ = mod.Set("constants", consts)
	allocSlow, _ := goja.AssertFunction(mod.Get("Buffer").ToObject(vm).Get("alloc"))
	_ = mod.Set("SlowBuffer", func(c goja.FunctionCall) goja.Value {
		v, err := allocSlow(mod.Get("Buffer"), c.Argument(0))
		if err != nil {
			panic(err)
		}
		return v
	})
	for _, name := range []string{"atob", "btoa", "Blob", "File"} {
		get := vm.ToValue(func(goja.FunctionCall) goja.Value { return vm.Get(name) })
		_ = mod.DefineAccessorProperty(name, get, nil, goja.FLAG_TRUE, goja.FLAG_TRUE)
	}
	_ = mod.Set("isUtf8", func(v goja.Value) bool { return utf8.Valid(bytesOf(vm, v)) })
	_ = mod.Set("isAscii", func(v goja.Value) bool {
		for _, c := range bytesOf(vm, v) {
			if c >= 0x80 {
				return false
			}
		}
		return true
	})
	_ = mod.Set("resolveObjectURL", func() goja.Value { return goja.Undefined() })
}
