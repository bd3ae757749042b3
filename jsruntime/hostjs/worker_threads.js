// worker_threads over Go's worker runtimes (node_worker.go): a Worker is a
// runtime of its own on its own goroutines. Libraries often import this
// module only to read isMainThread, so the rest (worker_threads_lazy.js)
// is compiled on first use of Worker, MessageChannel, MessagePort or
// receiveMessageOnPort, or at once inside a worker (for its parentPort).
"use strict";
const prim = __host;
const lazy = () => prim.loadLazy();
const notSupported = (what) => function () {
  const e = new Error("worker_threads." + what + " is not supported by this runtime");
  e.code = "ERR_NOT_SUPPORTED";
  throw e;
};
const inWorker = prim.isMainThread ? null : lazy();
const environmentData = new Map();
module.exports = {
  isInternalThread: false,
  isMainThread: prim.isMainThread,
  MessagePort: undefined,
  MessageChannel: undefined,
  markAsUncloneable() {},
  markAsUntransferable() {},
  isMarkedAsUntransferable: () => false,
  moveMessagePortToContext: notSupported("moveMessagePortToContext"),
  receiveMessageOnPort: (port) => lazy().receiveMessageOnPort(port),
  resourceLimits: {},
  postMessageToThread: notSupported("postMessageToThread"),
  threadId: prim.threadId,
  threadName: "",
  SHARE_ENV: Symbol.for("nodejs.worker_threads.SHARE_ENV"),
  Worker: undefined,
  parentPort: inWorker ? inWorker.parentPort : null,
  workerData: inWorker ? inWorker.workerData : null,
  BroadcastChannel: notSupported("BroadcastChannel"),
  setEnvironmentData: (k, v) => { if (v === undefined) environmentData.delete(k); else environmentData.set(k, v); },
  getEnvironmentData: (k) => environmentData.get(k),
};
// The classes are getters over the lazy part (keeping the key order of
// Node's exports); assigning one replaces it, as with a plain property.
for (const name of ["MessagePort", "MessageChannel", "Worker"]) {
  Object.defineProperty(module.exports, name, {
    get() { return lazy()[name]; },
    set(v) { Object.defineProperty(module.exports, name, { value: v, writable: true, enumerable: true, configurable: true }); },
    enumerable: true,
    configurable: true,
  });
}
