// net: TCP and Unix-socket echo round trips (server and client in one
// script, 127.0.0.1 only), error shapes, isIP. Prints no ports.
const net = require("net");
const os = require("os");
const path = require("path");
const fs = require("fs");
const log = (...a) => console.log(...a);
// Sockets on both ends run concurrently, so each actor's events are kept
// apart and printed together: the order within one socket is Node's, the
// interleaving across sockets is not part of the contract.
const actors = new Map();
const note = (who, ...a) => { if (!actors.has(who)) actors.set(who, []); actors.get(who).push(a.join(" ")); };
const flush = () => { for (const [who, lines] of [...actors].sort()) for (const l of lines) log(who + ":", l); actors.clear(); };
const shape = (e) => JSON.stringify(Object.assign({ message: e.message.replace(/:\d+$/, ":PORT") }, e, e.port > 0 ? { port: "PORT" } : {}));
log("isIP", net.isIP("127.0.0.1"), net.isIP("::1"), net.isIP("x"), net.isIPv4("1.2.3.4"), net.isIPv6("fe80::1%eth0"), net.isIPv6("1.2.3.4"));
for (const bad of [70000, -1, "x", 1.5]) {
  try { net.createConnection({ port: bad }); } catch (e) { log("bad port", e.name, e.code, e.message); }
}
try { net.createConnection({}); } catch (e) { log("no args", e.name, e.code, e.message); }
try { net.createConnection({ path: 5 }); } catch (e) { log("bad path", e.name, e.code, e.message); }

function echoServer(onListen) {
  const srv = net.createServer((sock) => {
    note("server", "connection", typeof sock.remotePort, sock.remoteAddress === undefined ? "no remote address" : "remote address");
    sock.on("data", (d) => sock.write(d));
    sock.on("end", () => { note("server", "end"); sock.end(); });
    sock.on("close", (hadErr) => note("server", "socket close", hadErr));
  });
  srv.on("listening", () => note("server", "listening event"));
  return srv;
}

function tcp(next) {
  const srv = echoServer();
  srv.listen(0, "127.0.0.1", () => {
    const a = srv.address();
    log("tcp address", a.address, a.family, typeof a.port, a.port > 0);
    const c = net.createConnection({ port: a.port, host: "127.0.0.1" }, () => {
      note("client", "connect cb", c.remoteAddress, c.remotePort === a.port, c.remoteFamily, c.localAddress, typeof c.localPort);
      log("client address", c.address().address, c.address().family);
      c.setNoDelay(true); c.setKeepAlive(true, 1000);
      c.write("hello ", () => note("client", "write cb"));
      c.write(Buffer.from("world"));
      c.end();
    });
    c.on("ready", () => note("client", "ready"));
    c.setEncoding("utf8");
    let got = "";
    c.on("data", (d) => { if (!got) note("client", "data type", typeof d); got += d; });
    c.on("end", () => note("client", "end", JSON.stringify(got)));
    c.on("close", (hadErr) => {
      note("client", "close", hadErr, "bytes", c.bytesRead, c.bytesWritten);
      srv.close(() => { note("server", "closed", srv.address()); flush(); next(); });
    });
  });
}

function refused(next) {
  // Find a free port by listening and closing, then connect to it.
  const probe = net.createServer().listen(0, "127.0.0.1", () => {
    const port = probe.address().port;
    probe.close(() => {
      const c = net.connect(port, "127.0.0.1");
      c.on("error", (e) => log("refused", shape(e)));
      c.on("close", (hadErr) => { log("refused close", hadErr); next(); });
    });
  });
}

function inUse(next) {
  const a = net.createServer().listen(0, "127.0.0.1", () => {
    const b = net.createServer();
    b.on("error", (e) => { log("in use", shape(e)); a.close(next); });
    b.listen(a.address().port, "127.0.0.1");
  });
}

function unix(next) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "pi-net-"));
  const p = path.join(dir, "echo.sock");
  const missing = net.createConnection(path.join(dir, "missing.sock"));
  missing.on("error", (e) => {
    log("unix missing", JSON.stringify(Object.assign({ message: e.message.replace(dir, "DIR") }, e, { address: e.address.replace(dir, "DIR") })));
    const srv = echoServer();
    srv.listen(p, () => {
      log("unix address", srv.address() === p);
      const c = net.createConnection({ path: p });
      c.on("connect", () => { note("unix client", "connect"); c.write("over unix"); });
      c.on("data", (d) => { note("unix client", "data", d.toString()); c.end(); });
      c.on("end", () => note("unix client", "end"));
      c.on("close", () => {
        note("unix client", "close");
        const again = net.createServer();
        again.on("error", (e) => {
          log("unix in use", e.code, e.syscall, e.message.replace(dir, "DIR"));
          srv.close(() => { flush(); log("unix server closed, file removed", !fs.existsSync(p)); fs.rmSync(dir, { recursive: true }); next(); });
        });
        again.listen(p);
      });
    });
  });
}

function destroyAndTimeout(next) {
  const srv = net.createServer((sock) => { sock.on("error", () => {}); });
  srv.listen(0, "127.0.0.1", () => {
    const c = net.connect(srv.address().port, "127.0.0.1");
    c.setTimeout(20);
    c.on("timeout", () => { log("timeout fired"); c.destroy(new Error("gave up")); });
    c.on("error", (e) => log("destroy error", e.message));
    c.on("close", (hadErr) => {
      log("destroyed close", hadErr, c.destroyed);
      c.write("late", (e) => { log("write after destroy", e && e.code); srv.close(next); });
    });
  });
}

function aborted(next) {
  const ac = new AbortController();
  const srv = net.createServer();
  srv.on("close", () => { log("server closed by signal", srv.listening); next(); });
  srv.listen({ port: 0, host: "127.0.0.1", signal: ac.signal }, () => {
    const ac2 = new AbortController();
    const c = new net.Socket({ signal: ac2.signal });
    c.on("error", (e) => log("socket error", e.name, e.code));
    c.on("close", (h) => { log("socket close", h); ac.abort(); });
    c.connect(srv.address().port, "127.0.0.1", () => ac2.abort());
  });
}

tcp(() => refused(() => inUse(() => unix(() => destroyAndTimeout(() => aborted(() => log("done")))))));
