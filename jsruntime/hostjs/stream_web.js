// WHATWG streams (node:stream/web and the matching globals): ReadableStream,
// WritableStream, TransformStream with their readers, writers and
// controllers, queuing strategies, TextEncoderStream/TextDecoderStream.
// It follows the Streams standard's state machines in a compact form:
// default (not byte) controllers, and a "bytes" source behaves as a
// default one. Loaded on first use only, so a start compiles none of it.
"use strict";
const S = Symbol("state");
const illegal = () => { throw new TypeError("Illegal constructor"); };
const tag = (C, name) => Object.defineProperty(C.prototype, Symbol.toStringTag, { value: name, configurable: true });
const hide = (o, st) => Object.defineProperty(o, S, { value: st });
const deferred = () => { let resolve, reject; const promise = new Promise((a, b) => { resolve = a; reject = b; }); return { promise, resolve, reject }; };
const quiet = (p) => { p.catch(() => {}); return p; };
const invalidState = (msg) => { const e = new TypeError(msg); e.code = "ERR_INVALID_STATE"; return e; };
const call = (obj, name, args) => {
  const f = obj && obj[name];
  if (f === undefined || f === null) return undefined;
  if (typeof f !== "function") throw new TypeError(`${name} must be a function`);
  return f.apply(obj, args);
};
const promiseCall = (obj, name, args) => { try { return Promise.resolve(call(obj, name, args)); } catch (e) { return Promise.reject(e); } };
const hwmOf = (strategy, dflt) => {
  const h = strategy && strategy.highWaterMark;
  if (h === undefined) return dflt;
  const n = Number(h);
  if (Number.isNaN(n) || n < 0) throw new RangeError(`The value of "strategy.highWaterMark" is out of range. It must be >= 0 && <= Infinity. Received ${h}`);
  return n;
};
const sizeOf = (strategy) => (strategy && typeof strategy.size === "function" ? strategy.size : () => 1);

class CountQueuingStrategy {
  constructor(init) { hide(this, { hwm: Number(init && init.highWaterMark) }); }
  get highWaterMark() { return this[S].hwm; }
  get size() { return function size() { return 1; }; }
}
class ByteLengthQueuingStrategy {
  constructor(init) { hide(this, { hwm: Number(init && init.highWaterMark) }); }
  get highWaterMark() { return this[S].hwm; }
  get size() { return function size(chunk) { return chunk.byteLength; }; }
}
tag(CountQueuingStrategy, "CountQueuingStrategy");
tag(ByteLengthQueuingStrategy, "ByteLengthQueuingStrategy");

// ---- ReadableStream ----

let creating = false;
const make = (C, st) => { creating = true; try { const o = new C(); hide(o, st); return o; } finally { creating = false; } };

class ReadableStreamDefaultController {
  constructor() { if (!creating) illegal(); }
  get desiredSize() { return desired(this[S].stream); }
  enqueue(chunk) {
    const st = this[S].stream[S];
    if (!canClose(st)) throw invalidState("Invalid state: Controller is already closed");
    rsEnqueue(this[S].stream, chunk);
  }
  close() {
    const st = this[S].stream[S];
    if (!canClose(st)) throw invalidState("Invalid state: Controller is already closed");
    st.closeRequested = true;
    if (st.queue.length === 0) rsClose(this[S].stream);
  }
  error(e) { rsError(this[S].stream, e); }
}
tag(ReadableStreamDefaultController, "ReadableStreamDefaultController");
const canClose = (st) => !st.closeRequested && st.state === "readable";
const desired = (stream) => {
  const st = stream[S];
  if (st.state === "errored") return null;
  if (st.state === "closed") return 0;
  return st.hwm - st.queueSize;
};

function rsEnqueue(stream, chunk) {
  const st = stream[S];
  const reader = st.reader;
  if (reader && reader[S].reads.length > 0) {
    reader[S].reads.shift().resolve({ value: chunk, done: false });
  } else {
    let size;
    try { size = st.size(chunk); } catch (e) { rsError(stream, e); throw e; }
    st.queue.push({ chunk, size });
    st.queueSize += size;
  }
  pullIfNeeded(stream);
}
function rsClose(stream) {
  const st = stream[S];
  if (st.state !== "readable") return;
  st.state = "closed";
  const reader = st.reader;
  if (reader) {
    for (const r of reader[S].reads.splice(0)) r.resolve({ value: undefined, done: true });
    reader[S].closed.resolve(undefined);
  }
}
function rsError(stream, e) {
  const st = stream[S];
  if (st.state !== "readable") return;
  st.state = "errored";
  st.storedError = e;
  st.queue = [];
  st.queueSize = 0;
  const reader = st.reader;
  if (reader) {
    for (const r of reader[S].reads.splice(0)) r.reject(e);
    reader[S].closed.reject(e);
  }
}
function pullIfNeeded(stream) {
  const st = stream[S];
  if (!st.started || st.state !== "readable" || st.closeRequested) return;
  const wants = (st.reader && st.reader[S].reads.length > 0) || desired(stream) > 0;
  if (!wants) return;
  if (st.pulling) { st.pullAgain = true; return; }
  st.pulling = true;
  promiseCall(st.source, "pull", [st.controller]).then(() => {
    st.pulling = false;
    if (st.pullAgain) { st.pullAgain = false; pullIfNeeded(stream); }
  }, (e) => rsError(stream, e));
}
function rsCancel(stream, reason) {
  const st = stream[S];
  st.disturbed = true;
  if (st.state === "closed") return Promise.resolve(undefined);
  if (st.state === "errored") return Promise.reject(st.storedError);
  st.queue = [];
  st.queueSize = 0;
  rsClose(stream);
  return promiseCall(st.source, "cancel", [reason]).then(() => undefined);
}
function rsRead(stream) {
  const st = stream[S];
  st.disturbed = true;
  if (st.state === "closed") return Promise.resolve({ value: undefined, done: true });
  if (st.state === "errored") return Promise.reject(st.storedError);
  if (st.queue.length > 0) {
    const { chunk, size } = st.queue.shift();
    st.queueSize -= size;
    if (st.closeRequested && st.queue.length === 0) rsClose(stream);
    else pullIfNeeded(stream);
    return Promise.resolve({ value: chunk, done: false });
  }
  const d = deferred();
  st.reader[S].reads.push(d);
  pullIfNeeded(stream);
  return d.promise;
}

class ReadableStreamDefaultReader {
  constructor(stream) {
    if (!(stream instanceof ReadableStream)) throw new TypeError('The "stream" argument must be an instance of ReadableStream.');
    if (stream.locked) throw invalidState("Invalid state: ReadableStream is locked");
    const closed = deferred();
    quiet(closed.promise);
    hide(this, { stream, reads: [], closed });
    stream[S].reader = this;
    if (stream[S].state === "closed") closed.resolve(undefined);
    else if (stream[S].state === "errored") closed.reject(stream[S].storedError);
  }
  get closed() { return this[S].closed.promise; }
  read() {
    if (!this[S].stream) return Promise.reject(invalidState("Invalid state: The reader is not attached to a stream"));
    return rsRead(this[S].stream);
  }
  cancel(reason) {
    if (!this[S].stream) return Promise.reject(invalidState("Invalid state: The reader is not attached to a stream"));
    return rsCancel(this[S].stream, reason);
  }
  releaseLock() {
    const stream = this[S].stream;
    if (!stream) return;
    const e = invalidState("Invalid state: Releasing reader");
    for (const r of this[S].reads.splice(0)) r.reject(e);
    if (stream[S].state === "readable") this[S].closed.reject(e);
    else { this[S].closed = deferred(); quiet(this[S].closed.promise); this[S].closed.reject(e); }
    stream[S].reader = null;
    this[S].stream = null;
  }
}
tag(ReadableStreamDefaultReader, "ReadableStreamDefaultReader");

class ReadableStream {
  constructor(source, strategy) {
    if (creating) return;
    if (source === null) throw new TypeError('The "source" argument must be of type object. Received null');
    source = source === undefined ? {} : source;
    const bytes = source.type === "bytes";
    if (source.type !== undefined && !bytes) throw new TypeError(`The argument 'source.type' is invalid. Received '${source.type}'`);
    const st = {
      state: "readable", reader: null, disturbed: false, storedError: undefined, source,
      queue: [], queueSize: 0, hwm: hwmOf(strategy, bytes ? 0 : 1), size: bytes ? (c) => c.byteLength : sizeOf(strategy),
      started: false, pulling: false, pullAgain: false, closeRequested: false,
    };
    hide(this, st);
    st.controller = make(ReadableStreamDefaultController, { stream: this });
    Object.defineProperty(st.controller, "byobRequest", { value: null });
    const started = call(source, "start", [st.controller]);
    Promise.resolve(started).then(() => { st.started = true; pullIfNeeded(this); }, (e) => rsError(this, e));
  }
  get locked() { return !!this[S].reader; }
  cancel(reason) {
    if (this.locked) return Promise.reject(invalidState("Invalid state: ReadableStream is locked"));
    return rsCancel(this, reason);
  }
  getReader(opts) {
    if (opts && opts.mode !== undefined && opts.mode !== "byob") throw new TypeError(`The argument 'options.mode' is invalid. Received '${opts.mode}'`);
    if (opts && opts.mode === "byob") throw new TypeError("BYOB readers are not supported by this runtime");
    return new ReadableStreamDefaultReader(this);
  }
  pipeThrough(transform, opts) {
    if (this.locked) throw invalidState("Invalid state: ReadableStream is locked");
    quiet(this.pipeTo(transform.writable, opts));
    return transform.readable;
  }
  pipeTo(dest, opts) {
    opts = opts || {};
    if (!(dest instanceof WritableStream)) return Promise.reject(new TypeError('The "transform.writable" property must be an instance of WritableStream'));
    if (this.locked) return Promise.reject(invalidState("Invalid state: ReadableStream is locked"));
    if (dest.locked) return Promise.reject(invalidState("Invalid state: WritableStream is locked"));
    const reader = this.getReader(), writer = dest.getWriter();
    const signal = opts.signal;
    const finish = (err, isErr) => {
      writer.releaseLock();
      reader.releaseLock();
      if (isErr) throw err;
    };
    return new Promise((resolve, reject) => {
      let stopped = false;
      const stop = (action, err, isErr) => {
        if (stopped) return;
        stopped = true;
        Promise.resolve(action && action()).then(() => { try { finish(err, isErr); resolve(); } catch (e) { reject(e); } }, (e) => { try { finish(e, true); } catch (x) { reject(x); } });
      };
      if (signal) {
        const onAbort = () => {
          const reason = signal.reason;
          stop(() => Promise.all([
            opts.preventAbort ? null : writer.abort(reason),
            opts.preventCancel ? null : reader.cancel(reason),
          ]), reason, true);
        };
        if (signal.aborted) return onAbort();
        signal.addEventListener("abort", onAbort, { once: true });
      }
      writer.closed.then(undefined, (e) => stop(opts.preventCancel ? null : () => reader.cancel(e), e, true));
      const step = () => {
        if (stopped) return;
        writer.ready.then(() => reader.read()).then(({ value, done }) => {
          if (stopped) return;
          if (done) return stop(opts.preventClose ? null : () => writer.close());
          quiet(writer.write(value));
          step();
        }, (e) => {
          if (stopped) return;
          if (this[S].state === "errored") stop(opts.preventAbort ? null : () => writer.abort(e), e, true);
          else stop(null, e, true);
        });
      };
      step();
    });
  }
  tee() {
    const reader = this.getReader();
    let c1, c2, canceled1 = false, canceled2 = false, reason1, reason2, reading = false;
    const cancelDone = deferred();
    const pull = () => {
      if (reading) return Promise.resolve();
      reading = true;
      return reader.read().then(({ value, done }) => {
        reading = false;
        if (done) { if (!canceled1) c1.close(); if (!canceled2) c2.close(); cancelDone.resolve(); return; }
        if (!canceled1) c1.enqueue(value);
        if (!canceled2) c2.enqueue(canClone(value));
      }, (e) => { c1.error(e); c2.error(e); cancelDone.resolve(); });
    };
    const cancelBoth = () => { if (canceled1 && canceled2) reader.cancel([reason1, reason2]).then(cancelDone.resolve, cancelDone.reject); return cancelDone.promise; };
    const b1 = new ReadableStream({ start(c) { c1 = c; }, pull, cancel(r) { canceled1 = true; reason1 = r; return cancelBoth(); } });
    const b2 = new ReadableStream({ start(c) { c2 = c; }, pull, cancel(r) { canceled2 = true; reason2 = r; return cancelBoth(); } });
    reader.closed.then(undefined, (e) => { c1.error(e); c2.error(e); });
    return [b1, b2];
  }
  values(opts) {
    const reader = this.getReader();
    const preventCancel = !!(opts && opts.preventCancel);
    const it = Object.create(AsyncIteratorProto);
    let finished = false;
    it.next = () => {
      if (finished) return Promise.resolve({ value: undefined, done: true });
      return reader.read().then((r) => { if (r.done) { finished = true; reader.releaseLock(); } return r; }, (e) => { finished = true; reader.releaseLock(); throw e; });
    };
    it.return = (value) => {
      if (finished) return Promise.resolve({ value, done: true });
      finished = true;
      const p = preventCancel ? Promise.resolve() : reader.cancel(value);
      return p.then(() => { reader.releaseLock(); return { value, done: true }; });
    };
    return it;
  }
  [Symbol.asyncIterator](opts) { return this.values(opts); }
  static from(iterable) {
    if (iterable instanceof ReadableStream) return iterable;
    const getIt = iterable && (iterable[Symbol.asyncIterator] || iterable[Symbol.iterator]);
    if (typeof getIt !== "function") throw new TypeError('The "iterable" argument must be an instance of Iterable.');
    const it = getIt.call(iterable);
    return new ReadableStream({
      pull(c) { return Promise.resolve(it.next()).then((r) => (r.done ? c.close() : Promise.resolve(r.value).then((v) => c.enqueue(v)))); },
      cancel(reason) { return typeof it.return === "function" ? Promise.resolve(it.return(reason)).then(() => undefined) : undefined; },
    }, { highWaterMark: 0 });
  }
}
tag(ReadableStream, "ReadableStream");
// fetch's bodyUsed is "the body stream was read from", which only the
// stream's own state knows.
Object.defineProperty(ReadableStream, Symbol.for("pi.disturbed"), { value: (s) => !!(s && s[S] && s[S].disturbed) });
// goja has no async generators to borrow %AsyncIteratorPrototype% from.
const AsyncIteratorProto = { [Symbol.asyncIterator]() { return this; } };
const canClone = (v) => v;

// ---- WritableStream ----

class WritableStreamDefaultController {
  constructor() { if (!creating) illegal(); }
  get signal() { return this[S].abort.signal; }
  error(e) { const stream = this[S].stream; if (stream[S].state === "writable") wsStartErroring(stream, e); }
}
tag(WritableStreamDefaultController, "WritableStreamDefaultController");

function wsDesired(stream) {
  const st = stream[S];
  if (st.state === "errored" || st.state === "erroring") return null;
  if (st.state === "closed") return 0;
  return st.hwm - st.queueSize;
}
function wsUpdateBackpressure(stream) {
  const st = stream[S];
  const bp = st.state === "writable" && !st.closeQueued && wsDesired(stream) <= 0;
  if (bp === st.backpressure) return;
  st.backpressure = bp;
  const w = st.writer;
  if (!w) return;
  if (bp) { w[S].ready = deferred(); quiet(w[S].ready.promise); } else w[S].ready.resolve(undefined);
}
function wsStartErroring(stream, reason) {
  const st = stream[S];
  st.state = "erroring";
  st.storedError = reason;
  if (st.writer) { const w = st.writer[S]; w.ready = deferred(); quiet(w.ready.promise); w.ready.reject(reason); }
  if (!st.inFlight && st.started) wsFinishErroring(stream);
}
function wsFinishErroring(stream) {
  const st = stream[S];
  st.state = "errored";
  const e = st.storedError;
  for (const q of st.queue.splice(0)) if (q.d) q.d.reject(e);
  st.queueSize = 0;
  if (st.writer) st.writer[S].closed.reject(e);
  if (st.closeD) { st.closeD.reject(e); st.closeD = null; }
  const abort = st.pendingAbort;
  st.pendingAbort = null;
  if (!abort) return;
  if (abort.wasAlreadyErroring) { abort.d.reject(e); return; }
  promiseCall(st.sink, "abort", [abort.reason]).then(() => abort.d.resolve(undefined), abort.d.reject);
}
function wsAdvance(stream) {
  const st = stream[S];
  if (!st.started || st.inFlight) return;
  if (st.state === "erroring") { wsFinishErroring(stream); return; }
  if (st.queue.length === 0) return;
  const q = st.queue[0];
  st.inFlight = true;
  if (q.close) {
    st.queue.shift();
    promiseCall(st.sink, "close", []).then(() => {
      st.inFlight = false;
      if (st.state === "erroring") { st.storedError = undefined; if (st.pendingAbort) { st.pendingAbort.d.resolve(undefined); st.pendingAbort = null; } }
      st.state = "closed";
      q.d.resolve(undefined);
      if (st.writer) st.writer[S].closed.resolve(undefined);
    }, (e) => { st.inFlight = false; q.d.reject(e); if (st.pendingAbort) { st.pendingAbort.d.reject(e); st.pendingAbort = null; } wsError(stream, e); });
    return;
  }
  promiseCall(st.sink, "write", [q.chunk, st.controller]).then(() => {
    st.inFlight = false;
    st.queue.shift();
    st.queueSize -= q.size;
    q.d.resolve(undefined);
    if (st.state === "writable") wsUpdateBackpressure(stream);
    wsAdvance(stream);
  }, (e) => { st.inFlight = false; st.queue.shift(); q.d.reject(e); wsError(stream, e); });
}
function wsError(stream, e) {
  const st = stream[S];
  if (st.state === "writable") wsStartErroring(stream, e);
  if (st.state === "erroring") wsFinishErroring(stream);
}
function wsAbort(stream, reason) {
  const st = stream[S];
  if (st.state === "closed" || st.state === "errored") return Promise.resolve(undefined);
  st.abort.abort(reason);
  if (st.state === "closed" || st.state === "errored") return Promise.resolve(undefined);
  if (st.pendingAbort) return st.pendingAbort.d.promise;
  const wasAlreadyErroring = st.state === "erroring";
  const d = deferred();
  st.pendingAbort = { d, reason: wasAlreadyErroring ? undefined : reason, wasAlreadyErroring };
  if (!wasAlreadyErroring) wsStartErroring(stream, reason);
  return d.promise;
}
function wsClose(stream) {
  const st = stream[S];
  if (st.state === "closed" || st.state === "errored") return Promise.reject(invalidState(`Invalid state: WritableStream is ${st.state === "closed" ? "closed" : "errored"}`));
  if (st.closeQueued) return Promise.reject(invalidState("Invalid state: WritableStream is closing"));
  const d = deferred();
  st.closeQueued = true;
  st.queue.push({ close: true, d, size: 0 });
  if (st.backpressure && st.state === "writable" && st.writer) st.writer[S].ready.resolve(undefined);
  wsAdvance(stream);
  return d.promise;
}

class WritableStreamDefaultWriter {
  constructor(stream) {
    if (!(stream instanceof WritableStream)) throw new TypeError('The "stream" argument must be an instance of WritableStream.');
    if (stream.locked) throw invalidState("Invalid state: WritableStream is locked");
    const st = stream[S];
    const closed = deferred(), ready = deferred();
    quiet(closed.promise); quiet(ready.promise);
    hide(this, { stream, closed, ready });
    st.writer = this;
    if (st.state === "writable") { if (!st.backpressure || st.closeQueued) ready.resolve(undefined); }
    else if (st.state === "erroring") ready.reject(st.storedError);
    else if (st.state === "closed") { ready.resolve(undefined); closed.resolve(undefined); }
    else { ready.reject(st.storedError); closed.reject(st.storedError); }
  }
  get closed() { return this[S].closed.promise; }
  get ready() { return this[S].ready.promise; }
  get desiredSize() {
    if (!this[S].stream) throw invalidState("Invalid state: Writer is not bound to a WritableStream");
    return wsDesired(this[S].stream);
  }
  write(chunk) {
    const stream = this[S].stream;
    if (!stream) return Promise.reject(invalidState("Invalid state: Writer is not bound to a WritableStream"));
    const st = stream[S];
    if (st.state === "errored" || st.state === "erroring") return Promise.reject(st.storedError);
    if (st.closeQueued || st.state === "closed") return Promise.reject(invalidState("Invalid state: WritableStream is closed"));
    let size;
    try { size = st.size(chunk); } catch (e) { wsError(stream, e); return Promise.reject(e); }
    const d = deferred();
    st.queue.push({ chunk, size, d });
    st.queueSize += size;
    wsUpdateBackpressure(stream);
    wsAdvance(stream);
    return d.promise;
  }
  close() {
    const stream = this[S].stream;
    if (!stream) return Promise.reject(invalidState("Invalid state: Writer is not bound to a WritableStream"));
    return wsClose(stream);
  }
  abort(reason) {
    const stream = this[S].stream;
    if (!stream) return Promise.reject(invalidState("Invalid state: Writer is not bound to a WritableStream"));
    return wsAbort(stream, reason);
  }
  releaseLock() {
    const stream = this[S].stream;
    if (!stream) return;
    const e = invalidState("Invalid state: Writer has been released");
    for (const k of ["ready", "closed"]) { this[S][k] = deferred(); quiet(this[S][k].promise); this[S][k].reject(e); }
    stream[S].writer = null;
    this[S].stream = null;
  }
}
tag(WritableStreamDefaultWriter, "WritableStreamDefaultWriter");

class WritableStream {
  constructor(sink, strategy) {
    if (sink === null) throw new TypeError('The "sink" argument must be of type object. Received null');
    sink = sink === undefined ? {} : sink;
    if (sink.type !== undefined) throw new RangeError(`The argument 'source.type' is invalid. Received '${sink.type}'`);
    const st = {
      state: "writable", writer: null, storedError: undefined, sink, queue: [], queueSize: 0,
      hwm: hwmOf(strategy, 1), size: sizeOf(strategy), started: false, inFlight: false,
      closeQueued: false, closeD: null, pendingAbort: null, backpressure: false, abort: new AbortController(),
    };
    hide(this, st);
    st.controller = make(WritableStreamDefaultController, { stream: this, abort: st.abort });
    wsUpdateBackpressure(this);
    const started = call(sink, "start", [st.controller]);
    Promise.resolve(started).then(() => { st.started = true; wsAdvance(this); }, (e) => { st.started = true; wsError(this, e); });
  }
  get locked() { return !!this[S].writer; }
  abort(reason) {
    if (this.locked) return Promise.reject(invalidState("Invalid state: WritableStream is locked"));
    return wsAbort(this, reason);
  }
  close() {
    if (this.locked) return Promise.reject(invalidState("Invalid state: WritableStream is locked"));
    return wsClose(this);
  }
  getWriter() { return new WritableStreamDefaultWriter(this); }
}
tag(WritableStream, "WritableStream");

// ---- TransformStream ----

class TransformStreamDefaultController {
  constructor() { if (!creating) illegal(); }
  get desiredSize() { return this[S].readableController.desiredSize; }
  enqueue(chunk) { this[S].readableController.enqueue(chunk); }
  error(e) { this[S].fail(e); }
  terminate() {
    const rc = this[S].readableController;
    try { rc.close(); } catch {}
    this[S].fail(new TypeError("Invalid state: TransformStream has been terminated"), true);
  }
}
tag(TransformStreamDefaultController, "TransformStreamDefaultController");

class TransformStream {
  constructor(transformer, writableStrategy, readableStrategy) {
    transformer = transformer === undefined || transformer === null ? {} : transformer;
    let rc, started;
    const startD = deferred();
    const state = {};
    const controller = make(TransformStreamDefaultController, state);
    const fail = (e, writableOnly) => {
      if (!writableOnly) { try { rc.error(e); } catch {} }
      const ws = this[S].writable;
      if (ws[S].state === "writable") wsStartErroring(ws, e);
    };
    state.fail = fail;
    const readable = new ReadableStream({
      start(c) { rc = c; state.readableController = c; return startD.promise; },
      pull() { return undefined; },
      cancel(reason) { const ws = readable && writable; if (ws && ws[S].state === "writable") wsStartErroring(ws, reason); return promiseCall(transformer, "cancel", [reason]); },
    }, readableStrategy === undefined ? { highWaterMark: 0 } : readableStrategy);
    const transform = typeof transformer.transform === "function"
      ? (chunk) => promiseCall(transformer, "transform", [chunk, controller])
      : (chunk) => { try { rc.enqueue(chunk); return Promise.resolve(); } catch (e) { return Promise.reject(e); } };
    const writable = new WritableStream({
      start() { return startD.promise; },
      write(chunk) { return transform(chunk).then(undefined, (e) => { fail(e); throw e; }); },
      close() {
        return promiseCall(transformer, "flush", [controller]).then(() => { try { rc.close(); } catch {} }, (e) => { fail(e); throw e; });
      },
      abort(reason) { try { rc.error(reason); } catch {} return promiseCall(transformer, "cancel", [reason]); },
    }, writableStrategy);
    hide(this, { readable, writable });
    try { started = call(transformer, "start", [controller]); } catch (e) { startD.reject(e); throw e; }
    Promise.resolve(started).then(startD.resolve, startD.reject);
  }
  get readable() { return this[S].readable; }
  get writable() { return this[S].writable; }
}
tag(TransformStream, "TransformStream");

// ---- encoding streams ----

class TextEncoderStream {
  constructor() {
    const enc = new TextEncoder();
    let pendingHigh = "";
    hide(this, new TransformStream({
      transform(chunk, c) {
        let s = pendingHigh + String(chunk);
        pendingHigh = "";
        const last = s.charCodeAt(s.length - 1);
        if (last >= 0xd800 && last <= 0xdbff) { pendingHigh = s.slice(-1); s = s.slice(0, -1); }
        if (s.length) c.enqueue(enc.encode(s));
      },
      flush(c) { if (pendingHigh) c.enqueue(new Uint8Array([0xef, 0xbf, 0xbd])); },
    }));
  }
  get encoding() { return "utf-8"; }
  get readable() { return this[S].readable; }
  get writable() { return this[S].writable; }
}
tag(TextEncoderStream, "TextEncoderStream");

class TextDecoderStream {
  constructor(label, opts) {
    const dec = new TextDecoder(label, opts);
    hide(this, new TransformStream({
      transform(chunk, c) {
        if (!(chunk instanceof ArrayBuffer || ArrayBuffer.isView(chunk))) throw Object.assign(new TypeError('The "input" argument must be an instance of SharedArrayBuffer, ArrayBuffer or ArrayBufferView.'), { code: "ERR_INVALID_ARG_TYPE" });
        const s = dec.decode(chunk, { stream: true });
        if (s) c.enqueue(s);
      },
      flush(c) { const s = dec.decode(); if (s) c.enqueue(s); },
    }));
    Object.assign(this[S], { dec });
  }
  get encoding() { return this[S].dec.encoding; }
  get fatal() { return this[S].dec.fatal; }
  get ignoreBOM() { return this[S].dec.ignoreBOM; }
  get readable() { return this[S].readable; }
  get writable() { return this[S].writable; }
}
tag(TextDecoderStream, "TextDecoderStream");

// CompressionStream and DecompressionStream gather their input and run
// node:zlib at the end: the output is the same, only later.
const zlibFormats = { gzip: ["gzipSync", "gunzipSync"], deflate: ["deflateSync", "inflateSync"], "deflate-raw": ["deflateRawSync", "inflateRawSync"] };
const zlibStream = (self, format, dir) => {
  const f = zlibFormats[format];
  if (!f) { const e = new TypeError(`Failed to construct '${dir ? "Decompression" : "Compression"}Stream': 1st argument value '${format}' is not a valid enum value of type CompressionFormat.`); e.code = "ERR_INVALID_ARG_VALUE"; throw e; }
  const parts = [];
  hide(self, new TransformStream({
    transform(chunk) {
      if (!(chunk instanceof ArrayBuffer || ArrayBuffer.isView(chunk))) throw Object.assign(new TypeError('The "chunk" argument must be an instance of ArrayBuffer or ArrayBufferView.'), { code: "ERR_INVALID_ARG_TYPE" });
      parts.push(ArrayBuffer.isView(chunk) ? new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength).slice() : new Uint8Array(chunk.slice(0)));
    },
    flush(c) {
      const out = require("zlib")[f[dir]](Buffer.concat(parts));
      c.enqueue(new Uint8Array(out.buffer, out.byteOffset, out.length).slice());
    },
  }));
};
class CompressionStream {
  constructor(format) { zlibStream(this, format, 0); }
  get readable() { return this[S].readable; }
  get writable() { return this[S].writable; }
}
tag(CompressionStream, "CompressionStream");
class DecompressionStream {
  constructor(format) { zlibStream(this, format, 1); }
  get readable() { return this[S].readable; }
  get writable() { return this[S].writable; }
}
tag(DecompressionStream, "DecompressionStream");

// The constructors the standard exposes but that user code never calls.
class ReadableStreamBYOBReader { constructor() { throw new TypeError("BYOB readers are not supported by this runtime"); } }
class ReadableByteStreamController { constructor() { illegal(); } }
class ReadableStreamBYOBRequest { constructor() { illegal(); } }

module.exports = {
  ReadableStream, ReadableStreamDefaultReader, ReadableStreamBYOBReader, ReadableStreamBYOBRequest,
  ReadableByteStreamController, ReadableStreamDefaultController, TransformStream, TransformStreamDefaultController,
  WritableStream, WritableStreamDefaultWriter, WritableStreamDefaultController, ByteLengthQueuingStrategy,
  CountQueuingStrategy, TextEncoderStream, TextDecoderStream, CompressionStream, DecompressionStream,
};
