// timers/promises: setTimeout/setImmediate as promises honouring signals.
"use strict";
const abortError = (s) => { const e = new Error("The operation was aborted"); e.name = "AbortError"; e.code = "ABORT_ERR"; e.cause = s && s.reason; return e; };
function delay(ms, value, opts) {
  const signal = opts && opts.signal;
  return new Promise((resolve, reject) => {
    if (signal && signal.aborted) return reject(abortError(signal));
    const t = setTimeout(() => resolve(value), ms);
    if (opts && opts.ref === false && t.unref) t.unref();
    if (signal) signal.addEventListener("abort", () => { clearTimeout(t); reject(abortError(signal)); }, { once: true });
  });
}
module.exports = {
  setTimeout: delay,
  setImmediate: (value, opts) => delay(0, value, opts),
  // setInterval is an async iterator yielding value every ms until the
  // loop breaks out (return) or the signal aborts.
  setInterval(ms, value, opts) {
    const signal = opts && opts.signal;
    let fired = 0, waiter = null, done = false, t = null;
    const stop = () => { done = true; if (t) clearInterval(t); };
    const start = () => {
      if (t || done) return;
      t = setInterval(() => { fired++; if (waiter) { const w = waiter; waiter = null; fired--; w.resolve({ value, done: false }); } }, ms);
      if (opts && opts.ref === false && t.unref) t.unref();
    };
    if (signal) signal.addEventListener("abort", () => { stop(); if (waiter) { const w = waiter; waiter = null; w.reject(abortError(signal)); } }, { once: true });
    return {
      next() {
        if (signal && signal.aborted) { stop(); return Promise.reject(abortError(signal)); }
        if (done) return Promise.resolve({ value: undefined, done: true });
        start();
        if (fired > 0) { fired--; return Promise.resolve({ value, done: false }); }
        return new Promise((resolve, reject) => { waiter = { resolve, reject }; });
      },
      return() { stop(); return Promise.resolve({ value: undefined, done: true }); },
      [Symbol.asyncIterator]() { return this; },
    };
  },
  scheduler: { wait: (ms, opts) => delay(ms, undefined, opts), yield: () => delay(0) },
};
