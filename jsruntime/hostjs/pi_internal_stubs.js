// Node modules with no use in an extension host beyond loading: bundled
// libraries often import them at the top (net for isIP, tty for isatty,
// async_hooks for AsyncLocalStorage, worker_threads for isMainThread), so
// each gives the parts that work here and throws ERR_NOT_SUPPORTED from
// the rest, instead of failing the extension's load.
"use strict";
const EventEmitter = require("events");
const ns = (what) => function () { const e = new Error(what + " is not supported in extensions by this runtime"); e.code = "ERR_NOT_SUPPORTED"; throw e; };
const v4 = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;
const isIPv4 = (s) => v4.test(String(s));
const isIPv6 = (s) => {
  s = String(s);
  const zone = s.indexOf("%"); if (zone >= 0) s = s.slice(0, zone);
  if (!s.includes(":")) return false;
  let tail = 0;
  const last = s.slice(s.lastIndexOf(":") + 1);
  if (last.includes(".")) { if (!isIPv4(last)) return false; s = s.slice(0, s.lastIndexOf(":") + 1) + "0:0"; }
  const dbl = s.split("::");
  if (dbl.length > 2) return false;
  const parts = (p) => (p === "" ? [] : p.split(":"));
  const groups = dbl.length === 2 ? [...parts(dbl[0]), ...parts(dbl[1])] : parts(s);
  if (groups.some((g) => !/^[0-9a-fA-F]{1,4}$/.test(g))) return false;
  tail = groups.length;
  return dbl.length === 2 ? tail < 8 : tail === 8;
};
const isIP = (s) => (isIPv4(s) ? 4 : isIPv6(s) ? 6 : 0);

class AsyncLocalStorage {
  // The store follows synchronous calls only: goja has no hook into
  // promise continuations to carry it across await.
  constructor() { this._store = undefined; this._enabled = false; }
  getStore() { return this._store; }
  run(store, fn, ...args) { const prev = this._store; this._store = store; try { return fn(...args); } finally { this._store = prev; } }
  exit(fn, ...args) { return this.run(undefined, fn, ...args); }
  enterWith(store) { this._store = store; }
  disable() { this._store = undefined; }
  static bind(fn) { return fn; }
  static snapshot() { return (fn, ...args) => fn(...args); }
}
class AsyncResource {
  constructor(type) { this.type = type; }
  runInAsyncScope(fn, self, ...args) { return fn.apply(self, args); }
  emitDestroy() { return this; }
  asyncId() { return 0; } triggerAsyncId() { return 0; }
  bind(fn) { return fn.bind(this); }
  static bind(fn) { return fn; }
}
const channels = new Map();
class Channel {
  constructor(name) { this.name = name; this._subs = []; }
  get hasSubscribers() { return this._subs.length > 0; }
  publish(msg) { for (const f of this._subs.slice()) f(msg, this.name); }
  subscribe(f) { this._subs.push(f); }
  unsubscribe(f) { const i = this._subs.indexOf(f); if (i >= 0) this._subs.splice(i, 1); return i >= 0; }
  bindStore() {} unbindStore() { return false; }
  runStores(data, fn, self, ...args) { return fn.apply(self, args); }
}
const channel = (name) => { let c = channels.get(name); if (!c) { c = new Channel(name); channels.set(name, c); } return c; };
const tracingChannel = (name) => {
  const names = ["start", "end", "asyncStart", "asyncEnd", "error"];
  const t = {};
  for (const n of names) t[n] = channel(`tracing:${name}:${n}`);
  Object.assign(t, {
    get hasSubscribers() { return names.some((n) => t[n].hasSubscribers); },
    subscribe(h) { for (const n of names) if (h[n]) t[n].subscribe(h[n]); },
    unsubscribe(h) { for (const n of names) if (h[n]) t[n].unsubscribe(h[n]); },
    traceSync(fn, ctx, self, ...args) { return fn.apply(self, args); },
    tracePromise(fn, ctx, self, ...args) { return fn.apply(self, args); },
    traceCallback(fn, pos, ctx, self, ...args) { return fn.apply(self, args); },
  });
  return t;
};

module.exports = {
  net: { isIP, isIPv4, isIPv6, connect: ns("net.connect"), createConnection: ns("net.createConnection"), createServer: ns("net.createServer"), Socket: ns("net.Socket"), Server: ns("net.Server"), BlockList: ns("net.BlockList"), SocketAddress: ns("net.SocketAddress"), getDefaultAutoSelectFamily: () => true, setDefaultAutoSelectFamily() {} },
  tls: { connect: ns("tls.connect"), createServer: ns("tls.createServer"), createSecureContext: ns("tls.createSecureContext"), TLSSocket: ns("tls.TLSSocket"), rootCertificates: [], DEFAULT_MIN_VERSION: "TLSv1.2", DEFAULT_MAX_VERSION: "TLSv1.3", DEFAULT_ECDH_CURVE: "auto", checkServerIdentity: () => undefined },
  tty: { isatty: (fd) => (fd === 0 ? !!process.stdin.isTTY : fd === 1 ? !!process.stdout.isTTY : fd === 2 ? !!process.stderr.isTTY : false), ReadStream: ns("tty.ReadStream"), WriteStream: ns("tty.WriteStream") },
  async_hooks: { AsyncLocalStorage, AsyncResource, createHook: () => ({ enable() { return this; }, disable() { return this; } }), executionAsyncId: () => 1, triggerAsyncId: () => 0, executionAsyncResource: () => ({}), asyncWrapProviders: {} },
  diagnostics_channel: { channel, hasSubscribers: (n) => channel(n).hasSubscribers, subscribe: (n, f) => channel(n).subscribe(f), unsubscribe: (n, f) => channel(n).unsubscribe(f), tracingChannel, Channel },
  worker_threads: { isMainThread: true, parentPort: null, workerData: null, threadId: 0, resourceLimits: {}, SHARE_ENV: Symbol("nodejs.worker_threads.SHARE_ENV"), Worker: ns("worker_threads.Worker"), MessageChannel: ns("worker_threads.MessageChannel"), MessagePort: ns("worker_threads.MessagePort"), BroadcastChannel: ns("worker_threads.BroadcastChannel"), markAsUntransferable() {}, isMarkedAsUntransferable: () => false, moveMessagePortToContext: ns("worker_threads.moveMessagePortToContext"), receiveMessageOnPort: () => undefined, getEnvironmentData: () => undefined, setEnvironmentData() {} },
  v8: { getHeapStatistics: () => ({ total_heap_size: 0, total_heap_size_executable: 0, total_physical_size: 0, total_available_size: 0, used_heap_size: 0, heap_size_limit: 4345298944, malloced_memory: 0, peak_malloced_memory: 0, does_zap_garbage: 0, number_of_native_contexts: 1, number_of_detached_contexts: 0, total_global_handles_size: 0, used_global_handles_size: 0, external_memory: 0 }), getHeapSpaceStatistics: () => [], setFlagsFromString() {}, serialize: ns("v8.serialize"), deserialize: ns("v8.deserialize"), cachedDataVersionTag: () => 0, writeHeapSnapshot: ns("v8.writeHeapSnapshot"), getHeapSnapshot: ns("v8.getHeapSnapshot") },
  vm: { runInNewContext: ns("vm.runInNewContext"), runInThisContext: ns("vm.runInThisContext"), runInContext: ns("vm.runInContext"), createContext: ns("vm.createContext"), isContext: () => false, Script: ns("vm.Script"), compileFunction: ns("vm.compileFunction") },
};
