"use strict";
// UTF-8 goes through a streaming TextDecoder so a character split across
// two writes comes out whole; other encodings have no partial characters
// worth keeping here and convert chunk by chunk.
const utf8 = (e) => e === "utf8" || e === "utf-8";
class StringDecoder {
  constructor(enc) { this.encoding = String(enc || "utf8").toLowerCase(); if (this.encoding === "utf-8") this.encoding = "utf8"; Object.defineProperty(this, "_d", { value: utf8(this.encoding) ? new TextDecoder() : null }); }
  write(b) { if (typeof b === "string") return b; return this._d ? this._d.decode(b, { stream: true }) : Buffer.from(b).toString(this.encoding); }
  end(b) { const s = b ? this.write(b) : ""; return this._d ? s + this._d.decode() : s; }
}
module.exports = { StringDecoder };
