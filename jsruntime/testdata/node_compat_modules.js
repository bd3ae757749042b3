// Smaller Node modules and globals: querystring, stream/consumers,
// assert/strict, navigator, String.prototype.isWellFormed/toWellFormed.
const out = [];
const p = (...a) => out.push(a.map((x) => typeof x === "string" ? x : x === undefined ? "undefined" : JSON.stringify(x)).join(" | "));
const T = (label, f) => { try { p(label, f()); } catch (e) { p(label, "THREW", e && e.constructor && e.constructor.name, e && e.message); } };
const qs = require("querystring");
T("qs keys", () => Object.keys(qs).sort());
T("qs.parse", () => ({ ...qs.parse("a=1&b=x%20y&a=2&c&d=&e=%E2%82%AC+f&bad=%zz") }));
T("qs.parse opts", () => ({ ...qs.parse("a:1;b:2;c:3", ";", ":", { maxKeys: 2 }) }));
T("qs.stringify", () => qs.stringify({ a: [1, 2], b: "x y!'()*", c: true, d: null, e: undefined, f: {}, g: "€" }));
T("qs.stringify sep", () => qs.stringify({ a: 1, b: 2 }, ";", ":"));
T("qs.escape", () => [qs.escape("a b&c/d"), qs.unescape("a%20b%2"), qs.encode === qs.stringify, qs.decode === qs.parse]);
T("qs proto", () => Object.getPrototypeOf(qs.parse("a=1")) === null);
T("assert/strict", () => { const a = require("assert/strict"); return [a === require("assert").strict, typeof a.deepEqual, typeof a.equal]; });
T("navigator", () => [typeof navigator, typeof navigator.userAgent, navigator.userAgent.startsWith("Node.js/"), typeof navigator.hardwareConcurrency, navigator.language, Object.prototype.toString.call(navigator)]);
T("isWellFormed", () => ["abc", "a\ud800", "\udc00b", "\ud83d\ude00", ""].map((s) => s.isWellFormed()));
T("toWellFormed", () => ["abc", "a\ud800b", "\udc00", "\ud83d\ude00x"].map((s) => Array.from(s.toWellFormed(), (c) => c.codePointAt(0))));
T("Headers set-cookie", () => { const h = new Headers(); h.append("Set-Cookie", "a=1"); h.append("set-cookie", "b=2; Expires=Wed, 21 Oct 2026 07:28:00 GMT"); const c = new Headers(h); h.delete("set-cookie"); return [c.get("set-cookie"), c.getSetCookie(), h.getSetCookie(), new Headers({ "Set-Cookie": "x" }).getSetCookie()]; });
(async () => {
  const c = require("stream/consumers");
  const { Readable } = require("stream");
  p("consumers keys", Object.keys(c).sort());
  p("text", await c.text(Readable.from(["a", "b", "c"])));
  p("json", await c.json(Readable.from([Buffer.from('{"x":'), Buffer.from("[1,2]}")])));
  p("buffer", (await c.buffer(Readable.from([Buffer.from([1, 2]), Buffer.from([3])]))).toString("hex"));
  p("arrayBuffer", (await c.arrayBuffer(Readable.from([Buffer.from("xyz")]))).byteLength);
  p("web text", await c.text(new ReadableStream({ start(ctl) { ctl.enqueue(new TextEncoder().encode("web ")); ctl.enqueue(new TextEncoder().encode("stream")); ctl.close(); } })));
  const b = await c.blob(Readable.from([Buffer.from("blob!")]));
  p("blob", b.size, await b.text());
  console.log(out.join("\n"));
})();
