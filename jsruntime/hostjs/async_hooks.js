// async_hooks over one "frame": an immutable Map from each
// AsyncLocalStorage to its store, held on the Go side (__host.get/set).
// goja's async context tracker carries the frame into promise reactions
// (then, await, queueMicrotask, nextTick) and the fs callbacks capture it
// in Go; timers and immediates are wrapped here, once, when this module
// first loads.
"use strict";
const prim = __host;
const frame = () => prim.get();
// inFrame runs fn with f as the current frame and restores the caller's.
const inFrame = (f, fn, self, args) => {
  const prev = prim.get();
  prim.set(f);
  try { return fn.apply(self, args); } finally { prim.set(prev); }
};
const withStore = (f, key, store) => { const n = new Map(f || undefined); n.set(key, store); return n; };
const withoutStore = (f, key) => { if (!f || !f.has(key)) return f; const n = new Map(f); n.delete(key); return n; };

// Timers capture the frame they were scheduled in.
const wrapScheduler = (orig, name) => {
  const w = function (fn, ...rest) {
    if (typeof fn !== "function") return orig(fn, ...rest);
    const f = frame();
    if (f === undefined) return orig(fn, ...rest);
    return orig(function (...args) { return inFrame(f, fn, this, args); }, ...rest);
  };
  Object.defineProperty(w, "name", { value: name });
  for (const k of Object.getOwnPropertySymbols(orig)) w[k] = orig[k];
  return w;
};
for (const name of ["setTimeout", "setInterval", "setImmediate"]) globalThis[name] = wrapScheduler(globalThis[name], name);
// The timers module takes the globals when it loads; one loaded already
// gets the wrapped ones too.
{
  const timers = prim.loadedTimers();
  if (timers) for (const name of ["setTimeout", "setInterval", "setImmediate"]) timers[name] = globalThis[name];
}

const validateFunction = (fn, name) => {
  if (typeof fn !== "function") {
    const e = new TypeError(`The "${name}" argument must be of type function. Received ${fn === null ? "null" : typeof fn}`);
    e.code = "ERR_INVALID_ARG_TYPE";
    throw e;
  }
};

class AsyncLocalStorage {
  constructor() { this._enabled = false; }
  static bind(fn) { return AsyncResource.bind(fn); }
  static snapshot() {
    const f = frame();
    return function runInAsyncScope(fn, ...args) { return inFrame(f, fn, this, args); };
  }
  getStore() {
    if (!this._enabled) return undefined;
    const f = frame();
    return f ? f.get(this) : undefined;
  }
  run(store, fn, ...args) {
    this._enabled = true;
    return inFrame(withStore(frame(), this, store), fn, undefined, args);
  }
  exit(fn, ...args) { return inFrame(withoutStore(frame(), this), fn, undefined, args); }
  // enterWith changes the frame of the code running now, and so of what it
  // schedules from here on.
  enterWith(store) {
    this._enabled = true;
    prim.set(withStore(frame(), this, store));
  }
  disable() {
    this._enabled = false;
    prim.set(withoutStore(frame(), this));
  }
}

// Async ids: the main script runs as 1, as in Node; each AsyncResource
// gets the next id and runs its callbacks under it.
let nextId = 1;
let current = { id: 1, trigger: 0, resource: {} };
const hooks = new Set();
const callHooks = (kind, ...args) => { for (const h of hooks) if (typeof h[kind] === "function") h[kind](...args); };

class AsyncResource {
  constructor(type, opts) {
    if (typeof type !== "string") {
      const e = new TypeError(`The "type" argument must be of type string. Received ${type === null ? "null" : typeof type}`);
      e.code = "ERR_INVALID_ARG_TYPE";
      throw e;
    }
    const trigger = typeof opts === "number" ? opts : opts && opts.triggerAsyncId !== undefined ? opts.triggerAsyncId : current.id;
    this._frame = frame();
    this._id = ++nextId;
    this._trigger = trigger;
    this._type = type;
    callHooks("init", this._id, type, trigger, this);
  }
  runInAsyncScope(fn, thisArg, ...args) {
    const prev = current;
    current = { id: this._id, trigger: this._trigger, resource: this };
    callHooks("before", this._id);
    try { return inFrame(this._frame, fn, thisArg, args); } finally {
      callHooks("after", this._id);
      current = prev;
    }
  }
  bind(fn, thisArg) {
    validateFunction(fn, "fn");
    const res = this;
    const bound = thisArg === undefined
      ? function (...args) { return res.runInAsyncScope(fn, this, ...args); }
      : (...args) => res.runInAsyncScope(fn, thisArg, ...args);
    Object.defineProperty(bound, "length", { value: fn.length, configurable: true });
    Object.defineProperty(bound, "asyncResource", { value: res, configurable: true, writable: true, enumerable: true });
    return bound;
  }
  static bind(fn, type, thisArg) {
    validateFunction(fn, "fn");
    return new AsyncResource(type || fn.name || "bound-anonymous-fn").bind(fn, thisArg);
  }
  emitDestroy() { callHooks("destroy", this._id); return this; }
  asyncId() { return this._id; }
  triggerAsyncId() { return this._trigger; }
}

// createHook: the hooks see AsyncResource instances (init, before, after,
// destroy); the runtime's own timers and promises are not reported.
function createHook(callbacks) {
  const h = { ...callbacks };
  return {
    enable() { hooks.add(h); return this; },
    disable() { hooks.delete(h); return this; },
  };
}

module.exports = {
  AsyncLocalStorage,
  createHook,
  executionAsyncId: () => current.id,
  triggerAsyncId: () => current.trigger,
  executionAsyncResource: () => current.resource,
  asyncWrapProviders: Object.freeze({NONE: 0, DIRHANDLE: 1, DNSCHANNEL: 2, ELDHISTOGRAM: 3, FILEHANDLE: 4, FILEHANDLECLOSEREQ: 5, BLOBREADER: 6, FSEVENTWRAP: 7, FSREQCALLBACK: 8, FSREQPROMISE: 9, GETADDRINFOREQWRAP: 10, GETNAMEINFOREQWRAP: 11, HEAPSNAPSHOT: 12, HTTP2SESSION: 13, HTTP2STREAM: 14, HTTP2PING: 15, HTTP2SETTINGS: 16, HTTPINCOMINGMESSAGE: 17, HTTPCLIENTREQUEST: 18, JSSTREAM: 19, JSUDPWRAP: 20, MESSAGEPORT: 21, PIPECONNECTWRAP: 22, PIPESERVERWRAP: 23, PIPEWRAP: 24, PROCESSWRAP: 25, PROMISE: 26, QUERYWRAP: 27, QUIC_ENDPOINT: 28, QUIC_LOGSTREAM: 29, QUIC_PACKET: 30, QUIC_SESSION: 31, QUIC_STREAM: 32, QUIC_UDP: 33, SHUTDOWNWRAP: 34, SIGNALWRAP: 35, STATWATCHER: 36, STREAMPIPE: 37, TCPCONNECTWRAP: 38, TCPSERVERWRAP: 39, TCPWRAP: 40, TTYWRAP: 41, UDPSENDWRAP: 42, UDPWRAP: 43, SIGINTWATCHDOG: 44, WORKER: 45, WORKERCPUPROFILE: 46, WORKERCPUUSAGE: 47, WORKERHEAPSNAPSHOT: 48, WORKERHEAPSTATISTICS: 49, WRITEWRAP: 50, ZLIB: 51, CHECKPRIMEREQUEST: 52, PBKDF2REQUEST: 53, KEYPAIRGENREQUEST: 54, KEYGENREQUEST: 55, KEYEXPORTREQUEST: 56, CIPHERREQUEST: 57, DERIVEBITSREQUEST: 58, HASHREQUEST: 59, RANDOMBYTESREQUEST: 60, RANDOMPRIMEREQUEST: 61, SCRYPTREQUEST: 62, SIGNREQUEST: 63, TLSWRAP: 64, VERIFYREQUEST: 65}),
  AsyncResource,
};
