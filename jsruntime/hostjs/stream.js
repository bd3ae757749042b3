// Minimal Node streams: enough for child process stdio, file streams and
// readline. Data is pushed by the host; there is no backpressure.
"use strict";
const EventEmitter = require("events");
class Stream extends EventEmitter {
  pipe(dest) { this.on("data", (c) => dest.write(c)); this.on("end", () => { if (dest.end && dest !== process.stdout && dest !== process.stderr) dest.end(); }); return dest; }
}
class Readable extends Stream {
  constructor(opts) { super(); this.readable = true; this.readableEnded = false; this.destroyed = false; this._encoding = null; this._buf = []; this._flowing = null; this._ended = false; if (opts && opts.read) this._read = opts.read; }
  setEncoding(enc) { this._encoding = enc; return this; }
  _decode(c) { if (this._encoding && typeof c !== "string") return Buffer.from(c).toString(this._encoding); return c; }
  push(chunk) {
    if (chunk === null) { this._ended = true; if (this._flowing !== false && this._buf.length === 0) this._finish(); return false; }
    const c = this._decode(chunk);
    if (this._flowing === false || this.listenerCount("data") === 0 && this._flowing === null) { this._buf.push(c); if (this.listenerCount("readable")) this.emit("readable"); }
    else { this.emit("data", c); this._pull(); }
    return true;
  }
  // _pull asks a stream built with read() for more, one call per turn, as
  // Node does while the consumer wants data.
  _pull() {
    if (this._ended || this.destroyed || !this._read || this._reading) return;
    this._reading = true;
    queueMicrotask(() => { this._reading = false; if (!this._ended && !this.destroyed) this._read(16384); });
  }
  _finish() { if (this.readableEnded) return; this.readableEnded = true; queueMicrotask(() => { this.emit("end"); this.emit("close"); }); }
  on(n, f) { super.on(n, f); if (n === "data" && this._flowing !== false) this.resume(); return this; }
  resume() { this._flowing = true; const b = this._buf; this._buf = []; for (const c of b) this.emit("data", c); if (this._ended) this._finish(); else this._pull(); return this; }
  pause() { this._flowing = false; return this; }
  isPaused() { return this._flowing === false; }
  read() { if (this._buf.length === 0) { if (this._ended) this._finish(); else this._pull(); return null; } const c = this._buf.shift(); return c; }
  destroy(err) { this.destroyed = true; if (err) this.emit("error", err); this.emit("close"); return this; }
  unref() { return this; } ref() { return this; }
  [Symbol.asyncIterator]() {
    const queue = [], waiters = []; let done = false, error = null;
    this.on("data", (c) => { if (waiters.length) waiters.shift().resolve({ value: c, done: false }); else queue.push(c); });
    this.on("end", () => { done = true; while (waiters.length) waiters.shift().resolve({ value: undefined, done: true }); });
    this.on("error", (e) => { error = e; while (waiters.length) waiters.shift().reject(e); });
    return {
      next: () => { if (queue.length) return Promise.resolve({ value: queue.shift(), done: false }); if (error) return Promise.reject(error); if (done) return Promise.resolve({ value: undefined, done: true }); return new Promise((resolve, reject) => waiters.push({ resolve, reject })); },
      return: () => { done = true; return Promise.resolve({ value: undefined, done: true }); },
      [Symbol.asyncIterator]() { return this; },
    };
  }
  // No for-await here: goja lacks async iteration, and host JS is not lowered by esbuild.
  // fromWeb reads a WHATWG ReadableStream (fetch bodies) chunk by chunk.
  static fromWeb(web) {
    const reader = web.getReader();
    const r = new Readable({ read() { reader.read().then(({ value, done }) => { if (done) r.push(null); else r.push(typeof Buffer === "function" && value instanceof Uint8Array ? Buffer.from(value) : value); }, (e) => r.destroy(e)); } });
    return r;
  }
  // toWeb wraps this stream in a WHATWG ReadableStream, pausing it while
  // the web stream's queue is full.
  static toWeb(r) {
    return new ReadableStream({
      start(c) { r.on("data", (d) => { c.enqueue(typeof d === "string" ? d : new Uint8Array(d)); if (c.desiredSize <= 0 && r.pause) r.pause(); }); r.on("end", () => c.close()); r.on("error", (e) => c.error(e)); },
      pull() { if (r.resume) r.resume(); },
      cancel() { if (r.destroy) r.destroy(); },
    });
  }
  static from(iterable) {
    const r = new Readable();
    queueMicrotask(async () => {
      try {
        if (typeof iterable === "string" || !iterable[Symbol.asyncIterator]) { for (const c of typeof iterable === "string" ? [iterable] : iterable) r.push(await c); }
        else { const it = iterable[Symbol.asyncIterator](); for (;;) { const n = await it.next(); if (n.done) break; r.push(n.value); } }
        r.push(null);
      } catch (e) { r.destroy(e); }
    });
    return r;
  }
}
class Writable extends Stream {
  constructor(opts) { super(); this.writable = true; this.writableEnded = false; this.destroyed = false; this._writeFn = opts && opts.write; this._finalFn = opts && opts.final; }
  write(chunk, enc, cb) { if (typeof enc === "function") { cb = enc; enc = undefined; } const done = (e) => { if (e) this.emit("error", e); if (cb) cb(e); }; if (this._writeFn) this._writeFn.call(this, chunk, enc || "utf8", done); else if (this._write) this._write(chunk, enc || "utf8", done); else done(); return true; }
  end(chunk, enc, cb) { if (typeof chunk === "function") { cb = chunk; chunk = undefined; } if (typeof enc === "function") { cb = enc; enc = undefined; } if (chunk !== undefined && chunk !== null) this.write(chunk, enc); if (this.writableEnded) return this; this.writableEnded = true; const fin = () => { this.writableFinished = true; this.emit("finish"); this.emit("close"); if (cb) cb(); }; if (this._finalFn) this._finalFn.call(this, (e) => { if (e) this.emit("error", e); fin(); }); else if (this._final) this._final(fin); else queueMicrotask(fin); return this; }
  destroy(err) { this.destroyed = true; if (err) this.emit("error", err); this.emit("close"); return this; }
  cork() {} uncork() {} setDefaultEncoding() { return this; }
}
class Duplex extends Readable {
  constructor(opts) { super(opts); this.writable = true; this._w = new Writable(opts); }
  write(c, e, cb) { return this._w.write(c, e, cb); }
  end(c, e, cb) { this._w.end(c, e, cb); return this; }
}
class Transform extends Duplex {
  constructor(opts) { super(opts); const t = (opts && opts.transform) || ((c, e, cb) => cb(null, c)); this._w = new Writable({ write: (c, e, cb) => t.call(this, c, e, (err, out) => { if (out !== undefined && out !== null) this.push(out); cb(err); }), final: (cb) => { const f = opts && opts.flush; if (f) f.call(this, (e, out) => { if (out !== undefined && out !== null) this.push(out); this.push(null); cb(e); }); else { this.push(null); cb(); } } }); }
}
class PassThrough extends Transform {}
function finished(s, cb) { let called = false; const done = (e) => { if (!called) { called = true; cb(e); } }; s.on("end", () => done()); s.on("finish", () => done()); s.on("error", done); return () => {}; }
// pipeline reports the first error of any stream (and destroys the
// others), or the last stream's end.
function pipeline(...streams) {
  const cb = typeof streams[streams.length - 1] === "function" ? streams.pop() : null;
  if (streams.length === 1 && Array.isArray(streams[0])) streams = streams[0];
  let called = false;
  const done = (e) => { if (called) return; called = true; if (e) for (const s of streams) if (!s.destroyed && s.destroy) s.destroy(); if (cb) cb(e); };
  for (let i = 0; i < streams.length - 1; i++) streams[i].pipe(streams[i + 1]);
  for (const s of streams) s.on("error", done);
  const last = streams[streams.length - 1];
  finished(last, done);
  return last;
}
module.exports = Stream;
Object.assign(Stream, { Stream, Readable, Writable, Duplex, Transform, PassThrough, finished, pipeline,
  promises: { pipeline: (...s) => new Promise((res, rej) => pipeline(...s, (e) => e ? rej(e) : res())), finished: (s) => new Promise((res, rej) => finished(s, (e) => e ? rej(e) : res())) } });
