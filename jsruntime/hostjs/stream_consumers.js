// node:stream/consumers: read a whole Node stream, web stream or async
// iterable into text, JSON, a Buffer, an ArrayBuffer or a Blob.
"use strict";
async function chunks(stream) {
  const out = [];
  const it = stream[Symbol.asyncIterator]();
  for (;;) {
    const r = await it.next();
    if (r.done) break;
    out.push(typeof r.value === "string" ? Buffer.from(r.value) : Buffer.from(r.value.buffer ? new Uint8Array(r.value.buffer, r.value.byteOffset, r.value.byteLength) : r.value));
  }
  return out;
}
const buffer = async (s) => Buffer.concat(await chunks(s));
const text = async (s) => new TextDecoder().decode(await buffer(s));
const json = async (s) => JSON.parse(await text(s));
const arrayBuffer = async (s) => { const b = await buffer(s); return b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength); };
const blob = async (s) => new Blob(await chunks(s));
module.exports = { arrayBuffer, blob, buffer, json, text };
