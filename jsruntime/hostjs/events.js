// Node's EventEmitter, the subset extensions and our streams use.
"use strict";
// Rare paths live in node_misc.go, compiled on first use (not at start).
const internal = "pi:internal/events-on";
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
        throw e instanceof Error ? e : require(internal).unhandled(e);
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
EventEmitter.on = (...a) => require(internal).on(...a);
EventEmitter.setMaxListeners = () => {};
EventEmitter.getEventListeners = (em, n) => em.listeners ? em.listeners(n) : [];
EventEmitter.errorMonitor = Symbol("events.errorMonitor");
EventEmitter.captureRejectionSymbol = Symbol.for("nodejs.rejection");
EventEmitter.captureRejections = false;
EventEmitter.usingDomains = false;
EventEmitter.defaultMaxListeners = 10;
EventEmitter.listenerCount = (em, n) => em.listenerCount(n);
EventEmitter.getMaxListeners = (em) => (typeof em.getMaxListeners === "function" ? em.getMaxListeners() : 10);
EventEmitter.addAbortListener = (signal, fn) => {
  if (signal.aborted) queueMicrotask(() => fn());
  else signal.addEventListener("abort", fn, { once: true });
  return { [Symbol.dispose]() { signal.removeEventListener("abort", fn); } };
};
EventEmitter.init = function () {};
EventEmitter.EventEmitterAsyncResource = EventEmitter;
module.exports = EventEmitter;
