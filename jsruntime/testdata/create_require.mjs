// createRequire of installed packages, as Node 22 answers it, recorded in a
// folder laid out as TestCreateRequirePackages lays it out:
//   node create_require.mjs > create_require.golden
// (a native addon cannot load in pi-go: only its error code is compared).
import { createRequire } from "node:module";
const require = createRequire(import.meta.url);
const T = (label, f) => { try { console.log(label, JSON.stringify(f())); } catch (e) { console.log(label, "THREW", e.code, label === "native" ? "(dlopen)" : e.message.split("\n")[0].replace(process.cwd(), "<dir>")); } };
T("cjs", () => require("cjs-pkg"));
T("cond", () => require("cond-pkg"));
T("subpath", () => require("cond-pkg/extra"));
T("resolve", () => require.resolve("cjs-pkg").replace(process.cwd(), "<dir>"));
T("builtin", () => typeof require("node:path").join);
T("missing", () => require("not-installed-pkg"));
T("native", () => { const m = require("native-pkg"); return typeof m; });
