// Lists every value name the reference's example extensions import from a
// host module (type-only imports excluded), as module -> sorted names:
//
//   node jsruntime/vmod/testdata/gen/imports.mjs > jsruntime/vmod/testdata/reference/example-imports.json
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";

const root = process.env.PI_REF_EXAMPLES ?? "/root/.cache/pi-reference/pi/node_modules/@earendil-works/pi-coding-agent/examples/extensions";
const hostModules = /^(typebox|@sinclair\/typebox|@(earendil-works|mariozechner)\/pi-(ai|agent-core|tui|coding-agent))(\/.*)?$/;

function walk(dir, files) {
  for (const entry of readdirSync(dir)) {
    if (entry === "node_modules") continue;
    const p = join(dir, entry);
    if (statSync(p).isDirectory()) walk(p, files);
    else if (/\.(ts|js|mts)$/.test(entry)) files.push(p);
  }
  return files;
}

const result = {};
const importRe = /import\s+(type\s+)?([\s\S]*?)\s+from\s+["']([^"']+)["']/g;
for (const file of walk(root, [])) {
  const text = readFileSync(file, "utf8");
  for (const m of text.matchAll(importRe)) {
    if (m[1] || !hostModules.test(m[3])) continue;
    const names = (result[m[3]] ??= new Set());
    const braces = /\{([\s\S]*)\}/.exec(m[2]);
    if (braces) {
      for (let n of braces[1].split(",")) {
        n = n.trim();
        if (!n || n.startsWith("type ")) continue;
        names.add(n.split(/\s+as\s+/)[0].trim());
      }
    }
    const head = m[2].replace(/\{[\s\S]*\}/, "").replace(/,\s*$/, "").trim();
    if (head.startsWith("* as ")) names.add("*");
    else if (head) names.add("default");
  }
}
console.log(JSON.stringify(Object.fromEntries(Object.entries(result).sort().map(([k, v]) => [k, [...v].sort()])), null, 1));
