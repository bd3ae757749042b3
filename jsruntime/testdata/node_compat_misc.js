// Synchronous built-ins: path, os, crypto, url, util, events, buffer,
// module and the Node/Web globals.
const path = require("path");
const os = require("os");
const crypto = require("crypto");
const url = require("url");
const util = require("util");
const events = require("events");
const { Buffer: B } = require("buffer");
const out = [];
const p = (...a) => out.push(a.map((x) => typeof x === "string" ? x : x === undefined ? "undefined" : typeof x === "bigint" ? x + "n" : JSON.stringify(x)).join(" | "));
// L runs one line of checks; a throw is printed in place (Node never throws
// here, so the golden has no such line) and the script goes on.
const L = (f) => { try { f(); } catch (e) { out.push("THREW " + (e && e.message)); } };
const t = (f) => { try { return f(); } catch (e) { return "threw " + e.name + (e.code ? " " + e.code : "") + ": " + e.message; } };
// path edge cases.
L(() => p(path.join("/", ".."), path.join(".", "."), path.join("a", "..", ".."), path.join("//a", "b"), path.join("a", "/", "b")));
L(() => p(path.normalize("a/../../b"), path.normalize("///a"), path.normalize("a/./b/."), path.normalize(".."), path.normalize("./")));
L(() => p(path.resolve("/"), path.resolve("/a/b/", "./"), path.resolve("/a", "b", "..", "c/"), path.relative("/a/b", "/a/b/c/../d"), path.relative("/a/b/c", "/x")));
L(() => p(path.basename(""), path.basename("/"), path.basename("a/b.js", "js"), path.basename(".js", ".js"), path.basename("a.js", ".ts")));
L(() => p(path.extname(""), path.extname("."), path.extname(".."), path.extname("a.b/"), path.extname("a..b")));
L(() => p(path.dirname("a/b"), path.dirname("//a"), path.dirname("a/b/"), path.dirname("./a")));
L(() => p(path.parse("./a/b.c.d"), path.parse("a/"), path.format({ root: "/x/", base: "y" }), path.format({ dir: "d", name: "n", ext: "e" })));
L(() => p(path.posix === path, path.posix.sep, typeof path.win32.join, path.isAbsolute(""), path.isAbsolute("//x")));
// os.
L(() => p(os.EOL, os.platform(), os.type(), os.homedir() === process.env.HOME, os.tmpdir() === (process.env.TMPDIR || "/tmp").replace(/(.)\/$/, "$1")));
L(() => p(typeof os.hostname(), typeof os.cpus().length, typeof os.totalmem(), os.endianness(), typeof os.release(), typeof os.userInfo().username, os.devNull));
L(() => p(os.arch() === process.arch, typeof os.constants.signals.SIGTERM, typeof os.availableParallelism()));
// crypto.
const h = (alg, enc) => crypto.createHash(alg).update("hello").update(" world").digest(enc);
L(() => p(h("md5", "hex"), h("sha1", "hex"), h("sha256", "base64"), h("sha512", "hex").length, B.isBuffer(h("sha256")), h("sha256").length));
L(() => p(crypto.createHash("sha256").update(B.from([1, 2, 3])).digest("hex"), crypto.createHash("SHA256").update("x", "utf8").digest("base64url")));
L(() => p(crypto.createHmac("sha256", "k").update("d").digest("base64"), crypto.createHmac("sha1", B.from("key")).update("v").digest("hex"), crypto.createHmac("md5", "k").digest().length));
L(() => p(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/.test(crypto.randomUUID()), crypto.randomBytes(16).length, B.isBuffer(crypto.randomBytes(4)), crypto.randomBytes(8).toString("hex").length));
L(() => p(crypto.timingSafeEqual(B.from("ab"), B.from("ab")), crypto.timingSafeEqual(B.from("ab"), B.from("ac")), t(() => crypto.timingSafeEqual(B.from("a"), B.from("ab")))));
L(() => p(t(() => crypto.createHash("nope")), typeof crypto.webcrypto, typeof crypto.getRandomValues, typeof globalThis.crypto.getRandomValues, typeof globalThis.crypto.randomUUID));
const ri = crypto.randomInt(10);
L(() => p(ri >= 0 && ri < 10, Number.isInteger(crypto.randomInt(5, 6)), crypto.randomInt(5, 6)));
// url.
const u = new URL("https://user:pw@example.com:8080/p/a/t/h?query=string&a=1#hash");
L(() => p(u.protocol, u.username, u.password, u.host, u.hostname, u.port, u.pathname, u.search, u.hash, u.origin, u.href));
L(() => p(u.searchParams.get("query"), u.searchParams.get("missing"), [...u.searchParams.keys()], String(u), JSON.stringify(u), u.toJSON()));
const sp = new URLSearchParams("a=1&b=2&a=3");
sp.append("c", "x y");
sp.set("b", "9");
sp.delete("zz");
L(() => p(sp.toString(), sp.getAll("a"), sp.has("b"), [...sp], sp.size, new URLSearchParams({ k: "v", e: "é&" }).toString()));
sp.sort();
L(() => p(sp.toString(), Object.fromEntries(new URLSearchParams("x=1&y=2"))));
L(() => p(url.fileURLToPath("file:///tmp/a%20b.txt"), url.fileURLToPath(new URL("file:///x/y")), url.pathToFileURL("/tmp/a b#c?d%").href, url.pathToFileURL("/x/").href));
L(() => p(t(() => url.fileURLToPath("http://x/y")), t(() => new URL("not a url")), URL.canParse("http://x"), URL.canParse("nope")));
L(() => p(new URL("/abs", "https://h.com/a/b").href, new URL("//other.com/x", "https://h.com").href, new URL("?q", "https://h.com/a?z#f").href, new URL("HTTPS://H.COM/A").href));
const mu = new URL("https://h.com/a");
mu.pathname = "/b c";
mu.searchParams.set("k", "v w");
mu.hash = "frag";
L(() => p(mu.href));
// util.
L(() => p(util.format("%s|%d|%i|%f", "s", "42", 3.9, "1.5"), util.format("%o", { a: 1 }), util.format("%O", { a: { b: 1 } }), util.format("%s", null, undefined), util.format("%d", "x")));
L(() => p(util.format(1, 2), util.format("%s", 5n), util.format("%s", [1, [2, [3]]]), util.format("%j", { toJSON: () => "j" }), util.format("no args %s")));
L(() => p(util.inspect({ s: "q'uote", n: -0, big: 10n, sym: Symbol("s"), f() {}, arrow: () => 1, d: new Date(0), re: /x/g })));
L(() => p(util.inspect({ a: { b: { c: { d: {} } } } }), util.inspect({ a: { b: { c: { d: {} } } } }, { depth: 0 }), util.inspect([1, 2, 3], { compact: true }), util.inspect("a\nb")));
L(() => p(util.inspect(new Error("boom")).split("\n")[0], util.inspect(null), util.inspect(undefined), util.inspect(class Foo {}), util.inspect(function named() {})));
L(() => p(util.inspect(new (class Pt { constructor() { this.x = 1; } })()), util.inspect(Object.create(null)), util.inspect([undefined, null]), util.inspect(new Array(3))));
L(() => p(util.inspect({ long: "x".repeat(100) }).length, util.inspect(Array.from({ length: 120 }, (_, i) => i)).split("\n").length));
L(() => p(util.isDeepStrictEqual({ a: [1, { b: 2 }] }, { a: [1, { b: 2 }] }), util.isDeepStrictEqual([1], ["1"]), util.isDeepStrictEqual(new Map([[1, 2]]), new Map([[1, 2]])), util.isDeepStrictEqual(NaN, NaN)));
L(() => p(util.types.isPromise({ then() {} }), util.types.isDate(new Date()), util.types.isRegExp(/x/), util.types.isAsyncFunction(async () => {}), util.types.isGeneratorFunction(function* () {}), util.types.isUint8Array(B.from("x"))));
L(() => p(typeof util.promisify, typeof util.callbackify, typeof util.deprecate, typeof util.inherits, typeof util.TextEncoder, typeof util.parseArgs, typeof util.styleText, typeof util.debuglog));
L(() => p(typeof util.isArray, typeof util.types.isNativeError, util.types.isNativeError(new TypeError()), util.inspect.custom === Symbol.for("nodejs.util.inspect.custom")));
L(() => p(util.inspect({ [util.inspect.custom]: () => "CUSTOM" }), util.format("%s", { toString() { return "TS"; } }), util.format("%s", new Error("e1")).split("\n")[0]));
function Base() {}
Base.prototype.hi = () => "hi";
function Derived() {}
util.inherits(Derived, Base);
L(() => p(new Derived().hi(), Derived.super_ === Base));
// events.
const e = new events.EventEmitter();
const log = [];
const f1 = (x) => log.push("f1:" + x);
L(() => p(e.on("x", f1) === e, e.once("x", (x) => log.push("once:" + x)) === e, e.emit("x", 1), e.emit("x", 2), e.emit("nothing"), e.listenerCount("x")));
e.prependListener("x", () => log.push("pre"));
e.off("x", f1);
e.emit("x", 3);
L(() => p(log, e.eventNames(), e.listeners("x").length, e.getMaxListeners(), events.defaultMaxListeners, typeof events.once, events === events.EventEmitter, typeof events.on));
L(() => p(t(() => e.emit("error", new Error("unhandled"))), t(() => e.emit("error", "str"))));
e.on("error", (err) => log.push("handled:" + err.message));
e.emit("error", new Error("boom"));
e.removeAllListeners("x");
L(() => p(log.at(-1), e.listenerCount("x"), e.rawListeners("error").length, e.setMaxListeners(20) === e, e.getMaxListeners()));
class My extends events {}
const my = new My();
let newl = [];
my.on("newListener", (n) => newl.push(n));
my.on("a", () => {});
L(() => p(newl, my instanceof events.EventEmitter, typeof events.EventEmitter.defaultMaxListeners));
// buffer.
const b = B.from("héllo wörld");
L(() => p(b.length, B.byteLength("héllo wörld"), b.toString("utf8", 0, 6), b.slice(0, 2).toString("hex"), b.subarray(-5).toString(), b.toString("base64"), b.toString("base64url")));
L(() => p(B.from("aGVsbG8", "base64").toString(), B.from("68656c6c6f", "hex").toString(), B.from("aGk_", "base64url").toString("hex"), B.from([104, 105]).toString(), B.from(new Uint8Array([1, 2])).length));
L(() => p(B.from("abc").equals(B.from("abc")), B.compare(B.from("a"), B.from("b")), B.concat([B.from("x"), B.from("yz")], 2).toString(), B.alloc(3, "ab").toString(), B.alloc(2).toString("hex")));
const nb = B.alloc(8);
nb.writeUInt32LE(0xdeadbeef, 0);
nb.writeUInt16BE(0x1234, 4);
nb.writeInt8(-1, 6);
L(() => p(nb.toString("hex"), nb.readUInt32LE(0), nb.readUInt16BE(4), nb.readInt8(6), nb.readUInt8(6), nb.readUInt32BE(0)));
L(() => p(B.from("é", "latin1").length, B.from("é", "latin1").toString("latin1"), B.from("hi", "utf16le").length, B.from([0xe9]).toString("latin1"), B.from("abc", "ascii").toString("ascii"), t(() => B.from("x").toString("nope"))));
L(() => p(b.indexOf("l"), b.includes("wörld"), b.indexOf(B.from("o")), [...B.from("ab")], B.from("ab").toJSON(), JSON.stringify(B.from("a")), B.isEncoding("utf8"), B.isEncoding("nope")));
L(() => p(B.from("abc").readUInt8(1), typeof B.poolSize, B.from("xyz").copy(nb, 0), nb.subarray(0, 3).toString(), b instanceof Uint8Array, B.from(B.from("q")).toString(), String(B.from("s")), B.from("Zm9v", "base64") + ""));
// module.
const mod = require("module");
const req = mod.createRequire(__filename);
L(() => p(typeof req, req("path") === path, req("node:path") === path, mod.isBuiltin("fs"), mod.isBuiltin("node:fs"), mod.isBuiltin("nope"), mod.builtinModules.includes("fs"), typeof req.resolve));
const missing = ["definitely", "missing", "module"].join("-");
L(() => p(t(() => require(missing)).split("\n")[0], require("node:fs") === require("fs"), require("fs/promises") === require("fs").promises));
// globals.
L(() => p(typeof process.env.PATH, process.cwd() === require("fs").realpathSync(process.cwd()), process.platform, Array.isArray(process.argv), typeof process.argv[0], typeof process.hrtime.bigint(), Array.isArray(process.hrtime()), process.exitCode, typeof process.pid, typeof process.version, process.version.startsWith("v")));
L(() => p(typeof process.nextTick, typeof process.on, typeof process.memoryUsage().heapUsed, typeof process.uptime(), process.release.name, typeof process.versions.node, typeof process.stdout.write, typeof process.emitWarning));
L(() => p(new TextDecoder().decode(new TextEncoder().encode("héllo €")), new TextEncoder().encode("é"), new TextDecoder("utf-8").encoding, new TextDecoder().decode(new Uint8Array([0xff])), t(() => new TextDecoder("utf-8", { fatal: true }).decode(new Uint8Array([0xff])))));
const ac = new AbortController();
const seen = [];
// onabort is set first: Node orders it among the listeners by when it was
// set, ours always calls it first.
ac.signal.onabort = () => seen.push("onabort");
ac.signal.addEventListener("abort", (ev) => seen.push(ev.type));
ac.abort();
ac.abort("again");
L(() => p(seen, ac.signal.aborted, ac.signal.reason.name, ac.signal.reason.message, ac.signal.reason instanceof DOMException, ac.signal.reason instanceof Error, t(() => ac.signal.throwIfAborted())));
const ac2 = new AbortController();
ac2.abort("why");
L(() => p(ac2.signal.reason, AbortSignal.abort().aborted, AbortSignal.abort("r").reason, AbortSignal.any([ac2.signal]).aborted, AbortSignal.any([new AbortController().signal]).aborted, typeof AbortSignal.timeout(1000).aborted));
const sc = structuredClone({ m: new Map([["k", { v: 1 }]]), s: new Set([1, 2]), d: new Date(1000), r: /a/gi, n: null, arr: [1, [2]], u8: new Uint8Array([1, 2]) });
L(() => p(sc.m instanceof Map, sc.m.get("k"), [...sc.s], sc.d instanceof Date, sc.d.getTime(), String(sc.r), sc.arr, sc.u8 instanceof Uint8Array, [...sc.u8], t(() => structuredClone({ s: Symbol("x") }))));
const cyc = { name: "c" };
cyc.self = cyc;
const cc = structuredClone(cyc);
L(() => p(cc.self === cc, cc !== cyc));
L(() => p(btoa("hello"), atob("aGVsbG8="), t(() => btoa("€")), atob(" aGk= "), typeof performance.now(), performance.now() >= 0, typeof performance.timeOrigin, typeof queueMicrotask, typeof setImmediate, typeof structuredClone));
L(() => p(new Intl.DateTimeFormat("en-US", { timeZone: "UTC" }).format(new Date(Date.UTC(2024, 0, 15))), new Intl.DateTimeFormat("en-US", { timeZone: "UTC", year: "numeric", month: "short", day: "numeric" }).format(new Date(Date.UTC(2024, 0, 15)))));
L(() => p(new Intl.NumberFormat("en-US", { style: "currency", currency: "USD" }).format(12.5), new Intl.NumberFormat("en-US").format(-1e6), (1234.5).toLocaleString("en-US")));
L(() => p(typeof Symbol.asyncIterator, typeof Symbol.asyncIterator === "symbol", Symbol.asyncIterator.toString(), typeof globalThis.global, global === globalThis, typeof globalThis.fetch, typeof Headers, typeof Response, typeof Request, typeof FormData, typeof Blob));
L(() => p(typeof Event, typeof EventTarget, typeof CustomEvent, typeof WeakRef, typeof Promise.withResolvers, typeof Array.prototype.findLast, typeof Object.groupBy, typeof Array.prototype.toSorted, typeof String.prototype.replaceAll, typeof Array.prototype.at));
const hd = new Headers({ "Content-Type": "text/plain", "X-A": "1" });
hd.append("x-a", "2");
L(() => p(hd.get("content-type"), hd.get("X-A"), hd.has("x-b"), [...hd.keys()]));
console.log(out.join("\n"));
