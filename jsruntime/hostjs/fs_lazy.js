// The larger parts of fs written in JS over the Go-backed ops: streams,
// watchers, FileHandle, Dir, cp and glob. fs_extra.js loads this on the
// first use of any of them (most extensions that import fs use none), and
// it replaces the stand-ins there with the real functions. __host is
// {fs, watch, glob}: the fs module and two Go primitives.
"use strict";
const fs = __host.fs;
const prim = __host;
// stream is loaded on first use too.
const stream = () => require("stream");
const EventEmitter = require("events");

// NodeError is the class name Node's own fs errors (ERR_FS_CP_*) carry.
class NodeError extends Error {}
const sysError = (code, errno, message, props, Cls) => {
  const e = new (Cls || Error)(message);
  if (errno !== undefined) e.errno = errno;
  Object.assign(e, props);
  e.code = code;
  return e;
};

// Streams. The classes are built on first use (they extend stream's).
let streamClasses;
function classes() {
  if (streamClasses) return streamClasses;
  const { Readable, Writable } = stream();
  const closeFd = (s, done) => {
    if (!s.autoClose || s.fd === null || s._fdClosed) { done(); return; }
    s._fdClosed = true;
    const fd = s.fd;
    if (s._handle) s._handle.close().then(() => done(), done);
    else fs.close(fd, () => done());
  };
  const openFd = (s, path, opts) => {
    const fd = opts.fd;
    if (fd !== undefined && fd !== null) {
      s._handle = typeof fd === "object" ? fd : null;
      s.fd = typeof fd === "object" ? fd.fd : fd;
      s.pending = false;
      queueMicrotask(() => { s.emit("open", s.fd); s.emit("ready"); s._opened(); });
      return;
    }
    fs.open(path, s.flags, s.mode, (err, fd) => {
      if (err) { s._fail(err); return; }
      s.fd = fd; s.pending = false;
      s.emit("open", fd); s.emit("ready"); s._opened();
    });
  };
  class ReadStream extends Readable {
    constructor(path, opts) {
      if (typeof opts === "string") opts = { encoding: opts };
      opts = opts || {};
      super();
      this.path = path === null ? undefined : path;
      this.fd = null; this.flags = opts.flags === undefined ? "r" : opts.flags; this.mode = opts.mode === undefined ? 0o666 : opts.mode;
      this.start = opts.start; this.end = opts.end === undefined ? Infinity : opts.end;
      this.autoClose = opts.autoClose === undefined ? true : opts.autoClose;
      this.bytesRead = 0; this.pending = true;
      this._pos = opts.start; this._hwm = opts.highWaterMark || 65536; this._inflight = false;
      if (opts.encoding) this.setEncoding(opts.encoding);
      if (this.start !== undefined && this.end < this.start) throw rangeError("start", "<= \"end\" (here: " + this.end + ")", this.start);
      openFd(this, path, opts);
    }
    _opened() { if (this._wantRead) { this._wantRead = false; this._read(); } }
    _fail(err) { this.destroyed = true; this.emit("error", err); closeFd(this, () => this.emit("close")); }
    _read() {
      if (this.fd === null) { this._wantRead = true; return; }
      if (this._inflight || this.destroyed || this._ended) return;
      let n = this._hwm;
      if (this.end !== Infinity) n = Math.min(n, this.end - (this._pos === undefined ? this.bytesRead : this._pos) + 1);
      if (n <= 0) { this.push(null); return; }
      const buf = Buffer.alloc(n);
      this._inflight = true;
      fs.read(this.fd, buf, 0, n, this._pos === undefined ? null : this._pos, (err, k) => {
        this._inflight = false;
        if (err) { this._fail(err); return; }
        if (k === 0) { this.push(null); return; }
        if (this._pos !== undefined) this._pos += k;
        this.bytesRead += k;
        this.push(k < n ? buf.subarray(0, k) : buf);
      });
    }
    _finish() {
      if (this.readableEnded) return;
      this.readableEnded = true;
      queueMicrotask(() => { this.emit("end"); closeFd(this, () => this.emit("close")); });
    }
    close(cb) { this.destroy(); if (cb) this.once("close", cb); }
    destroy(err) {
      if (this.destroyed) return this;
      this.destroyed = true;
      if (err) this.emit("error", err);
      closeFd(this, () => this.emit("close"));
      return this;
    }
  }
  class WriteStream extends Writable {
    constructor(path, opts) {
      if (typeof opts === "string") opts = { encoding: opts };
      opts = opts || {};
      super();
      this.path = path === null ? undefined : path;
      this.fd = null; this.flags = opts.flags === undefined ? "w" : opts.flags; this.mode = opts.mode === undefined ? 0o666 : opts.mode;
      this.start = opts.start; this.autoClose = opts.autoClose === undefined ? true : opts.autoClose;
      this.bytesWritten = 0; this.pending = true;
      this._pos = opts.start; this._q = []; this._busy = false; this._ending = null; this._enc = opts.encoding || "utf8";
      openFd(this, path, opts);
    }
    _opened() { this._next(); }
    _fail(err) {
      this.destroyed = true;
      this.emit("error", err);
      closeFd(this, () => this.emit("close"));
    }
    write(chunk, enc, cb) {
      if (typeof enc === "function") { cb = enc; enc = undefined; }
      if (this.writableEnded) {
        const e = new Error("write after end"); e.code = "ERR_STREAM_WRITE_AFTER_END";
        queueMicrotask(() => { if (cb) cb(e); this.emit("error", e); });
        return false;
      }
      const b = typeof chunk === "string" ? Buffer.from(chunk, enc || this._enc) : chunk;
      this._q.push([b, cb]);
      this._next();
      return true;
    }
    // _next writes queued chunks one at a time, in order: each fs.write
    // runs on its own goroutine, so two in flight could land reordered.
    _next() {
      if (this._busy || this.fd === null || this.destroyed) return;
      const item = this._q.shift();
      if (!item) {
        if (this._ending) { const fin = this._ending; this._ending = null; fin(); }
        return;
      }
      this._busy = true;
      fs.write(this.fd, item[0], 0, item[0].length, this._pos === undefined ? null : this._pos, (err, n) => {
        this._busy = false;
        if (err) { if (item[1]) item[1](err); this._fail(err); return; }
        this.bytesWritten += n;
        if (this._pos !== undefined) this._pos += n;
        if (item[1]) item[1]();
        this._next();
      });
    }
    end(chunk, enc, cb) {
      if (typeof chunk === "function") { cb = chunk; chunk = undefined; }
      if (typeof enc === "function") { cb = enc; enc = undefined; }
      if (chunk !== undefined && chunk !== null) this.write(chunk, enc);
      if (this.writableEnded) return this;
      this.writableEnded = true;
      this._ending = () => {
        this.writableFinished = true;
        this.emit("finish");
        closeFd(this, () => { if (cb) cb(); this.emit("close"); });
      };
      this._next();
      return this;
    }
    close(cb) { if (cb) this.once("close", cb); if (!this.writableEnded) this.end(); else if (this.destroyed) closeFd(this, () => this.emit("close")); }
    destroy(err) {
      if (this.destroyed) return this;
      this.destroyed = true;
      if (err) this.emit("error", err);
      closeFd(this, () => this.emit("close"));
      return this;
    }
  }
  streamClasses = { ReadStream, WriteStream };
  return streamClasses;
}
const rangeError = (name, rng, got) => { const e = new RangeError(`The value of "${name}" is out of range. It must be ${rng}. Received ${got}`); e.code = "ERR_OUT_OF_RANGE"; return e; };
fs.createReadStream = (path, opts) => new (classes().ReadStream)(path, opts);
fs.createWriteStream = (path, opts) => new (classes().WriteStream)(path, opts);
module.exports = { classes };

// Watchers. fs.watch is backed by the OS's notifications (fsnotify); the
// watcher keeps the loop alive until closed or unref'd, as in Node.
class FSWatcher extends EventEmitter {
  constructor(path, opts, listener) {
    super();
    if (listener) this.on("change", listener);
    const enc = opts.encoding;
    this._h = prim.watch(String(path), !!opts.recursive, opts.persistent !== false, (type, name, err) => {
      if (err) { this.emit("error", err); this.close(); return; }
      this.emit("change", type, enc === "buffer" ? Buffer.from(name) : name);
    });
  }
  close() { if (!this._h) return; const h = this._h; this._h = null; h.close(); queueMicrotask(() => this.emit("close")); }
  ref() { if (this._h) this._h.ref(); return this; }
  unref() { if (this._h) this._h.unref(); return this; }
}
fs.watch = function (path, opts, listener) {
  if (typeof opts === "function") { listener = opts; opts = {}; }
  if (typeof opts === "string") opts = { encoding: opts };
  if (path instanceof URL) path = require("url").fileURLToPath(path);
  return new FSWatcher(path, opts || {}, listener);
};
// watchFile polls stat, as Node does, every interval ms (5007 by default).
class StatWatcher extends EventEmitter {
  constructor(path, interval, persistent) {
    super();
    const stat = () => { try { return fs.statSync(path); } catch { return zeroStats(); } };
    let prev = stat();
    this._t = setInterval(() => {
      const cur = stat();
      if (cur.mtimeMs !== prev.mtimeMs || cur.size !== prev.size || cur.ino !== prev.ino || cur.mode !== prev.mode) {
        const p = prev; prev = cur;
        this.emit("change", cur, p);
      }
    }, interval);
    if (!persistent) this._t.unref();
  }
  stop() { if (this._t) { clearInterval(this._t); this._t = null; this.emit("stop"); } }
  ref() { if (this._t) this._t.ref(); return this; }
  unref() { if (this._t) this._t.unref(); return this; }
}
const zeroStats = () => {
  const s = Object.create(fs.Stats.prototype);
  for (const k of ["dev", "mode", "nlink", "uid", "gid", "rdev", "blksize", "ino", "size", "blocks", "atimeMs", "mtimeMs", "ctimeMs", "birthtimeMs"]) s[k] = 0;
  for (const k of ["atime", "mtime", "ctime", "birthtime"]) s[k] = new Date(0);
  for (const k of ["isFile", "isDirectory", "isSymbolicLink", "isFIFO", "isSocket", "isBlockDevice", "isCharacterDevice"]) Object.defineProperty(s, k, { value: () => false });
  return s;
};
const statWatchers = new Map();
fs.watchFile = function (path, opts, listener) {
  if (typeof opts === "function") { listener = opts; opts = {}; }
  opts = opts || {};
  const key = require("path").resolve(String(path));
  let w = statWatchers.get(key);
  if (!w) { w = new StatWatcher(key, opts.interval || 5007, opts.persistent !== false); statWatchers.set(key, w); }
  if (listener) w.on("change", listener);
  return w;
};
fs.unwatchFile = function (path, listener) {
  const key = require("path").resolve(String(path));
  const w = statWatchers.get(key);
  if (!w) return;
  if (listener) w.removeListener("change", listener); else w.removeAllListeners("change");
  if (w.listenerCount("change") === 0) { w.stop(); statWatchers.delete(key); }
};
// fs.promises.watch is an async iterator of {eventType, filename}.
fs.promises.watch = function (path, opts) {
  opts = opts || {};
  const queue = [], waiting = [];
  let done = false, failed = null;
  const w = fs.watch(path, opts);
  w.on("change", (eventType, filename) => {
    const v = { value: { eventType, filename }, done: false };
    if (waiting.length) waiting.shift().resolve(v); else queue.push(v);
  });
  w.on("error", (e) => { failed = e; while (waiting.length) waiting.shift().reject(e); });
  const finish = () => { if (done) return; done = true; w.close(); while (waiting.length) waiting.shift().resolve({ value: undefined, done: true }); };
  // An abort ends the iteration with an AbortError, as in Node.
  const abort = () => {
    if (done) return;
    const e = new Error("The operation was aborted"); e.name = "AbortError"; e.code = "ABORT_ERR"; e.cause = opts.signal.reason;
    failed = e; done = true; w.close();
    while (waiting.length) waiting.shift().reject(e);
  };
  if (opts.signal) { if (opts.signal.aborted) abort(); else opts.signal.addEventListener("abort", abort, { once: true }); }
  const it = {
    next() {
      if (queue.length) return Promise.resolve(queue.shift());
      if (failed) { const e = failed; failed = null; return Promise.reject(e); }
      if (done) return Promise.resolve({ value: undefined, done: true });
      return new Promise((resolve, reject) => waiting.push({ resolve, reject }));
    },
    return() { finish(); return Promise.resolve({ value: undefined, done: true }); },
    [Symbol.asyncIterator]() { return this; },
  };
  return it;
};

// FileHandle (fs.promises.open) over the descriptor API.
const call = (name, ...args) => new Promise((res, rej) => fs[name](...args, (e, ...v) => (e ? rej(e) : res(v))));
class FileHandle extends EventEmitter {
  constructor(fd) { super(); this._fd = fd; }
  get fd() { return this._fd; }
  _check(sys) {
    if (this._fd !== -1) return Promise.resolve();
    return Promise.reject(sysError("EBADF", undefined, "file closed", { syscall: sys }));
  }
  read(buffer, offset, length, position) {
    return this._check("read").then(() => {
      if (buffer === undefined || buffer === null || !ArrayBuffer.isView(buffer)) {
        const o = buffer || {};
        return call("read", this._fd, { buffer: o.buffer || Buffer.alloc(16384), offset: o.offset, length: o.length, position: o.position });
      }
      if (offset !== null && typeof offset === "object") return call("read", this._fd, buffer, offset);
      return call("read", this._fd, buffer, offset, length, position);
    }).then(([bytesRead, buffer]) => ({ bytesRead, buffer }));
  }
  write(data, ...rest) {
    return this._check("write").then(() => call("write", this._fd, data, ...rest)).then(([bytesWritten, buffer]) => ({ bytesWritten, buffer }));
  }
  readv(buffers, position) { return this._check("read").then(() => call("readv", this._fd, buffers, position)).then(([bytesRead, buffers]) => ({ bytesRead, buffers })); }
  writev(buffers, position) { return this._check("write").then(() => call("writev", this._fd, buffers, position)).then(([bytesWritten, buffers]) => ({ bytesWritten, buffers })); }
  readFile(opts) { return this._check("read").then(() => call("readFile", this._fd, opts)).then(([v]) => v); }
  writeFile(data, opts) { return this._check("write").then(() => call("writeFile", this._fd, data, opts)).then(() => undefined); }
  appendFile(data, opts) { return this.writeFile(data, opts); }
  stat(opts) { return this._check("fstat").then(() => call("fstat", this._fd, opts)).then(([s]) => s); }
  truncate(len) { return this._check("ftruncate").then(() => call("ftruncate", this._fd, len || 0)).then(() => undefined); }
  sync() { return this._check("fsync").then(() => call("fsync", this._fd)).then(() => undefined); }
  datasync() { return this._check("fdatasync").then(() => call("fdatasync", this._fd)).then(() => undefined); }
  chmod(mode) { return this._check("fchmod").then(() => call("fchmod", this._fd, mode)).then(() => undefined); }
  chown(uid, gid) { return this._check("fchown").then(() => call("fchown", this._fd, uid, gid)).then(() => undefined); }
  utimes(a, m) { return this._check("futime").then(() => call("futimes", this._fd, a, m)).then(() => undefined); }
  // close is idempotent, as in Node: a second close resolves.
  close() {
    if (this._fd === -1) return Promise.resolve();
    const fd = this._fd;
    this._fd = -1;
    return call("close", fd).then(() => { this.emit("close"); });
  }
  createReadStream(opts) { return fs.createReadStream(null, { ...opts, fd: this }); }
  createWriteStream(opts) { return fs.createWriteStream(null, { ...opts, fd: this }); }
  readLines(opts) { return require("readline").createInterface({ input: this.createReadStream(opts), crlfDelay: Infinity }); }
  [Symbol.asyncDispose]() { return this.close(); }
}
fs.promises.open = (path, flags, mode) => call("open", path, flags, mode).then(([fd]) => new FileHandle(fd));

// Dir (opendir): the entries are read when the directory is opened.
class Dir {
  constructor(path, entries) { this.path = path; this._entries = entries; this._closed = false; }
  _closedError() { const e = new Error("Directory handle was closed"); e.code = "ERR_DIR_CLOSED"; return e; }
  readSync() { if (this._closed) throw this._closedError(); return this._entries.length ? this._entries.shift() : null; }
  read(cb) {
    const p = this._closed ? Promise.reject(this._closedError()) : Promise.resolve(this.readSync());
    if (typeof cb === "function") { p.then((v) => cb(null, v), cb); return; }
    return p;
  }
  closeSync() {
    if (this._closed) { const e = new Error("Directory handle was closed"); e.code = "ERR_DIR_CLOSED"; throw e; }
    this._closed = true;
  }
  close(cb) {
    const p = new Promise((res) => { this.closeSync(); res(); });
    if (typeof cb === "function") { p.then(() => cb(null), cb); return; }
    return p;
  }
  entries() { return this[Symbol.asyncIterator](); }
  [Symbol.asyncIterator]() {
    return {
      next: () => {
        if (this._closed) return Promise.resolve({ value: undefined, done: true });
        const v = this.readSync();
        if (v === null) { this._closed = true; return Promise.resolve({ value: undefined, done: true }); }
        return Promise.resolve({ value: v, done: false });
      },
      return: () => { this._closed = true; return Promise.resolve({ value: undefined, done: true }); },
      [Symbol.asyncIterator]() { return this; },
    };
  }
  [Symbol.iterator]() { const it = []; for (let v; (v = this.readSync()) !== null;) it.push(v); return it[Symbol.iterator](); }
}
const opendirErr = (e) => { if (e && e.syscall === "scandir") e.message = e.message.replace(", scandir", ", opendir"), e.syscall = "opendir"; return e; };
fs.opendirSync = (path, opts) => {
  try { return new Dir(String(path), fs.readdirSync(path, { withFileTypes: true, recursive: opts && opts.recursive })); } catch (e) { throw opendirErr(e); }
};
fs.opendir = (path, opts, cb) => {
  if (typeof opts === "function") { cb = opts; opts = undefined; }
  fs.readdir(path, { withFileTypes: true }, (e, list) => cb(e ? opendirErr(e) : null, e ? undefined : new Dir(String(path), list)));
};
fs.promises.opendir = (path, opts) => new Promise((res, rej) => fs.opendir(path, opts, (e, d) => (e ? rej(e) : res(d))));
Object.defineProperty(fs, "Dir", { value: Dir, writable: true, enumerable: true, configurable: true });

// cp, written over the sync ops so that filter (a JS function) can run.
const nodePath = () => require("path");
function cpSync(src, dest, opts) {
  opts = opts || {};
  src = String(src); dest = String(dest);
  const force = opts.force !== false;
  const walk = (s, d) => {
    if (opts.filter && !opts.filter(s, d)) return;
    const st = opts.dereference ? fs.statSync(s) : fs.lstatSync(s);
    if (st.isDirectory()) {
      if (!opts.recursive) throw sysError("ERR_FS_EISDIR", undefined, "Recursive option not enabled, cannot copy a directory: " + s + "/", {});
      if (!fs.existsSync(d)) fs.mkdirSync(d, { recursive: true });
      for (const name of fs.readdirSync(s)) walk(nodePath().join(s, name), nodePath().join(d, name));
      return;
    }
    const exists = (() => { try { fs.lstatSync(d); return true; } catch { return false; } })();
    if (exists && !force) {
      if (opts.errorOnExist) throw sysError("ERR_FS_CP_EEXIST", 17, "Target already exists: cp returned EEXIST (" + d + " already exists) " + d, { syscall: "cp", path: d }, NodeError);
      return;
    }
    if (st.isSymbolicLink()) {
      if (exists) fs.unlinkSync(d);
      fs.symlinkSync(fs.readlinkSync(s), d);
      return;
    }
    fs.copyFileSync(s, d);
    if (opts.preserveTimestamps) fs.utimesSync(d, st.atime, st.mtime);
  };
  const st = fs.statSync(src);
  if (st.isDirectory() && !opts.recursive) throw sysError("ERR_FS_EISDIR", undefined, "Recursive option not enabled, cannot copy a directory: " + src + "/", {});
  walk(src, dest);
}
fs.cpSync = cpSync;
fs.cp = (src, dest, opts, cb) => {
  if (typeof opts === "function") { cb = opts; opts = undefined; }
  setImmediate(() => { try { cpSync(src, dest, opts); } catch (e) { cb(e); return; } cb(null); });
};
fs.promises.cp = (src, dest, opts) => new Promise((res, rej) => fs.cp(src, dest, opts, (e) => (e ? rej(e) : res())));

// glob (Node 22: experimental) matches with doublestar on the Go side.
fs.globSync = (pattern, opts) => {
  opts = opts || {};
  const pats = Array.isArray(pattern) ? pattern : [pattern];
  const cwd = opts.cwd ? String(opts.cwd) : process.cwd();
  const seen = new Set(), out = [];
  for (const p of pats) for (const m of prim.glob(cwd, String(p))) if (!seen.has(m)) { seen.add(m); out.push(m); }
  const ex = opts.exclude;
  const kept = typeof ex === "function" ? out.filter((m) => !ex(m)) : out;
  if (opts.withFileTypes) return kept.map((m) => { const d = fs.lstatSync(nodePath().resolve(cwd, m)); const e = Object.create(fs.Dirent.prototype); e.name = nodePath().basename(m); e.parentPath = nodePath().resolve(cwd, nodePath().dirname(m)); e.path = e.parentPath; for (const k of ["isFile", "isDirectory", "isSymbolicLink", "isFIFO", "isSocket", "isBlockDevice", "isCharacterDevice"]) Object.defineProperty(e, k, { value: d[k].bind(d) }); return e; });
  return kept;
};
fs.glob = (pattern, opts, cb) => {
  if (typeof opts === "function") { cb = opts; opts = undefined; }
  setImmediate(() => { let v; try { v = fs.globSync(pattern, opts); } catch (e) { cb(e); return; } cb(null, v); });
};
fs.promises.glob = function (pattern, opts) {
  let list = null, i = 0;
  return {
    next() { if (!list) list = fs.globSync(pattern, opts); return Promise.resolve(i < list.length ? { value: list[i++], done: false } : { value: undefined, done: true }); },
    return() { i = Infinity; return Promise.resolve({ value: undefined, done: true }); },
    [Symbol.asyncIterator]() { return this; },
  };
};

