// WHATWG streams: ReadableStream/WritableStream/TransformStream with
// readers, writers, pipeTo/pipeThrough, tee, async iteration, strategies,
// TextEncoderStream/TextDecoderStream, Response and Blob bodies as
// streams, stream/web and Readable.toWeb/fromWeb.
const out = [];
const p = (...a) => out.push(a.map((x) => typeof x === "string" ? x : x === undefined ? "undefined" : JSON.stringify(x)).join(" | "));
const E = (e) => [e && e.constructor && e.constructor.name, e && e.name, e && e.message, e && e.code];
const L = async (label, f) => { try { p(label, await f()); } catch (e) { p(label, "THREW", ...E(e)); } };
const collect = async (rs) => { const got = []; for await (const x of rs) got.push(x); return got; };
(async () => {
  const web = require("stream/web");
  p("stream/web", Object.keys(web).sort());
  p("same", web.ReadableStream === ReadableStream, web.TextDecoderStream === TextDecoderStream, require("node:stream/web").WritableStream === WritableStream);
  p("tags", Object.prototype.toString.call(new ReadableStream()), Object.prototype.toString.call(new WritableStream()), Object.prototype.toString.call(new TransformStream()), Object.keys(new ReadableStream()));
  await L("start enqueue", () => collect(new ReadableStream({ start(c) { c.enqueue("a"); c.enqueue("b"); c.close(); } })));
  await L("pull", () => { let i = 0; return collect(new ReadableStream({ pull(c) { if (i < 3) c.enqueue(i++); else c.close(); } })); });
  await L("async pull", () => { let i = 0; return collect(new ReadableStream({ async pull(c) { await new Promise((r) => setTimeout(r, 1)); if (i < 2) c.enqueue("x" + i++); else c.close(); } })); });
  await L("reader", async () => {
    const rs = new ReadableStream({ start(c) { c.enqueue(1); c.close(); } });
    const r = rs.getReader();
    const a = await r.read(), b = await r.read(), c = await r.read();
    return [rs.locked, a, b, c, await r.closed];
  });
  await L("locked", () => { const rs = new ReadableStream(); rs.getReader(); return rs.getReader(); });
  await L("release", async () => { const rs = new ReadableStream(); const r = rs.getReader(); r.releaseLock(); return [rs.locked, await r.read().catch((e) => E(e))]; });
  await L("error", async () => { const rs = new ReadableStream({ start(c) { c.enqueue(1); c.error(new Error("boom")); } }); return collect(rs); });
  await L("start throws", () => new ReadableStream({ start() { throw new RangeError("bad start"); } }));
  await L("enqueue after close", () => new ReadableStream({ start(c) { c.close(); c.enqueue(1); } }));
  await L("cancel", async () => {
    const log = [];
    const rs = new ReadableStream({ start(c) { c.enqueue(1); }, cancel(r) { log.push("cancel " + r); } });
    await rs.cancel("why");
    return [log, await rs.getReader().read()];
  });
  await L("break cancels", async () => {
    const log = [];
    let i = 0;
    const rs = new ReadableStream({ pull(c) { c.enqueue(i++); }, cancel() { log.push("cancelled"); } });
    for await (const x of rs) { log.push(x); if (x === 2) break; }
    return [log, rs.locked];
  });
  await L("desiredSize", () => { const sizes = []; new ReadableStream({ start(c) { sizes.push(c.desiredSize); c.enqueue("a"); sizes.push(c.desiredSize); c.enqueue("b"); sizes.push(c.desiredSize); } }, { highWaterMark: 2 }); return sizes; });
  await L("strategy", () => { const s = new ByteLengthQueuingStrategy({ highWaterMark: 16 }); const c = new CountQueuingStrategy({ highWaterMark: 3 }); return [s.highWaterMark, s.size(new Uint8Array(5)), c.highWaterMark, c.size("x")]; });
  await L("byte strategy", () => { const sizes = []; new ReadableStream({ start(c) { c.enqueue(new Uint8Array(10)); sizes.push(c.desiredSize); } }, new ByteLengthQueuingStrategy({ highWaterMark: 16 })); return sizes; });
  await L("from", () => collect(ReadableStream.from(["p", "q"])));
  await L("from async", () => collect(ReadableStream.from((async function* () { yield 1; yield 2; })())));
  await L("tee", async () => { const [a, b] = new ReadableStream({ start(c) { c.enqueue("t1"); c.enqueue("t2"); c.close(); } }).tee(); return [await collect(a), await collect(b)]; });
  await L("writable", async () => {
    const log = [];
    const ws = new WritableStream({ start() { log.push("start"); }, write(ch) { log.push("write " + ch); }, close() { log.push("close"); } });
    const w = ws.getWriter();
    await w.ready;
    await w.write("a");
    w.write("b");
    await w.close();
    await w.closed;
    return [log, ws.locked, w.desiredSize];
  });
  await L("writable async order", async () => {
    const log = [];
    const ws = new WritableStream({ async write(ch) { await new Promise((r) => setTimeout(r, 2)); log.push(ch); } });
    const w = ws.getWriter();
    w.write(1); w.write(2); await w.write(3);
    return log;
  });
  await L("write error", async () => {
    const ws = new WritableStream({ write() { throw new Error("nope"); } });
    const w = ws.getWriter();
    const a = await w.write(1).catch((e) => E(e));
    const b = await w.write(2).catch((e) => E(e));
    const c = await w.closed.catch((e) => E(e));
    return [a, b, c];
  });
  await L("abort", async () => {
    const log = [];
    const ws = new WritableStream({ abort(r) { log.push("abort " + r); } });
    const w = ws.getWriter();
    await w.abort("stop");
    return [log, await w.closed.catch((e) => e)];
  });
  await L("write after close", async () => { const w = new WritableStream().getWriter(); w.close(); return w.write(1); });
  await L("transform", async () => {
    const ts = new TransformStream({ transform(ch, c) { c.enqueue(ch.toUpperCase()); c.enqueue("!"); }, flush(c) { c.enqueue("end"); } });
    const w = ts.writable.getWriter();
    w.write("a"); w.write("b"); w.close();
    return collect(ts.readable);
  });
  await L("identity transform", async () => { const ts = new TransformStream(); const w = ts.writable.getWriter(); w.write(1); w.close(); return collect(ts.readable); });
  await L("pipeThrough", () => collect(ReadableStream.from(["x", "y"]).pipeThrough(new TransformStream({ transform(ch, c) { c.enqueue(ch + ch); } }))));
  await L("pipeTo", async () => {
    const got = [];
    await ReadableStream.from([1, 2, 3]).pipeTo(new WritableStream({ write(ch) { got.push(ch); }, close() { got.push("closed"); } }));
    return got;
  });
  await L("pipeTo preventClose", async () => {
    const got = [];
    const ws = new WritableStream({ write(ch) { got.push(ch); }, close() { got.push("closed"); } });
    await ReadableStream.from([1]).pipeTo(ws, { preventClose: true });
    return [got, ws.locked];
  });
  await L("pipeTo error", async () => {
    const rs = new ReadableStream({ start(c) { c.error(new Error("src")); } });
    const log = [];
    await rs.pipeTo(new WritableStream({ abort(r) { log.push("abort " + r.message); } })).catch((e) => log.push("rejected " + e.message));
    return log;
  });
  await L("pipeTo signal", async () => {
    const ac = new AbortController();
    const rs = new ReadableStream({ pull(c) { return new Promise((r) => setTimeout(() => { try { c.enqueue(1); } catch {} r(); }, 5)); } });
    const p2 = rs.pipeTo(new WritableStream(), { signal: ac.signal });
    ac.abort();
    return p2.catch((e) => E(e));
  });
  await L("TextEncoderStream", async () => {
    const ts = new TextEncoderStream();
    const w = ts.writable.getWriter(); w.write("h\u00e9"); w.write("\u20ac"); w.close();
    return [ts.encoding, (await collect(ts.readable)).map((u) => [u.constructor.name, Array.from(u)])];
  });
  await L("TextDecoderStream split", async () => {
    const bytes = new TextEncoder().encode("a\u20acb\ud83d\ude00");
    const ts = new TextDecoderStream();
    const w = ts.writable.getWriter();
    for (let i = 0; i < bytes.length; i++) w.write(bytes.subarray(i, i + 1));
    w.close();
    return [ts.encoding, ts.fatal, (await collect(ts.readable)).join("")];
  });
  await L("TextDecoderStream string", async () => { const ts = new TextDecoderStream(); const w = ts.writable.getWriter(); w.write("x").catch(() => {}); return ts.readable.getReader().read(); });
  await L("TextDecoder stream", () => { const d = new TextDecoder(); const b = new TextEncoder().encode("\u20ac\u20ac"); return [d.decode(b.subarray(0, 2), { stream: true }), d.decode(b.subarray(2, 4), { stream: true }), d.decode(b.subarray(4)), d.decode(new Uint8Array([0xe2]))]; });
  await L("string_decoder", () => { const { StringDecoder } = require("string_decoder"); const d = new StringDecoder("utf8"); return [d.write(Buffer.from([0xe2, 0x82])), d.write(Buffer.from([0xac, 0x61])), d.end()]; });
  await L("Response.body", async () => {
    const r = new Response("hello");
    const b = r.body;
    const rd = b.getReader();
    const x = await rd.read();
    return [Object.prototype.toString.call(b), r.body === b, x.done, x.value.constructor.name, new TextDecoder().decode(x.value), (await rd.read()).done, r.bodyUsed];
  });
  await L("Response stream body", async () => {
    const rs = new ReadableStream({ start(c) { c.enqueue(new TextEncoder().encode("ab")); c.enqueue(new TextEncoder().encode("cd")); c.close(); } });
    return new Response(rs).text();
  });
  await L("Response pipeThrough", async () => (await collect(new Response("x\u00e9y").body.pipeThrough(new TextDecoderStream()))).join(""));
  await L("Response null body", () => new Response(null).body);
  await L("Response clone", async () => { const r = new Response(new ReadableStream({ start(c) { c.enqueue(new Uint8Array([104, 105])); c.close(); } })); const c = r.clone(); return [await r.text(), await c.text()]; });
  await L("Blob", async () => { const b = new Blob(["ab", new Uint8Array([99]), new Blob(["d"])], { type: "Text/Plain" }); return [b.size, b.type, await b.text(), await b.slice(1, 3).text(), (await collect(b.stream())).reduce((n, u) => n + u.length, 0)]; });
  await L("File", () => { const f = new File(["xy"], "a.txt", { type: "text/plain", lastModified: 5 }); return [f.name, f.size, f.type, f.lastModified, f instanceof Blob, Object.prototype.toString.call(f)]; });
  await L("FormData", () => { const f = new FormData(); f.append("a", "1"); f.append("a", "2"); f.append("b", "3"); f.set("a", "9"); return [[...f], f.getAll("a"), f.has("b"), Object.prototype.toString.call(f)]; });
  const { Readable } = require("stream");
  await L("Readable.fromWeb", async () => { const got = []; for await (const x of Readable.fromWeb(ReadableStream.from(["w1", "w2"]))) got.push(String(x)); return got; });
  await L("Readable.toWeb", async () => (await collect(Readable.toWeb(Readable.from(["n1", "n2"])))).map(String));
  await L("compression", async () => {
    const gz = new Blob(["compress me ", "please"]).stream().pipeThrough(new CompressionStream("gzip"));
    const back = gz.pipeThrough(new DecompressionStream("gzip")).pipeThrough(new TextDecoderStream());
    return [Object.prototype.toString.call(new CompressionStream("deflate")), (await collect(back)).join("")];
  });
  await L("decompress node", async () => {
    const bytes = Uint8Array.from(atob("eJxLSU3LSSxJTVFIqlTIy09JBQAznwX7"), (ch) => ch.charCodeAt(0));
    return (await collect(new Blob([bytes]).stream().pipeThrough(new DecompressionStream("deflate")).pipeThrough(new TextDecoderStream()))).join("");
  });
  await L("compression bad format", () => new CompressionStream("zip"));
  console.log(out.join("\n"));
})();
