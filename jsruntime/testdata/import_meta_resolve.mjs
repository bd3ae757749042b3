// import.meta.resolve as Node 22 answers it, recorded in a folder holding
// node_modules/foo (exports "." with import and require conditions):
//   node import_meta_resolve.mjs > import_meta_resolve.golden
// (TestImportMetaResolve lays out the same folder.)
const r = (s) => { try { return import.meta.resolve(s).replace(process.cwd(), "<dir>"); } catch (e) { return "THREW " + e.code + " " + e.message.replace(process.cwd(), "<dir>"); } };
console.log([typeof import.meta.resolve, r("./nope.js"), r("fs"), r("node:path"), r("foo"), r("missing-pkg"), r("https://x.test/a")].join("\n"));
