// Asynchronous built-ins: the order of timers, immediates, microtasks and
// nextTick; timers/promises; events.once/on; readline; streams.
const events = require("events");
const readline = require("readline");
const stream = require("stream");
const timersP = require("timers/promises");
const util = require("util");
const out = [];
const p = (...a) => out.push(a.map((x) => typeof x === "string" ? x : x === undefined ? "undefined" : JSON.stringify(x)).join(" | "));
const L = async (f) => { try { await f(); } catch (e) { out.push("THREW " + (e && e.message)); } };
(async () => {
  // Ordering: sync, nextTick, promise jobs, queueMicrotask, then timers.
  await L(async () => {
    const order = [];
    await new Promise((done) => {
      setTimeout(() => order.push("timeout0"), 0);
      setTimeout(() => { order.push("timeout5"); done(); }, 5);
      Promise.resolve().then(() => order.push("promise1")).then(() => order.push("promise2"));
      queueMicrotask(() => order.push("microtask"));
      process.nextTick(() => order.push("tick1"));
      process.nextTick(() => { order.push("tick2"); Promise.resolve().then(() => order.push("promise-from-tick")); });
      order.push("sync");
    });
    // nextTick callbacks run before promise jobs in Node; goja runs its
    // job queue itself, so ours run among them. Each group's own order and
    // everything before the timers is what is compared.
    p(order.filter((x) => x.startsWith("tick") || x === "sync"), order.filter((x) => !x.startsWith("tick") && x !== "promise-from-tick"), order.indexOf("promise-from-tick") < order.indexOf("timeout0"));
  });
  await L(async () => {
    const order = [];
    await new Promise((done) => {
      const t = setTimeout(() => order.push("cleared"), 1);
      clearTimeout(t);
      const i = setInterval(() => { order.push("interval"); if (order.filter((x) => x === "interval").length === 3) { clearInterval(i); done(); } }, 1);
    });
    p(order);
  });
  await L(async () => {
    const t = setTimeout(() => {}, 1000);
    p(typeof t, typeof t.ref, typeof t.unref, t.hasRef(), t.unref() === t, t.hasRef(), typeof t[Symbol.toPrimitive], typeof +t);
    clearTimeout(t);
    const im = setImmediate(() => {});
    p(typeof im, typeof im.ref);
    clearImmediate(im);
    const args = await new Promise((res) => setTimeout((a, b) => res([a, b]), 1, "x", 2));
    const iargs = await new Promise((res) => setImmediate((a) => res(a), "imm"));
    p(args, iargs);
  });
  // timers/promises.
  await L(async () => {
    p(await timersP.setTimeout(1, "value"), await timersP.setImmediate("imm"));
    const ac = new AbortController();
    const pending = timersP.setTimeout(1000, "never", { signal: ac.signal });
    ac.abort();
    p(await pending.catch((e) => [e.name, e.code, e.message]));
    const seen = [];
    for await (const v of timersP.setInterval(1, "tick")) { seen.push(v); if (seen.length === 2) break; }
    p(seen, typeof require("timers").setTimeout, require("timers").setTimeout === setTimeout);
    p(await util.promisify(setTimeout)(1, "promisified"));
  });
  // events.once and events.on.
  await L(async () => {
    const e = new events.EventEmitter();
    setTimeout(() => e.emit("ready", 1, 2), 1);
    p(await events.once(e, "ready"));
    setTimeout(() => e.emit("error", new Error("bad")), 1);
    p(await events.once(e, "ready").catch((err) => "rejected " + err.message));
    const ac = new AbortController();
    const it = events.on(e, "data", { signal: ac.signal });
    setTimeout(() => { e.emit("data", "a"); e.emit("data", "b"); }, 1);
    const got = [];
    for await (const [v] of it) { got.push(v); if (got.length === 2) break; }
    p(got, e.listenerCount("data"));
  });
  // readline over a Readable.
  await L(async () => {
    const input = stream.Readable.from(["line one\nline ", "two\r\n", "\nlast"]);
    const rl = readline.createInterface({ input, crlfDelay: Infinity });
    const lines = [];
    rl.on("line", (l) => lines.push(l));
    await events.once(rl, "close");
    p(lines);
    const rl2 = readline.createInterface({ input: stream.Readable.from(["a\nb\n"]) });
    const it = [];
    for await (const l of rl2) it.push(l);
    p(it);
  });
  // Streams.
  await L(async () => {
    const chunks = [];
    for await (const c of stream.Readable.from(["x", "y", "z"])) chunks.push(c);
    p(chunks);
    const r = new stream.Readable({ read() {} });
    r.push("a");
    r.push("b");
    r.push(null);
    let data = "";
    r.setEncoding("utf8");
    r.on("data", (c) => { data += c; });
    await events.once(r, "end");
    p(data, r.readableEnded, r.destroyed === true || r.destroyed === false);
    const collected = [];
    const w = new stream.Writable({ write(chunk, enc, cb) { collected.push(String(chunk)); cb(); } });
    const up = new stream.Transform({ transform(chunk, enc, cb) { cb(null, String(chunk).toUpperCase()); } });
    await new Promise((res, rej) => stream.pipeline(stream.Readable.from(["ab", "cd"]), up, w, (err) => err ? rej(err) : res()));
    p(collected);
    const sink = [];
    await require("stream/promises").pipeline(stream.Readable.from(["p", "q"]), new stream.Writable({ objectMode: true, write(c, e, cb) { sink.push(c); cb(); } }));
    p(sink);
    const pt = new stream.PassThrough();
    pt.end("through");
    let ptd = "";
    for await (const c of pt) ptd += c;
    p(ptd);
    const failing = new stream.Readable({ read() { this.destroy(new Error("read failed")); } });
    p(await new Promise((res) => stream.pipeline(failing, new stream.PassThrough(), (err) => res(err ? err.message : "ok"))));
    const wEvents = [];
    const w2 = new stream.Writable({ write(c, e, cb) { cb(); } });
    w2.on("finish", () => wEvents.push("finish"));
    w2.on("close", () => wEvents.push("close"));
    w2.end("x");
    await events.once(w2, "close");
    p(wEvents, w2.writableFinished, w2.writableEnded);
    p(typeof stream.Duplex, typeof stream.finished, typeof stream.Readable.fromWeb, stream.Readable.prototype instanceof events.EventEmitter);
  });
  console.log(out.join("\n"));
})().catch((e) => console.log("FAILED", e && e.stack || e));
