// fs file descriptors, open flags, FileHandle and ranged streams. Paths are
// printed relative to a fresh temp dir.
const fs = require("fs");
const fsp = require("fs/promises");
const path = require("path");
const os = require("os");
const out = [];
const p = (...a) => out.push(a.map((x) => typeof x === "string" ? x : x === undefined ? "undefined" : JSON.stringify(x)).join(" | "));
const base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "compat-fd-")));
const rel = (s) => typeof s === "string" ? s.split(base).join("<T>") : s;
const err = (e) => e ? [e.constructor.name, e.code, e.errno, e.syscall, rel(e.path), rel(e.message)].map(String).join(",") : "no error";
const tryErr = (f) => { try { f(); return "no error"; } catch (e) { return err(e); } };
const J = (...s) => path.join(base, ...s);
(async () => {
  // A write/read cycle on one descriptor.
  const fd = fs.openSync(J("a.txt"), "w+");
  p(typeof fd, fd > 2);
  p(fs.writeSync(fd, "hello "), fs.writeSync(fd, Buffer.from("world!")), fs.writeSync(fd, "XY", 0), fs.writeSync(fd, Buffer.from("--abc--"), 2, 3, 12));
  const buf = Buffer.alloc(20);
  p(fs.readSync(fd, buf, 0, 20, 0), buf.toString("utf8", 0, 15));
  p(fs.readSync(fd, buf, { position: 6, length: 5 }), buf.toString("utf8", 0, 5));
  p(fs.readSync(fd, buf, 2, 3, 0), buf.toString("utf8", 0, 5));
  const st = fs.fstatSync(fd);
  p(st.size, st.isFile(), st.constructor.name);
  p(fs.ftruncateSync(fd, 5), fs.fstatSync(fd).size, fs.fsyncSync(fd), fs.fdatasyncSync(fd));
  p(fs.closeSync(fd));
  p(tryErr(() => fs.closeSync(fd)));
  p(tryErr(() => fs.readSync(fd, buf, 0, 1, 0)));
  p(tryErr(() => fs.fstatSync(fd)));
  p(tryErr(() => fs.writeSync(fd, "x")));
  p(fs.readFileSync(J("a.txt"), "utf8"));
  // Argument errors.
  const efd = fs.openSync(J("r.txt"), "w+");
  for (const f of [() => fs.readSync(efd, Buffer.alloc(4), 5, 1, 0), () => fs.readSync(efd, Buffer.alloc(4), 0, 9, 0), () => fs.writeSync(efd, Buffer.alloc(4), 2, 5),
    () => fs.readSync(efd, "x"), () => fs.openSync(J("r.txt"), "r", "zz"), () => fs.read(efd, Buffer.alloc(1), 0, 1, 0), () => fs.readSync(efd, Buffer.alloc(4), -1, 1, 0),
    () => fs.readSync(efd, Buffer.alloc(4), 0, -1, 0), () => fs.writeSync(efd, Buffer.alloc(4), -1, 1), () => fs.writeSync(efd, Buffer.alloc(4), 5, 1), () => fs.writeSync(efd, Buffer.alloc(4), 0, -2)]) {
    p(tryErr(f));
  }
  fs.closeSync(efd);
  // Flags.
  p(tryErr(() => fs.openSync(J("missing.txt"), "r")));
  p(tryErr(() => fs.openSync(J("missing.txt"))));
  p(tryErr(() => fs.openSync(J("a.txt"), "wx")));
  p(tryErr(() => fs.openSync(J("a.txt"), "ax")));
  p(tryErr(() => fs.openSync(J("nodir/x"), "w")));
  p(tryErr(() => fs.openSync(J("a.txt"), "zz")));
  const dfd = fs.openSync(base, "r");
  p(tryErr(() => fs.readSync(dfd, buf, 0, 1, 0)));
  fs.closeSync(dfd);
  p(tryErr(() => fs.openSync(base, "w")));
  const afd = fs.openSync(J("a.txt"), "a");
  fs.writeSync(afd, "+app");
  fs.writeSync(afd, "!", 0);
  fs.closeSync(afd);
  p(fs.readFileSync(J("a.txt"), "utf8"));
  const rfd = fs.openSync(J("a.txt"), "r+");
  fs.writeSync(rfd, "H");
  fs.closeSync(rfd);
  p(fs.readFileSync(J("a.txt"), "utf8"));
  const nfd = fs.openSync(J("num.txt"), fs.constants.O_CREAT | fs.constants.O_WRONLY | fs.constants.O_TRUNC, 0o600);
  fs.writeSync(nfd, "numeric");
  fs.closeSync(nfd);
  p(fs.readFileSync(J("num.txt"), "utf8"), (fs.statSync(J("num.txt")).mode & 0o777).toString(8));
  const xfd = fs.openSync(J("x.txt"), "wx", 0o640);
  fs.closeSync(xfd);
  p((fs.statSync(J("x.txt")).mode & 0o777).toString(8));
  // writeFile/readFile/appendFile with an fd, flags and modes.
  const wfd = fs.openSync(J("w.txt"), "w+");
  fs.writeFileSync(wfd, "first");
  fs.appendFileSync(wfd, "+second");
  p(fs.readFileSync(J("w.txt"), "utf8"), fs.readFileSync(wfd, "utf8"));
  p(fs.readSync(wfd, buf, 0, 5, 0), fs.readFileSync(wfd, "utf8"));
  fs.closeSync(wfd);
  p(tryErr(() => fs.writeFileSync(J("w.txt"), "again", { flag: "wx" })));
  p(tryErr(() => fs.writeFileSync(J("w2.txt"), "new", { flag: "wx" })), fs.readFileSync(J("w2.txt"), "utf8"));
  fs.writeFileSync(J("w.txt"), "more", { flag: "a" });
  p(fs.readFileSync(J("w.txt"), { encoding: "utf8", flag: "r" }));
  p(tryErr(() => fs.readFileSync(J("w.txt"), { flag: "wx" })));
  fs.writeFileSync(J("m.txt"), "m", { mode: 0o600 });
  fs.mkdirSync(J("mdir"), { mode: 0o700 });
  fs.mkdirSync(J("mdir2"), 0o750);
  p((fs.statSync(J("m.txt")).mode & 0o777).toString(8), (fs.statSync(J("mdir")).mode & 0o777).toString(8), (fs.statSync(J("mdir2")).mode & 0o777).toString(8));
  // Callback forms.
  const cb = (name, ...args) => new Promise((res) => fs[name](...args, (e, ...v) => res(e ? ["ERR " + err(e)] : v)));
  const [cfd] = await cb("open", J("c.txt"), "w+");
  p(typeof cfd);
  p(await cb("write", cfd, Buffer.from("callback data"), 0, 13, 0).then(([n, b]) => [n, Buffer.isBuffer(b)]));
  p(await cb("write", cfd, "!", 13, "utf8"));
  const cbuf = Buffer.alloc(8);
  p(await cb("read", cfd, cbuf, 0, 8, 9).then(([n, b]) => [n, b === cbuf, b.toString("utf8", 0, n)]));
  p(await cb("read", cfd, { buffer: cbuf, position: 0, length: 4 }).then(([n, b]) => [n, b.toString("utf8", 0, n)]));
  p(await cb("fstat", cfd).then(([s]) => s.size), await cb("ftruncate", cfd, 8), await cb("fsync", cfd), await cb("fdatasync", cfd));
  p(await cb("readFile", cfd, "utf8"));
  p(await cb("close", cfd), await cb("close", cfd), await cb("fstat", 9999));
  p(await cb("open", J("missing"), "r"), await cb("writeFile", J("c.txt"), "z", { flag: "wx" }));
  p(fs.readFileSync(J("c.txt"), "utf8"));
  // FileHandle.
  const fh = await fsp.open(J("h.txt"), "w+");
  p(typeof fh.fd, fh.constructor.name);
  p(await fh.write("handle text"), await fh.write(Buffer.from("HT"), 0, 2, 0).then((r) => [r.bytesWritten, Buffer.isBuffer(r.buffer)]));
  const hb = Buffer.alloc(11);
  p(await fh.read(hb, 0, 11, 0).then((r) => [r.bytesRead, r.buffer.toString()]));
  p(await fh.read({ buffer: Buffer.alloc(4), position: 7 }).then((r) => [r.bytesRead, r.buffer.toString()]));
  p((await fh.stat()).size, await fh.truncate(6), (await fh.stat()).size);
  p(await fh.readFile("utf8"), await fh.readFile({ encoding: "utf8" }));
  await fh.writeFile("rewritten");
  p(JSON.stringify(fs.readFileSync(J("h.txt"), "utf8")));
  p(await fh.close(), await fh.close().then(() => "closed again", err));
  p(await fh.stat().then(() => "no error", err));
  p(await fsp.open(J("h.txt"), "wx").then(() => "no error", err));
  p(await fsp.open(J("missing")).then(() => "no error", err));
  const rh = await fsp.open(J("h.txt"));
  p(JSON.stringify(await rh.readFile("utf8")));
  await rh.close();
  // Streams with start, end, fd and flags.
  fs.writeFileSync(J("s.txt"), "0123456789abcdefghij");
  const take = (s) => new Promise((res, rej) => { const c = []; s.on("data", (d) => c.push(d.toString())).on("end", () => res(c.join(""))).on("error", (e) => res(err(e))); });
  p(await take(fs.createReadStream(J("s.txt"), { start: 3, end: 7 })));
  p(await take(fs.createReadStream(J("s.txt"), { start: 15 })));
  p(await take(fs.createReadStream(J("s.txt"), { end: 2 })));
  p(await take(fs.createReadStream(J("s.txt"), { start: 2, end: 12, highWaterMark: 4 })));
  const sfd = fs.openSync(J("s.txt"), "r");
  const fsr = fs.createReadStream(null, { fd: sfd, start: 10 });
  p(await take(fsr), fsr instanceof fs.ReadStream, fsr.bytesRead);
  p(await take(fs.createReadStream(J("missing"))));
  const ws = fs.createWriteStream(J("s.txt"), { flags: "r+", start: 5 });
  await new Promise((res) => { ws.write("ABC"); ws.end("D", res); });
  p(fs.readFileSync(J("s.txt"), "utf8"), ws.bytesWritten, ws instanceof fs.WriteStream);
  const ws2 = fs.createWriteStream(J("s.txt"), { flags: "a" });
  await new Promise((res) => { ws2.write("+"); ws2.end(res); });
  p(fs.readFileSync(J("s.txt"), "utf8"));
  const wfd2 = fs.openSync(J("s2.txt"), "w");
  const ws3 = fs.createWriteStream(null, { fd: wfd2 });
  // (Node may call end's callback before the stream closes its fd, so wait for 'close'.)
  await new Promise((res) => { ws3.write("via fd"); ws3.end(); ws3.on("close", res); });
  p(fs.readFileSync(J("s2.txt"), "utf8"), tryErr(() => fs.closeSync(wfd2)));
  const ws4 = fs.createWriteStream(J("s.txt"), { flags: "wx" });
  p(await new Promise((res) => ws4.on("error", (e) => res(err(e))).on("open", () => res("opened"))));
  fs.rmSync(base, { recursive: true, force: true });
  console.log(out.join("\n"));
})().catch((e) => console.log("FAILED", e && e.stack || e));
