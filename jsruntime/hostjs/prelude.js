// Node and Web globals that goja lacks, built on the Go primitives in
// __go. Runs once per runtime before any extension.
(function (go) {
  "use strict";
  const require = go.require;
  const g = globalThis;
  const def = (name, value) => Object.defineProperty(g, name, { value, writable: true, configurable: true, enumerable: false });
  // lazy defines globals whose host module is only loaded (parsed and run)
  // when one of them is first read: most extensions never touch fetch,
  // Intl or Buffer, and every module loaded costs startup time. load
  // returns an object with a value for every name.
  const lazy = (names, load) => {
    let values;
    const get = () => {
      if (!values) {
        values = load();
        for (const n of names) def(n, values[n]);
      }
      return values;
    };
    for (const n of names) {
      Object.defineProperty(g, n, {
        configurable: true, enumerable: false,
        get() { return get()[n]; },
        set(v) { get(); def(n, v); },
      });
    }
  };

  if (typeof Symbol.asyncIterator === "undefined") {
    // esbuild's for-await lowering also looks up this registered symbol.
    Object.defineProperty(Symbol, "asyncIterator", { value: Symbol.for("Symbol.asyncIterator") });
  }
  // Node 22 has the explicit resource management symbols; esbuild's lowered
  // "using" falls back to these registered ones, so both sides agree.
  for (const n of ["dispose", "asyncDispose"]) {
    if (typeof Symbol[n] === "undefined") Object.defineProperty(Symbol, n, { value: Symbol.for("Symbol." + n) });
  }
  // V8's Error.captureStackTrace is called by many libraries' error
  // classes; here it gives the target a stack in goja's format without
  // the frame of the call itself.
  if (typeof Error.captureStackTrace !== "function") {
    Object.defineProperty(Error, "captureStackTrace", { writable: true, configurable: true, value: function captureStackTrace(target) {
      if (target === null || (typeof target !== "object" && typeof target !== "function")) throw new TypeError('The "targetObject" argument must be of type object');
      const frames = String(new Error().stack).split("\n").slice(2);
      let head;
      try { head = target.message ? `${target.name || "Error"}: ${target.message}` : String(target.name || "Error"); } catch { head = "Error"; }
      Object.defineProperty(target, "stack", { value: [head, ...frames].join("\n"), writable: true, configurable: true, enumerable: false });
    } });
    if (typeof Error.stackTraceLimit !== "number") Error.stackTraceLimit = 10;
  }
  // goja's regular expressions lack Unicode property escapes (/\p{L}/u
  // never matched); the Go side expands them into code point ranges.
  {
    const NativeRegExp = RegExp, expand = go.expandUnicodeProps;
    const needs = (src, flags) => typeof src === "string" && src.includes("\\p{") || typeof src === "string" && src.includes("\\P{");
    const RegExpP = function RegExp(pattern, flags) {
      let src = pattern, fl = flags;
      if (pattern instanceof NativeRegExp) { src = pattern.source; if (fl === undefined) fl = pattern.flags; }
      if (typeof fl === "string" && (fl.includes("u") || fl.includes("v")) && needs(src)) {
        pattern = expand(src);
        if (fl.includes("v")) fl = fl.replace("v", "u");
        flags = fl;
      }
      return new.target ? Reflect.construct(NativeRegExp, [pattern, flags], new.target === RegExpP ? NativeRegExp : new.target) : NativeRegExp(pattern, flags);
    };
    Object.setPrototypeOf(RegExpP, NativeRegExp);
    Object.defineProperty(RegExpP, "prototype", { value: NativeRegExp.prototype });
    Object.defineProperty(NativeRegExp.prototype, "constructor", { value: RegExpP, writable: true, configurable: true });
    def("RegExp", RegExpP);
  }
  if (!Promise.withResolvers) {
    Promise.withResolvers = function () { let resolve, reject; const promise = new this((a, b) => { resolve = a; reject = b; }); return { promise, resolve, reject }; };
  }
  if (!Object.groupBy) {
    Object.groupBy = (items, fn) => { const out = Object.create(null); let i = 0; for (const it of items) { const k = fn(it, i++); (out[k] || (out[k] = [])).push(it); } return out; };
  }
  if (!Map.groupBy) {
    Map.groupBy = (items, fn) => { const out = new Map(); let i = 0; for (const it of items) { const k = fn(it, i++); if (!out.has(k)) out.set(k, []); out.get(k).push(it); } return out; };
  }
  if (!Array.fromAsync) {
    Array.fromAsync = async (items, fn) => { const out = []; if (items[Symbol.asyncIterator]) { const it = items[Symbol.asyncIterator](); for (;;) { const r = await it.next(); if (r.done) break; out.push(fn ? await fn(r.value) : r.value); } } else { for (const v of items) out.push(fn ? await fn(await v) : await v); } return out; };
  }
  if (typeof WeakRef === "undefined") {
    def("WeakRef", class WeakRef { constructor(t) { this._t = t; } deref() { return this._t; } });
  }
  if (typeof FinalizationRegistry === "undefined") {
    def("FinalizationRegistry", class FinalizationRegistry { register() {} unregister() { return false; } });
  }

  def("queueMicrotask", (fn) => { Promise.resolve().then(() => fn()); });

  // Minimal EventTarget/Event, enough for AbortSignal listeners.
  class Event {
    constructor(type, init) { this.type = String(type); this.defaultPrevented = false; this.timeStamp = go.now(); Object.assign(this, init || {}); }
    preventDefault() { this.defaultPrevented = true; }
    stopPropagation() {}
    stopImmediatePropagation() {}
  }
  class EventTarget {
    constructor() { Object.defineProperty(this, "_listeners", { value: new Map() }); }
    addEventListener(type, fn, opts) {
      if (!fn) return;
      if (!this._listeners.has(type)) this._listeners.set(type, []);
      this._listeners.get(type).push({ fn, once: !!(opts && opts.once) });
    }
    removeEventListener(type, fn) {
      const l = this._listeners.get(type); if (!l) return;
      const i = l.findIndex((e) => e.fn === fn); if (i >= 0) l.splice(i, 1);
    }
    dispatchEvent(ev) {
      Object.defineProperty(ev, "target", { value: this, configurable: true });
      const handler = this["on" + ev.type];
      if (typeof handler === "function") handler.call(this, ev);
      for (const e of (this._listeners.get(ev.type) || []).slice()) {
        if (e.once) this.removeEventListener(ev.type, e.fn);
        if (typeof e.fn === "function") e.fn.call(this, ev); else e.fn.handleEvent(ev);
      }
      return !ev.defaultPrevented;
    }
  }
  def("Event", Event);
  def("EventTarget", EventTarget);
  class CustomEvent extends Event { constructor(t, init) { super(t, init); this.detail = init ? init.detail : null; } }
  def("CustomEvent", CustomEvent);

  class DOMException extends Error {
    constructor(message, name) { super(message); this.name = name || "Error"; }
  }
  def("DOMException", DOMException);

  class AbortSignal extends EventTarget {
    // Node keeps these behind prototype getters: Object.keys(signal) is [].
    constructor() {
      super();
      Object.defineProperties(this, {
        aborted: { value: false, writable: true }, reason: { value: undefined, writable: true }, onabort: { value: null, writable: true },
      });
    }
    throwIfAborted() { if (this.aborted) throw this.reason; }
    static abort(reason) { const c = new AbortController(); c.abort(reason); return c.signal; }
    static timeout(ms) {
      const c = new AbortController();
      const t = setTimeout(() => c.abort(new DOMException("The operation was aborted due to timeout", "TimeoutError")), ms);
      if (t && t.unref) t.unref();
      return c.signal;
    }
    static any(signals) {
      const c = new AbortController();
      for (const s of signals) {
        if (s.aborted) { c.abort(s.reason); break; }
        s.addEventListener("abort", () => c.abort(s.reason), { once: true });
      }
      return c.signal;
    }
  }
  class AbortController {
    constructor() { Object.defineProperty(this, "signal", { value: new AbortSignal() }); }
    abort(reason) {
      const s = this.signal;
      if (s.aborted) return;
      s.aborted = true;
      s.reason = reason === undefined ? new DOMException("This operation was aborted", "AbortError") : reason;
      s.dispatchEvent(new Event("abort"));
    }
  }
  def("AbortSignal", AbortSignal);
  def("AbortController", AbortController);

  class TextEncoder {
    get encoding() { return "utf-8"; }
    encode(s) { return go.utf8Encode(s === undefined ? "" : String(s)); }
    encodeInto(s, dest) { const b = this.encode(s); const n = Math.min(b.length, dest.length); dest.set(b.subarray(0, n)); return { read: s.length, written: n }; }
  }
  class TextDecoder {
    constructor(label, opts) { this.encoding = "utf-8"; this.fatal = !!(opts && opts.fatal); this.ignoreBOM = !!(opts && opts.ignoreBOM); }
    // { stream: true } keeps a cut UTF-8 sequence in _tail.
    decode(b, o) {
      const stream = !!(o && o.stream), first = !this._tail;
      if (b === undefined && first) return "";
      const r = go.utf8DecodeStream(this._tail || null, b, this.fatal, stream);
      let s = r[0]; this._tail = r[1];
      if (!this.ignoreBOM && !this._started && s.charCodeAt(0) === 0xfeff) s = s.slice(1);
      this._started = stream && (this._started || s.length > 0);
      return s;
    }
  }
  def("TextEncoder", TextEncoder);
  def("TextDecoder", TextDecoder);
  def("atob", (s) => go.atob(String(s)));
  def("btoa", (s) => go.btoa(String(s)));

  const performance = {
    timeOrigin: go.timeOrigin,
    now: () => go.now(),
    mark() {}, measure() {}, getEntriesByName() { return []; }, clearMarks() {}, clearMeasures() {},
    toJSON() { return { timeOrigin: go.timeOrigin }; },
  };
  def("performance", performance);

  // structuredClone for plain data, Date, RegExp, Map, Set, typed arrays,
  // with cycles; functions are rejected as the platform does.
  def("structuredClone", function structuredClone(value) {
    const seen = new Map();
    const clone = (v) => {
      if (v === null || typeof v !== "object") {
        if (typeof v === "function" || typeof v === "symbol") throw new DOMException(String(v) + " could not be cloned.", "DataCloneError");
        return v;
      }
      if (seen.has(v)) return seen.get(v);
      let out;
      if (v instanceof Date) out = new Date(v.getTime());
      else if (v instanceof RegExp) out = new RegExp(v.source, v.flags);
      else if (v instanceof Map) { out = new Map(); seen.set(v, out); for (const [k, x] of v) out.set(clone(k), clone(x)); return out; }
      else if (v instanceof Set) { out = new Set(); seen.set(v, out); for (const x of v) out.add(clone(x)); return out; }
      else if (ArrayBuffer.isView(v)) out = new v.constructor(v);
      else if (v instanceof ArrayBuffer) out = v.slice(0);
      else if (Array.isArray(v)) { out = []; seen.set(v, out); for (let i = 0; i < v.length; i++) out[i] = clone(v[i]); return out; }
      else if (v instanceof Error) { out = new v.constructor(v.message); seen.set(v, out); if (v.stack) out.stack = v.stack; if ("cause" in v) out.cause = clone(v.cause); return out; }
      else { out = {}; seen.set(v, out); for (const k of Object.keys(v)) out[k] = clone(v[k]); return out; }
      seen.set(v, out);
      return out;
    };
    return clone(value);
  });

  // process: the parts extensions use. Writes go to the host's stderr so
  // nothing reaches the protocol's stdout.
  const EventEmitter = require("events");
  const process = new EventEmitter();
  // As in Node, isTTY, columns and rows exist only on a terminal: with
  // stdout a pipe (RPC, JSON, print to a file) they are undefined.
  const stream = (fd) => Object.assign(go.ttys[fd] ? { isTTY: true, columns: 80, rows: 24 } : {}, { fd, writable: true,
    write(chunk, enc, cb) { go.write(typeof chunk === "string" ? chunk : new TextDecoder().decode(chunk)); const f = typeof enc === "function" ? enc : cb; if (f) queueMicrotask(f); return true; },
    on() { return this; }, once() { return this; }, off() { return this; }, removeListener() { return this; }, end() {}, getWindowSize() { return [80, 24]; }, hasColors() { return false; } });
  Object.assign(process, {
    title: "pi", version: "v22.23.5", versions: { node: "22.23.5", v8: "12.4", uv: "1.48.0", modules: "127" },
    platform: go.platform, arch: go.arch, pid: go.pid, ppid: 0, argv: go.argv, execArgv: [], execPath: go.argv[0],
    env: go.env(), exitCode: undefined, release: { name: "node" }, features: {},
    cwd: () => go.cwd(), chdir() { throw new Error("process.chdir() is not supported in extensions"); },
    exit: (code) => go.exit(code === undefined ? 0 : code),
    abort: () => go.exit(134),
    nextTick: (fn, ...args) => { Promise.resolve().then(() => fn(...args)); },
    hrtime: Object.assign((prev) => { const ns = go.hrtime(); let s = Math.floor(ns / 1e9), n = ns % 1e9; if (prev) { s -= prev[0]; n -= prev[1]; if (n < 0) { s--; n += 1e9; } } return [s, n]; }, { bigint: () => BigInt(go.hrtime()) }),
    uptime: () => go.now() / 1000,
    memoryUsage: Object.assign(() => ({ rss: 0, heapTotal: 0, heapUsed: 0, external: 0, arrayBuffers: 0 }), { rss: () => 0 }),
    cpuUsage: () => ({ user: 0, system: 0 }),
    umask: () => 0o22, getuid: () => 0, getgid: () => 0, geteuid: () => 0,
    emitWarning: (w) => go.write("(node) Warning: " + (w && w.message || w) + "\n"),
    stdout: stream(1), stderr: stream(2),
    stdin: { fd: 0, isTTY: go.ttys[0] || undefined, on() { return this; }, once() { return this; }, off() { return this; }, removeListener() { return this; }, setRawMode() { return this; }, resume() { return this; }, pause() { return this; }, setEncoding() { return this; } },
  });
  def("process", process);

  // util is loaded on the first console call.
  let utilModule;
  const util = {
    format: (...a) => (utilModule || (utilModule = require("util"))).format(...a),
    inspect: (...a) => (utilModule || (utilModule = require("util"))).inspect(...a),
  };
  const out = (...a) => go.write(util.format(...a) + "\n");
  const counts = new Map(), timers = new Map();
  let indent = "";
  const console = {
    log: (...a) => out(indent + util.format(...a)), info: (...a) => out(indent + util.format(...a)), debug: (...a) => out(indent + util.format(...a)),
    warn: (...a) => out(indent + util.format(...a)), error: (...a) => out(indent + util.format(...a)), trace: (...a) => out(indent + "Trace: " + util.format(...a)),
    dir: (v) => out(indent + util.inspect(v)), table: (v) => out(indent + util.inspect(v)),
    assert: (c, ...a) => { if (!c) out("Assertion failed" + (a.length ? ": " + util.format(...a) : "")); },
    count: (l = "default") => { const n = (counts.get(l) || 0) + 1; counts.set(l, n); out(`${indent}${l}: ${n}`); },
    countReset: (l = "default") => counts.delete(l),
    time: (l = "default") => timers.set(l, go.now()),
    timeEnd: (l = "default") => { const t = timers.get(l); if (t !== undefined) { out(`${indent}${l}: ${(go.now() - t).toFixed(3)}ms`); timers.delete(l); } },
    timeLog: (l = "default", ...a) => { const t = timers.get(l); if (t !== undefined) out(`${indent}${l}: ${(go.now() - t).toFixed(3)}ms ${util.format(...a)}`.trimEnd()); },
    group: (...a) => { if (a.length) out(indent + util.format(...a)); indent += "  "; }, groupCollapsed: (...a) => console.group(...a),
    groupEnd: () => { indent = indent.slice(2); },
    clear() {},
  };
  def("console", console);

  lazy(["Buffer"], () => {
    const B = require("buffer").Buffer;
    // goja_nodejs's Buffer lacks some statics extensions use.
    if (!B.isBuffer) B.isBuffer = (b) => b instanceof B;
    if (!B.byteLength) B.byteLength = (s, enc) => typeof s === "string" ? B.from(s, enc).length : s.byteLength;
    if (!B.isEncoding) B.isEncoding = (e) => ["utf8", "utf-8", "hex", "base64", "base64url", "ascii", "latin1", "binary", "ucs2", "utf16le"].includes(String(e).toLowerCase());
    if (!B.allocUnsafe) B.allocUnsafe = (n) => B.alloc(n);
    if (!B.allocUnsafeSlow) B.allocUnsafeSlow = (n) => B.alloc(n);
    if (!B.compare) B.compare = (a, b) => { const n = Math.min(a.length, b.length); for (let i = 0; i < n; i++) if (a[i] !== b[i]) return a[i] < b[i] ? -1 : 1; return a.length === b.length ? 0 : a.length < b.length ? -1 : 1; };
    return { Buffer: B };
  });
  lazy(["URL", "URLSearchParams"], () => {
    const url = require("url");
    return { URL: url.URL, URLSearchParams: url.URLSearchParams };
  });
  lazy(["crypto", "Crypto", "SubtleCrypto", "CryptoKey"], go.webCrypto);
  const fetchNames = ["Headers", "Response", "Request", "fetch", "FormData", "Blob", "File"];
  lazy(fetchNames, () => {
    const out = {};
    require("pi:internal/fetch")(go.fetch, (name, value) => { out[name] = value; });
    return out;
  });
  lazy(["Intl"], () => ({ Intl: require("pi:internal/intl") }));
})(__go);
