// child_process over the Go primitives in __host (spawn, spawnSync).
"use strict";
const EventEmitter = require("events");
const { Readable, Writable } = require("stream");
const shellArgs = (cmd, args, shell) => [typeof shell === "string" ? shell : "/bin/sh", ["-c", [cmd, ...(args || [])].join(" ")]];
const normalize = (file, args, opts) => {
  if (!Array.isArray(args)) { opts = args; args = []; }
  opts = opts || {};
  if (opts.shell) { const [f, a] = shellArgs(file, args, opts.shell); return [f, a, opts]; }
  return [file, args.map(String), opts];
};
class ChildProcess extends EventEmitter {
  constructor() { super(); this.pid = undefined; this.exitCode = null; this.signalCode = null; this.killed = false; this.connected = false; this.spawnfile = ""; this.spawnargs = []; }
  ref() { return this; } unref() { return this; }
}
function spawn(file, args, opts) {
  [file, args, opts] = normalize(file, args, opts);
  const cp = new ChildProcess();
  cp.spawnfile = file; cp.spawnargs = [file, ...args];
  const stdio = opts.stdio;
  const ignored = (i) => stdio === "ignore" || (Array.isArray(stdio) && (stdio[i] === "ignore" || stdio[i] === "inherit"));
  cp.stdout = ignored(1) ? null : new Readable();
  cp.stderr = ignored(2) ? null : new Readable();
  let handle = null;
  cp.stdin = new Writable({ write: (c, e, cb) => { if (handle) handle.write(typeof c === "string" ? c : Buffer.from(c)); cb(); }, final: (cb) => { if (handle) handle.end(); cb(); } });
  if (ignored(0)) { cp.stdin = null; }
  cp.stdio = [cp.stdin, cp.stdout, cp.stderr];
  handle = __host.spawn(file, args, opts, (type, a, b) => {
    switch (type) {
      case "stdout": if (cp.stdout) cp.stdout.push(a); break;
      case "stderr": if (cp.stderr) cp.stderr.push(a); break;
      case "error": { const e = new Error(a); e.code = b; e.errno = -2; e.syscall = "spawn " + file; e.path = file; e.spawnargs = args; cp.exitCode = -2; cp.emit("error", e); if (cp.stdout) cp.stdout.push(null); if (cp.stderr) cp.stderr.push(null); cp.emit("close", -2, null); break; }
      case "exit":
        cp.exitCode = a; cp.signalCode = b;
        cp.emit("exit", a, b);
        if (cp.stdout) cp.stdout.push(null);
        if (cp.stderr) cp.stderr.push(null);
        queueMicrotask(() => queueMicrotask(() => cp.emit("close", a, b)));
        break;
    }
  });
  cp.pid = handle.pid;
  if (ignored(0) && handle.end) handle.end();
  cp.kill = (sig) => { if (cp.exitCode !== null || cp.signalCode !== null || !handle.kill) return false; cp.killed = true; return handle.kill(sig); };
  if (opts.signal) {
    // Node kills the child and reports an AbortError before 'exit'.
    const onAbort = () => {
      if (cp.kill(opts.killSignal || "SIGTERM")) {
        const e = new Error("The operation was aborted");
        e.name = "AbortError"; e.code = "ABORT_ERR"; e.cause = opts.signal.reason;
        cp.emit("error", e);
      }
    }; if (opts.signal.aborted) queueMicrotask(onAbort); else opts.signal.addEventListener("abort", onAbort, { once: true }); }
  if (opts.timeout > 0) { const t = setTimeout(() => cp.kill(opts.killSignal || "SIGTERM"), opts.timeout); cp.on("exit", () => clearTimeout(t)); }
  return cp;
}
function collect(cp, opts, cmdline, cb) {
  const out = [], err = [];
  if (cp.stdout) cp.stdout.on("data", (c) => out.push(Buffer.from(c)));
  if (cp.stderr) cp.stderr.on("data", (c) => err.push(Buffer.from(c)));
  let spawnErr = null;
  cp.on("error", (e) => { spawnErr = e; });
  cp.on("close", (code, signal) => {
    const enc = opts.encoding === undefined ? "utf8" : opts.encoding;
    const conv = (a) => { const b = Buffer.concat(a); return enc === "buffer" || enc === null ? b : b.toString(enc); };
    const stdout = conv(out), stderr = conv(err);
    let e = spawnErr;
    // Node's message always has the newline, even with no stderr; stdout
    // and stderr go on the error only in the promisified form.
    if (!e && (code !== 0 || signal)) { e = new Error("Command failed: " + cmdline + "\n" + stderr); e.code = code; e.killed = cp.killed; e.signal = signal; e.cmd = cmdline; }
    if (cb) cb(e, stdout, stderr);
  });
  return cp;
}
function exec(cmd, opts, cb) {
  if (typeof opts === "function") { cb = opts; opts = {}; }
  opts = Object.assign({}, opts, { shell: opts && opts.shell || true });
  return collect(spawn(cmd, [], opts), opts, cmd, cb);
}
function execFile(file, args, opts, cb) {
  if (typeof args === "function") { cb = args; args = []; opts = {}; }
  else if (typeof opts === "function") { cb = opts; if (!Array.isArray(args)) { opts = args; args = []; } else opts = {}; }
  if (!Array.isArray(args)) { opts = args; args = []; }
  opts = opts || {};
  return collect(spawn(file, args, opts), opts, [file, ...args].join(" "), cb);
}
// util.promisify(exec) resolves to { stdout, stderr }, rejects with an
// error that carries both, and exposes the child as promise.child.
for (const f of [exec, execFile]) {
  Object.defineProperty(f, Symbol.for("nodejs.util.promisify.custom"), {
    value: (...args) => {
      let child;
      const promise = new Promise((resolve, reject) => {
        child = f(...args, (err, stdout, stderr) => {
          if (err) { err.stdout = stdout; err.stderr = stderr; reject(err); } else resolve({ stdout, stderr });
        });
      });
      promise.child = child;
      return promise;
    },
  });
}
function spawnSync(file, args, opts) {
  [file, args, opts] = normalize(file, args, opts);
  const r = __host.spawnSync(file, args, opts);
  if (r.error) r.error.spawnargs = args;
  const enc = opts.encoding;
  if (enc && enc !== "buffer") { r.stdout = r.stdout.toString(enc); r.stderr = r.stderr.toString(enc); }
  r.output = [null, r.stdout, r.stderr];
  return r;
}
function checkSync(r, cmdline, opts) {
  if (r.error) throw r.error;
  if (r.status !== 0) {
    const e = new Error("Command failed: " + cmdline + (r.stderr && r.stderr.length ? "\n" + r.stderr.toString() : ""));
    e.status = r.status; e.signal = r.signal; e.stdout = r.stdout; e.stderr = r.stderr; e.output = r.output; e.pid = r.pid;
    throw e;
  }
  if (opts && opts.stdio === "inherit") return null;
  return r.stdout;
}
function execSync(cmd, opts) {
  opts = Object.assign({}, opts, { shell: opts && opts.shell || true });
  const r = spawnSync(cmd, [], opts);
  if (r.stderr && r.stderr.length && !(opts.stdio === "pipe" || Array.isArray(opts.stdio))) process.stderr.write(r.stderr);
  return checkSync(r, cmd, opts);
}
function execFileSync(file, args, opts) {
  if (!Array.isArray(args)) { opts = args; args = []; }
  const r = spawnSync(file, args, opts || {});
  return checkSync(r, [file, ...args].join(" "), opts);
}
function fork() { throw new Error("child_process.fork is not supported in pi extensions"); }
module.exports = { spawn, exec, execFile, spawnSync, execSync, execFileSync, fork, ChildProcess };
