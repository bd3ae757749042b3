// node:tls clients over Go's crypto/tls (__host.connect: net's dial plus
// a handshake). A TLSSocket is net's Socket whose 'secureConnect' follows
// 'connect'; servers are not available (createServer throws).
"use strict";
const net = require("net");
const { _codeErr: codeErr, _normalizeConnect: normalizeConnect } = net;
const notSupported = (what) => codeErr(Error, "ERR_NOT_SUPPORTED", what + " is not supported in extensions by this runtime");

class SecureContext {
  constructor(opts) { this.context = Object.assign({}, opts); }
}
const createSecureContext = (opts) => new SecureContext(opts || {});

class TLSSocket extends net.Socket {
  constructor(socket, opts) {
    if (socket && socket instanceof net.Socket) throw notSupported("new tls.TLSSocket(socket) over an existing socket");
    super(opts);
    this.encrypted = true;
    this.authorized = false;
    this.authorizationError = null;
    this.alpnProtocol = false;
    this.servername = undefined;
    Object.defineProperty(this, "_tls", { value: null, writable: true });
  }
  get _secure() { return true; }
  _dial(opts, onEvent) { return __host.connect(opts, onEvent); }
  _secured(info) {
    this._tls = info;
    this.authorized = info.authorized;
    this.authorizationError = info.authorizationError === undefined ? null : info.authorizationError;
    this.alpnProtocol = info.alpnProtocol || false;
    this.emit("secureConnect");
    this.emit("secure");
  }
  getPeerCertificate() { return this._tls && this._tls.peerCertificate ? Object.assign({}, this._tls.peerCertificate) : {}; }
  getProtocol() { return this._tls ? this._tls.protocol : null; }
  getCipher() { return this._tls ? { name: this._tls.cipher, standardName: this._tls.cipher, version: this._tls.protocol } : undefined; }
  getSession() { return undefined; }
  isSessionReused() { return false; }
  exportKeyingMaterial() { throw notSupported("tlsSocket.exportKeyingMaterial"); }
  renegotiate() { throw notSupported("tlsSocket.renegotiate"); }
  setServername(name) { this.servername = name; }
  setMaxSendFragment() { return false; }
  disableRenegotiation() {}
}

function connect(...args) {
  const cb = typeof args[args.length - 1] === "function" ? args.pop() : undefined;
  let opts = {};
  if (args[0] !== null && typeof args[0] === "object") opts = Object.assign({}, args[0]);
  else {
    const pos = {};
    if (typeof args[0] === "string" && !/^\d+$/.test(args[0])) pos.path = args.shift(); else pos.port = args.shift();
    if (typeof args[0] === "string") pos.host = args.shift();
    opts = Object.assign({}, args[0] && typeof args[0] === "object" ? args[0] : {}, pos);
  }
  if (opts.socket) throw notSupported("tls.connect({ socket })");
  if (opts.secureContext && opts.secureContext.context) opts = Object.assign({}, opts.secureContext.context, opts);
  if ((opts.host === undefined || opts.host === null) && opts.path === undefined) opts.host = "localhost";
  if (opts.servername === undefined && opts.host) opts.servername = opts.host;
  const s = new TLSSocket(null, opts);
  s.servername = opts.servername && !net.isIP(opts.servername) ? opts.servername : undefined;
  return s.connect(opts, cb);
}

// checkServerIdentity checks host against the certificate's names, as
// Node's default does (wildcards only in the first label).
function checkServerIdentity(host, cert) {
  const alt = String(cert.subjectaltname || "").split(", ").filter(Boolean);
  const dns = alt.filter((a) => a.startsWith("DNS:")).map((a) => a.slice(4).toLowerCase());
  const ips = alt.filter((a) => a.startsWith("IP Address:")).map((a) => a.slice(11));
  host = String(host).toLowerCase();
  let ok;
  if (net.isIP(host)) ok = ips.includes(host);
  else {
    const names = dns.length ? dns : cert.subject && cert.subject.CN ? [String(cert.subject.CN).toLowerCase()] : [];
    ok = names.some((n) => n === host || (n.startsWith("*.") && host.split(".").slice(1).join(".") === n.slice(2) && host.split(".").length > 2));
  }
  if (ok) return undefined;
  const e = codeErr(Error, "ERR_TLS_CERT_ALTNAME_INVALID", "Hostname/IP does not match certificate's altnames: " + (net.isIP(host) ? "IP: " + host + " is not in the cert's list: " + ips.join(", ") : "Host: " + host + ". is not in the cert's altnames: " + alt.join(", ")));
  e.reason = e.message.slice(e.message.indexOf(": ") + 2); e.host = host; e.cert = cert;
  return e;
}

let roots;
module.exports = {
  connect, TLSSocket, SecureContext, createSecureContext, checkServerIdentity,
  createServer() { throw notSupported("tls.createServer"); },
  Server: function Server() { throw notSupported("tls.Server"); },
  getCiphers: () => ["aes128-gcm-sha256", "aes256-gcm-sha384", "chacha20-poly1305", "ecdhe-ecdsa-aes128-gcm-sha256", "ecdhe-ecdsa-aes256-gcm-sha384", "ecdhe-ecdsa-chacha20-poly1305", "ecdhe-rsa-aes128-gcm-sha256", "ecdhe-rsa-aes256-gcm-sha384", "ecdhe-rsa-chacha20-poly1305", "tls_aes_128_gcm_sha256", "tls_aes_256_gcm_sha384", "tls_chacha20_poly1305_sha256"],
  DEFAULT_MIN_VERSION: "TLSv1.2", DEFAULT_MAX_VERSION: "TLSv1.3", DEFAULT_ECDH_CURVE: "auto", DEFAULT_CIPHERS: "TLS_AES_256_GCM_SHA384:TLS_CHACHA20_POLY1305_SHA256:TLS_AES_128_GCM_SHA256",
  CLIENT_RENEG_LIMIT: 3, CLIENT_RENEG_WINDOW: 600,
};
Object.defineProperty(module.exports, "rootCertificates", { enumerable: true, get: () => roots || (roots = Object.freeze(__host.rootCertificates())) });
