// fs, fs/promises and fs streams as extensions use them. Paths are printed
// relative to a fresh temp dir so the output does not depend on where it runs.
const fs = require("fs");
const fsp = require("fs/promises");
const path = require("path");
const os = require("os");
const out = [];
const p = (...a) => out.push(a.map((x) => typeof x === "string" ? x : x === undefined ? "undefined" : JSON.stringify(x)).join(" | "));
const base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "compat-")));
const rel = (s) => typeof s === "string" ? s.split(base).join("<T>") : s;
const err = (e) => e ? [e.constructor.name, e.code, e.errno, e.syscall, rel(e.path), rel(e.message)].map(String).join(",") : "no error";
const tryErr = (f) => { try { f(); return "no error"; } catch (e) { return err(e); } };
const J = (...s) => path.join(base, ...s);
(async () => {
  // Sync API.
  p(typeof fs.mkdtempSync, path.basename(base).startsWith("compat-"), path.basename(base).length);
  p(rel(fs.mkdirSync(J("a/b/c"), { recursive: true })), fs.mkdirSync(J("a/b"), { recursive: true }), fs.mkdirSync(J("plain")));
  fs.writeFileSync(J("a/f.txt"), "héllo\nworld\n");
  p(fs.readFileSync(J("a/f.txt"), "utf8"), fs.readFileSync(J("a/f.txt"), { encoding: "utf-8" }).length);
  const buf = fs.readFileSync(J("a/f.txt"));
  p(Buffer.isBuffer(buf), buf.length, buf.toString("hex").slice(0, 8), fs.readFileSync(J("a/f.txt"), "base64"), fs.readFileSync(J("a/f.txt"), "latin1").length);
  fs.appendFileSync(J("a/f.txt"), "more");
  fs.appendFileSync(J("a/new.txt"), Buffer.from("buf"));
  p(fs.readFileSync(J("a/f.txt"), "utf8").split("\n"), fs.readFileSync(J("a/new.txt"), "utf8"));
  fs.writeFileSync(J("a/u8.bin"), new Uint8Array([1, 2, 3]));
  p([...fs.readFileSync(J("a/u8.bin"))]);
  p(fs.readdirSync(J("a")).sort(), fs.readdirSync(J("a"), { withFileTypes: true }).map((d) => [d.name, d.isFile(), d.isDirectory(), d.isSymbolicLink()]).sort());
  const ents = fs.readdirSync(J("a"), { withFileTypes: true });
  p(typeof ents[0].name, rel(ents[0].parentPath), ents[0].constructor.name);
  const st = fs.statSync(J("a/f.txt"));
  p(st.size, st.isFile(), st.isDirectory(), st.isSymbolicLink(), typeof st.mtimeMs, st.mtime instanceof Date, typeof st.mode, (st.mode & 0o170000) === 0o100000, typeof st.ino, typeof st.nlink, st.constructor.name);
  p(fs.statSync(J("a")).isDirectory(), (fs.statSync(J("a")).mode & 0o170000) === 0o040000, typeof st.blksize, typeof st.blocks, typeof st.dev, typeof st.uid);
  fs.symlinkSync(J("a/f.txt"), J("link"));
  fs.symlinkSync("a", J("dirlink"));
  p(fs.lstatSync(J("link")).isSymbolicLink(), fs.statSync(J("link")).isSymbolicLink(), fs.lstatSync(J("link")).isFile(), rel(fs.readlinkSync(J("link"))), fs.readlinkSync(J("dirlink")));
  p(rel(fs.realpathSync(J("dirlink/b/../f.txt"))), rel(fs.realpathSync.native(J("link"))));
  p(fs.existsSync(J("a")), fs.existsSync(J("nope")), fs.existsSync(""), fs.existsSync(undefined), fs.existsSync(J("link")));
  fs.renameSync(J("a/new.txt"), J("a/renamed.txt"));
  fs.copyFileSync(J("a/renamed.txt"), J("copy.txt"));
  p(fs.existsSync(J("a/new.txt")), fs.readFileSync(J("copy.txt"), "utf8"), fs.accessSync(J("copy.txt")), fs.accessSync(J("copy.txt"), fs.constants.R_OK | fs.constants.W_OK));
  p(fs.constants.F_OK, fs.constants.R_OK, fs.constants.W_OK, fs.constants.X_OK, fs.constants.COPYFILE_EXCL, fs.constants.O_CREAT, fs.constants.O_APPEND);
  // Errors: Node's code, errno, syscall, path and message.
  p(tryErr(() => fs.readFileSync(J("missing.txt"))));
  p(tryErr(() => fs.readFileSync(J("a"))));
  p(tryErr(() => fs.mkdirSync(J("a"))));
  p(tryErr(() => fs.statSync(J("missing"))));
  p(tryErr(() => fs.lstatSync(J("missing"))));
  p(tryErr(() => fs.readdirSync(J("missing"))));
  p(tryErr(() => fs.readdirSync(J("copy.txt"))));
  p(tryErr(() => fs.unlinkSync(J("missing"))));
  p(tryErr(() => fs.renameSync(J("missing"), J("x"))));
  p(tryErr(() => fs.copyFileSync(J("missing"), J("x"))));
  p(tryErr(() => fs.accessSync(J("missing"))));
  p(tryErr(() => fs.rmdirSync(J("a"))));
  p(tryErr(() => fs.rmSync(J("a"))));
  p(tryErr(() => fs.rmSync(J("missing"))));
  p(tryErr(() => fs.rmSync(J("missing"), { force: true })));
  p(tryErr(() => fs.writeFileSync(J("nodir/x.txt"), "x")));
  p(tryErr(() => fs.mkdirSync(J("nodir/x"))));
  p(tryErr(() => fs.realpathSync(J("missing"))));
  p(tryErr(() => fs.readlinkSync(J("copy.txt"))));
  p(tryErr(() => fs.symlinkSync("x", J("link"))));
  p(tryErr(() => fs.writeFileSync(J("a"), "x")));
  const e1 = (() => { try { fs.readFileSync(J("missing.txt")); } catch (e) { return e; } })();
  p(e1 instanceof Error, Object.keys(e1), e1.name, typeof e1.stack);
  // rm recursive and force.
  fs.mkdirSync(J("tree/x/y"), { recursive: true });
  fs.writeFileSync(J("tree/x/y/z.txt"), "z");
  p(fs.rmSync(J("tree"), { recursive: true, force: true }), fs.existsSync(J("tree")));
  fs.unlinkSync(J("copy.txt"));
  p(fs.existsSync(J("copy.txt")));
  // Callback API.
  const cb = (name, ...args) => new Promise((res) => fs[name](...args, (e, v) => res(e ? "ERR " + err(e) : v)));
  p(await cb("readFile", J("a/f.txt"), "utf8"), rel(await cb("readFile", J("missing"), "utf8")));
  p(await cb("writeFile", J("cb.txt"), "cb"), await cb("appendFile", J("cb.txt"), "+"), await cb("readFile", J("cb.txt"), { encoding: "utf8" }));
  p(rel(await cb("mkdir", J("cbdir/x"), { recursive: true })), await cb("mkdir", J("cbdir/y")), (await cb("readdir", J("cbdir"))).sort());
  p((await cb("stat", J("cb.txt"))).size, (await cb("lstat", J("link"))).isSymbolicLink(), rel(await cb("stat", J("missing"))));
  p(await cb("access", J("cb.txt")), rel(await cb("access", J("missing"))), await cb("rename", J("cb.txt"), J("cb2.txt")), await cb("copyFile", J("cb2.txt"), J("cb3.txt")));
  p(rel(await cb("realpath", J("dirlink"))), await cb("unlink", J("cb3.txt")), await cb("rm", J("cbdir"), { recursive: true }), fs.existsSync(J("cbdir")));
  p(await new Promise((res) => fs.exists(J("cb2.txt"), res)), await new Promise((res) => fs.exists(J("nope"), res)));
  // fs/promises.
  p(fsp === fs.promises, typeof fsp.readFile, typeof fsp.constants);
  p(await fsp.readFile(J("a/f.txt"), "utf8"), Buffer.isBuffer(await fsp.readFile(J("a/f.txt"))));
  p(await fsp.writeFile(J("p.txt"), "p"), await fsp.appendFile(J("p.txt"), "q"), await fsp.readFile(J("p.txt"), { encoding: "utf8" }));
  p(rel(await fsp.mkdir(J("pdir/a/b"), { recursive: true })), await fsp.mkdir(J("pdir/a/b"), { recursive: true }), await fsp.mkdir(J("pdir/c")));
  p((await fsp.readdir(J("pdir"), { withFileTypes: true })).map((d) => d.name + ":" + d.isDirectory()).sort());
  p((await fsp.stat(J("p.txt"))).size, (await fsp.lstat(J("dirlink"))).isSymbolicLink(), (await fsp.stat(J("dirlink"))).isDirectory());
  p(await fsp.access(J("p.txt")), await fsp.rename(J("p.txt"), J("p2.txt")), await fsp.copyFile(J("p2.txt"), J("p3.txt")), rel(await fsp.realpath(J("link"))));
  p(await fsp.rm(J("pdir"), { recursive: true, force: true }), await fsp.rm(J("nothing"), { force: true }), await fsp.unlink(J("p3.txt")));
  for (const f of [() => fsp.readFile(J("missing")), () => fsp.mkdir(J("a")), () => fsp.readFile(J("a")), () => fsp.access(J("missing")), () => fsp.rm(J("missing")), () => fsp.stat(J("missing")), () => fsp.readdir(J("missing"))]) {
    p(await f().then(() => "no error", err));
  }
  const tmp = await fsp.mkdtemp(J("mk-"));
  p(path.basename(tmp).startsWith("mk-"), path.dirname(tmp) === base);
  // Streams.
  const ws = fs.createWriteStream(J("s.txt"));
  ws.write("one\n");
  ws.write(Buffer.from("two\n"));
  await new Promise((res) => ws.end("three\n", res));
  p(fs.readFileSync(J("s.txt"), "utf8"), ws.bytesWritten, rel(ws.path));
  const chunks = [];
  await new Promise((res, rej) => fs.createReadStream(J("s.txt"), { encoding: "utf8" }).on("data", (c) => chunks.push(c)).on("end", res).on("error", rej));
  p(chunks.join(""));
  const partial = [];
  await new Promise((res) => fs.createReadStream(J("s.txt"), { start: 4, end: 6 }).on("data", (c) => partial.push(c.toString())).on("close", res));
  p(partial);
  const bad = await new Promise((res) => fs.createReadStream(J("missing")).on("error", (e) => res(err(e))).on("data", () => res("data")));
  p(bad);
  const as = fs.createWriteStream(J("s.txt"), { flags: "a" });
  await new Promise((res) => { as.write("four\n"); as.end(res); });
  p(fs.readFileSync(J("s.txt"), "utf8").split("\n").length);
  let collected = "";
  for await (const c of fs.createReadStream(J("s.txt"))) collected += c;
  p(collected.length);
  fs.rmSync(base, { recursive: true, force: true });
  p(fs.existsSync(base));
  console.log(out.join("\n"));
})().catch((e) => console.log("FAILED", e && e.stack || e));
