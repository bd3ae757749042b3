// tls: a handshake against a local test server whose port and CA the Go
// test passes in PI_TLS_PORT and PI_TLS_CA (node_net_test.go); the
// verified round trip, the untrusted and wrong-name failures, and
// rejectUnauthorized: false.
const tls = require("tls");
const log = (...a) => console.log(...a);
const port = +process.env.PI_TLS_PORT;
const ca = process.env.PI_TLS_CA;

function trusted(next) {
  const s = tls.connect({ host: "127.0.0.1", port, ca: [ca] }, () => {
    log("secureConnect", s.authorized, s.authorizationError, s.encrypted, s.getProtocol());
    const c = s.getPeerCertificate();
    log("peer", JSON.stringify(c.subject), JSON.stringify(c.issuer), c.subjectaltname, c.ca, typeof c.fingerprint256, c.fingerprint256.split(":").length, Buffer.isBuffer(c.raw), typeof c.valid_to);
    const d = s.getPeerCertificate(true);
    log("detailed", d.issuerCertificate === d.issuerCertificate.issuerCertificate, JSON.stringify(d.issuerCertificate.subject));
    s.write("GET / HTTP/1.1\r\nHost: example.com\r\nConnection: close\r\n\r\n");
  });
  s.on("connect", () => log("connect before secure", s.authorized));
  let got = "";
  s.setEncoding("utf8");
  s.on("data", (d) => { got += d; });
  s.on("end", () => {
    const lines = got.split("\r\n");
    log("status", lines[0], "body", JSON.stringify(got.slice(got.indexOf("\r\n\r\n") + 4)));
  });
  s.on("close", (hadErr) => { log("close", hadErr); next(); });
}

function untrusted(next) {
  const s = tls.connect(port, "127.0.0.1", () => log("unexpected secureConnect"));
  s.on("error", (e) => log("untrusted", e.code, e.message, e.errno, e.syscall));
  s.on("close", (hadErr) => { log("untrusted close", hadErr); next(); });
}

function wrongName(next) {
  const s = tls.connect({ host: "127.0.0.1", port, ca, servername: "wrong.example" }, () => log("unexpected secureConnect"));
  s.on("error", (e) => log("wrong name", e.code, e.name));
  s.on("close", () => next());
}

function insecure(next) {
  const s = tls.connect({ host: "127.0.0.1", port, rejectUnauthorized: false }, () => {
    log("insecure", s.authorized, s.authorizationError);
    s.end();
  });
  s.on("data", () => {});
  s.on("close", () => next());
}

trusted(() => untrusted(() => wrongName(() => insecure(() => log("done")))));
