// node:zlib over Go's compress packages (__host): the sync, callback and
// stream forms of gzip, deflate and raw deflate and their inverses, unzip,
// crc32 and the constants. Brotli is not available and says so.
"use strict";
const { Transform } = require("stream");
const go = __host;
const input = (v) => {
  if (typeof v === "string" || v instanceof ArrayBuffer || ArrayBuffer.isView(v)) return v;
  const e = new TypeError('The "buffer" argument must be of type string or an instance of Buffer, TypedArray, DataView, or ArrayBuffer.' + (v === undefined ? " Received undefined" : ""));
  e.code = "ERR_INVALID_ARG_TYPE";
  throw e;
};
const levelOf = (opts) => (opts && opts.level !== undefined ? opts.level : -1);
const constants = {
  Z_NO_FLUSH: 0, Z_PARTIAL_FLUSH: 1, Z_SYNC_FLUSH: 2, Z_FULL_FLUSH: 3, Z_FINISH: 4, Z_BLOCK: 5,
  Z_OK: 0, Z_STREAM_END: 1, Z_NEED_DICT: 2, Z_ERRNO: -1, Z_STREAM_ERROR: -2, Z_DATA_ERROR: -3, Z_MEM_ERROR: -4, Z_BUF_ERROR: -5, Z_VERSION_ERROR: -6,
  Z_NO_COMPRESSION: 0, Z_BEST_SPEED: 1, Z_BEST_COMPRESSION: 9, Z_DEFAULT_COMPRESSION: -1,
  Z_FILTERED: 1, Z_HUFFMAN_ONLY: 2, Z_RLE: 3, Z_FIXED: 4, Z_DEFAULT_STRATEGY: 0, ZLIB_VERNUM: 4865,
  DEFLATE: 1, INFLATE: 2, GZIP: 3, GUNZIP: 4, DEFLATERAW: 5, INFLATERAW: 6, UNZIP: 7, BROTLI_DECODE: 8, BROTLI_ENCODE: 9,
  Z_MIN_WINDOWBITS: 8, Z_MAX_WINDOWBITS: 15, Z_DEFAULT_WINDOWBITS: 15, Z_MIN_CHUNK: 64, Z_MAX_CHUNK: Infinity, Z_DEFAULT_CHUNK: 16384,
  Z_MIN_MEMLEVEL: 1, Z_MAX_MEMLEVEL: 9, Z_DEFAULT_MEMLEVEL: 8, Z_MIN_LEVEL: -1, Z_MAX_LEVEL: 9, Z_DEFAULT_LEVEL: -1,
};
const noBrotli = () => { const e = new Error("Brotli and Zstandard compression are not supported by this runtime"); e.code = "ERR_NOT_SUPPORTED"; throw e; };
const ops = { gzip: "Gzip", gunzip: "Gunzip", deflate: "Deflate", inflate: "Inflate", deflateRaw: "DeflateRaw", inflateRaw: "InflateRaw", unzip: "Unzip" };
const zlib = { constants, codes: { Z_OK: 0, Z_STREAM_END: 1, Z_NEED_DICT: 2, Z_ERRNO: -1, Z_STREAM_ERROR: -2, Z_DATA_ERROR: -3, Z_MEM_ERROR: -4, Z_BUF_ERROR: -5, Z_VERSION_ERROR: -6, "0": "Z_OK", "1": "Z_STREAM_END", "2": "Z_NEED_DICT", "-1": "Z_ERRNO", "-2": "Z_STREAM_ERROR", "-3": "Z_DATA_ERROR", "-4": "Z_MEM_ERROR", "-5": "Z_BUF_ERROR", "-6": "Z_VERSION_ERROR" } };
for (const [op, Name] of Object.entries(ops)) {
  zlib[op + "Sync"] = (buf, opts) => go.sync(op, input(buf), levelOf(opts));
  zlib[op] = (buf, opts, cb) => {
    if (typeof opts === "function") { cb = opts; opts = undefined; }
    if (typeof cb !== "function") { const e = new TypeError('The "callback" argument must be of type function. Received ' + (cb === undefined ? "undefined" : typeof cb)); e.code = "ERR_INVALID_ARG_TYPE"; throw e; }
    go.async(op, input(buf), levelOf(opts), cb);
  };
  // The stream form gathers its input and converts it at the end: the
  // output is the same, only later.
  class Z extends Transform {
    constructor(opts) {
      const parts = [];
      super({
        transform(chunk, enc, cb) { parts.push(typeof chunk === "string" ? Buffer.from(chunk, enc) : Buffer.from(chunk)); cb(); },
        flush(cb) { try { cb(null, go.sync(op, Buffer.concat(parts), levelOf(opts))); } catch (e) { cb(e); } },
      });
    }
  }
  Object.defineProperty(Z, "name", { value: Name });
  zlib[Name] = Z;
  zlib["create" + Name] = (opts) => new Z(opts);
}
for (const n of ["brotliCompressSync", "brotliDecompressSync", "brotliCompress", "brotliDecompress", "createBrotliCompress", "createBrotliDecompress"]) zlib[n] = noBrotli;
zlib.crc32 = (data, value) => go.crc32(typeof data === "string" ? Buffer.from(data) : data, value === undefined ? 0 : value >>> 0);
// Node's key order; the legacy top-level constants are not enumerable.
const order = ["crc32", "Deflate", "Inflate", "Gzip", "Gunzip", "DeflateRaw", "InflateRaw", "Unzip", "BrotliCompress", "BrotliDecompress", "ZstdCompress", "ZstdDecompress"];
for (const op of ["deflate", "gzip", "deflateRaw", "unzip", "inflate", "gunzip", "inflateRaw", "brotliCompress", "brotliDecompress", "zstdCompress", "zstdDecompress"]) order.push(op, op + "Sync");
for (const n of ["Deflate", "Inflate", "DeflateRaw", "InflateRaw", "Gzip", "Gunzip", "Unzip", "BrotliCompress", "BrotliDecompress", "ZstdCompress", "ZstdDecompress"]) order.push("create" + n);
order.push("constants", "codes");
class Unsupported { constructor() { noBrotli(); } }
for (const n of ["BrotliCompress", "BrotliDecompress", "ZstdCompress", "ZstdDecompress"]) zlib[n] = Unsupported;
for (const n of ["zstdCompress", "zstdCompressSync", "zstdDecompress", "zstdDecompressSync", "createZstdCompress", "createZstdDecompress"]) zlib[n] = noBrotli;
const ordered = {};
for (const k of order) ordered[k] = zlib[k];
for (const [k, v] of Object.entries(constants)) Object.defineProperty(ordered, k, { value: v, enumerable: false });
module.exports = ordered;
