"use strict";
class StringDecoder {
  constructor(enc) { this.encoding = enc || "utf8"; this._d = new TextDecoder(); this._pending = []; }
  write(b) { return Buffer.from(b).toString(this.encoding); }
  end(b) { return b ? this.write(b) : ""; }
}
module.exports = { StringDecoder };
