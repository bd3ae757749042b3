// process members beyond the prelude's: kill (by name and number, errors),
// getBuiltinModule, loadEnvFile, resourceUsage, config, report.
const out = [];
const p = (...a) => out.push(a.map((x) => typeof x === "string" ? x : x === undefined ? "undefined" : JSON.stringify(x)).join(" | "));
const T = (label, f) => { try { p(label, f()); } catch (e) { p(label, "THREW", e && e.constructor && e.constructor.name, e && e.code, e && e.syscall); } };
const { spawn } = require("child_process");
T("types", () => ["kill", "getBuiltinModule", "loadEnvFile", "resourceUsage", "availableMemory", "constrainedMemory", "binding"].map((k) => typeof process[k]).concat(typeof process.config, typeof process.report, process.argv0.length > 0));
T("getBuiltinModule", () => [process.getBuiltinModule("node:path") === require("path"), process.getBuiltinModule("fs") === require("fs"), process.getBuiltinModule("nope")]);
T("resourceUsage", () => Object.keys(process.resourceUsage()));
T("kill unknown pid", () => process.kill(2147483646, 0));
T("kill bad signal", () => process.kill(2147483646, "SIGNOPE"));
const fs = require("fs"), os = require("os"), path = require("path");
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "envtest-"));
fs.writeFileSync(path.join(dir, "x.env"), "PI_COMPAT_A=1\nPI_COMPAT_B=\"two\"\nHOME=/overridden\n");
T("loadEnvFile", () => { process.loadEnvFile(path.join(dir, "x.env")); return [process.env.PI_COMPAT_A, process.env.PI_COMPAT_B, process.env.HOME !== "/overridden"]; });
T("loadEnvFile missing", () => process.loadEnvFile(path.join(dir, "none.env")));
fs.rmSync(dir, { recursive: true });
const child = spawn("sleep", ["5"]);
child.on("exit", (code, sig) => { p("child exit", code, sig); console.log(out.join("\n")); });
setTimeout(() => T("kill child", () => process.kill(child.pid, "SIGTERM")), 50);
