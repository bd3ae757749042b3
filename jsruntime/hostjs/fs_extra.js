// Stream and watcher parts of fs, written over the Go-backed ops. The
// enclosing wrapper passes the fs module being built as `fs`.
"use strict";
// stream is loaded on first use: most extensions that import fs never
// open a stream, and compiling stream would cost every start that much.
const stream = () => require("stream");
const EventEmitter = require("events");
fs.createReadStream = function (path, opts) {
  if (typeof opts === "string") opts = { encoding: opts };
  opts = opts || {};
  const r = new (stream().Readable)();
  r.path = path; r.bytesRead = 0;
  if (opts.encoding) r.setEncoding(opts.encoding);
  fs.readFile(path, (err, buf) => {
    if (err) { r.emit("error", err); return; }
    const start = opts.start || 0, end = opts.end !== undefined ? opts.end + 1 : buf.length;
    const data = buf.subarray(start, end);
    const size = opts.highWaterMark || 65536;
    for (let i = 0; i < data.length; i += size) { const c = data.subarray(i, i + size); r.bytesRead += c.length; r.push(Buffer.from(c)); }
    r.push(null);
  });
  queueMicrotask(() => r.emit("open"));
  return r;
};
fs.createWriteStream = function (path, opts) {
  if (typeof opts === "string") opts = { encoding: opts };
  opts = opts || {};
  if (!opts.flags || opts.flags[0] !== "a") fs.writeFileSync(path, "");
  const w = new (stream().Writable)({ write(chunk, enc, cb) { try { fs.appendFileSync(path, chunk); w.bytesWritten += chunk.length; cb(); } catch (e) { cb(e); } } });
  w.path = path; w.bytesWritten = 0;
  queueMicrotask(() => { w.emit("open"); w.emit("ready"); });
  return w;
};
// Watching is not supported headless; a watcher that never fires keeps
// extensions that set one up at session start working.
fs.watch = function (p) {
  // Node fails at once on a missing path; extensions rely on that error.
  if (typeof p === "string" && !fs.existsSync(p)) {
    const err = new Error("ENOENT: no such file or directory, watch '" + p + "'");
    err.errno = -2; err.code = "ENOENT"; err.syscall = "watch"; err.path = p; err.filename = p;
    throw err;
  }
  const w = new EventEmitter(); w.close = () => { w.emit("close"); }; w.ref = () => w; w.unref = () => w; return w; };
fs.watchFile = function () { const w = new EventEmitter(); w.ref = () => w; w.unref = () => w; return w; };
fs.unwatchFile = function () {};
fs.promises.watch = function () { return { [Symbol.asyncIterator]() { return { next: () => new Promise(() => {}), return: () => Promise.resolve({ done: true }) }; } }; };
fs.promises.open = async function (path, flags) {
  if (flags && flags[0] === "w") fs.writeFileSync(path, "");
  return {
    readFile: (o) => fs.promises.readFile(path, o), writeFile: (d, o) => fs.promises.writeFile(path, d, o),
    appendFile: (d, o) => fs.promises.appendFile(path, d, o), stat: () => fs.promises.stat(path),
    write: async (d) => { fs.appendFileSync(path, d); return { bytesWritten: d.length }; }, close: async () => {}, sync: async () => {},
  };
};
fs.Stats = function Stats() {};
fs.Dirent = function Dirent() {};
for (const [name, cls] of [["ReadStream", "Readable"], ["WriteStream", "Writable"]]) {
  Object.defineProperty(fs, name, {
    get() { return stream()[cls]; },
    set(v) { Object.defineProperty(fs, name, { value: v, writable: true, enumerable: true, configurable: true }); },
    enumerable: true,
    configurable: true,
  });
}
