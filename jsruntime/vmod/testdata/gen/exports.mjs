// Records the value exports of every host module as the reference serves
// them to extensions (name -> typeof), plus the members of typebox's Type
// and typebox/value's Value. Run with the reference's node:
//
//   node jsruntime/vmod/testdata/gen/exports.mjs > jsruntime/vmod/testdata/reference/exports.json
const base = process.env.PI_REF_MODULES ?? "/root/.cache/pi-reference/pi/node_modules/";
const modules = {
  "typebox/value": "typebox/build/value/index.mjs",
  "typebox/compile": "typebox/build/compile/index.mjs",
  "@earendil-works/pi-agent-core": "@earendil-works/pi-agent-core/dist/index.js",
  "@earendil-works/pi-tui": "@earendil-works/pi-tui/dist/index.js",
  "@earendil-works/pi-ai": "@earendil-works/pi-coding-agent/dist/core/extensions/pi-ai-extension-view.js",
  "@earendil-works/pi-ai/models": "@earendil-works/pi-ai/dist/models.js",
  "@earendil-works/pi-ai/oauth": "@earendil-works/pi-ai/dist/oauth.js",
  "@earendil-works/pi-ai/providers/all": "@earendil-works/pi-ai/dist/providers/all.js",
  "@earendil-works/pi-coding-agent": "@earendil-works/pi-coding-agent/dist/index.js",
};
const describe = (obj) => Object.fromEntries(Object.keys(obj).filter((k) => k !== "default").sort().map((k) => [k, typeof obj[k]]));
const out = {};
for (const [name, path] of Object.entries(modules)) out[name] = describe(await import(base + path));
const typebox = await import(base + "typebox/build/index.mjs");
out["typebox#Type"] = describe(typebox.Type);
out["typebox/value#Value"] = describe((await import(base + "typebox/build/value/index.mjs")).Value);
console.log(JSON.stringify(out, null, 1));
