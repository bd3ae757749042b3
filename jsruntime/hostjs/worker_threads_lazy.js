// The bulk of worker_threads (see worker_threads.js): the structured-clone
// encoding messages cross in, MessagePort and MessageChannel, the
// worker's parentPort and Worker itself. __host is this side's Go
// primitives (node_worker.go).
"use strict";
const EventEmitter = require("events");
const prim = __host;

// Structured clone as a JSON tree. Numbers, strings, booleans and null are
// themselves; everything else is a tagged array. Objects are numbered in
// the order they are first met, so shared and cyclic references survive.
const dataCloneError = (v) => {
  const msg = `${typeof v === "symbol" ? v.toString() : String(v)} could not be cloned.`;
  return typeof DOMException === "function" ? new DOMException(msg, "DataCloneError") : Object.assign(new Error(msg), { name: "DataCloneError" });
};
const typedNames = ["Int8Array", "Uint8Array", "Uint8ClampedArray", "Int16Array", "Uint16Array", "Int32Array", "Uint32Array", "Float32Array", "Float64Array", "BigInt64Array", "BigUint64Array", "DataView"];
const errorNames = ["Error", "EvalError", "RangeError", "ReferenceError", "SyntaxError", "TypeError", "URIError"];
const b64 = (u8) => Buffer.from(u8.buffer, u8.byteOffset, u8.byteLength).toString("base64");
function encodeValue(v, seen) {
  switch (typeof v) {
    case "undefined": return ["u"];
    case "number": return Number.isFinite(v) && !Object.is(v, -0) ? v : ["n", Object.is(v, -0) ? "-0" : String(v)];
    case "string": case "boolean": return v;
    case "bigint": return ["b", v.toString()];
    case "symbol": case "function": throw dataCloneError(v);
  }
  if (v === null) return null;
  if (seen.has(v)) return ["r", seen.get(v)];
  seen.set(v, seen.size);
  if (Array.isArray(v)) return ["a", v.map((x) => encodeValue(x, seen))];
  if (v instanceof Date) return ["d", v.getTime()];
  if (v instanceof RegExp) return ["x", v.source, v.flags];
  if (v instanceof Map) return ["m", [...v].map(([k, x]) => [encodeValue(k, seen), encodeValue(x, seen)])];
  if (v instanceof Set) return ["s", [...v].map((x) => encodeValue(x, seen))];
  if (v instanceof ArrayBuffer) return ["ab", b64(new Uint8Array(v))];
  if (ArrayBuffer.isView(v)) {
    // A Buffer arrives as a plain Uint8Array, as in Node.
    const name = typedNames.find((n) => globalThis[n] && v instanceof globalThis[n]) || "Uint8Array";
    return ["t", name, b64(new Uint8Array(v.buffer, v.byteOffset, v.byteLength))];
  }
  if (v instanceof Error) {
    const name = errorNames.includes(v.name) ? v.name : "Error";
    const e = ["e", name, String(v.message), v.stack === undefined ? null : String(v.stack)];
    if ("cause" in v) e.push(encodeValue(v.cause, seen));
    return e;
  }
  if (v instanceof Promise || v instanceof WeakMap || v instanceof WeakSet) throw dataCloneError(v);
  return ["o", Object.keys(v).map((k) => [k, encodeValue(v[k], seen)])];
}
const encode = (v) => JSON.stringify(encodeValue(v, new Map()));
function decodeValue(t, refs) {
  if (!Array.isArray(t)) return t;
  const keep = (o) => { refs.push(o); return o; };
  switch (t[0]) {
    case "u": return undefined;
    case "n": return t[1] === "-0" ? -0 : Number(t[1]);
    case "b": return BigInt(t[1]);
    case "r": return refs[t[1]];
    case "a": { const a = keep([]); for (const x of t[1]) a.push(decodeValue(x, refs)); return a; }
    case "d": return keep(new Date(t[1]));
    case "x": return keep(new RegExp(t[1], t[2]));
    case "m": { const m = keep(new Map()); for (const [k, x] of t[1]) m.set(decodeValue(k, refs), decodeValue(x, refs)); return m; }
    case "s": { const s = keep(new Set()); for (const x of t[1]) s.add(decodeValue(x, refs)); return s; }
    case "ab": { const b = Buffer.from(t[1], "base64"); const ab = new ArrayBuffer(b.length); new Uint8Array(ab).set(b); return keep(ab); }
    case "t": {
      const b = Buffer.from(t[2], "base64");
      const ab = new ArrayBuffer(b.length);
      new Uint8Array(ab).set(b);
      const C = globalThis[t[1]] || Uint8Array;
      return keep(t[1] === "DataView" ? new DataView(ab) : new C(ab, 0, b.length / (C.BYTES_PER_ELEMENT || 1)));
    }
    case "e": {
      const e = keep(new (globalThis[t[1]] || Error)(t[2]));
      if (t[3] !== null) Object.defineProperty(e, "stack", { value: t[3], writable: true, configurable: true });
      if (t.length > 4) Object.defineProperty(e, "cause", { value: decodeValue(t[4], refs), writable: true, configurable: true });
      return e;
    }
    case "o": { const o = keep({}); for (const [k, x] of t[1]) o[k] = decodeValue(x, refs); return o; }
  }
  throw new Error("worker_threads: bad message encoding");
}
const decode = (s) => decodeValue(JSON.parse(s), []);
prim.encode = (v) => { try { return encode(v); } catch { return encode(new Error(String(v))); } };

const notSupported = (what) => function () {
  const e = new Error("worker_threads." + what + " is not supported by this runtime");
  e.code = "ERR_NOT_SUPPORTED";
  throw e;
};
const checkTransfer = (transfer) => {
  const list = Array.isArray(transfer) ? transfer : transfer && transfer.transfer;
  if (list && list.some((x) => x instanceof MessagePort)) notSupported("postMessage of a MessagePort")();
};

// MessagePort: an EventEmitter that also takes onmessage and
// addEventListener("message"), as Node's does.
class MessagePort extends EventEmitter {
  constructor() { super(); this._queue = []; this._closed = false; this._peer = null; this._onmessage = null; }
  _deliver(v) {
    this.emit("message", v);
    if (this._onmessage) this._onmessage({ data: v, target: this, type: "message" });
  }
  postMessage(v, transfer) {
    checkTransfer(transfer);
    if (this._closed) return;
    const msg = encode(v);
    this._send(msg);
  }
  // In-process channels queue for the peer and deliver on a later turn.
  _send(msg) {
    const peer = this._peer;
    if (!peer || peer._closed) return;
    peer._queue.push(msg);
    if (!peer._draining) {
      peer._draining = true;
      setImmediate(() => {
        peer._draining = false;
        while (peer._queue.length && !peer._closed) peer._deliver(decode(peer._queue.shift()));
      });
    }
  }
  _refresh() {}
  on(n, f) { super.on(n, f); this._refresh(); return this; }
  addListener(n, f) { return this.on(n, f); }
  once(n, f) { super.once(n, f); this._refresh(); return this; }
  off(n, f) { super.off(n, f); this._refresh(); return this; }
  removeListener(n, f) { return this.off(n, f); }
  removeAllListeners(n) { super.removeAllListeners(n); this._refresh(); return this; }
  addEventListener(n, f) { if (n === "message") this.on("message", f.__wrapped || (f.__wrapped = (data) => (typeof f === "function" ? f : f.handleEvent).call(f, { data, target: this, type: "message" }))); else this.on(n, f); }
  removeEventListener(n, f) { this.off(n, (n === "message" && f.__wrapped) || f); }
  get onmessage() { return this._onmessage; }
  set onmessage(f) { this._onmessage = typeof f === "function" ? f : null; this._refresh(); }
  start() {}
  close() {
    if (this._closed) return;
    this._closed = true;
    this._refresh();
    const peer = this._peer;
    setImmediate(() => { this.emit("close"); if (peer && !peer._closed) { peer._closed = true; peer._refresh(); peer.emit("close"); } });
  }
  ref() { return this; }
  unref() { return this; }
  hasRef() { return false; }
}
class MessageChannel {
  constructor() {
    this.port1 = new MessagePort();
    this.port2 = new MessagePort();
    this.port1._peer = this.port2;
    this.port2._peer = this.port1;
  }
}
function receiveMessageOnPort(port) {
  if (!(port instanceof MessagePort)) {
    const e = new TypeError('The "port" argument must be a MessagePort instance');
    e.code = "ERR_INVALID_ARG_TYPE";
    throw e;
  }
  if (!port._queue.length) return undefined;
  return { message: decode(port._queue.shift()) };
}

// The worker's parentPort: posts to the parent; while it listens for
// messages it keeps the worker alive (prim.portRef), until close or unref.
let parentPort = null;
let workerData = null;
if (!prim.isMainThread) {
  class ParentPort extends MessagePort {
    constructor() { super(); this._unref = false; this._held = false; }
    _send(msg) { prim.post(msg); }
    _refresh() {
      const want = !this._closed && !this._unref && (this.listenerCount("message") > 0 || !!this._onmessage);
      if (want !== this._held) { this._held = want; prim.portRef(want); }
    }
    ref() { this._unref = false; this._refresh(); return this; }
    unref() { this._unref = true; this._refresh(); return this; }
    hasRef() { return this._held; }
    close() { if (this._closed) return; this._closed = true; this._refresh(); queueMicrotask(() => this.emit("close")); }
  }
  parentPort = new ParentPort();
  prim.setReceiver((msg) => { if (!parentPort._closed) parentPort._deliver(decode(msg)); });
  workerData = prim.workerData === "" ? undefined : decode(prim.workerData);
}

const isPathLike = (s) => require("path").isAbsolute(s) || /^\.\.?[\\/]/.test(s) || /^file:/.test(s);
class Worker extends EventEmitter {
  constructor(filename, options) {
    super();
    options = options || {};
    if (filename instanceof URL) filename = require("url").fileURLToPath(filename);
    if (typeof filename !== "string") {
      const e = new TypeError(`The "filename" argument must be of type string or an instance of URL. Received ${filename === null ? "null" : typeof filename}`);
      e.code = "ERR_INVALID_ARG_TYPE";
      throw e;
    }
    const isEval = !!options.eval;
    if (!isEval && !isPathLike(filename)) {
      const e = new TypeError(`The worker script or module filename must be an absolute path or a relative path starting with './' or '../'. Received "${filename}"`);
      e.code = "ERR_WORKER_PATH";
      throw e;
    }
    if (filename.startsWith("file:")) filename = require("url").fileURLToPath(filename);
    this._exited = false;
    this._exitWaiters = [];
    const data = options.workerData === undefined ? undefined : encode(options.workerData);
    checkTransfer(options.transferList);
    let env = "";
    if (options.env !== undefined && options.env !== null && options.env !== Symbol.for("nodejs.worker_threads.SHARE_ENV")) {
      if (typeof options.env !== "object") { const e = new TypeError(`The "options.env" property must be of type object or one of undefined, null, or worker.SHARE_ENV. Received ${typeof options.env}`); e.code = "ERR_INVALID_ARG_TYPE"; throw e; }
      env = JSON.stringify(Object.fromEntries(Object.entries(options.env).map(([k, v]) => [k, String(v)])));
    }
    this._h = prim.spawn(filename, isEval, data, (options.argv || []).map(String), env,
      () => this.emit("online"),
      (msg) => { let v; try { v = decode(msg); } catch (e) { this.emit("messageerror", e); return; } this.emit("message", v); },
      (encoded, plain) => { let e; try { e = encoded ? decode(encoded) : new Error(plain); } catch { e = new Error(plain); } this.emit("error", e); },
      (code) => { this._exited = true; this.threadId = -1; this.emit("exit", code); for (const w of this._exitWaiters.splice(0)) w(code); });
    this.threadId = this._h.threadId;
    this.resourceLimits = { maxYoungGenerationSizeMb: 0, maxOldGenerationSizeMb: 0, codeRangeSizeMb: 0, stackSizeMb: 4 };
    this.stdin = null; this.stdout = null; this.stderr = null;
  }
  postMessage(v, transfer) {
    checkTransfer(transfer);
    if (this._exited) return;
    this._h.post(encode(v));
  }
  terminate(cb) {
    if (this._exited) { if (typeof cb === "function") cb(null, undefined); return Promise.resolve(undefined); }
    const p = new Promise((res) => this._exitWaiters.push(res));
    if (typeof cb === "function") p.then((code) => cb(null, code));
    this._h.terminate();
    return p;
  }
  ref() { this._h.ref(); return this; }
  unref() { this._h.unref(); return this; }
  getHeapSnapshot() { return Promise.reject(Object.assign(new Error("worker.getHeapSnapshot is not supported by this runtime"), { code: "ERR_NOT_SUPPORTED" })); }
}

module.exports = { MessagePort, MessageChannel, receiveMessageOnPort, Worker, parentPort, workerData };
