// node:net over the Go primitives in __host: connect(opts, onEvent) dials
// TCP or a Unix socket, listen(opts, onEvent) serves one. Go's goroutines
// own the connections; their events arrive here on the loop, and this
// file gives them Node's shapes (Socket as a Duplex, Server, the errors'
// codes and messages).
"use strict";
const EventEmitter = require("events");
const { Duplex } = require("stream");
const { StringDecoder } = require("string_decoder");

const codeErr = (Ctor, code, msg) => { const e = new Ctor(msg); e.code = code; return e; };
const describe = (v) => {
  if (v === null || v === undefined) return " Received " + v;
  if (typeof v === "function") return " Received function " + (v.name || "<anonymous>");
  if (typeof v === "object") return v.constructor && v.constructor.name ? " Received an instance of " + v.constructor.name : " Received " + String(v);
  let s = typeof v === "string" ? "'" + (v.length > 28 ? v.slice(0, 25) + "..." : v) + "'" : String(v);
  return " Received type " + typeof v + " (" + s + ")";
};
const invalidArg = (name, what, v) => codeErr(TypeError, "ERR_INVALID_ARG_TYPE", 'The "' + name + '" ' + (name.includes(".") ? "property" : "argument") + " must be " + what + "." + describe(v));
const badPort = (p) => codeErr(RangeError, "ERR_SOCKET_BAD_PORT", "Port should be >= 0 and < 65536." + describe(p) + ".");
const notSupported = (what) => codeErr(Error, "ERR_NOT_SUPPORTED", what + " is not supported in extensions by this runtime");

// validPort follows Node's check: numbers and numeric strings in range.
const validPort = (p) => {
  if ((typeof p !== "number" && typeof p !== "string") || (typeof p === "string" && p.trim() === "")) throw badPort(p);
  const n = +p;
  if (!Number.isInteger(n) || n < 0 || n > 65535) throw badPort(p);
  return n;
};

// sysError builds the Error Node's libuv layer reports, with its fields in
// Node's order (listen's code comes first, the others' errno).
function sysError(info) {
  if (info.message && !info.errno) return codeErr(Error, info.code, info.message);
  let msg = info.syscall + " " + info.code;
  if (info.syscall === "listen") msg += ": " + info.desc;
  if (info.hostname !== undefined) msg += " " + info.hostname;
  else if (info.address !== undefined) msg += " " + info.address + (info.port >= 0 ? ":" + info.port : "");
  const e = new Error(msg);
  if (info.syscall === "listen") { e.code = info.code; e.errno = info.errno; }
  else { e.errno = info.errno; e.code = info.code; }
  e.syscall = info.syscall;
  if (info.hostname !== undefined) e.hostname = info.hostname;
  if (info.address !== undefined) { e.address = info.address; if (info.port !== -1 || info.syscall === "listen") e.port = info.port; }
  return e;
}

const v4 = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;
const isIPv4 = (s) => v4.test(String(s));
const isIPv6 = (s) => {
  s = String(s);
  const zone = s.indexOf("%"); if (zone >= 0) s = s.slice(0, zone);
  if (!s.includes(":")) return false;
  const last = s.slice(s.lastIndexOf(":") + 1);
  if (last.includes(".")) { if (!isIPv4(last)) return false; s = s.slice(0, s.lastIndexOf(":") + 1) + "0:0"; }
  const dbl = s.split("::");
  if (dbl.length > 2) return false;
  const parts = (p) => (p === "" ? [] : p.split(":"));
  const groups = dbl.length === 2 ? [...parts(dbl[0]), ...parts(dbl[1])] : parts(s);
  if (groups.some((g) => !/^[0-9a-fA-F]{1,4}$/.test(g))) return false;
  return dbl.length === 2 ? groups.length < 8 : groups.length === 8;
};
const isIP = (s) => (isIPv4(s) ? 4 : isIPv6(s) ? 6 : 0);

// normalizeConnect turns connect's argument forms into [options, cb].
function normalizeConnect(args) {
  let [a, b, c] = args;
  let opts;
  if (a !== null && typeof a === "object") { opts = Object.assign({}, a); c = b; }
  else if (typeof a === "string" && !/^\d+$/.test(a) && a !== "") { opts = { path: a }; c = b; }
  else { opts = { port: a }; if (typeof b === "string") opts.host = b; else c = b; }
  if (typeof c !== "function") c = undefined;
  return [opts, c];
}

const HWM = 16384;

const abortError = (signal) => Object.assign(new Error("The operation was aborted"), { name: "AbortError", code: "ABORT_ERR", cause: signal.reason });
const onAbort = (signal, fn) => { if (signal.aborted) queueMicrotask(fn); else signal.addEventListener("abort", fn, { once: true }); };

class Socket extends Duplex {
  constructor(opts) {
    super();
    opts = opts || {};
    if (opts.fd !== undefined) throw notSupported("net.Socket({ fd })");
    this.allowHalfOpen = !!opts.allowHalfOpen;
    this.connecting = false; this.pending = true;
    this.bytesRead = 0; this.bytesWritten = 0;
    this.remoteAddress = undefined; this.remotePort = undefined; this.remoteFamily = undefined;
    this.localAddress = undefined; this.localPort = undefined; this.localFamily = undefined;
    this.timeout = undefined;
    this.writableEnded = false; this.writableFinished = false; this.writableLength = 0; this.writableNeedDrain = false;
    this.closed = false;
    this._writableHighWaterMark = HWM;
    Object.defineProperty(this, "_h", { value: null, writable: true });
    Object.defineProperty(this, "_wcbs", { value: [], writable: true });
    Object.defineProperty(this, "_timer", { value: null, writable: true });
    Object.defineProperty(this, "_decoder", { value: null, writable: true });
    Object.defineProperty(this, "_unref", { value: false, writable: true });
    if (opts.handle) this._attach(opts.handle, opts.addrs);
    if (opts.signal) onAbort(opts.signal, () => this.destroy(abortError(opts.signal)));
  }
  // readyState is derived as in Node: opening while connecting, then
  // which sides are still open.
  get readyState() {
    if (this.connecting) return "opening";
    const r = !this._ended && !this.destroyed, w = !this.writableEnded && !this.destroyed;
    return r && w ? "open" : r ? "readOnly" : w ? "writeOnly" : "closed";
  }
  get writableHighWaterMark() { return this._writableHighWaterMark; }
  get readableHighWaterMark() { return HWM; }
  get _secure() { return false; }
  // _attach adopts a handle the server accepted; it is connected already.
  _attach(h, addrs) {
    this._h = h;
    this.pending = false;
    Object.assign(this, addrs || {});
    if (this._unref) h.unref();
    h.start((type, a, b, c, d) => this._event(type, a, b, c, d));
  }
  connect(...args) {
    const [opts, cb] = Array.isArray(args[0]) ? normalizeConnect(args[0]) : normalizeConnect(args);
    if (opts.path === undefined || opts.path === null) {
      if (opts.port === undefined || opts.port === null) throw codeErr(TypeError, "ERR_MISSING_ARGS", 'The "options" or "port" or "path" argument must be specified');
      opts.port = validPort(opts.port);
      if (opts.host !== undefined && opts.host !== null && typeof opts.host !== "string") throw invalidArg("options.host", "of type string", opts.host);
      if (opts.family !== undefined && opts.family !== null && ![0, 4, 6].includes(+opts.family)) throw codeErr(TypeError, "ERR_INVALID_ARG_VALUE", "The property 'options.family' must be one of: 0, 4, 6. Received " + opts.family);
    } else if (typeof opts.path !== "string") throw invalidArg("options.path", "of type string", opts.path);
    if (cb) this.once(this._secure ? "secureConnect" : "connect", cb);
    if (opts.timeout) this.setTimeout(opts.timeout);
    this.connecting = true;
    this.destroyed = false; this.closed = false;
    const onEvent = (type, a, b, c, d) => this._event(type, a, b, c, d);
    if (typeof opts.lookup === "function" && opts.path == null && !isIP(opts.host || "localhost")) {
      // A custom lookup (Node's option) picks the address; Go then dials it.
      opts.lookup(opts.host || "localhost", { family: opts.family || 0 }, (err, address, family) => {
        if (Array.isArray(address)) { family = address[0] && address[0].family; address = address[0] && address[0].address; }
        this.emit("lookup", err, address, family, opts.host);
        if (err) { this.connecting = false; this._closed(null, err); return; }
        this._h = this._dial(Object.assign({}, opts, { host: address }), onEvent);
        if (this._unref) this._h.unref();
      });
      return this;
    }
    this._h = this._dial(opts, onEvent);
    if (this._unref) this._h.unref();
    if (opts.noDelay) this._h.setNoDelay(true);
    if (opts.keepAlive) this._h.setKeepAlive(true, opts.keepAliveInitialDelay || 0);
    return this;
  }
  _dial(opts, onEvent) { return __host.connect(opts, onEvent); }
  _event(type, a, b, c, d) {
    switch (type) {
      case "lookup": this.emit("lookup", a ? sysError(a) : null, b === null ? undefined : b, c === null ? undefined : c, d); break;
      case "connect":
        this.connecting = false; this.pending = false;
        Object.assign(this, a);
        this._touch();
        this.emit("connect"); this.emit("ready");
        break;
      case "secure": this._secured(a); break;
      case "data":
        this.bytesRead += a.length;
        this._touch();
        this.push(a);
        break;
      case "end":
        this.readable = false;
        this.push(null);
        if (!this.allowHalfOpen && !this.writableEnded) queueMicrotask(() => this.end());
        break;
      case "written": {
        const w = this._wcbs.shift();
        if (!w) break;
        this.writableLength -= w.len;
        this._touch();
        if (w.cb) w.cb(a ? sysError(a) : null);
        if (this.writableLength === 0 && this.writableNeedDrain) { this.writableNeedDrain = false; this.emit("drain"); }
        break;
      }
      case "finish": this.writableFinished = true; this.emit("finish"); break;
      case "close": this._closed(a); break;
    }
  }
  _closed(info, err) {
    if (this.closed) return;
    this.closed = true; this.destroyed = true; this.connecting = false;
    this.readable = false; this.writable = false;
    this._clearTimer();
    const e = err || (info ? sysError(info) : null);
    const dead = codeErr(Error, "ERR_STREAM_DESTROYED", "Cannot call write after a stream was destroyed");
    for (const w of this._wcbs.splice(0)) if (w.cb) w.cb(e || dead);
    this.writableLength = 0;
    if (e && !this._destroyErr) this.emit("error", e);
    if (this._destroyErr) this.emit("error", this._destroyErr);
    this.emit("close", !!(e || this._destroyErr));
  }
  setEncoding(enc) { this._decoder = new StringDecoder(enc); this._encoding = enc; return this; }
  _decode(c) { return this._decoder ? this._decoder.write(c) : c; }
  // Node emits 'end' (not 'close') when the readable side ends; 'close'
  // comes from the handle once both sides are done.
  _finish() { if (this.readableEnded) return; this.readableEnded = true; queueMicrotask(() => this.emit("end")); }
  write(chunk, enc, cb) {
    if (typeof enc === "function") { cb = enc; enc = undefined; }
    if (typeof chunk !== "string" && !(chunk instanceof Uint8Array)) {
      if (chunk instanceof ArrayBuffer || ArrayBuffer.isView(chunk)) chunk = Buffer.from(chunk.buffer || chunk, chunk.byteOffset || 0, chunk.byteLength);
      else throw invalidArg("chunk", "of type string or an instance of Buffer, TypedArray, or DataView", chunk);
    }
    if (this.writableEnded) {
      const e = codeErr(Error, "ERR_STREAM_WRITE_AFTER_END", "write after end");
      queueMicrotask(() => { if (cb) cb(e); this.emit("error", e); });
      return false;
    }
    if (this.destroyed || !this._h) {
      const e = codeErr(Error, this.destroyed ? "ERR_STREAM_DESTROYED" : "EPIPE", this.destroyed ? "Cannot call write after a stream was destroyed" : "This socket is closed");
      queueMicrotask(() => { if (cb) cb(e); });
      return false;
    }
    const b = typeof chunk === "string" ? Buffer.from(chunk, enc || this._defaultEncoding || "utf8") : chunk;
    this.bytesWritten += b.length;
    this._touch();
    if (this._h.write(b)) {
      if (cb) queueMicrotask(() => cb(null));
      return this.writableLength < this._writableHighWaterMark;
    }
    this.writableLength += b.length;
    this._wcbs.push({ cb, len: b.length });
    const ok = this.writableLength < this._writableHighWaterMark;
    if (!ok) this.writableNeedDrain = true;
    return ok;
  }
  setDefaultEncoding(enc) { this._defaultEncoding = enc; return this; }
  // Writes go to the kernel as they come (small ones at once), so there
  // is no buffer for cork to hold back; the calls keep their counting.
  cork() { this.writableCorked = (this.writableCorked || 0) + 1; }
  uncork() { if (this.writableCorked) this.writableCorked--; }
  end(chunk, enc, cb) {
    if (typeof chunk === "function") { cb = chunk; chunk = undefined; }
    if (typeof enc === "function") { cb = enc; enc = undefined; }
    if (chunk !== undefined && chunk !== null) this.write(chunk, enc);
    if (cb) this.once("finish", cb);
    if (this.writableEnded) return this;
    this.writableEnded = true;
    this.writable = false;
    if (this._h && !this.destroyed) this._h.end();
    return this;
  }
  destroy(err) {
    if (this.destroyed) return this;
    this.destroyed = true;
    if (err) Object.defineProperty(this, "_destroyErr", { value: err, configurable: true });
    if (this._h) this._h.destroy();
    else queueMicrotask(() => this._closed(null));
    return this;
  }
  destroySoon() { if (this.writableEnded) this.destroy(); else this.end(() => this.destroy()); }
  resetAndDestroy() { return this.destroy(); }
  _touch() { if (this._timer) this._timer.refresh(); }
  _clearTimer() { if (this._timer) { clearTimeout(this._timer); this._timer = null; } }
  setTimeout(ms, cb) {
    if (typeof ms !== "number") throw invalidArg("msecs", "of type number", ms);
    this._clearTimer();
    this.timeout = ms;
    if (cb) { if (ms === 0) this.removeListener("timeout", cb); else this.once("timeout", cb); }
    if (ms > 0) {
      // The timer follows activity (refresh on each read and write) and
      // does not itself keep the loop busy: the socket does.
      this._timer = setTimeout(() => { this._timer = null; this.emit("timeout"); }, ms);
      this._timer.unref();
    } else this.timeout = undefined;
    return this;
  }
  setNoDelay(on) { if (this._h) this._h.setNoDelay(on === undefined ? true : !!on); return this; }
  setKeepAlive(on, delay) { if (this._h) this._h.setKeepAlive(!!on, +delay || 0); return this; }
  address() {
    if (this.localPath !== undefined) return this.localPath === "" ? {} : this.localPath;
    if (this.localAddress === undefined) return {};
    return { address: this.localAddress, family: this.localFamily, port: this.localPort };
  }
  ref() { this._unref = false; if (this._h) this._h.ref(); return this; }
  unref() { this._unref = true; if (this._h) this._h.unref(); return this; }
  [Symbol.asyncDispose]() { return new Promise((resolve) => { if (this.closed) resolve(); else { this.once("close", () => resolve()); this.destroy(); } }); }
}

class Server extends EventEmitter {
  constructor(opts, listener) {
    super();
    if (typeof opts === "function") { listener = opts; opts = {}; }
    opts = opts || {};
    this.allowHalfOpen = !!opts.allowHalfOpen;
    this.pauseOnConnect = !!opts.pauseOnConnect;
    this.noDelay = !!opts.noDelay;
    this.keepAlive = !!opts.keepAlive;
    this.listening = false;
    this.maxConnections = undefined;
    Object.defineProperty(this, "_h", { value: null, writable: true });
    Object.defineProperty(this, "_addr", { value: null, writable: true });
    Object.defineProperty(this, "_conns", { value: new Set() });
    Object.defineProperty(this, "_closing", { value: false, writable: true });
    Object.defineProperty(this, "_unref", { value: false, writable: true });
    if (listener) this.on("connection", listener);
  }
  get connections() { return this._conns.size; }
  listen(...args) {
    const cb = typeof args[args.length - 1] === "function" ? args.pop() : undefined;
    let opts;
    const a = args[0];
    if (a !== null && typeof a === "object") {
      if (a.fd !== undefined || a._handle) throw notSupported("server.listen(handle)");
      opts = { port: a.port, host: a.host, path: a.path };
      if (a.signal) onAbort(a.signal, () => { if (this._h && !this._closing) this.close(); });
    } else if (typeof a === "string" && !/^\d+$/.test(a)) opts = { path: a };
    else opts = { port: a, host: typeof args[1] === "string" ? args[1] : undefined };
    if (opts.path === undefined || opts.path === null) {
      opts.port = opts.port === undefined || opts.port === null ? 0 : validPort(opts.port);
      delete opts.path;
    }
    if (this.listening || this._h) throw codeErr(Error, "ERR_SERVER_ALREADY_LISTEN", "Listen method has been called more than once without closing.");
    if (cb) this.once("listening", cb);
    this._closing = false;
    this._h = __host.listen(opts, (type, a, b) => {
      switch (type) {
        case "listening": this.listening = true; this._addr = a; this.emit("listening"); break;
        case "error": this._h = null; this.emit("error", sysError(a)); break;
        case "connection": {
          if (this._closing || (this.maxConnections !== undefined && this._conns.size >= this.maxConnections)) { b = null; a.destroy(); a.start(() => {}); break; }
          const s = new Socket({ allowHalfOpen: this.allowHalfOpen });
          s.server = this;
          s._attach(a, b);
          if (this.noDelay) s.setNoDelay(true);
          if (this.keepAlive) s.setKeepAlive(true);
          this._conns.add(s);
          s.once("close", () => { this._conns.delete(s); this._maybeClosed(); });
          this.emit("connection", s);
          break;
        }
        case "close": this.listening = false; this._h = null; this._addr = null; this._listenerClosed = true; this._maybeClosed(); break;
      }
    });
    if (this._unref) this._h.unref();
    return this;
  }
  // 'close' follows on a later tick, after the last socket's own 'close'
  // listeners, as in Node.
  _maybeClosed() {
    if (!(this._closing && this._listenerClosed && this._conns.size === 0)) return;
    this._closing = false;
    setImmediate(() => this.emit("close"));
  }
  address() { return this.listening ? (typeof this._addr === "string" ? this._addr : Object.assign({}, this._addr)) : null; }
  close(cb) {
    if (!this._h || this._closing) {
      if (cb) { const e = codeErr(Error, "ERR_SERVER_NOT_RUNNING", "Server is not running."); queueMicrotask(() => cb(e)); }
      return this;
    }
    if (cb) this.once("close", cb);
    this._closing = true; this._listenerClosed = false;
    this._h.close();
    return this;
  }
  getConnections(cb) { const n = this._conns.size; if (cb) queueMicrotask(() => cb(null, n)); return this; }
  ref() { this._unref = false; if (this._h) this._h.ref(); return this; }
  unref() { this._unref = true; if (this._h) this._h.unref(); return this; }
  [Symbol.asyncDispose]() { return new Promise((resolve) => { if (!this._h) resolve(); else this.close(() => resolve()); }); }
}

function createConnection(...args) {
  const [opts, cb] = normalizeConnect(args);
  const s = new Socket(opts);
  return s.connect(opts, cb);
}
const createServer = (opts, listener) => new Server(opts, listener);

class BlockList {
  constructor() { throw notSupported("net.BlockList"); }
}
class SocketAddress {
  constructor(opts) {
    opts = opts || {};
    this.address = opts.address || (opts.family === "ipv6" ? "::" : "127.0.0.1");
    this.family = opts.family || (isIPv6(this.address) ? "ipv6" : "ipv4");
    this.port = opts.port || 0; this.flowlabel = opts.flowlabel || 0;
  }
}
let autoSelect = true, attemptTimeout = 250;

module.exports = {
  BlockList, SocketAddress,
  connect: createConnection, createConnection, createServer,
  isIP, isIPv4, isIPv6,
  Server, Socket, Stream: Socket,
  getDefaultAutoSelectFamily: () => autoSelect,
  setDefaultAutoSelectFamily: (v) => { autoSelect = !!v; },
  getDefaultAutoSelectFamilyAttemptTimeout: () => attemptTimeout,
  setDefaultAutoSelectFamilyAttemptTimeout: (v) => { attemptTimeout = Math.max(10, +v); },
};
// Helpers tls.js and dns.js share; not enumerable, so net's keys are Node's.
for (const [k, v] of Object.entries({ _sysError: sysError, _codeErr: codeErr, _validPort: validPort, _invalidArg: invalidArg })) Object.defineProperty(module.exports, k, { value: v });
