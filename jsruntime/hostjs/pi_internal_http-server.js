// node:http servers: an HTTP/1.1 server written over the host's net.Server,
// as Node's own is written over its TCP server. Extensions use it for OAuth
// callback listeners and local bridges. It parses requests with
// Content-Length or chunked bodies, keeps connections alive, answers
// pipelined requests in order, and writes responses with Content-Length
// when the whole body is known at the first write and chunked otherwise.
// http.js loads it on first use of createServer, Server or ServerResponse.
"use strict";
const EventEmitter = require("events");
const { Readable } = require("stream");
const net = require("net");
const { STATUS_CODES } = require("http");

const codeErr = (code, message) => { const e = new Error(message); e.code = code; return e; };
// Request headers whose duplicates Node drops (the first value wins); the
// rest are joined with ", ", and set-cookie stays a list.
const singleValued = new Set(["age", "authorization", "content-length", "content-type", "etag", "expires", "from", "host", "if-modified-since", "if-unmodified-since", "last-modified", "location", "max-forwards", "proxy-authorization", "referer", "retry-after", "server", "user-agent"]);
const tokenRe = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

function validHeader(name, value) {
  if (typeof name !== "string" || !tokenRe.test(name)) throw Object.assign(new TypeError(`Header name must be a valid HTTP token ["${name}"]`), { code: "ERR_INVALID_HTTP_TOKEN" });
  if (value === undefined) throw Object.assign(new TypeError(`Invalid value "${value}" for header "${name}"`), { code: "ERR_HTTP_INVALID_HEADER_VALUE" });
  if (/[\r\n]/.test(String(value))) throw Object.assign(new TypeError(`Invalid character in header content ["${name}"]`), { code: "ERR_INVALID_CHAR" });
}

class IncomingMessage extends Readable {
  constructor(socket) {
    super({ read() { if (socket && socket.isPaused && socket.isPaused()) socket.resume(); } });
    this.socket = socket; this.connection = socket;
    this.httpVersion = "1.1"; this.httpVersionMajor = 1; this.httpVersionMinor = 1;
    this.headers = {}; this.rawHeaders = []; this.trailers = {}; this.rawTrailers = [];
    this.method = null; this.url = ""; this.statusCode = null; this.statusMessage = null;
    this.complete = false; this.aborted = false;
  }
  get headersDistinct() {
    const o = {};
    for (let i = 0; i < this.rawHeaders.length; i += 2) { const k = this.rawHeaders[i].toLowerCase(); (o[k] = o[k] || []).push(this.rawHeaders[i + 1]); }
    return o;
  }
  setTimeout(ms, cb) { if (this.socket) this.socket.setTimeout(ms, cb); return this; }
  _addHeader(name, value) {
    this.rawHeaders.push(name, value);
    const k = name.toLowerCase();
    if (k === "set-cookie") (this.headers[k] = this.headers[k] || []).push(value);
    else if (!(k in this.headers)) this.headers[k] = value;
    else if (!singleValued.has(k)) this.headers[k] += (k === "cookie" ? "; " : ", ") + value;
  }
}

class ServerResponse extends EventEmitter {
  constructor(req, conn) {
    super();
    this.req = req; this.socket = req.socket; this.connection = req.socket;
    this.statusCode = 200; this.statusMessage = undefined;
    this.sendDate = true; this.chunkedEncoding = false; this.shouldKeepAlive = conn.keepAlive;
    this.headersSent = false; this.writableEnded = false; this.writableFinished = false; this.finished = false; this.destroyed = false;
    Object.defineProperty(this, "_h", { value: new Map() });
    Object.defineProperty(this, "_conn", { value: conn });
  }
  setHeader(name, value) {
    if (this.headersSent) throw codeErr("ERR_HTTP_HEADERS_SENT", "Cannot set headers after they are sent to the client");
    validHeader(name, value);
    this._h.set(name.toLowerCase(), [name, value]);
    return this;
  }
  appendHeader(name, value) {
    const cur = this.getHeader(name);
    if (cur === undefined) return this.setHeader(name, value);
    return this.setHeader(name, [].concat(cur, value));
  }
  getHeader(name) { const e = this._h.get(String(name).toLowerCase()); return e ? e[1] : undefined; }
  getHeaders() { const o = Object.create(null); for (const [k, e] of this._h) o[k] = e[1]; return o; }
  getHeaderNames() { return [...this._h.keys()]; }
  getRawHeaderNames() { return [...this._h.values()].map((e) => e[0]); }
  hasHeader(name) { return this._h.has(String(name).toLowerCase()); }
  removeHeader(name) {
    if (this.headersSent) throw codeErr("ERR_HTTP_HEADERS_SENT", "Cannot remove headers after they are sent to the client");
    this._h.delete(String(name).toLowerCase());
  }
  writeHead(status, message, headers) {
    if (this.headersSent) throw codeErr("ERR_HTTP_HEADERS_SENT", "Cannot write headers after they are sent to the client");
    status = Number(status);
    if (!Number.isInteger(status) || status < 100 || status > 999) throw Object.assign(new RangeError(`Invalid status code: ${status}`), { code: "ERR_HTTP_INVALID_STATUS_CODE" });
    if (typeof message !== "string") { headers = message; message = undefined; }
    this.statusCode = status;
    if (message !== undefined) this.statusMessage = message;
    if (Array.isArray(headers)) {
      if (headers.length && Array.isArray(headers[0])) for (const [k, v] of headers) this.appendHeader(k, v);
      else for (let i = 0; i < headers.length; i += 2) this.appendHeader(headers[i], headers[i + 1]);
    } else if (headers) for (const k of Object.keys(headers)) if (headers[k] !== undefined) this.setHeader(k, headers[k]);
    return this;
  }
  flushHeaders() { if (!this.headersSent) this._sendHeaders(null); }
  _bodyAllowed() { return this.req.method !== "HEAD" && this.statusCode !== 204 && this.statusCode !== 304 && !(this.statusCode >= 100 && this.statusCode < 200); }
  // _sendHeaders writes the head; whole is the complete body when end()
  // is the first write (then Content-Length is known), else null.
  _sendHeaders(whole) {
    this.headersSent = true;
    const STATUS = STATUS_CODES;
    const lines = ["HTTP/1.1 " + this.statusCode + " " + (this.statusMessage !== undefined ? this.statusMessage : STATUS[this.statusCode] || "unknown")];
    let hasLength = this.hasHeader("content-length"), hasTE = this.hasHeader("transfer-encoding");
    const conn = this.getHeader("connection");
    // Node closes after a HEAD response that gives no length: nothing else
    // would tell a client where the (absent) body ends.
    if (this.req.method === "HEAD" && !hasLength && !hasTE) this.shouldKeepAlive = false;
    if (conn !== undefined && /close/i.test(String(conn))) this.shouldKeepAlive = false;
    for (const [, [name, value]] of this._h) for (const v of [].concat(value)) lines.push(name + ": " + v);
    if (this.sendDate && !this.hasHeader("date")) lines.push("Date: " + new Date().toUTCString());
    // Framing first, since it decides whether the connection can stay open.
    let framing = null;
    if (this._bodyAllowed() && !hasLength && !hasTE) {
      // An HTTP/1.0 client reads to the close: Node adds no framing then.
      if (this.req.httpVersionMajor === 1 && this.req.httpVersionMinor === 0) this.shouldKeepAlive = false;
      else if (whole !== null) framing = "Content-Length: " + whole.length;
      else { this.chunkedEncoding = true; framing = "Transfer-Encoding: chunked"; }
    } else if (hasTE && /chunked/i.test(String(this.getHeader("transfer-encoding")))) this.chunkedEncoding = true;
    if (conn === undefined) {
      lines.push("Connection: " + (this.shouldKeepAlive ? "keep-alive" : "close"));
      if (this.shouldKeepAlive && this._conn.server.keepAliveTimeout) lines.push("Keep-Alive: timeout=" + Math.floor(this._conn.server.keepAliveTimeout / 1000));
    }
    if (framing) lines.push(framing);
    this._conn.write(Buffer.from(lines.join("\r\n") + "\r\n\r\n", "latin1"));
  }
  write(chunk, encoding, cb) {
    if (typeof encoding === "function") { cb = encoding; encoding = undefined; }
    if (this.writableEnded) {
      const e = codeErr("ERR_STREAM_WRITE_AFTER_END", "write after end");
      queueMicrotask(() => { if (cb) cb(e); this.emit("error", e); });
      return false;
    }
    if (chunk === null) throw Object.assign(new TypeError("May not write null values to stream"), { code: "ERR_STREAM_NULL_VALUES" });
    const buf = typeof chunk === "string" ? Buffer.from(chunk, encoding || "utf8") : Buffer.from(chunk);
    if (!this.headersSent) this._sendHeaders(null);
    if (this._bodyAllowed() && buf.length) this._conn.write(this.chunkedEncoding ? Buffer.concat([Buffer.from(buf.length.toString(16) + "\r\n"), buf, Buffer.from("\r\n")]) : buf);
    if (cb) queueMicrotask(cb);
    return true;
  }
  end(chunk, encoding, cb) {
    if (typeof chunk === "function") { cb = chunk; chunk = undefined; }
    if (typeof encoding === "function") { cb = encoding; encoding = undefined; }
    if (this.writableEnded) { if (cb) queueMicrotask(cb); return this; }
    const buf = chunk === undefined || chunk === null ? Buffer.alloc(0) : typeof chunk === "string" ? Buffer.from(chunk, encoding || "utf8") : Buffer.from(chunk);
    if (!this.headersSent) {
      this._sendHeaders(this._bodyAllowed() ? buf : null);
      if (this._bodyAllowed() && buf.length) this._conn.write(buf);
    } else {
      if (buf.length) this.write(buf);
      if (this.chunkedEncoding && this._bodyAllowed()) this._conn.write(Buffer.from("0\r\n\r\n"));
    }
    this.writableEnded = true; this.finished = true;
    if (cb) this.once("finish", cb);
    queueMicrotask(() => {
      this.writableFinished = true;
      this.emit("finish");
      this._conn.done(this);
      this.emit("close");
    });
    return this;
  }
  setTimeout(ms, cb) { if (this.socket) this.socket.setTimeout(ms, cb); return this; }
  destroy(err) { if (!this.destroyed) { this.destroyed = true; this.socket.destroy(err); } return this; }
  writeContinue() { this._conn.write(Buffer.from("HTTP/1.1 100 Continue\r\n\r\n")); }
  get writableLength() { return 0; }
  get writable() { return !this.writableEnded; }
}

// Connection parses one socket's requests and serialises their responses.
class Connection {
  constructor(server, socket) {
    this.server = server; this.socket = socket;
    this.buf = Buffer.alloc(0); this.state = "head"; this.req = null; this.remaining = 0;
    this.queue = []; this.keepAlive = true; this.closing = false; this.idle = true;
    socket.on("data", (d) => this.feed(d));
    socket.on("end", () => { this.ended = true; if (this.req && this.state !== "head") this.abortReq(); if (!this.queue.length) socket.end(); });
    socket.on("close", () => { if (this.req && !this.req.complete) this.abortReq(); for (const r of this.queue) { r.destroyed = true; r.emit("close"); } this.queue = []; server._parsers.delete(this); });
    socket.on("error", () => {});
  }
  write(b) { if (!this.socket.destroyed) this.socket.write(b); }
  abortReq() { const r = this.req; r.aborted = true; r.emit("aborted"); r.destroy(codeErr("ECONNRESET", "aborted")); }
  fail(status, code, message) {
    const err = codeErr(code, message);
    this.state = "dead";
    if (this.server.listenerCount("clientError")) { this.server.emit("clientError", err, this.socket); return; }
    this.socket.end("HTTP/1.1 " + status + " " + (STATUS_CODES[status] || "") + "\r\nConnection: close\r\n\r\n");
  }
  feed(d) {
    if (this.state === "dead") return;
    this.buf = this.buf.length ? Buffer.concat([this.buf, d]) : d;
    for (;;) {
      if (this.state === "head") {
        const end = this.buf.indexOf("\r\n\r\n");
        if (end < 0) {
          if (this.buf.length > this.server.maxHeaderSize) this.fail(431, "HPE_HEADER_OVERFLOW", "Header overflow");
          return;
        }
        const head = this.buf.subarray(0, end).toString("latin1");
        this.buf = this.buf.subarray(end + 4);
        if (!this.startRequest(head)) return;
      } else if (this.state === "body") {
        if (!this.buf.length) return;
        const n = Math.min(this.remaining, this.buf.length);
        this.req.push(Buffer.from(this.buf.subarray(0, n)));
        this.buf = this.buf.subarray(n); this.remaining -= n;
        if (this.remaining === 0) this.finishRequest();
      } else if (this.state === "chunksize") {
        const nl = this.buf.indexOf("\r\n");
        if (nl < 0) return;
        const size = parseInt(this.buf.subarray(0, nl).toString("latin1").split(";")[0], 16);
        if (Number.isNaN(size)) return this.fail(400, "HPE_INVALID_CHUNK_SIZE", "Invalid character in chunk size");
        this.buf = this.buf.subarray(nl + 2);
        if (size === 0) this.state = "trailers"; else { this.remaining = size; this.state = "chunk"; }
      } else if (this.state === "chunk") {
        if (this.remaining > 0) {
          if (!this.buf.length) return;
          const n = Math.min(this.remaining, this.buf.length);
          this.req.push(Buffer.from(this.buf.subarray(0, n)));
          this.buf = this.buf.subarray(n); this.remaining -= n;
          if (this.remaining > 0) return;
        }
        if (this.buf.length < 2) return;
        this.buf = this.buf.subarray(2);
        this.state = "chunksize";
      } else if (this.state === "trailers") {
        const nl = this.buf.indexOf("\r\n");
        if (nl < 0) return;
        const line = this.buf.subarray(0, nl).toString("latin1");
        this.buf = this.buf.subarray(nl + 2);
        if (line === "") this.finishRequest();
        else { const i = line.indexOf(":"); if (i > 0) { this.req.rawTrailers.push(line.slice(0, i).trim(), line.slice(i + 1).trim()); this.req.trailers[line.slice(0, i).trim().toLowerCase()] = line.slice(i + 1).trim(); } }
      } else return;
    }
  }
  startRequest(head) {
    const lines = head.split("\r\n");
    const m = /^([A-Z-]+) (\S+) HTTP\/(\d)\.(\d)$/.exec(lines[0]);
    if (!m) { this.fail(400, "HPE_INVALID_METHOD", "Parse Error: Invalid method encountered"); return false; }
    const req = new IncomingMessage(this.socket);
    req.method = m[1]; req.url = m[2];
    req.httpVersionMajor = +m[3]; req.httpVersionMinor = +m[4]; req.httpVersion = m[3] + "." + m[4];
    for (let i = 1; i < lines.length; i++) {
      const c = lines[i].indexOf(":");
      if (c <= 0) { this.fail(400, "HPE_INVALID_HEADER_TOKEN", "Parse Error: Invalid header token"); return false; }
      req._addHeader(lines[i].slice(0, c).trim(), lines[i].slice(c + 1).trim());
    }
    const connHdr = String(req.headers.connection || "").toLowerCase();
    this.keepAlive = req.httpVersionMinor >= 1 && req.httpVersionMajor === 1 ? !/close/.test(connHdr) : /keep-alive/.test(connHdr);
    this.req = req; this.idle = false;
    const te = String(req.headers["transfer-encoding"] || "").toLowerCase();
    if (/chunked/.test(te)) this.state = "chunksize";
    else {
      const len = req.headers["content-length"] === undefined ? 0 : Number(req.headers["content-length"]);
      if (!Number.isInteger(len) || len < 0) { this.fail(400, "HPE_INVALID_CONTENT_LENGTH", "Parse Error: Invalid character in Content-Length"); return false; }
      this.remaining = len; this.state = len > 0 ? "body" : "head";
    }
    const res = new ServerResponse(req, this);
    this.queue.push(res);
    if ((req.method === "CONNECT" || /upgrade/.test(connHdr)) && this.server.listenerCount(req.method === "CONNECT" ? "connect" : "upgrade")) {
      this.state = "dead";
      this.server._parsers.delete(this);
      this.server.emit(req.method === "CONNECT" ? "connect" : "upgrade", req, this.socket, this.buf);
      return false;
    }
    if (String(req.headers.expect || "").toLowerCase() === "100-continue") {
      if (this.server.listenerCount("checkContinue")) this.server.emit("checkContinue", req, res);
      else { res.writeContinue(); this.server.emit("request", req, res); }
    } else this.server.emit("request", req, res);
    if (this.state === "head") this.finishRequest();
    return true;
  }
  finishRequest() {
    const req = this.req;
    this.state = "head";
    req.complete = true;
    req.push(null);
  }
  // done is called when a response ended: the connection closes or waits
  // for the next request.
  done(res) {
    const i = this.queue.indexOf(res);
    if (i >= 0) this.queue.splice(i, 1);
    if (!res.shouldKeepAlive || !this.keepAlive || this.server._closingAll || this.ended) { this.socket.end(); return; }
    if (!this.queue.length) {
      this.idle = true;
      if (this.server._stopping) this.socket.end();
    }
  }
}

class Server extends net.Server {
  constructor(opts, listener) {
    if (typeof opts === "function") { listener = opts; opts = {}; }
    opts = opts || {};
    super({ allowHalfOpen: true, noDelay: opts.noDelay !== false, keepAlive: !!opts.keepAlive });
    this.timeout = 0; this.keepAliveTimeout = opts.keepAliveTimeout === undefined ? 5000 : opts.keepAliveTimeout;
    this.headersTimeout = 60000; this.requestTimeout = opts.requestTimeout === undefined ? 300000 : opts.requestTimeout;
    this.maxHeadersCount = null; this.maxRequestsPerSocket = 0;
    this.maxHeaderSize = opts.maxHeaderSize || 16384;
    Object.defineProperty(this, "_parsers", { value: new Set() });
    if (listener) this.on("request", listener);
    this.on("connection", (socket) => { this._parsers.add(new Connection(this, socket)); });
  }
  setTimeout(ms, cb) { this.timeout = ms; if (cb) this.on("timeout", cb); return this; }
  closeAllConnections() { for (const c of [...this._parsers]) c.socket.destroy(); }
  closeIdleConnections() { for (const c of [...this._parsers]) if (c.idle) c.socket.end(); }
  // close stops listening and, as in Node 19 and later, ends the idle
  // keep-alive connections; busy ones end after their response.
  close(cb) {
    this._stopping = true;
    super.close(cb);
    this.closeIdleConnections();
    return this;
  }
}

module.exports = { Server, ServerResponse, IncomingMessage, createServer: (opts, listener) => new Server(opts, listener) };
