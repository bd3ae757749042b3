package jsruntime

import (
	"crypto/hmac"
	"crypto/md5"
	"crypto/rand"
	"crypto/sha1"
	"crypto/sha256"
	"crypto/sha512"
	"crypto/subtle"
	"errors"
	"hash"
	"net"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"runtime"
	"strings"

	"github.com/dop251/goja"
	"github.com/dop251/goja_nodejs/buffer"
	nodeurl "github.com/dop251/goja_nodejs/url"
	"github.com/google/uuid"
)

// loadPath is Node's path module, POSIX flavour (path.posix is itself).
func loadPath(r *Runtime) (goja.Value, error) {
	vm := r.vm
	o := vm.NewObject()
	strs := func(args []goja.Value) []string {
		out := make([]string, 0, len(args))
		for _, a := range args {
			out = append(out, a.String())
		}
		return out
	}
	_ = o.Set("sep", "/")
	_ = o.Set("delimiter", ":")
	_ = o.Set("join", func(c goja.FunctionCall) goja.Value {
		return vm.ToValue(joinPaths(strs(c.Arguments)))
	})
	_ = o.Set("resolve", func(c goja.FunctionCall) goja.Value {
		return vm.ToValue(r.resolvePaths(strs(c.Arguments)))
	})
	_ = o.Set("normalize", normalizePath)
	_ = o.Set("isAbsolute", func(p string) bool { return strings.HasPrefix(p, "/") })
	_ = o.Set("dirname", func(p string) string {
		if p == "" {
			return "."
		}
		p = strings.TrimRight(p, "/")
		if p == "" {
			return "/"
		}
		// Node keeps a leading "//" before a single segment.
		if strings.HasPrefix(p, "//") && !strings.Contains(strings.TrimLeft(p, "/"), "/") && !strings.HasPrefix(p, "///") {
			return "//"
		}
		return path.Dir(p)
	})
	_ = o.Set("basename", func(p string, ext goja.Value) string {
		p = strings.TrimRight(p, "/")
		if p == "" {
			return ""
		}
		b := path.Base(p)
		if ext != nil && !goja.IsUndefined(ext) {
			if e := ext.String(); strings.HasSuffix(b, e) {
				b = strings.TrimSuffix(b, e)
			}
		}
		return b
	})
	_ = o.Set("extname", extname)
	_ = o.Set("relative", func(from, to string) string {
		from, to = r.absPath(from), r.absPath(to)
		rel, err := filepath.Rel(from, to)
		if err != nil || rel == "." {
			return ""
		}
		return rel
	})
	_ = o.Set("parse", func(p string) *goja.Object {
		root := ""
		if strings.HasPrefix(p, "/") {
			root = "/"
		}
		trimmed := strings.TrimRight(p, "/")
		base := path.Base(trimmed)
		if trimmed == "" {
			base = ""
		}
		dir := ""
		if trimmed == "" {
			dir = root
		}
		if i := strings.LastIndex(trimmed, "/"); i >= 0 {
			dir = trimmed[:i]
			if dir == "" {
				dir = "/"
			}
		}
		ext := extname(base)
		// Node's key order: root, dir, base, ext, name.
		res := vm.NewObject()
		_ = res.Set("root", root)
		_ = res.Set("dir", dir)
		_ = res.Set("base", base)
		_ = res.Set("ext", ext)
		_ = res.Set("name", strings.TrimSuffix(base, ext))
		return res
	})
	_ = o.Set("format", func(obj *goja.Object) string { return formatPath(obj, "/") })
	_ = o.Set("toNamespacedPath", func(p string) string { return p })
	_ = o.Set("posix", o)
	// win32 is built on first read: few extensions use it, and every
	// extension that imports path would pay for it at start.
	var win32 *goja.Object
	getWin32 := vm.ToValue(func(goja.FunctionCall) goja.Value {
		if win32 == nil {
			win32 = r.newPathWin32(o)
		}
		return win32
	})
	_ = o.DefineAccessorProperty("win32", getWin32, nil, goja.FLAG_TRUE, goja.FLAG_TRUE)
	return o, nil
}

// formatPath is path.format with the flavour's separator.
func formatPath(obj *goja.Object, sep string) string {
	get := func(k string) string {
		v := obj.Get(k)
		if v == nil || goja.IsUndefined(v) || goja.IsNull(v) {
			return ""
		}
		return v.String()
	}
	dir := get("dir")
	if dir == "" {
		dir = get("root")
	}
	base := get("base")
	if base == "" {
		ext := get("ext")
		if ext != "" && !strings.HasPrefix(ext, ".") {
			ext = "." + ext
		}
		base = get("name") + ext
	}
	if dir == "" {
		return base
	}
	if dir == get("root") {
		return dir + base
	}
	return dir + sep + base
}

func (r *Runtime) absPath(p string) string {
	if !strings.HasPrefix(p, "/") {
		p = r.cwd() + "/" + p
	}
	return path.Clean(p)
}

// normalizePath is path.normalize: Clean, but keeping a trailing slash and
// "." for empty input, as Node does.
func normalizePath(p string) string {
	if p == "" {
		return "."
	}
	trailing := strings.HasSuffix(p, "/")
	c := path.Clean(p)
	if trailing && c != "/" {
		c += "/"
	}
	return c
}

func extname(p string) string {
	b := path.Base(strings.TrimRight(p, "/"))
	i := strings.LastIndex(b, ".")
	if i <= 0 || b == ".." {
		return ""
	}
	return b[i:]
}

func loadOS(r *Runtime) (goja.Value, error) {
	vm := r.vm
	o := vm.NewObject()
	_ = o.Set("homedir", func() string {
		if h := os.Getenv("HOME"); h != "" {
			return h
		}
		h, _ := os.UserHomeDir()
		return h
	})
	_ = o.Set("tmpdir", func() string { return strings.TrimRight(os.TempDir(), "/") })
	_ = o.Set("platform", func() string { return runtime.GOOS })
	_ = o.Set("type", func() string {
		if runtime.GOOS == "darwin" {
			return "Darwin"
		}
		return "Linux"
	})
	_ = o.Set("arch", func() string { return nodeArch() })
	_ = o.Set("release", func() string { return "6.0.0" })
	_ = o.Set("version", func() string { return "" })
	_ = o.Set("machine", func() string { return runtime.GOARCH })
	_ = o.Set("hostname", func() string { h, _ := os.Hostname(); return h })
	_ = o.Set("EOL", "\n")
	_ = o.Set("devNull", "/dev/null")
	_ = o.Set("endianness", func() string { return "LE" })
	_ = o.Set("uptime", func() float64 { return 0 })
	_ = o.Set("loadavg", func() []float64 { return []float64{0, 0, 0} })
	_ = o.Set("totalmem", func() int64 { return 8 << 30 })
	_ = o.Set("freemem", func() int64 { return 4 << 30 })
	_ = o.Set("availableParallelism", func() int { return runtime.NumCPU() })
	_ = o.Set("cpus", func() []map[string]any {
		out := make([]map[string]any, runtime.NumCPU())
		for i := range out {
			out[i] = map[string]any{"model": "cpu", "speed": 0, "times": map[string]any{"user": 0, "nice": 0, "sys": 0, "idle": 0, "irq": 0}}
		}
		return out
	})
	_ = o.Set("userInfo", func() map[string]any {
		name := os.Getenv("USER")
		home, _ := os.UserHomeDir()
		return map[string]any{"username": name, "uid": os.Getuid(), "gid": os.Getgid(), "shell": os.Getenv("SHELL"), "homedir": home}
	})
	_ = o.Set("networkInterfaces", func() map[string]any {
		out := map[string]any{}
		ifs, _ := net.Interfaces()
		for _, i := range ifs {
			out[i.Name] = []any{}
		}
		return out
	})
	_ = o.Set("constants", map[string]any{"signals": map[string]any{"SIGINT": 2, "SIGTERM": 15, "SIGKILL": 9, "SIGHUP": 1}})
	return o, nil
}

// loadCrypto covers hashing, HMAC, random values and UUIDs.
func loadCrypto(r *Runtime) (goja.Value, error) {
	vm := r.vm
	o := vm.NewObject()
	newHash := func(alg string) func() hash.Hash {
		switch strings.ToLower(strings.ReplaceAll(alg, "-", "")) {
		case "md5":
			return md5.New
		case "sha1":
			return sha1.New
		case "sha256":
			return sha256.New
		case "sha384":
			return sha512.New384
		case "sha512":
			return sha512.New
		}
		return nil
	}
	hashObject := func(h hash.Hash) *goja.Object {
		ho := vm.NewObject()
		_ = ho.Set("update", func(data goja.Value, enc goja.Value) *goja.Object {
			if s, ok := data.Export().(string); ok && enc != nil && !goja.IsUndefined(enc) {
				h.Write(buffer.DecodeBytes(vm, vm.ToValue(s), enc))
			} else {
				h.Write(bytesOf(vm, data))
			}
			return ho
		})
		_ = ho.Set("digest", func(enc goja.Value) goja.Value {
			sum := h.Sum(nil)
			if enc == nil || goja.IsUndefined(enc) || enc.String() == "buffer" {
				return buffer.WrapBytes(vm, sum)
			}
			return vm.ToValue(decodeString(sum, enc.String()))
		})
		_ = ho.Set("copy", func() goja.Value { return goja.Undefined() })
		return ho
	}
	_ = o.Set("createHash", func(alg string) *goja.Object {
		f := newHash(alg)
		if f == nil {
			e, _ := vm.New(vm.Get("Error"), vm.ToValue("Digest method not supported"))
			panic(e)
		}
		return hashObject(f())
	})
	_ = o.Set("createHmac", func(alg string, key goja.Value) *goja.Object {
		f := newHash(alg)
		if f == nil {
			panic(vm.NewTypeError("Invalid digest: " + alg))
		}
		return hashObject(hmac.New(f, bytesOf(vm, key)))
	})
	_ = o.Set("randomBytes", func(n int, cb goja.Value) goja.Value {
		b := make([]byte, n)
		_, _ = rand.Read(b)
		buf := buffer.WrapBytes(vm, b)
		if f, ok := goja.AssertFunction(cb); ok {
			done := r.loop.Reserve()
			done(func(*goja.Runtime) { _, _ = f(goja.Undefined(), goja.Null(), buf) })
			return goja.Undefined()
		}
		return buf
	})
	_ = o.Set("randomUUID", func() string { return uuid.NewString() })
	_ = o.Set("randomInt", func(a, b goja.Value) int64 {
		lo, hi := int64(0), a.ToInteger()
		if b != nil && !goja.IsUndefined(b) {
			if _, isFn := goja.AssertFunction(b); !isFn {
				lo, hi = a.ToInteger(), b.ToInteger()
			}
		}
		var x [8]byte
		_, _ = rand.Read(x[:])
		n := uint64(0)
		for _, c := range x {
			n = n<<8 | uint64(c)
		}
		if hi <= lo {
			return lo
		}
		return lo + int64(n%uint64(hi-lo))
	})
	_ = o.Set("timingSafeEqual", func(a, b goja.Value) bool {
		x, y := bytesOf(vm, a), bytesOf(vm, b)
		if len(x) != len(y) {
			e, _ := vm.New(vm.Get("RangeError"), vm.ToValue("Input buffers must have the same byte length"))
			_ = e.Set("code", "ERR_CRYPTO_TIMING_SAFE_EQUAL_LENGTH")
			panic(e)
		}
		return subtle.ConstantTimeCompare(x, y) == 1
	})
	_ = o.Set("getRandomValues", func(arr goja.Value) goja.Value {
		_, _ = rand.Read(bytesOf(vm, arr))
		return arr
	})
	_ = o.Set("getHashes", func() []string { return []string{"md5", "sha1", "sha256", "sha384", "sha512"} })
	r.addCryptoCiphers(o, newHash)
	// The global crypto is built lazily from this module, so webcrypto is
	// read from it on access rather than now.
	_ = o.DefineAccessorProperty("subtle", vm.ToValue(func() goja.Value { return vm.Get("crypto").ToObject(vm).Get("subtle") }), nil, goja.FLAG_TRUE, goja.FLAG_TRUE)
	_ = o.DefineAccessorProperty("webcrypto", vm.ToValue(func() goja.Value { return vm.Get("crypto") }), nil, goja.FLAG_TRUE, goja.FLAG_TRUE)
	return o, nil
}

// fileURLToPath decodes a file: URL; anything else is returned unchanged.
func fileURLToPath(s string) string {
	u, err := url.Parse(s)
	if err != nil || u.Scheme != "file" {
		return s
	}
	return u.Path
}

// loadURL wraps goja_nodejs's URL (WHATWG parsing) and fixes its relative
// resolution against file: bases, which extensions use with import.meta.url.
func loadURL(r *Runtime) (goja.Value, error) {
	vm := r.vm
	base := r.nativeModule(nodeurl.Require).ToObject(vm)
	o := vm.NewObject()
	for _, k := range base.Keys() {
		_ = o.Set(k, base.Get(k))
	}
	_ = o.Set("__resolve", func(ref, b string) string {
		bu, err := url.Parse(b)
		if err != nil {
			return ref
		}
		ru, err := url.Parse(ref)
		if err != nil {
			return ref
		}
		return bu.ResolveReference(ru).String()
	})
	// __path is the URL's path as WHATWG keeps it: dot segments removed,
	// but trailing and doubled slashes kept (goja_nodejs cleans them
	// away, which breaks new URL("models", "https://host/v1/")).
	_ = o.Set("__path", func(s string) string {
		u, err := url.Parse(s)
		if err != nil {
			return ""
		}
		p := u.ResolveReference(&url.URL{}).EscapedPath()
		if p == "" && u.Host != "" {
			p = "/"
		}
		return p
	})
	_ = o.Set("fileURLToPath", func(v goja.Value) string {
		s := v.String()
		if obj, ok := v.(*goja.Object); ok {
			if h := obj.Get("href"); h != nil && !goja.IsUndefined(h) {
				s = h.String()
			}
		}
		if !strings.HasPrefix(s, "file:") {
			e := r.vm.NewTypeError("The URL must be of scheme file")
			_ = e.Set("code", "ERR_INVALID_URL_SCHEME")
			panic(e)
		}
		return fileURLToPath(s)
	})
	patch, err := vm.RunString(urlPatch)
	if err != nil {
		return nil, err
	}
	fn, _ := goja.AssertFunction(patch)
	if _, err := fn(goja.Undefined(), o, r.requireFn); err != nil {
		return nil, err
	}
	return o, nil
}

// urlPatch subclasses URL with the file: fix and adds the url helpers.
const urlPatch = `(function(m, require){
		const Base = m.URL;
		const kPath = Symbol("path");
		const hasScheme = (s) => /^[a-zA-Z][a-zA-Z0-9+.-]*:/.test(s);
		class URL extends Base {
			constructor(input, base) {
				input = String(input);
				if (base !== undefined) {
					const b = String(base && base.href !== undefined ? base.href : base);
					// RFC 3986 resolution keeps the base's trailing slash,
					// which goja_nodejs's own resolution drops.
					if (hasScheme(b) && !hasScheme(input)) { input = m.__resolve(input, b); base = undefined; }
				}
				try {
					if (base === undefined) super(input); else super(input, base);
					if (hasScheme(input)) Object.defineProperty(this, kPath, { value: m.__path(input), writable: true });
				} catch (e) {
					const err = new TypeError("Invalid URL");
					err.code = "ERR_INVALID_URL"; err.input = input;
					if (base !== undefined) err.base = String(base);
					throw err;
				}
			}
			// goja_nodejs leaves the port out of origin and does not put
			// searchParams changes into href; Node does both.
			get origin() {
				const special = { "http:": 1, "https:": 1, "ws:": 1, "wss:": 1, "ftp:": 1 };
				return special[this.protocol] ? this.protocol + "//" + this.host : "null";
			}
			get pathname() { return this[kPath] !== undefined ? this[kPath] : super.pathname; }
			set pathname(v) {
				super.pathname = v;
				v = String(v);
				this[kPath] = m.__path("http://h" + (v.startsWith("/") ? "" : "/") + v);
			}
			get href() {
				const h = super.href;
				const hi = h.indexOf("#");
				const head = hi >= 0 ? h.slice(0, hi) : h, hash = hi >= 0 ? h.slice(hi) : "";
				const qi = head.indexOf("?");
				let noQuery = qi >= 0 ? head.slice(0, qi) : head;
				const kept = this[kPath];
				if (kept !== undefined) {
					const cleaned = super.pathname;
					if (noQuery.endsWith(cleaned)) noQuery = noQuery.slice(0, noQuery.length - cleaned.length) + kept;
					else if (cleaned === "/" || cleaned === "") noQuery = noQuery.replace(/\/?$/, "") + kept;
				}
				return noQuery + this.search + hash;
			}
			set href(v) { super.href = v; this[kPath] = m.__path(String(v)); }
			toString() { return this.href; }
			toJSON() { return this.href; }
			static canParse(u, b) { try { new URL(u, b); return true; } catch { return false; } }
			static parse(u, b) { try { return new URL(u, b); } catch { return null; } }
		}
		m.URL = URL;
		m.pathToFileURL = (p) => {
			p = String(p);
			let abs = require("path").resolve(p);
			if (p.endsWith("/") && !abs.endsWith("/")) abs += "/";
			return new URL("file://" + encodeURI(abs).replace(/[?#]/g, encodeURIComponent));
		};
		m.format = (u) => typeof u === "string" ? u : u.href !== undefined ? u.href : (u.protocol ? u.protocol + "//" : "") + (u.host || u.hostname || "") + (u.pathname || "") + (u.search || "") + (u.hash || "");
		m.parse = (s) => { try { const u = new URL(s); return { protocol: u.protocol, host: u.host, hostname: u.hostname, port: u.port || null, pathname: u.pathname, path: u.pathname + u.search, search: u.search || null, query: u.search ? u.search.slice(1) : null, hash: u.hash || null, href: u.href, auth: u.username ? u.username + (u.password ? ":" + u.password : "") : null }; } catch { return { href: s, pathname: s, path: s }; } };
		m.resolve = (from, to) => new URL(to, new URL(from, "resolve://")).href.replace(/^resolve:\/\//, "");
	})`

func joinPaths(parts []string) string {
	var nonEmpty []string
	for _, p := range parts {
		if p != "" {
			nonEmpty = append(nonEmpty, p)
		}
	}
	if len(nonEmpty) == 0 {
		return "."
	}
	return normalizePath(strings.Join(nonEmpty, "/"))
}

func (r *Runtime) resolvePaths(parts []string) string {
	res := ""
	for i := len(parts) - 1; i >= 0; i-- {
		if parts[i] == "" {
			continue
		}
		res = parts[i] + "/" + res
		if strings.HasPrefix(parts[i], "/") {
			break
		}
	}
	if !strings.HasPrefix(res, "/") {
		res = r.cwd() + "/" + res
	}
	return path.Clean(res)
}

// eventsOnSrc holds the rare paths of events, compiled on first use
// (events itself is compiled at every start): on(emitter, name), an async
// iterator over an event's argument arrays whose pending next() an 'error'
// event rejects, and the error an 'error' event without listeners throws
// for a value that is not an Error.
const eventsOnSrc = `"use strict";
exports.unhandled = (e) => {
  const err = new Error("Unhandled error. (" + require("util").inspect(e) + ")");
  err.code = "ERR_UNHANDLED_ERROR"; err.context = e;
  return err;
};
exports.on = (em, n, opts) => {
  const queue = [], waiting = [];
  let error = null, done = false;
  const push = (...a) => { const w = waiting.shift(); if (w) w.resolve({ value: a, done: false }); else queue.push(a); };
  const onError = (e) => { const w = waiting.shift(); if (w) w.reject(e); else error = e; finish(); };
  const finish = () => { done = true; em.off(n, push); if (n !== "error") em.off("error", onError); for (const w of waiting.splice(0)) w.resolve({ value: undefined, done: true }); };
  em.on(n, push);
  if (n !== "error") em.on("error", onError);
  const signal = opts && opts.signal;
  if (signal) signal.addEventListener("abort", () => { const e = new Error("The operation was aborted"); e.name = "AbortError"; e.code = "ABORT_ERR"; onError(e); }, { once: true });
  return {
    next() {
      if (queue.length) return Promise.resolve({ value: queue.shift(), done: false });
      if (error) { const e = error; error = null; return Promise.reject(e); }
      if (done) return Promise.resolve({ value: undefined, done: true });
      return new Promise((resolve, reject) => waiting.push({ resolve, reject }));
    },
    return() { finish(); return Promise.resolve({ value: undefined, done: true }); },
    throw(e) { onError(e); return Promise.reject(e); },
    [Symbol.asyncIterator]() { return this; },
  };
};
`

func loadEventsOn(r *Runtime) (goja.Value, error) {
	return r.evalCommonJS("node:internal/events-on", wrapModule, eventsOnSrc, r.host)
}

// stubModule is one of the Node modules in hostjs/pi_internal_stubs.js
// that load (so a bundled library importing them works) but only do what
// makes sense in an extension host.
func stubModule(name string) moduleLoader {
	return func(r *Runtime) (goja.Value, error) { return r.requireProp("pi:internal/stubs", name) }
}

// loadHTTP builds node:http or node:https (protocol is the default for a
// request given as options) over the fetch primitive.
func loadHTTP(protocol string) moduleLoader {
	return func(r *Runtime) (goja.Value, error) {
		src, err := hostSource("http")
		if err != nil {
			return nil, err
		}
		prim := r.vm.NewObject()
		_ = prim.Set("fetch", r.fetch)
		mk, err := r.evalCommonJS("node:http", wrapModule, src, prim)
		if err != nil {
			return nil, err
		}
		fn, ok := goja.AssertFunction(mk)
		if !ok {
			return nil, errors.New("node:http: module is not a function")
		}
		return fn(goja.Undefined(), r.vm.ToValue(protocol))
	}
}
