// Modules a bundled library may import at its top: net (isIP), tty,
// async_hooks, diagnostics_channel, worker_threads, v8, vm, tls, and the
// shape of http/https.
const out = [];
const p = (...a) => out.push(a.map((x) => typeof x === "string" ? x : x === undefined ? "undefined" : JSON.stringify(x)).join(" | "));
const T = (label, f) => { try { p(label, f()); } catch (e) { p(label, "THREW", e && e.constructor && e.constructor.name); } };
const net = require("net");
T("isIP", () => ["1.2.3.4", "256.1.1.1", "::1", "fe80::1%eth0", "2001:db8::8a2e:370:7334", "::ffff:1.2.3.4", "1:2:3:4:5:6:7:8", "1:2:3:4:5:6:7:8:9", "abc", "", "01.2.3.4", "1::2::3"].map((s) => net.isIP(s)));
T("isIPv4/6", () => [net.isIPv4("10.0.0.1"), net.isIPv6("10.0.0.1"), net.isIPv6("::")]);
T("tty", () => [typeof require("tty").isatty, require("tty").isatty(99)]);
T("AsyncLocalStorage", () => { const { AsyncLocalStorage } = require("async_hooks"); const als = new AsyncLocalStorage(); const inner = als.run({ id: 7 }, () => als.getStore()); return [inner, als.getStore()]; });
T("AsyncResource", () => { const { AsyncResource } = require("async_hooks"); return new AsyncResource("X").runInAsyncScope((a, b) => a + b, null, 2, 3); });
T("diagnostics_channel", () => { const dc = require("diagnostics_channel"); const ch = dc.channel("pi-test"); const got = []; const f = (m, n) => got.push([m, n]); const before = ch.hasSubscribers; dc.subscribe("pi-test", f); ch.publish({ a: 1 }); dc.unsubscribe("pi-test", f); ch.publish({ a: 2 }); return [before, got, ch.hasSubscribers]; });
T("worker_threads", () => { const w = require("worker_threads"); return [w.isMainThread, w.parentPort, w.workerData, w.threadId]; });
T("v8", () => typeof require("v8").getHeapStatistics().heap_size_limit);
T("vm", () => typeof require("vm").Script);
T("tls", () => [typeof require("tls").connect, Array.isArray(require("tls").rootCertificates)]);
for (const m of ["http", "https"]) T(m, () => { const h = require(m); return ["request", "get", "Agent", "createServer", "STATUS_CODES", "METHODS", "globalAgent"].map((k) => typeof h[k]).concat(h.STATUS_CODES[404], h.METHODS.includes("PATCH")); });
T("node: names", () => require("node:http") === require("http") && require("node:net") === require("net"));
console.log(out.join("\n"));
