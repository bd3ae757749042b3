// readline.createInterface over a Readable: "line" and "close" events,
// async iteration, question() answered by nothing headless.
"use strict";
const EventEmitter = require("events");
class Interface extends EventEmitter {
  constructor(opts) {
    super();
    const input = opts && opts.input ? opts.input : opts;
    this.input = input; this.closed = false; this._rest = ""; this.terminal = false; this.line = "";
    this._lines = []; this._waiters = [];
    if (input && input.on) {
      input.on("data", (c) => this._feed(typeof c === "string" ? c : Buffer.from(c).toString("utf8")));
      input.on("end", () => { if (this._rest) { this._emitLine(this._rest); this._rest = ""; } this.close(); });
      input.on("error", (e) => this.emit("error", e));
    }
  }
  _feed(s) { const parts = (this._rest + s).split(/\r?\n/); this._rest = parts.pop(); for (const l of parts) this._emitLine(l); }
  _emitLine(l) { if (this._waiters.length) this._waiters.shift()({ value: l, done: false }); else if (this._iterating) this._lines.push(l); this.emit("line", l); }
  close() { if (this.closed) return; this.closed = true; while (this._waiters.length) this._waiters.shift()({ value: undefined, done: true }); this.emit("close"); }
  question(q, opts, cb) { if (typeof opts === "function") cb = opts; if (cb) return; return new Promise(() => {}); }
  setPrompt() {} prompt() {} write() {} pause() { return this; } resume() { return this; } getPrompt() { return ""; }
  [Symbol.asyncIterator]() {
    this._iterating = true;
    return { next: () => this._lines.length ? Promise.resolve({ value: this._lines.shift(), done: false }) : this.closed ? Promise.resolve({ value: undefined, done: true }) : new Promise((r) => this._waiters.push(r)),
      return: () => { this.close(); return Promise.resolve({ value: undefined, done: true }); }, [Symbol.asyncIterator]() { return this; } };
  }
}
module.exports = { createInterface: (opts) => new Interface(opts), Interface, clearLine() { return true; }, cursorTo() { return true; }, moveCursor() { return true; }, clearScreenDown() { return true; }, emitKeypressEvents() {} };
