// child_process as extensions use it: spawn with piped stdio, exec and
// execFile callbacks, the sync forms, signals, cwd/env/shell options.
const cp = require("child_process");
const fs = require("fs");
const os = require("os");
const path = require("path");
const util = require("util");
const out = [];
const p = (...a) => out.push(a.map((x) => typeof x === "string" ? x : x === undefined ? "undefined" : JSON.stringify(x)).join(" | "));
const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "compat-child-")));
const rel = (s) => typeof s === "string" ? s.split(dir).join("<D>") : s;
const run = (file, args, opts, input) => new Promise((res) => {
  const child = cp.spawn(file, args, opts);
  const ev = [];
  let so = "", se = "";
  if (child.stdout) child.stdout.on("data", (c) => { so += c; });
  if (child.stderr) child.stderr.on("data", (c) => { se += c; });
  child.on("error", (e) => ev.push("error:" + e.code + ":" + e.syscall + ":" + e.message));
  child.on("exit", (code, sig) => ev.push("exit:" + code + ":" + sig));
  child.on("close", (code, sig) => { ev.push("close:" + code + ":" + sig); res([ev, rel(so), rel(se), typeof child.pid, child.exitCode, child.signalCode]); });
  if (input !== undefined && child.stdin) { child.stdin.write(input); child.stdin.end(); }
});
(async () => {
  p(await run("sh", ["-c", "echo out; echo err >&2; exit 3"]));
  p(await run("cat", [], {}, "piped input\n"));
  p(await run("sh", ["-c", "pwd"], { cwd: dir }));
  p(await run("sh", ["-c", "echo $FOO-$BAR"], { env: { FOO: "foo", PATH: process.env.PATH } }));
  p(await run("echo $((1+2)) \"$0\"", [], { shell: true }));
  p(await run("echo", ["a b", "c"], { shell: true }));
  p(await run("definitely-not-a-command-xyz", []));
  p(await run("sh", ["-c", "exit 0"], { stdio: "ignore" }));
  p(await run("sh", ["-c", "echo hi"], { stdio: ["ignore", "pipe", "inherit"] }));
  const killed = await new Promise((res) => {
    const c = cp.spawn("sleep", ["10"]);
    c.on("close", (code, sig) => res([code, sig, c.killed, c.signalCode]));
    p("kill returns", c.kill());
  });
  p(killed);
  const killed9 = await new Promise((res) => {
    const c = cp.spawn("sleep", ["10"]);
    c.on("exit", (code, sig) => res([code, sig, c.killed]));
    c.kill("SIGKILL");
  });
  p(killed9);
  const aborted = await new Promise((res) => {
    const ac = new AbortController();
    const c = cp.spawn("sleep", ["10"], { signal: ac.signal });
    c.on("error", (e) => res(["error", e.name, e.code]));
    c.on("close", (code, sig) => res(["close", code, sig]));
    ac.abort();
  });
  p(aborted);
  // exec and execFile callbacks.
  const ex = (...a) => new Promise((res) => cp.exec(...a, (e, so, se) => res([e ? [e.code, e.killed, e.signal, rel(e.cmd), rel(e.message), typeof e.stdout] : null, rel(so), rel(se)])));
  p(await ex("echo hello; echo warn >&2"));
  p(await ex("exit 7"));
  p(await ex("pwd", { cwd: dir }));
  p(await ex("echo $X", { env: { X: "xval", PATH: process.env.PATH } }));
  p(await ex("printf 'a\\nb'", { encoding: "buffer" }).then(([e, so]) => [e, Buffer.isBuffer(so), String(so)]));
  const ef = (...a) => new Promise((res) => cp.execFile(...a, (e, so, se) => res([e ? [e.code, rel(e.message).split("\n")[0]] : null, so, se])));
  p(await ef("echo", ["x", "y z"]));
  p(await ef("sh", ["-c", "echo bad >&2; exit 2"]));
  p(await ef("no-such-binary-xyz", []));
  p(await ef("echo"));
  // The promisified forms resolve to { stdout, stderr }.
  p(await util.promisify(cp.exec)("echo promised"));
  p(await util.promisify(cp.execFile)("sh", ["-c", "echo p2; echo e2 >&2"]));
  p(await util.promisify(cp.exec)("exit 4").catch((e) => [e.code, e.stdout, e.stderr, e.message]));
  // Sync forms.
  p(cp.execSync("echo sync").toString(), cp.execSync("echo enc", { encoding: "utf8" }), cp.execSync("pwd", { cwd: dir, encoding: "utf8" }).trim() === dir);
  try { cp.execSync("echo so; echo se >&2; exit 5", { stdio: "pipe" }); } catch (e) { p(e.status, e.signal, String(e.stdout), String(e.stderr), e.message, Object.keys(e).sort()); }
  p(cp.execFileSync("echo", ["f", "s"], { encoding: "utf8" }), Buffer.isBuffer(cp.execFileSync("echo", ["b"])));
  try { cp.execFileSync("sh", ["-c", "exit 6"], { stdio: "pipe" }); } catch (e) { p(e.status, e.message); }
  try { cp.execFileSync("no-such-binary-xyz"); } catch (e) { p(e.code, e.syscall, e.path, e.message); }
  const ss = cp.spawnSync("sh", ["-c", "echo a; echo b >&2; exit 9"]);
  p(ss.status, ss.signal, Buffer.isBuffer(ss.stdout), String(ss.stdout), String(ss.stderr), ss.output.length, ss.output[0], typeof ss.pid, ss.error);
  const ss2 = cp.spawnSync("cat", [], { input: "in", encoding: "utf8" });
  p(ss2.status, ss2.stdout, ss2.output);
  const ss3 = cp.spawnSync("no-such-binary-xyz", ["a"]);
  p(ss3.status, ss3.signal, ss3.error && ss3.error.code, ss3.error && ss3.error.syscall, ss3.error && ss3.error.message, ss3.error && ss3.error.path, ss3.error && ss3.error.spawnargs);
  const ss4 = cp.spawnSync("sh", ["-c", "kill -TERM $$"]);
  p(ss4.status, ss4.signal);
  const ss5 = cp.spawnSync("echo $0", { shell: true, encoding: "utf8" });
  p(ss5.stdout);
  p(typeof cp.fork, typeof cp.ChildProcess, typeof cp.execFileSync);
  fs.rmSync(dir, { recursive: true, force: true });
  console.log(out.join("\n"));
})().catch((e) => console.log("FAILED", e && e.stack || e));
