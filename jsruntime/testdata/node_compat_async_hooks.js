// async_hooks: AsyncLocalStorage through await, then, timers, immediates,
// microtasks, nextTick, fs callbacks and event emitters; AsyncResource.
const { AsyncLocalStorage, AsyncResource, executionAsyncId, triggerAsyncId } = require("async_hooks");
const EventEmitter = require("events");
const fs = require("fs");
const timersP = require("timers/promises");
const out = [];
const p = (...a) => out.push(a.map((x) => typeof x === "string" ? x : x === undefined ? "undefined" : JSON.stringify(x)).join(" | "));
const als = new AsyncLocalStorage();
const other = new AsyncLocalStorage();
const tick = () => new Promise((r) => setTimeout(r, 1));
(async () => {
  p("outside", als.getStore());
  await als.run({ id: 1 }, async () => {
    p("sync", als.getStore());
    await null;
    p("after await", als.getStore());
    await tick();
    p("after timer await", als.getStore());
    await new Promise((res) => setTimeout(() => { p("setTimeout", als.getStore()); res(); }, 1));
    await new Promise((res) => setImmediate(() => { p("setImmediate", als.getStore()); res(); }));
    await new Promise((res) => queueMicrotask(() => { p("queueMicrotask", als.getStore()); res(); }));
    await new Promise((res) => process.nextTick(() => { p("nextTick", als.getStore()); res(); }));
    await new Promise((res) => fs.stat(__filename || ".", () => { p("fs callback", als.getStore()); res(); }));
    await fs.promises.stat(".");
    p("after fs promise", als.getStore());
    await timersP.setTimeout(1);
    p("after timers/promises", als.getStore());
    const iv = await new Promise((res) => { let n = 0; const t = setInterval(() => { if (++n === 2) { clearInterval(t); res(als.getStore()); } }, 1); });
    p("setInterval", iv);
  });
  p("after run", als.getStore());
  // then continuations capture the store where then was called.
  let resolveLater;
  const later = new Promise((r) => { resolveLater = r; });
  als.run("A", () => { later.then(() => p("then registered in A", als.getStore())); });
  als.run("B", () => resolveLater());
  await tick();
  const chained = als.run("C", () => Promise.resolve(1).then((v) => als.getStore() + v).then((v) => v + als.getStore()));
  p("chain", await chained);
  // Nested runs, two storages, exit.
  await als.run("outer", async () => {
    await other.run("o1", async () => {
      await als.run("inner", async () => {
        await tick();
        p("nested", als.getStore(), other.getStore());
      });
      p("back to outer", als.getStore(), other.getStore());
      als.exit(() => p("exit", als.getStore(), other.getStore()));
      p("after exit", als.getStore());
    });
  });
  // Concurrent runs keep their own stores.
  const seen = [];
  await Promise.all([1, 2, 3].map((i) => als.run(i, async () => { await tick(); await null; seen.push([i, als.getStore()]); })));
  p("concurrent", seen.sort());
  // enterWith lasts for the rest of the synchronous execution and what it schedules.
  await new Promise((res) => {
    setTimeout(() => {
      als.enterWith("entered");
      p("enterWith", als.getStore());
      setTimeout(() => { p("enterWith timer", als.getStore()); res(); }, 1);
    }, 1);
  });
  p("after enterWith callback", als.getStore());
  // Event emitters call listeners in the context of emit.
  const ee = new EventEmitter();
  als.run("registered", () => ee.on("ev", () => p("listener", als.getStore())));
  als.run("emitted", () => ee.emit("ev"));
  ee.emit("ev");
  // disable.
  const d = new AsyncLocalStorage();
  d.run("x", () => { d.disable(); p("disabled", d.getStore()); d.run("y", () => p("re-run", d.getStore())); });
  // snapshot and bind.
  const snap = als.run("snap", () => AsyncLocalStorage.snapshot());
  p("snapshot", snap(() => als.getStore()), als.getStore());
  const bound = als.run("bound", () => AsyncLocalStorage.bind(() => als.getStore()));
  p("bind", bound());
  // AsyncResource.
  const res = als.run("resource", () => new AsyncResource("MyResource"));
  p("runInAsyncScope", res.runInAsyncScope(function (a, b) { return [als.getStore(), this.k, a, b]; }, { k: "this" }, 1, 2));
  const rb = res.bind(function () { return als.getStore(); });
  p("resource bind", rb(), rb.length);
  const sb = als.run("static", () => AsyncResource.bind((x) => [als.getStore(), x]));
  p("AsyncResource.bind", sb(5));
  p("ids", typeof executionAsyncId(), typeof triggerAsyncId(), typeof res.asyncId(), typeof res.triggerAsyncId(), res.asyncId() > 0);
  p("store object identity", als.run(out, () => als.getStore() === out));
  // An error thrown inside run restores the outer store.
  try { als.run("throws", () => { throw new Error("boom"); }); } catch (e) { p("thrown", e.message, als.getStore()); }
  console.log(out.join("\n"));
})().catch((e) => console.log("FAILED", e && e.stack || e));
