// node:http and node:https clients (request, get) over the host's Go HTTP
// client (__host.fetch, the primitive behind fetch): the request body is
// gathered until end(), the response body streams as an IncomingMessage.
// Servers (createServer, Server, ServerResponse) live in
// pi:internal/http-server, loaded on first use; https servers are not
// available and throw ERR_NOT_SUPPORTED.
"use strict";
const EventEmitter = require("events");
const { Readable } = require("stream");
const goFetch = __host.fetch;
const STATUS_CODES = { 100: "Continue", 101: "Switching Protocols", 200: "OK", 201: "Created", 202: "Accepted", 204: "No Content", 206: "Partial Content", 301: "Moved Permanently", 302: "Found", 303: "See Other", 304: "Not Modified", 307: "Temporary Redirect", 308: "Permanent Redirect", 400: "Bad Request", 401: "Unauthorized", 403: "Forbidden", 404: "Not Found", 405: "Method Not Allowed", 408: "Request Timeout", 409: "Conflict", 410: "Gone", 413: "Payload Too Large", 415: "Unsupported Media Type", 422: "Unprocessable Entity", 429: "Too Many Requests", 500: "Internal Server Error", 501: "Not Implemented", 502: "Bad Gateway", 503: "Service Unavailable", 504: "Gateway Timeout" };
const METHODS = ["ACL", "BIND", "CHECKOUT", "CONNECT", "COPY", "DELETE", "GET", "HEAD", "LINK", "LOCK", "M-SEARCH", "MERGE", "MKACTIVITY", "MKCALENDAR", "MKCOL", "MOVE", "NOTIFY", "OPTIONS", "PATCH", "POST", "PROPFIND", "PROPPATCH", "PURGE", "PUT", "QUERY", "REBIND", "REPORT", "SEARCH", "SOURCE", "SUBSCRIBE", "TRACE", "UNBIND", "UNLINK", "UNLOCK", "UNSUBSCRIBE"];
const notSupported = (what) => () => { const e = new Error(what + " is not supported in extensions by this runtime"); e.code = "ERR_NOT_SUPPORTED"; throw e; };

class Agent extends EventEmitter {
  constructor(opts) { super(); this.options = Object.assign({}, opts); this.keepAlive = !!(opts && opts.keepAlive); this.maxSockets = (opts && opts.maxSockets) || Infinity; this.requests = {}; this.sockets = {}; this.freeSockets = {}; }
  destroy() {}
}

class IncomingMessage extends Readable {
  constructor(res) {
    super({ read() { res.read((err, chunk) => { if (err) { const e = new Error(err); e.code = "ECONNRESET"; this.destroy(e); } else this.push(chunk === null ? null : Buffer.from(chunk)); }); } });
    this.statusCode = res.status;
    this.statusMessage = res.statusText;
    this.httpVersion = "1.1"; this.httpVersionMajor = 1; this.httpVersionMinor = 1;
    this.headers = {}; this.rawHeaders = [];
    for (const k of Object.keys(res.headers)) {
      const v = res.headers[k];
      this.headers[k] = k === "set-cookie" ? Array.from(res.setCookie || [v]) : v;
      this.rawHeaders.push(k, v);
    }
    this.url = ""; this.method = null; this.complete = false;
    this.on("end", () => { this.complete = true; });
    Object.defineProperty(this, "_res", { value: res });
  }
  setTimeout(ms, cb) { if (cb) this.once("timeout", cb); return this; }
  destroy(err) { if (!this.destroyed) this._res.cancel(); return super.destroy(err); }
}

// urlOptions turns a URL (string or URL) and options into one options object.
const urlOptions = (input, opts, defaultProtocol) => {
  let o = {};
  if (typeof input === "string" || input instanceof URL) {
    const u = new URL(String(input));
    o = { protocol: u.protocol, hostname: u.hostname, port: u.port, path: u.pathname + u.search };
    if (u.username || u.password) o.auth = decodeURIComponent(u.username) + ":" + decodeURIComponent(u.password);
    if (opts) o = Object.assign(o, opts);
  } else o = Object.assign({}, input);
  o.protocol = o.protocol || defaultProtocol;
  return o;
};

class ClientRequest extends EventEmitter {
  constructor(opts, cb, defaultProtocol) {
    super();
    if (cb) this.once("response", cb);
    this.method = String(opts.method || "GET").toUpperCase();
    this.path = opts.path || "/";
    this.protocol = opts.protocol || defaultProtocol;
    this.host = opts.hostname || (opts.host ? String(opts.host).replace(/:\d+$/, "") : "localhost");
    const port = opts.port ? ":" + opts.port : "";
    this._url = this.protocol + "//" + (this.host.includes(":") ? "[" + this.host + "]" : this.host) + port + this.path;
    this._headers = {};
    for (const [k, v] of Object.entries(opts.headers || {})) this.setHeader(k, v);
    if (opts.auth && !this.getHeader("authorization")) this.setHeader("Authorization", "Basic " + Buffer.from(opts.auth).toString("base64"));
    this._body = [];
    this._signal = opts.signal;
    this._timeout = opts.timeout;
    this.finished = false; this.writableEnded = false; this.destroyed = false; this.aborted = false;
    this.reusedSocket = false;
    this.socket = { setTimeout() {}, setNoDelay() {}, setKeepAlive() {}, on() { return this; }, once() { return this; }, destroy() {}, remoteAddress: undefined };
  }
  setHeader(k, v) { this._headers[String(k).toLowerCase()] = [String(k), v]; return this; }
  getHeader(k) { const e = this._headers[String(k).toLowerCase()]; return e ? e[1] : undefined; }
  getHeaders() { const o = {}; for (const [k, e] of Object.entries(this._headers)) o[k] = e[1]; return o; }
  getHeaderNames() { return Object.keys(this._headers); }
  hasHeader(k) { return String(k).toLowerCase() in this._headers; }
  removeHeader(k) { delete this._headers[String(k).toLowerCase()]; }
  flushHeaders() {}
  setNoDelay() {} setSocketKeepAlive() {}
  setTimeout(ms, cb) { this._timeout = ms; if (cb) this.once("timeout", cb); return this; }
  write(chunk, enc, cb) {
    if (typeof enc === "function") { cb = enc; enc = undefined; }
    this._body.push(typeof chunk === "string" ? Buffer.from(chunk, enc) : Buffer.from(chunk));
    if (cb) queueMicrotask(cb);
    return true;
  }
  end(chunk, enc, cb) {
    if (typeof chunk === "function") { cb = chunk; chunk = undefined; }
    if (typeof enc === "function") { cb = enc; enc = undefined; }
    if (chunk !== undefined && chunk !== null) this.write(chunk, enc);
    if (this.writableEnded) return this;
    this.writableEnded = true;
    queueMicrotask(() => this._send(cb));
    return this;
  }
  _send(cb) {
    if (this.destroyed) return;
    const headers = {};
    for (const [k, e] of Object.entries(this._headers)) headers[k] = Array.isArray(e[1]) ? e[1].join(", ") : String(e[1]);
    const body = this._body.length ? Buffer.concat(this._body) : null;
    let timer;
    const fail = (e) => { if (timer) clearTimeout(timer); if (!this.destroyed) { this.destroyed = true; this.emit("error", e); this.emit("close"); } };
    this._cancel = goFetch(this._url, this.method, headers, body, (err, res) => {
      if (timer) clearTimeout(timer);
      if (this.destroyed) { if (res) res.cancel(); return; }
      if (err) {
        const e = new Error(/refused/.test(err) ? "connect ECONNREFUSED " + this.host : /no such host/.test(err) ? "getaddrinfo ENOTFOUND " + this.host : err);
        e.code = /refused/.test(err) ? "ECONNREFUSED" : /no such host/.test(err) ? "ENOTFOUND" : "ECONNRESET";
        return fail(e);
      }
      this.finished = true;
      if (cb) cb();
      this.emit("finish");
      const msg = new IncomingMessage(res);
      msg.req = this;
      this.res = msg;
      if (this.listenerCount("response") === 0) { msg.resume(); return; }
      this.emit("response", msg);
      msg.on("end", () => this.emit("close"));
    });
    if (this._timeout) timer = setTimeout(() => this.emit("timeout"), this._timeout);
    if (this._signal) {
      const onAbort = () => { this.destroy(Object.assign(new Error("The operation was aborted"), { name: "AbortError", code: "ABORT_ERR" })); };
      if (this._signal.aborted) onAbort(); else this._signal.addEventListener("abort", onAbort, { once: true });
    }
  }
  abort() { if (!this.aborted) { this.aborted = true; this.emit("abort"); this.destroy(); } }
  destroy(err) {
    if (this.destroyed) return this;
    this.destroyed = true;
    if (this._cancel) this._cancel();
    if (this.res) this.res.destroy();
    if (err) this.emit("error", err);
    this.emit("close");
    return this;
  }
}

function make(defaultProtocol) {
  const globalAgent = new Agent();
  const request = (input, opts, cb) => {
    if (typeof opts === "function") { cb = opts; opts = undefined; }
    return new ClientRequest(urlOptions(input, opts, defaultProtocol), cb, defaultProtocol);
  };
  const get = (input, opts, cb) => { const r = request(input, opts, cb); r.end(); return r; };
  if (defaultProtocol === "https:") return { Agent, globalAgent, Server: notSupported("https.Server"), createServer: notSupported("https.createServer"), get, request };
  const server = () => require("pi:internal/http-server");
  return {
    Agent, ClientRequest, IncomingMessage, METHODS, STATUS_CODES, globalAgent, request, get,
    createServer: (opts, listener) => server().createServer(opts, listener),
    get Server() { return server().Server; },
    get ServerResponse() { return server().ServerResponse; },
    OutgoingMessage: EventEmitter, maxHeaderSize: 16384, validateHeaderName() {}, validateHeaderValue() {}, setMaxIdleHTTPParsers() {},
  };
}
module.exports = make;
