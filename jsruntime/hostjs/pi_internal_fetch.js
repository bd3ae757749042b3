// fetch, Headers, Response, Request over the Go HTTP client (goFetch).
"use strict";
module.exports = function install(goFetch, def) {
  class Headers {
    constructor(init) {
      this._m = new Map();
      Object.defineProperty(this, "_c", { value: [], writable: true });
      if (init instanceof Headers) { init.forEach((v, k) => { if (k !== "set-cookie") this.append(k, v); }); for (const c of init.getSetCookie()) this.append("set-cookie", c); }
      else if (Array.isArray(init)) for (const [k, v] of init) this.append(k, v);
      else if (init) for (const k of Object.keys(init)) this.append(k, init[k]);
    }
    // Set-Cookie values are also kept one by one for getSetCookie().
    append(k, v) { k = String(k).toLowerCase(); const o = this._m.get(k); this._m.set(k, o === undefined ? String(v) : o + ", " + v); if (k === "set-cookie") this._c.push(String(v)); }
    set(k, v) { k = String(k).toLowerCase(); this._m.set(k, String(v)); if (k === "set-cookie") this._c = [String(v)]; }
    get(k) { const v = this._m.get(String(k).toLowerCase()); return v === undefined ? null : v; }
    has(k) { return this._m.has(String(k).toLowerCase()); }
    delete(k) { k = String(k).toLowerCase(); this._m.delete(k); if (k === "set-cookie") this._c = []; }
    forEach(fn, self) { for (const [k, v] of [...this._m].sort()) fn.call(self, v, k, this); }
    *entries() { yield* [...this._m].sort(); }
    *keys() { for (const [k] of this.entries()) yield k; }
    *values() { for (const [, v] of this.entries()) yield v; }
    [Symbol.iterator]() { return this.entries(); }
    getSetCookie() { return this._c.slice(); }
  }
  const bodyText = (b) => b === undefined || b === null ? null : typeof b === "string" ? b : b instanceof URLSearchParams ? b.toString() : b;
  // A body is null, a string, bytes, a Blob, or a ReadableStream (the
  // host's response bodies are ones that pull chunk by chunk from Go).
  const isStream = (b) => b !== null && typeof b === "object" && typeof b.getReader === "function";
  const toBytes = (b) => typeof b === "string" ? new TextEncoder().encode(b) : new Uint8Array(b.buffer ? b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength) : b);
  const readAll = (stream) => {
    const reader = stream.getReader(), parts = [];
    let n = 0;
    const step = () => reader.read().then(({ value, done }) => {
      if (done) { const out = new Uint8Array(n); let off = 0; for (const p of parts) { out.set(p, off); off += p.length; } return out; }
      const u = typeof value === "string" ? new TextEncoder().encode(value) : toBytes(value);
      parts.push(u); n += u.length;
      return step();
    });
    return step();
  };
  const hostStream = (res) => new ReadableStream({
    pull(c) { return new Promise((resolve, reject) => res.read((err, chunk) => { if (err) { const e = new TypeError("terminated"); e.cause = new Error(err); c.error(e); reject(e); return; } if (chunk === null) c.close(); else c.enqueue(chunk); resolve(); })); },
    cancel() { res.cancel(); },
  }, { highWaterMark: 0 });
  class Body {
    _bytes() {
      if (this.bodyUsed) return Promise.reject(new TypeError("Body is unusable: Body has already been read"));
      this._used = true;
      const b = this._stream || this._body;
      if (b === null) return Promise.resolve(new Uint8Array(0));
      if (isStream(b)) return readAll(b);
      if (typeof b.arrayBuffer === "function" && !(b instanceof ArrayBuffer)) return b.arrayBuffer().then((ab) => new Uint8Array(ab));
      return Promise.resolve(toBytes(b));
    }
    get bodyUsed() { return !!this._used || (!!this._stream && ReadableStream[Symbol.for("pi.disturbed")](this._stream)); }
    text() { return this._bytes().then((b) => new TextDecoder().decode(b)); }
    json() { return this.text().then((t) => JSON.parse(t)); }
    arrayBuffer() { return this._bytes().then((b) => b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength)); }
    bytes() { return this._bytes(); }
    blob() { return this._bytes().then((b) => new Blob([b], { type: this.headers.get("content-type") || "" })); }
    get body() {
      if (this._body === null) return null;
      if (!this._stream) {
        const b = this._body;
        this._stream = isStream(b) ? b : new ReadableStream({ start: (c) => { const u = this._bytesOf(b); return u.then((x) => { c.enqueue(x); c.close(); }); } });
      }
      return this._stream;
    }
    _bytesOf(b) { return typeof b.arrayBuffer === "function" && !(b instanceof ArrayBuffer) ? b.arrayBuffer().then((ab) => new Uint8Array(ab)) : Promise.resolve(toBytes(b)); }
  }
  class Response extends Body {
    constructor(body, init) { super(); init = init || {}; this._body = bodyText(body);  this.status = init.status === undefined ? 200 : init.status; this.statusText = init.statusText || ""; this.headers = new Headers(init.headers); this.ok = this.status >= 200 && this.status < 300; this.url = init.url || ""; this.redirected = false; this.type = "default"; }
    clone() {
      if (this.bodyUsed) throw new TypeError("Response.clone: Body has already been consumed.");
      let b = this._body;
      if (b !== null && isStream(this._stream || b)) { const [a, c] = (this._stream || b).tee(); this._stream = a; b = c; }
      return new Response(b, this);
    }
    static json(v, init) { const r = new Response(JSON.stringify(v), init); if (!r.headers.has("content-type")) r.headers.set("content-type", "application/json"); return r; }
    static error() { return new Response(null, { status: 0 }); }
  }
  class Request extends Body {
    constructor(input, init) { super(); init = init || {}; const src = input instanceof Request ? input : null; this.url = src ? src.url : String(input); this.method = (init.method || (src && src.method) || "GET").toUpperCase(); this.headers = new Headers(init.headers || (src && src.headers)); this._body = bodyText(init.body !== undefined ? init.body : src ? src._body : null);  this.signal = init.signal || (src && src.signal) || null; }
    clone() { return new Request(this); }
  }
  function fetch(input, init) {
    const req = new Request(input, init);
    return new Promise((resolve, reject) => {
      const signal = req.signal;
      const abortErr = () => { const e = signal.reason instanceof Error ? signal.reason : new DOMException("This operation was aborted", "AbortError"); return e; };
      if (signal && signal.aborted) return reject(abortErr());
      const headers = {}; req.headers.forEach((v, k) => { headers[k] = v; });
      const b = req._body;
      if (b !== null && typeof b === "object" && (isStream(b) || b instanceof Blob)) {
        req._bytes().then((bytes) => fetch(req.url, { method: req.method, headers, body: bytes, signal })).then(resolve, reject);
        return;
      }
      const cancel = goFetch(req.url, req.method, headers, b, (err, res) => {
        if (err) { const e = new TypeError("fetch failed"); e.cause = new Error(err); return reject(signal && signal.aborted ? abortErr() : e); }
        const h = {}; for (const k of Object.keys(res.headers)) if (k !== "set-cookie") h[k] = res.headers[k];
        const headers = new Headers(h); for (const c of res.setCookie) headers.append("set-cookie", c);
        resolve(new Response(hostStream(res), { status: res.status, statusText: res.statusText, headers, url: res.url }));
      });
      if (signal) signal.addEventListener("abort", () => { cancel(); reject(abortErr()); }, { once: true });
    });
  }
  def("Headers", Headers);
  def("Response", Response);
  def("Request", Request);
  def("fetch", fetch);
  // Blob keeps its bytes; File adds a name and a modification time.
  class Blob {
    constructor(parts, opts) {
      const chunks = []; let n = 0;
      for (const p of parts || []) {
        const u = p instanceof Blob ? p._u : typeof p === "string" ? new TextEncoder().encode(p) : p instanceof ArrayBuffer || ArrayBuffer.isView(p) ? toBytes(p) : new TextEncoder().encode(String(p));
        chunks.push(u); n += u.length;
      }
      const u = new Uint8Array(n); let off = 0;
      for (const c of chunks) { u.set(c, off); off += c.length; }
      Object.defineProperty(this, "_u", { value: u });
      Object.defineProperty(this, "_type", { value: opts && opts.type ? String(opts.type).toLowerCase() : "" });
    }
    get size() { return this._u.length; }
    get type() { return this._type; }
    text() { return Promise.resolve(new TextDecoder().decode(this._u)); }
    arrayBuffer() { return Promise.resolve(this._u.slice().buffer); }
    bytes() { return Promise.resolve(this._u.slice()); }
    slice(start, end, type) { const b = new Blob([this._u.slice(start, end)], { type }); return b; }
    stream() { const u = this._u; return new ReadableStream({ start(c) { if (u.length) c.enqueue(u.slice()); c.close(); } }); }
  }
  Object.defineProperty(Blob.prototype, Symbol.toStringTag, { value: "Blob" });
  class File extends Blob {
    constructor(parts, name, opts) {
      if (arguments.length < 2) throw new TypeError('The "fileBits" and "fileName" arguments must be specified');
      super(parts, opts);
      Object.defineProperty(this, "_name", { value: String(name) });
      Object.defineProperty(this, "_mtime", { value: opts && opts.lastModified !== undefined ? Number(opts.lastModified) : Date.now() });
    }
    get name() { return this._name; }
    get lastModified() { return this._mtime; }
  }
  Object.defineProperty(File.prototype, Symbol.toStringTag, { value: "File" });
  class FormData {
    constructor() { Object.defineProperty(this, "_e", { value: [] }); }
    _v(v, f) { if (v instanceof Blob) return v instanceof File && f === undefined ? v : new File([v], f !== undefined ? f : v instanceof File ? v.name : "blob", { type: v.type }); return String(v); }
    append(k, v, f) { this._e.push([String(k), this._v(v, f)]); }
    set(k, v, f) { k = String(k); const i = this._e.findIndex((x) => x[0] === k); const e = [k, this._v(v, f)]; if (i < 0) { this._e.push(e); return; } this._e.splice(i, 1, e); for (let j = this._e.length - 1; j > i; j--) if (this._e[j][0] === k) this._e.splice(j, 1); }
    get(k) { const e = this._e.find((x) => x[0] === String(k)); return e ? e[1] : null; }
    getAll(k) { return this._e.filter((x) => x[0] === String(k)).map((x) => x[1]); }
    has(k) { return this._e.some((x) => x[0] === String(k)); }
    delete(k) { for (let i = this._e.length - 1; i >= 0; i--) if (this._e[i][0] === String(k)) this._e.splice(i, 1); }
    forEach(fn, self) { for (const [k, v] of this._e.slice()) fn.call(self, v, k, this); }
    entries() { return this._e.map((e) => [e[0], e[1]])[Symbol.iterator](); }
    keys() { return this._e.map((e) => e[0])[Symbol.iterator](); }
    values() { return this._e.map((e) => e[1])[Symbol.iterator](); }
    [Symbol.iterator]() { return this.entries(); }
  }
  Object.defineProperty(FormData.prototype, Symbol.toStringTag, { value: "FormData" });
  def("FormData", FormData);
  def("Blob", Blob);
  def("File", File);
};
