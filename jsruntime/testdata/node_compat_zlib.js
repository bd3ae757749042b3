// zlib: sync, callback, promisified and stream forms round-trip; data
// compressed by Node decompresses; errors carry Node's message and code.
// Compressed bytes themselves are not compared (Go's deflate differs from
// zlib's), only their gzip header and what they decompress to.
const zlib = require("zlib");
const { promisify } = require("util");
const { pipeline, Readable, Writable } = require("stream");
const out = [];
const p = (...a) => out.push(a.map((x) => typeof x === "string" ? x : x === undefined ? "undefined" : JSON.stringify(x)).join(" | "));
const E = (e) => [e && e.constructor && e.constructor.name, e && e.message, e && e.code, e && e.errno];
const T = (label, f) => { try { p(label, f()); } catch (e) { p(label, "THREW", ...E(e)); } };
(async () => {
  const text = "hello zlib ".repeat(50);
  for (const [c, d] of [["gzip", "gunzip"], ["deflate", "inflate"], ["deflateRaw", "inflateRaw"], ["gzip", "unzip"], ["deflate", "unzip"]]) {
    T(c + "/" + d, () => { const z = zlib[c + "Sync"](text, { level: 9 }); return [Buffer.isBuffer(z), z.length < text.length, zlib[d + "Sync"](z).toString() === text]; });
  }
  T("gzip header", () => Array.from(zlib.gzipSync("x").subarray(0, 4)).concat(zlib.gzipSync("x")[9]));
  T("from node gzip", () => zlib.gunzipSync(Buffer.from("H4sIAAAAAAAAA8tIzcnJV0grys9VyMtPSVXIGOWTxAcAMxtLsUABAAA=", "base64")).toString().slice(0, 32));
  T("from node deflate", () => zlib.inflateSync(Buffer.from("eJxLSU3LSSxJTVFIqlTIy09JBQAznwX7", "base64")).toString());
  T("from node raw", () => zlib.inflateRawSync(Buffer.from("K0osV0iqVMjLT0kFAA==", "base64")).toString());
  T("Uint8Array input", () => zlib.gunzipSync(zlib.gzipSync(new TextEncoder().encode("u8"))).toString());
  T("bad header", () => zlib.gunzipSync(Buffer.from("not gzip data")));
  T("bad zlib header", () => zlib.inflateSync(Buffer.from("not zlib data")));
  T("truncated", () => zlib.gunzipSync(zlib.gzipSync(text).subarray(0, 20)));
  T("no input", () => zlib.gzipSync());
  T("crc32", () => [zlib.crc32("hello"), zlib.crc32(Buffer.from("world"), zlib.crc32("hello ")), zlib.crc32("")]);
  T("constants", () => [zlib.constants.Z_BEST_COMPRESSION, zlib.constants.Z_SYNC_FLUSH, zlib.Z_DATA_ERROR, zlib.codes.Z_BUF_ERROR, zlib.codes["-3"]]);
  T("keys", () => Object.keys(zlib));
  T("types", () => ["gzip", "gunzip", "createGzip", "createGunzip", "createDeflate", "createInflate", "Gzip", "brotliCompressSync", "unzipSync", "deflateRawSync"].map((n) => typeof zlib[n]));
  await new Promise((res) => zlib.gzip(text, (err, z) => { p("callback", err, Buffer.isBuffer(z)); zlib.gunzip(z, (err2, back) => { p("callback back", err2, back.toString() === text); res(); }); }));
  await new Promise((res) => zlib.gunzip(Buffer.from("junk"), (err) => { p("callback error", ...E(err)); res(); }));
  const gz = promisify(zlib.gzip), gunz = promisify(zlib.gunzip);
  p("promisified", (await gunz(await gz("promised"))).toString());
  await new Promise((res) => {
    const chunks = [];
    pipeline(Readable.from(["stream ", "of ", "text"]), zlib.createGzip(), zlib.createGunzip(), new Writable({ write(c, e, cb) { chunks.push(Buffer.from(c)); cb(); } }), (err) => { p("pipeline", err, Buffer.concat(chunks).toString()); res(); });
  });
  console.log(out.join("\n"));
})();
