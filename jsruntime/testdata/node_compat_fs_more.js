// More of fs: watch and watchFile seeing a write, opendir, cp, glob,
// access modes, utimes/lutimes, link, truncate, statfs, constants and
// the export list. Paths are printed relative to a fresh temp dir.
const fs = require("fs");
const fsp = require("fs/promises");
const path = require("path");
const os = require("os");
const out = [];
const p = (...a) => out.push(a.map((x) => typeof x === "string" ? x : x === undefined ? "undefined" : JSON.stringify(x)).join(" | "));
const base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "compat-more-")));
const rel = (s) => typeof s === "string" ? s.split(base).join("<T>") : s;
const err = (e) => e ? [e.constructor.name, e.code, e.errno, e.syscall, rel(e.path), rel(e.message)].map(String).join(",") : "no error";
const tryErr = (f) => { try { f(); return "no error"; } catch (e) { return err(e); } };
const J = (...s) => path.join(base, ...s);
(async () => {
  // fs.watch on a directory sees a new file; on a file sees a change.
  fs.mkdirSync(J("w"));
  const seen = await new Promise((res) => {
    const w = fs.watch(J("w"), (type, name) => { if (name === "new.txt") { w.close(); res([typeof type, name]); } });
    p("watcher", w.constructor.name, typeof w.close, typeof w.ref, typeof w.unref);
    setTimeout(() => fs.writeFileSync(J("w", "new.txt"), "x"), 20);
  });
  p("watch dir", seen);
  const fileEvent = await new Promise((res) => {
    const w = fs.watch(J("w", "new.txt"));
    w.on("change", (type, name) => { w.close(); res([type, name]); });
    setTimeout(() => fs.appendFileSync(J("w", "new.txt"), "more"), 20);
  });
  p("watch file", fileEvent);
  const closed = await new Promise((res) => { const w = fs.watch(J("w")); w.on("close", () => res("close event")); w.close(); });
  p(closed);
  p(tryErr(() => fs.watch(J("missing"))));
  const e = (() => { try { fs.watch(J("missing")); } catch (e) { return e; } })();
  p(Object.keys(e), rel(e.filename));
  const ac = new AbortController();
  const it = fsp.watch(J("w"), { signal: ac.signal });
  setTimeout(() => fs.writeFileSync(J("w", "other.txt"), "y"), 20);
  try {
    for await (const ev of it) { if (ev.filename === "other.txt") { p("promises.watch", typeof ev.eventType, ev.filename); ac.abort(); } }
  } catch (e) { p("promises.watch abort", e.name, e.code, e.message); }
  // watchFile polls.
  const polled = await new Promise((res) => {
    fs.watchFile(J("w", "new.txt"), { interval: 10 }, (cur, prev) => { fs.unwatchFile(J("w", "new.txt")); res([cur.size, prev.size, cur.isFile()]); });
    setTimeout(() => fs.writeFileSync(J("w", "new.txt"), "0123456789"), 30);
  });
  p("watchFile", polled);
  // opendir.
  fs.mkdirSync(J("d/sub"), { recursive: true });
  fs.writeFileSync(J("d/one.txt"), "1");
  fs.writeFileSync(J("d/two.md"), "22");
  const dir = fs.opendirSync(J("d"));
  const names = [];
  for (let ent; (ent = dir.readSync()) !== null;) names.push([ent.name, ent.isDirectory()]);
  dir.closeSync();
  p("opendirSync", dir.constructor.name, rel(dir.path), names.sort());
  p(tryErr(() => dir.closeSync()));
  const ad = await fsp.opendir(J("d"));
  const anames = [];
  for await (const ent of ad) anames.push(ent.name);
  p("opendir async", anames.sort());
  p(await fsp.opendir(J("missing")).then(() => "no error", err));
  p(await new Promise((res) => fs.opendir(J("d"), (e, d) => { d.read((e2, ent) => { d.close(() => res([e, typeof ent.name])); }); })));
  // cp.
  fs.cpSync(J("d"), J("d2"), { recursive: true });
  p("cp dir", fs.readdirSync(J("d2")).sort(), fs.readFileSync(J("d2/two.md"), "utf8"));
  p(tryErr(() => fs.cpSync(J("d"), J("d3"))).split(",").slice(0, 2));
  fs.writeFileSync(J("c1"), "1"); fs.writeFileSync(J("c2"), "2");
  p(tryErr(() => fs.cpSync(J("c1"), J("c2"), { force: false, errorOnExist: true })));
  fs.cpSync(J("c1"), J("c2"), { force: false });
  p("cp no force", fs.readFileSync(J("c2"), "utf8"));
  fs.cpSync(J("c1"), J("c2"));
  p("cp force", fs.readFileSync(J("c2"), "utf8"));
  await fsp.cp(J("d"), J("d4"), { recursive: true, filter: (src) => !src.endsWith(".md") });
  p("cp filter", fs.readdirSync(J("d4")).sort());
  p(await new Promise((res) => fs.cp(J("c1"), J("c5"), (e) => res([e, fs.readFileSync(J("c5"), "utf8")]))));
  // glob.
  p("globSync", fs.globSync("d/**/*.txt", { cwd: base }), fs.globSync("*.md", { cwd: J("d") }), fs.globSync(["d/*.txt", "d/*.md"], { cwd: base }).sort());
  p("glob", await new Promise((res) => fs.glob("d/*", { cwd: base }, (e, m) => res([e, m.sort()]))));
  const g = [];
  for await (const m of fsp.glob("d2/*.txt", { cwd: base })) g.push(m);
  p("promises.glob", g);
  // access modes.
  fs.writeFileSync(J("ro.txt"), "r");
  fs.chmodSync(J("ro.txt"), 0o444);
  p("access", fs.accessSync(J("ro.txt"), fs.constants.R_OK), tryErr(() => fs.accessSync(J("ro.txt"), fs.constants.X_OK)), tryErr(() => fs.accessSync(J("nope"), fs.constants.W_OK)));
  p(await fsp.access(J("ro.txt"), fs.constants.X_OK).then(() => "no error", err));
  // utimes, lutimes, link, truncate.
  fs.utimesSync(J("c1"), 1000, new Date(2000000));
  const ut = fs.statSync(J("c1"));
  p("utimes", ut.atimeMs, ut.mtimeMs);
  fs.symlinkSync(J("c1"), J("lnk"));
  fs.lutimesSync(J("lnk"), 3000, 4000);
  p("lutimes", fs.lstatSync(J("lnk")).mtimeMs, fs.statSync(J("lnk")).mtimeMs);
  fs.linkSync(J("c1"), J("hard"));
  p("link", fs.statSync(J("c1")).nlink, fs.readFileSync(J("hard"), "utf8"), tryErr(() => fs.linkSync(J("missing"), J("x"))));
  fs.writeFileSync(J("t.txt"), "0123456789");
  fs.truncateSync(J("t.txt"), 4);
  p("truncate", fs.readFileSync(J("t.txt"), "utf8"));
  await fsp.truncate(J("t.txt"));
  p(fs.statSync(J("t.txt")).size);
  const sf = fs.statfsSync(base);
  p("statfs", sf.constructor.name, Object.keys(sf), typeof sf.bsize, sf.blocks > 0);
  p((await fsp.statfs(base)).constructor.name);
  // mode as a string, and more flags.
  fs.mkdirSync(J("sm"), "755");
  p((fs.statSync(J("sm")).mode & 0o777).toString(8));
  p(tryErr(() => fs.openSync(J("c1"), "r", "zz")).split(",").slice(0, 2));
  // constants and the export list.
  p(Object.keys(fs.constants).length, fs.constants.O_DIRECTORY, fs.constants.S_IRWXU, fs.constants.COPYFILE_FICLONE);
  p("top-level O_", typeof fs.O_RDONLY, typeof fs.F_OK);
  p(typeof fs.lchmod, typeof fs.Dir, typeof fs.openAsBlob, fs._toUnixTimestamp(new Date(1500)), fs.ReadStream === fs.FileReadStream);
  const blob = await fs.openAsBlob(J("c1"));
  p("openAsBlob", blob.size, await blob.text());
  p(fs.readvSync.length >= 0, (() => { const fd = fs.openSync(J("v.txt"), "w+"); fs.writevSync(fd, [Buffer.from("ab"), Buffer.from("cd")]); const a = Buffer.alloc(1), b = Buffer.alloc(3); const n = fs.readvSync(fd, [a, b], 0); fs.closeSync(fd); return [n, a.toString(), b.toString()]; })());
  fs.rmSync(base, { recursive: true, force: true });
  console.log(out.join("\n"));
})().catch((e) => console.log("FAILED", e && e.stack || e));
