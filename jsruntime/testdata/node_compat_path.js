// path.win32 (drive letters, UNC roots, both separators) and the module
// identities of path, path/posix and path/win32.
const path = require("path");
const w = path.win32;
const out = [];
const p = (...a) => out.push(a.map((x) => typeof x === "string" ? x : x === undefined ? "undefined" : JSON.stringify(x)).join(" | "));
p("ids", w === require("path/win32"), path.posix === require("path/posix"), w.win32 === w, w.posix === path.posix, path.win32 === w, w.sep, w.delimiter);
const paths = ["", ".", "..", "\\", "/", "a", "a\\b", "a/b\\c", "C:", "C:\\", "C:/", "C:a", "C:\\a\\b.txt", "c:\\a\\..\\b\\", "\\\\server\\share", "\\\\server\\share\\", "\\\\server\\share\\x\\y.tar.gz", "\\\\server", "//server/share/a", "\\\\?\\C:\\x", "a\\..\\..\\b", "C:..\\x", "\\a\\.\\b\\\\c\\", ".bashrc", "a\\.bashrc", "file.", "..\\x..y", "a\\b\\", "C:\\a\\b\\\\"];
for (const x of paths) {
  p(JSON.stringify(x), w.normalize(x), w.isAbsolute(x), w.dirname(x), w.basename(x), w.extname(x), w.parse(x));
}
const joins = [["C:\\a", "b", "..", "c"], ["a", "", "b"], [], [""], ["\\\\server", "share"], ["//", "a"], ["\\\\", "\\a"], ["/", "//a"], ["c:", "x"], ["a/", "/b/"], ["\\\\server\\share", "..", "x"]];
for (const j of joins) p("join " + JSON.stringify(j), w.join(...j));
const resolves = [["C:\\a", "b"], ["C:\\a", "D:\\b", "c"], ["C:\\a", "\\b"], ["\\\\s\\sh\\a", "..\\..\\x"], ["C:\\a", "..", "..", ".."], ["c:/A/b", "./c"]];
for (const r of resolves) p("resolve " + JSON.stringify(r), w.resolve(...r));
p("basename suffix", w.basename("C:\\a\\b.txt", ".txt"), w.basename("b.txt", "b.txt"), w.basename("C:\\x\\", "x"), w.basename("a\\b.TXT", ".txt"));
p("relative", w.relative("C:\\a\\b", "C:\\a\\c\\d"), w.relative("C:\\a", "C:\\a"), w.relative("C:\\A\\b", "c:\\a\\b\\x"), w.relative("C:\\a", "D:\\b"), w.relative("C:\\a\\b\\c", "C:\\a"));
p("format", w.format({ dir: "C:\\a", base: "b.txt" }), w.format({ root: "C:\\", name: "x", ext: "md" }), w.format({ root: "C:\\", dir: "C:\\", base: "y" }));
p("namespaced", w.toNamespacedPath("C:\\a\\b"), w.toNamespacedPath("\\\\server\\share\\x"), w.toNamespacedPath(""));
console.log(out.join("\n"));
