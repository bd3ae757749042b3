// The small eager part of fs in JS. Streams, watchers, FileHandle, Dir,
// cp and glob live in fs_lazy.js, compiled and run on the first call of
// one of them: each name here is a stand-in that loads the real code
// (which replaces the stand-ins) and calls it. The enclosing wrapper
// passes the fs module being built as `fs`, with the hidden __loadLazy.
"use strict";
const loadLazy = fs.__loadLazy;
delete fs.__loadLazy;
let lazy = null;
const more = () => lazy || (lazy = loadLazy());
const standIn = (obj, name) => {
  obj[name] = function (...args) {
    more();
    return obj[name].apply(this, args);
  };
};
for (const name of ["createReadStream", "createWriteStream", "watch", "watchFile", "unwatchFile", "opendir", "opendirSync", "cp", "cpSync", "glob", "globSync"]) standIn(fs, name);
for (const name of ["open", "watch", "opendir", "cp", "glob"]) standIn(fs.promises, name);
const classGetter = (name, get) => Object.defineProperty(fs, name, {
  get,
  set(v) { Object.defineProperty(fs, name, { value: v, writable: true, enumerable: true, configurable: true }); },
  enumerable: true,
  configurable: true,
});
classGetter("ReadStream", () => more().classes().ReadStream);
classGetter("WriteStream", () => more().classes().WriteStream);
classGetter("FileReadStream", () => more().classes().ReadStream);
classGetter("FileWriteStream", () => more().classes().WriteStream);
classGetter("Dir", () => { more(); return fs.Dir; });

fs.openAsBlob = (path, opts) => fs.promises.readFile(path).then((b) => new Blob([b], { type: (opts && opts.type) || "" }));
fs._toUnixTimestamp = (t) => (t instanceof Date ? t.getTime() / 1000 : typeof t === "string" && +t == t ? +t : t);
// lchmod exists on macOS only; on Linux Node lists fs.lchmod and
// fs.lchmodSync as undefined, and fs.promises.lchmod rejects.
const notImplemented = () => Object.assign(new Error("The lchmod() method is not implemented"), { code: "ERR_METHOD_NOT_IMPLEMENTED" });
fs.lchmod = undefined; fs.lchmodSync = undefined;
fs.promises.lchmod = () => Promise.reject(notImplemented());
if (process.platform === "darwin") { fs.lchmod = () => { throw notImplemented(); }; fs.lchmodSync = fs.lchmod; }

fs.Stats = function Stats() {};
// StatFs is not an export in Node; it is here for the prototype only.
Object.defineProperty(fs, "StatFs", { value: function StatFs() {}, enumerable: false });
fs.Dirent = function Dirent() {};
