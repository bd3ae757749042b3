// The export surface (names and typeof) of the modules added with net:
// net, tls, dns, dns/promises, punycode, tty, diagnostics_channel, v8, vm;
// and the prototype methods of net.Socket, net.Server and tls.TLSSocket.
const log = (...a) => console.log(...a);
for (const m of ["net", "tls", "dns", "dns/promises", "punycode", "tty", "diagnostics_channel", "v8", "vm"]) {
  const mod = require(m);
  log(m, Object.keys(mod).filter((k) => !k.startsWith("_")).map((k) => k + ":" + typeof mod[k]).join(" "));
}
const protoNames = (C) => {
  const out = new Set();
  for (let p = C.prototype; p && p !== Object.prototype && p !== require("events").prototype; p = Object.getPrototypeOf(p)) for (const k of Object.getOwnPropertyNames(p)) if (!k.startsWith("_") && k !== "constructor") out.add(k);
  return [...out].sort();
};
const net = require("net"), tls = require("tls");
const want = ["address", "connect", "destroy", "end", "pause", "ref", "resume", "setEncoding", "setKeepAlive", "setNoDelay", "setTimeout", "unref", "write", "pipe", "destroySoon", "resetAndDestroy"];
log("Socket has", want.map((k) => k + ":" + (typeof net.Socket.prototype[k])).join(" "));
log("Server has", ["address", "close", "getConnections", "listen", "ref", "unref"].map((k) => k + ":" + typeof net.Server.prototype[k]).join(" "));
log("TLSSocket has", ["getPeerCertificate", "getProtocol", "getCipher", "getSession", "isSessionReused", "setServername", "exportKeyingMaterial", "renegotiate", "setMaxSendFragment", "disableRenegotiation"].map((k) => k + ":" + typeof tls.TLSSocket.prototype[k]).join(" "));
log("TLSSocket is a net.Socket", tls.TLSSocket.prototype instanceof net.Socket, new net.Socket() instanceof require("stream").Duplex);
const s = new net.Socket();
log("fresh socket", s.connecting, s.pending, s.readyState, s.destroyed, s.bytesRead, s.bytesWritten, s.remoteAddress, JSON.stringify(s.address()));
const srv = net.createServer();
log("fresh server", srv.listening, srv.address());
