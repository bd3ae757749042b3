// Records a golden of the SDK scripts from the reference (run with Node 22):
//   node testdata/sdk_record.mjs <reference pi-coding-agent dir> testdata/sdk_settings.js > testdata/sdk_settings.golden
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
const [pkg, script] = process.argv.slice(2);
const sdk = await import(path.join(pkg, "dist/index.js"));
const run = new Function("return (" + fs.readFileSync(script, "utf8").replace(/^\/\/.*\n/gm, "") + ")")();
const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "sdk-")));
const lines = [];
await run(sdk, dir, fs, (...a) => lines.push(a.map((x) => String(x).split(dir).join("<dir>")).join(" ")));
process.stdout.write(lines.join("\n") + "\n");
fs.rmSync(dir, { recursive: true, force: true });
