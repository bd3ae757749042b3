// Node's EventEmitter, the subset extensions and our streams use.
"use strict";
class EventEmitter {
  constructor() { this._events = new Map(); this._max = 10; }
  _list(n) { if (!this._events) this._events = new Map(); let l = this._events.get(n); if (!l) { l = []; this._events.set(n, l); } return l; }
  on(n, f) { if (this._events && this._events.has("newListener")) this.emit("newListener", n, f); this._list(n).push({ f, once: false }); return this; }
  addListener(n, f) { return this.on(n, f); }
  prependListener(n, f) { this._list(n).unshift({ f, once: false }); return this; }
  once(n, f) { this._list(n).push({ f, once: true }); return this; }
  prependOnceListener(n, f) { this._list(n).unshift({ f, once: true }); return this; }
  off(n, f) { const l = this._events && this._events.get(n); if (!l) return this; const i = l.findIndex((e) => e.f === f || e.f.listener === f); if (i >= 0) l.splice(i, 1); return this; }
  removeListener(n, f) { return this.off(n, f); }
  removeAllListeners(n) { if (!this._events) return this; if (n === undefined) this._events.clear(); else this._events.delete(n); return this; }
  emit(n, ...args) {
    const l = this._events && this._events.get(n);
    if (!l || l.length === 0) {
      if (n === "error") {
        const e = args[0];
        if (e instanceof Error) throw e;
        const err = new Error("Unhandled error. (" + require("util").inspect(e) + ")");
        err.code = "ERR_UNHANDLED_ERROR"; err.context = e;
        throw err;
      }
      return false;
    }
    for (const e of l.slice()) { if (e.once) this.off(n, e.f); e.f.apply(this, args); }
    return true;
  }
  listeners(n) { return ((this._events && this._events.get(n)) || []).map((e) => e.f); }
  rawListeners(n) { return this.listeners(n); }
  listenerCount(n) { return ((this._events && this._events.get(n)) || []).length; }
  eventNames() { return this._events ? [...this._events.keys()].filter((k) => this._events.get(k).length) : []; }
  setMaxListeners(n) { this._max = n; return this; }
  getMaxListeners() { return this._max; }
}
EventEmitter.EventEmitter = EventEmitter;
EventEmitter.defaultMaxListeners = 10;
EventEmitter.once = (em, n) => new Promise((resolve, reject) => {
  em.once(n, (...a) => { if (n !== "error") em.off("error", reject); resolve(a); });
  if (n !== "error") em.once("error", reject);
});
// on(emitter, name) is an async iterator over the event's argument
// arrays; an 'error' event rejects the pending next(), abort ends it.
EventEmitter.on = (em, n, opts) => {
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
EventEmitter.setMaxListeners = () => {};
EventEmitter.getEventListeners = (em, n) => em.listeners ? em.listeners(n) : [];
EventEmitter.errorMonitor = Symbol("events.errorMonitor");
module.exports = EventEmitter;
