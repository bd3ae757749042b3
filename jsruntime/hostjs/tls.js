// node:tls clients over Go's crypto/tls (__host.connect: net's dial plus
// a handshake). A TLSSocket is net's Socket whose 'secureConnect' follows
// 'connect'; servers are not available (createServer throws).
"use strict";
const net = require("net");
const { _codeErr: codeErr } = net;
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
  // getPeerCertificate(true) links each certificate to its issuer
  // (issuerCertificate), the last one, as in Node, to itself.
  getPeerCertificate(detailed) {
    const chain = this._tls ? this._tls.peerChain : [];
    if (!chain.length) return {};
    if (!detailed) return Object.assign({}, chain[0]);
    const copies = chain.map((c) => Object.assign({}, c));
    copies.forEach((c, i) => { c.issuerCertificate = copies[i + 1] || c; });
    return copies[0];
  }
  getPeerX509Certificate() { throw notSupported("tlsSocket.getPeerX509Certificate (crypto.X509Certificate)"); }
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
  if (opts.ca === undefined && defaultCA) opts.ca = defaultCA;
  if (Buffer.isBuffer(opts.ALPNProtocols)) {
    // The wire form: split it back into names for Go.
    const names = [];
    for (let i = 0; i < opts.ALPNProtocols.length; i += 1 + opts.ALPNProtocols[i]) names.push(opts.ALPNProtocols.slice(i + 1, i + 1 + opts.ALPNProtocols[i]).toString());
    opts.ALPNProtocols = names;
  }
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

let roots, defaultCA = null;
const systemRoots = () => roots || (roots = Object.freeze(__host.rootCertificates()));

// getCACertificates: this runtime verifies against the system store, so
// "default", "system" and "bundled" are all that store; "extra" is
// NODE_EXTRA_CA_CERTS's file.
function getCACertificates(type = "default") {
  if (type === "default") return defaultCA ? defaultCA.slice() : systemRoots().slice();
  if (type === "system" || type === "bundled") return systemRoots().slice();
  if (type === "extra") {
    const file = process.env.NODE_EXTRA_CA_CERTS;
    if (!file) return [];
    const text = require("fs").readFileSync(file, "utf8");
    return text.match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g) || [];
  }
  throw codeErr(TypeError, "ERR_INVALID_ARG_VALUE", "The argument 'type' must be one of: 'default', 'system', 'bundled', 'extra'. Received '" + type + "'");
}
function setDefaultCACertificates(certs) {
  if (!Array.isArray(certs)) throw net._invalidArg("certs", "an instance of Array", certs);
  defaultCA = certs.map((c) => String(c));
}
// convertALPNProtocols writes the wire form (length-prefixed names) of
// protocols into out.ALPNProtocols.
function convertALPNProtocols(protocols, out) {
  if (Array.isArray(protocols)) {
    const parts = [];
    for (const p of protocols) { const b = Buffer.from(p); if (b.length > 255) throw codeErr(RangeError, "ERR_OUT_OF_RANGE", 'The byte length of the protocol at index 0 exceeds the maximum length. It must be <= 255. Received ' + b.length); parts.push(Buffer.from([b.length]), b); }
    out.ALPNProtocols = Buffer.concat(parts);
  } else if (protocols instanceof Uint8Array) out.ALPNProtocols = Buffer.from(protocols);
}

module.exports = {
  CLIENT_RENEG_LIMIT: 3, CLIENT_RENEG_WINDOW: 600,
  DEFAULT_CIPHERS: "TLS_AES_256_GCM_SHA384:TLS_CHACHA20_POLY1305_SHA256:TLS_AES_128_GCM_SHA256", DEFAULT_ECDH_CURVE: "auto", DEFAULT_MIN_VERSION: "TLSv1.2", DEFAULT_MAX_VERSION: "TLSv1.3",
  getCiphers: () => ["aes128-gcm-sha256", "aes256-gcm-sha384", "chacha20-poly1305", "ecdhe-ecdsa-aes128-gcm-sha256", "ecdhe-ecdsa-aes256-gcm-sha384", "ecdhe-ecdsa-chacha20-poly1305", "ecdhe-rsa-aes128-gcm-sha256", "ecdhe-rsa-aes256-gcm-sha384", "ecdhe-rsa-chacha20-poly1305", "tls_aes_128_gcm_sha256", "tls_aes_256_gcm_sha384", "tls_chacha20_poly1305_sha256"],
};
Object.defineProperty(module.exports, "rootCertificates", { enumerable: true, get: systemRoots });
Object.assign(module.exports, {
  getCACertificates, setDefaultCACertificates, convertALPNProtocols, checkServerIdentity, createSecureContext, SecureContext, TLSSocket,
  Server: function Server() { throw notSupported("tls.Server"); },
  createServer() { throw notSupported("tls.createServer"); },
  connect,
  createSecurePair() { throw notSupported("tls.createSecurePair"); },
});
