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
  setInterval: undefined,
  scheduler: { wait: (ms, opts) => delay(ms, undefined, opts), yield: () => delay(0) },
};
