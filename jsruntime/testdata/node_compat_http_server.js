// http servers: a server on 127.0.0.1 answering requests made with
// http.request and fetch — request line, headers (duplicates, case),
// bodies by Content-Length and chunked, response framing (Content-Length
// from end(), chunked after write()), HEAD and 204 without bodies, status
// validation, header errors, keep-alive reuse, close. Prints no ports or
// dates.
const http = require("http");
const log = (...a) => console.log(...a);
const seen = [];
const srv = http.createServer((req, res) => {
  let body = "";
  req.setEncoding("utf8");
  req.on("data", (d) => { body += d; });
  req.on("end", () => {
    seen.push([req.method, req.url, req.httpVersion, req.headers["x-dup"], req.headers["content-type"], body, req.complete].join(" | "));
    if (req.url === "/json") {
      res.setHeader("Content-Type", "application/json");
      res.setHeader("X-Multi", ["a", "b"]);
      res.end(JSON.stringify({ ok: true, body }));
    } else if (req.url === "/chunked") {
      res.writeHead(201, { "X-Step": "1" });
      res.write("part one, ");
      res.write("part two");
      res.end();
    } else if (req.url === "/empty") {
      res.statusCode = 204;
      res.end("ignored");
    } else if (req.url === "/head") {
      res.end("not for HEAD");
    } else if (req.url === "/errors") {
      const out = [];
      for (const f of [() => res.setHeader("bad name", "x"), () => res.setHeader("X-Ok", undefined), () => res.setHeader("X-Nl", "a\nb"), () => res.writeHead(42)]) {
        try { f(); out.push("no error"); } catch (e) { out.push(e.code); }
      }
      res.end(out.join(","));
      try { res.setHeader("X-Late", "1"); } catch (e) { log("late header", e.code); }
    } else {
      res.statusCode = 404;
      res.statusMessage = "Nope";
      res.end("missing " + req.url);
    }
  });
});
log("listening before", srv.listening);
srv.listen(0, "127.0.0.1", async () => {
  const { port } = srv.address();
  log("listening", srv.listening, typeof port);
  const base = "http://127.0.0.1:" + port;
  const show = async (label, p) => {
    const r = await p;
    const h = (k) => r.headers.get(k);
    log(label, r.status, r.statusText, JSON.stringify(await r.text()), h("content-type"), h("content-length"), h("transfer-encoding"), h("x-multi"), h("x-step"), h("connection"), typeof h("date"));
  };
  await show("json", fetch(base + "/json", { method: "POST", headers: { "Content-Type": "text/plain", "X-Dup": "one" }, body: "hello" }));
  await show("chunked", fetch(base + "/chunked"));
  await show("empty", fetch(base + "/empty"));
  await show("head", fetch(base + "/head", { method: "HEAD" }));
  await show("errors", fetch(base + "/errors"));
  await show("missing", fetch(base + "/nothing?q=1"));
  await new Promise((resolve) => {
    const req = http.request({ host: "127.0.0.1", port, path: "/json", method: "PUT", headers: { "Content-Type": "application/x-test" } }, (res) => {
      let data = "";
      res.on("data", (d) => { data += d; });
      res.on("end", () => { log("http.request", res.statusCode, res.headers["content-type"], data); resolve(); });
    });
    req.write("streamed ");
    req.end("body");
  });
  // Raw sockets: a chunked request body, two pipelined requests on one
  // keep-alive connection, then a malformed request line.
  const raw = (label, text) => new Promise((resolve) => {
    const net = require("net");
    const c = net.createConnection({ port, host: "127.0.0.1" });
    let got = "";
    c.on("data", (d) => { got += d; });
    c.on("close", () => {
      const norm = got.replace(/Date: [^\r]*\r\n/g, "").replace(/\r\n/g, "\\r\\n");
      log(label, norm);
      resolve();
    });
    c.write(text);
  });
  await raw("raw chunked", "POST /json HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n5\r\nhello\r\n6;ext=1\r\n world\r\n0\r\n\r\n");
  await raw("raw pipelined", "GET /nothing HTTP/1.1\r\nHost: x\r\n\r\nGET /json HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
  await raw("raw http/1.0", "GET /nothing HTTP/1.0\r\n\r\n");
  await raw("raw malformed", "NOT A REQUEST\r\n\r\n");
  for (const s of seen) log("server saw", s);
  srv.close(() => log("closed", srv.listening, srv.address()));
});
