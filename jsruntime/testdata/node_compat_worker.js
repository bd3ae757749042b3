// worker_threads: a Worker echo round trip with structured clone, eval
// workers, workerData, errors, exit codes, terminate, built-ins inside a
// worker, and MessageChannel.
const { Worker, isMainThread, parentPort, threadId, workerData, MessageChannel, receiveMessageOnPort } = require("worker_threads");
const fs = require("fs");
const path = require("path");
const os = require("os");
const out = [];
const p = (...a) => out.push(a.map((x) => typeof x === "string" ? x : x === undefined ? "undefined" : JSON.stringify(x)).join(" | "));
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "compat-worker-"));
const echo = path.join(dir, "echo.js");
fs.writeFileSync(echo, `
const { parentPort, workerData, isMainThread, threadId } = require("worker_threads");
parentPort.postMessage({ ready: true, workerData, isMainThread, hasId: threadId > 0 });
parentPort.on("message", (m) => {
  if (m === "bye") { parentPort.close(); return; }
  parentPort.postMessage({ echo: m });
});
`);
const describe = (v) => {
  if (v instanceof Map) return "Map" + JSON.stringify([...v]);
  if (v instanceof Set) return "Set" + JSON.stringify([...v]);
  if (v instanceof Date) return "Date " + v.toISOString();
  if (Buffer.isBuffer(v)) return "Buffer " + Array.from(v).join(",");
  if (ArrayBuffer.isView(v)) return v.constructor.name + " " + Array.from(v).join(",");
  if (typeof v === "bigint") return "bigint " + v;
  if (v instanceof Error) return v.constructor.name + " " + v.message;
  if (typeof v === "number") return "number " + v;
  return typeof v + " " + JSON.stringify(v);
};
const run = (file, opts, onStart) => new Promise((res) => {
  const w = new Worker(file, opts);
  const events = [];
  // 'online' races with the first messages in Node, so it is only noted.
  w.on("online", () => { events.online = true; });
  w.on("message", (m) => events.push(["message", m]));
  w.on("error", (e) => events.push(["error", e.constructor.name, e.message]));
  w.on("exit", (code) => { events.push(["exit", code]); res([events.online ? "online" : "not online", ...events]); });
  if (onStart) onStart(w);
});
(async () => {
  p(isMainThread, parentPort, threadId, workerData);
  // Echo round trip.
  const w = new Worker(echo, { workerData: { n: 1, list: [1, "two", null] } });
  const inbox = [];
  let wake = null;
  w.on("message", (m) => { inbox.push(m); if (wake) wake(); });
  const next = () => inbox.length ? Promise.resolve(inbox.shift()) : new Promise((r) => { wake = () => { wake = null; r(inbox.shift()); }; });
  p("ready", await next());
  p(typeof w.threadId, w.threadId > 0);
  const values = [42, "text", true, null, undefined, NaN, -0, 12345678901234567890n, { a: { b: [1, { c: 2 }] } },
    new Map([["k", 1], [2, "v"]]), new Set([1, "x"]), new Date(0), new Uint8Array([1, 2, 3]), Buffer.from("hi"), new Float64Array([1.5]),
    new Error("sent error"), new TypeError("type error"), [1, [2, [3]]]];
  for (const v of values) {
    w.postMessage(v);
    const m = await next();
    p("echo", describe(v), describe(m.echo));
  }
  const cyclic = { name: "cycle" }; cyclic.self = cyclic;
  w.postMessage(cyclic);
  const back = (await next()).echo;
  p("cyclic", back.name, back.self === back);
  const shared = { s: 1 };
  w.postMessage([shared, shared]);
  const pair = (await next()).echo;
  p("shared", pair[0] === pair[1]);
  // (A function's source text is esbuild's reformatting here, so only the message's end is compared.)
  try { w.postMessage({ f() {} }); } catch (e) { p("clone error", e.name, e.message.endsWith(" could not be cloned.")); }
  try { w.postMessage(Symbol("s")); } catch (e) { p("clone error", e.name, e.message); }
  const exited = new Promise((r) => w.on("exit", r));
  w.postMessage("bye");
  p("exit after close", await exited);
  // eval workers and their events in order.
  p("eval", await run(`require("worker_threads").parentPort.postMessage(require("path").join("a", "b"))`, { eval: true }));
  p("workerData", await run(`const { parentPort, workerData } = require("worker_threads"); parentPort.postMessage(workerData.x * 2)`, { eval: true, workerData: { x: 21 } }));
  p("builtins", await run(`const { parentPort } = require("worker_threads"); parentPort.postMessage([require("crypto").createHash("sha256").update("x").digest("hex").slice(0, 8), typeof require("fs").readFileSync, require("os").EOL, require("util").format("%s=%d", "n", 5)])`, { eval: true }));
  p("argv", await run(`require("worker_threads").parentPort.postMessage(process.argv.slice(2))`, { eval: true, argv: ["one", 2] }));
  p("env", await run(`require("worker_threads").parentPort.postMessage(process.env.ONLY)`, { eval: true, env: { ONLY: "yes" } }));
  p("throws", await run(`throw new RangeError("top-level boom")`, { eval: true }));
  p("async throw", await run(`setTimeout(() => { throw new Error("later boom"); }, 1)`, { eval: true }));
  p("async throw class", await run(`setImmediate(() => { const e = new TypeError("typed later"); e.extra = 1; throw e; })`, { eval: true }).then((ev) => ev.map((e) => e[0] === "error" ? [e[1], e[2]] : e)));
  p("process.exit", await run(`require("worker_threads").parentPort.postMessage("before"); process.exit(3); require("worker_threads").parentPort.postMessage("after")`, { eval: true }));
  p("timers in worker", await run(`const { parentPort } = require("worker_threads"); setTimeout(() => parentPort.postMessage("tick"), 5); Promise.resolve().then(() => parentPort.postMessage("micro"))`, { eval: true }));
  p("missing file", (await run(path.join(dir, "missing.js"))).map((e) => e[0] === "error" ? [e[0], e[1]] : e));
  let term;
  p("terminate", await run(`require("worker_threads").parentPort.on("message", () => {})`, { eval: true }, (wk) => { wk.on("online", () => { term = wk.terminate(); }); }), await term);
  let spin;
  p("terminate busy", await run(`require("worker_threads").parentPort.postMessage("spinning"); for (;;) {}`, { eval: true }, (wk) => { wk.on("message", () => { spin = wk.terminate(); }); }), await spin);
  try { new Worker("relative.js"); } catch (e) { p("bad path", e.code, e.message); }
  // MessageChannel within one thread.
  const { port1, port2 } = new MessageChannel();
  const got = new Promise((r) => port2.on("message", (m) => { r(m); }));
  port1.postMessage({ via: "channel", d: new Date(86400000) });
  const m = await got;
  p("channel", m.via, m.d instanceof Date, m.d.getTime());
  const { port1: a, port2: b } = new MessageChannel();
  a.postMessage("queued");
  p("receiveMessageOnPort", receiveMessageOnPort(b), receiveMessageOnPort(b));
  port1.close(); a.close();
  fs.rmSync(dir, { recursive: true, force: true });
  console.log(out.join("\n"));
})().catch((e) => console.log("FAILED", e && e.stack || e));
