// Prints the reference's output for every case in cases.json, using the real
// typebox and pi packages shipped with the reference. Run once with the
// reference's node and commit the output:
//
//   node jsruntime/vmod/testdata/gen/gen.mjs > jsruntime/vmod/testdata/reference/cases.json
//
// The Go tests never run node; they evaluate the same expressions against
// our modules and compare with the committed output.
import { readFileSync } from "node:fs";

const base = process.env.PI_REF_MODULES ?? "/root/.cache/pi-reference/pi/node_modules/";
const { Type } = await import(base + "typebox/build/index.mjs");
const { Value } = await import(base + "typebox/build/value/index.mjs");
const { Compile } = await import(base + "typebox/build/compile/index.mjs");
const ai = await import(base + "@earendil-works/pi-coding-agent/dist/core/extensions/pi-ai-extension-view.js");
const pca = await import(base + "@earendil-works/pi-coding-agent/dist/index.js");
const tui = await import(base + "@earendil-works/pi-tui/dist/index.js");

const cases = JSON.parse(readFileSync(new URL("./cases.json", import.meta.url), "utf8"));
const S1 = Type.Object({ a: Type.String({ minLength: 2 }), b: Type.Optional(Type.Integer({ minimum: 1 })), c: Type.Array(Type.Union([Type.Literal("x"), Type.Literal("y")])) });

function run(expr) {
  try {
    const fn = new Function("Type", "Value", "Compile", "ai", "pca", "tui", "S1", "return (" + expr + ");");
    const value = fn(Type, Value, Compile, ai, pca, tui, S1);
    const out = { json: JSON.stringify(value) };
    if (value !== null && typeof value === "object" && !Array.isArray(value)) {
      if (value["~kind"] !== undefined) out.kind = value["~kind"];
      if (value["~optional"] === true) out.optional = true;
      if (value["~readonly"] === true) out.readonly = true;
    }
    return out;
  } catch (e) {
    return { throws: String(e && e.message) };
  }
}

const result = {};
for (const [group, entries] of Object.entries(cases)) {
  result[group] = {};
  for (const [name, expr] of Object.entries(entries)) result[group][name] = run(expr);
}
console.log(JSON.stringify(result, null, 1));
