// fetch, Headers, Response, Request over the Go HTTP client (goFetch).
"use strict";
module.exports = function install(goFetch, def) {
  class Headers {
    constructor(init) {
      this._m = new Map();
      if (init instanceof Headers) init.forEach((v, k) => this.append(k, v));
      else if (Array.isArray(init)) for (const [k, v] of init) this.append(k, v);
      else if (init) for (const k of Object.keys(init)) this.append(k, init[k]);
    }
    append(k, v) { k = String(k).toLowerCase(); const o = this._m.get(k); this._m.set(k, o === undefined ? String(v) : o + ", " + v); }
    set(k, v) { this._m.set(String(k).toLowerCase(), String(v)); }
    get(k) { const v = this._m.get(String(k).toLowerCase()); return v === undefined ? null : v; }
    has(k) { return this._m.has(String(k).toLowerCase()); }
    delete(k) { this._m.delete(String(k).toLowerCase()); }
    forEach(fn, self) { for (const [k, v] of [...this._m].sort()) fn.call(self, v, k, this); }
    *entries() { yield* [...this._m].sort(); }
    *keys() { for (const [k] of this.entries()) yield k; }
    *values() { for (const [, v] of this.entries()) yield v; }
    [Symbol.iterator]() { return this.entries(); }
    getSetCookie() { const v = this.get("set-cookie"); return v ? [v] : []; }
  }
  const bodyText = (b) => b === undefined || b === null ? null : typeof b === "string" ? b : b instanceof URLSearchParams ? b.toString() : b;
  class Body {
    _bytes() { if (this.bodyUsed) return Promise.reject(new TypeError("Body is unusable: Body has already been read")); this.bodyUsed = true; const b = this._body; return Promise.resolve(b === null ? new Uint8Array(0) : typeof b === "string" ? new TextEncoder().encode(b) : new Uint8Array(b.buffer ? b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength) : b)); }
    text() { return this._bytes().then((b) => new TextDecoder().decode(b)); }
    json() { return this.text().then((t) => JSON.parse(t)); }
    arrayBuffer() { return this._bytes().then((b) => b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength)); }
    bytes() { return this._bytes(); }
    blob() { return this._bytes().then((b) => ({ size: b.length, type: this.headers.get("content-type") || "", arrayBuffer: () => Promise.resolve(b.buffer), text: () => Promise.resolve(new TextDecoder().decode(b)) })); }
    get body() {
      if (this._body === null) return null;
      const self = this;
      let done = false;
      return { getReader() { return { read() { if (done) return Promise.resolve({ done: true, value: undefined }); done = true; return self._bytes().then((value) => ({ done: false, value })); }, releaseLock() {}, cancel() { done = true; return Promise.resolve(); } }; },
        [Symbol.asyncIterator]() { const r = this.getReader(); return { next: () => r.read(), return: () => Promise.resolve({ done: true }), [Symbol.asyncIterator]() { return this; } }; } };
    }
  }
  class Response extends Body {
    constructor(body, init) { super(); init = init || {}; this._body = bodyText(body); this.bodyUsed = false; this.status = init.status === undefined ? 200 : init.status; this.statusText = init.statusText || ""; this.headers = new Headers(init.headers); this.ok = this.status >= 200 && this.status < 300; this.url = init.url || ""; this.redirected = false; this.type = "default"; }
    clone() { return new Response(this._body, this); }
    static json(v, init) { const r = new Response(JSON.stringify(v), init); if (!r.headers.has("content-type")) r.headers.set("content-type", "application/json"); return r; }
    static error() { return new Response(null, { status: 0 }); }
  }
  class Request extends Body {
    constructor(input, init) { super(); init = init || {}; const src = input instanceof Request ? input : null; this.url = src ? src.url : String(input); this.method = (init.method || (src && src.method) || "GET").toUpperCase(); this.headers = new Headers(init.headers || (src && src.headers)); this._body = bodyText(init.body !== undefined ? init.body : src ? src._body : null); this.bodyUsed = false; this.signal = init.signal || (src && src.signal) || null; }
    clone() { return new Request(this); }
  }
  function fetch(input, init) {
    const req = new Request(input, init);
    return new Promise((resolve, reject) => {
      const signal = req.signal;
      const abortErr = () => { const e = signal.reason instanceof Error ? signal.reason : new DOMException("This operation was aborted", "AbortError"); return e; };
      if (signal && signal.aborted) return reject(abortErr());
      const headers = {}; req.headers.forEach((v, k) => { headers[k] = v; });
      const cancel = goFetch(req.url, req.method, headers, req._body, (err, res) => {
        if (err) { const e = new TypeError("fetch failed"); e.cause = new Error(err); return reject(signal && signal.aborted ? abortErr() : e); }
        resolve(new Response(res.body, { status: res.status, statusText: res.statusText, headers: res.headers, url: res.url }));
      });
      if (signal) signal.addEventListener("abort", () => { cancel(); reject(abortErr()); }, { once: true });
    });
  }
  def("Headers", Headers);
  def("Response", Response);
  def("Request", Request);
  def("fetch", fetch);
  def("FormData", class FormData { constructor() { this._e = []; } append(k, v) { this._e.push([k, v]); } get(k) { const e = this._e.find((x) => x[0] === k); return e ? e[1] : null; } entries() { return this._e[Symbol.iterator](); } });
  def("Blob", class Blob { constructor(parts, opts) { this._s = (parts || []).map(String).join(""); this.type = (opts && opts.type) || ""; this.size = this._s.length; } text() { return Promise.resolve(this._s); } arrayBuffer() { return Promise.resolve(new TextEncoder().encode(this._s).buffer); } });
};
