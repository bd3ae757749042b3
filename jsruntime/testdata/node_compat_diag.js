// diagnostics_channel, v8 and vm as libraries probe them.
const dc = require("diagnostics_channel");
const v8 = require("v8");
const vm = require("vm");
const log = (...a) => console.log(...a);
log("dc keys", Object.keys(dc).join(","));
const ch = dc.channel("app:test");
log("same channel", ch === dc.channel("app:test"), ch instanceof dc.Channel, ch.name, ch.hasSubscribers, dc.hasSubscribers("app:test"), dc.hasSubscribers("never"));
const seen = [];
const sub = (msg, name) => seen.push([name, msg]);
dc.subscribe("app:test", sub);
log("has after subscribe", ch.hasSubscribers, dc.hasSubscribers("app:test"));
ch.publish({ n: 1 });
log("seen", JSON.stringify(seen));
log("unsubscribe", dc.unsubscribe("app:test", sub), dc.unsubscribe("app:test", sub), ch.hasSubscribers);
try { dc.channel(5); } catch (e) { log("bad name", e.name, e.code, e.message); }
const tc = dc.tracingChannel("op");
log("tracing keys", JSON.stringify(Object.keys(tc)), tc.start.name, tc.asyncEnd.name, tc.hasSubscribers);
const events = [];
const handlers = Object.fromEntries(["start", "end", "asyncStart", "asyncEnd", "error"].map((k) => [k, (ctx) => events.push(k + ":" + JSON.stringify(ctx))]));
tc.subscribe(handlers);
log("traceSync", tc.traceSync((a, b) => a + b, { id: 1 }, null, 2, 3));
try { tc.traceSync(() => { throw new Error("boom"); }, { id: 2 }); } catch (e) { log("traceSync threw", e.message); }
log("events sync", events.splice(0).map((e) => e.replace(/"error":\{\}/, '"error":"E"')).join(" | "));
tc.traceCallback((x, cb) => cb(null, x * 2), -1, { id: 3 }, null, 21, (err, v) => log("callback got", err, v));
log("events cb", events.splice(0).join(" | "));
tc.tracePromise(async (x) => x + 1, { id: 4 }, null, 41).then((v) => {
  log("promise got", v);
  log("events promise", events.splice(0).join(" | "));
  log("unsubscribe tracing", tc.unsubscribe(handlers), tc.hasSubscribers);
  rest();
});

function rest() {
  const h = v8.getHeapStatistics();
  log("heap keys", Object.keys(h).join(","));
  log("heap sane", h.used_heap_size > 0, h.total_heap_size >= h.used_heap_size, h.heap_size_limit > h.used_heap_size, typeof v8.cachedDataVersionTag());
  log("v8 spaces array", Array.isArray(v8.getHeapSpaceStatistics()));
  log("vm keys", Object.keys(vm).join(","));
  const sb = { a: 2, b: 3 };
  log("runInNewContext expr", vm.runInNewContext("a * b + 1", sb));
  vm.runInNewContext("var x = a + 1; y = 10; function f() { return x * 2 } var z = f();", sb);
  log("sandbox after", JSON.stringify(sb), typeof sb.f);
  log("no host globals", vm.runInNewContext("typeof process + ' ' + typeof require + ' ' + typeof console + ' ' + typeof setTimeout"));
  log("builtins there", vm.runInNewContext("typeof JSON.stringify + ' ' + [1,2,3].map(n => n * 2).join() + ' ' + Math.max(1, 5)"));
  log("globalThis is sandbox", vm.runInNewContext("globalThis.q = 7; this === globalThis", sb), sb.q);
  const ctx = vm.createContext({ count: 0 });
  log("isContext", vm.isContext(ctx), vm.isContext({}));
  const script = new vm.Script("count += 1; count");
  log("script runs", script.runInContext(ctx), script.runInContext(ctx), ctx.count);
  log("runInThisContext", vm.runInThisContext("typeof globalThis.process"));
  try { new vm.Script("let let = 1"); } catch (e) { log("syntax error", e.name); }
  try { vm.runInContext("1", {}); } catch (e) { log("not a context", e.name, e.code); }
  try { vm.isContext(5); } catch (e) { log("isContext bad", e.name, e.code, e.message); }
  try { vm.runInNewContext("throw new TypeError('inner')"); } catch (e) { log("throws out", e.name, e.message); }
  const fn = vm.compileFunction("return a + b", ["a", "b"]);
  log("compileFunction", fn(2, 3));
  try { vm.runInNewContext("while (true) {}", {}, { timeout: 30 }); } catch (e) { log("timeout", e.code, e.message); }
  log("after timeout still runs", vm.runInNewContext("1 + 1"));
  log("done");
}
