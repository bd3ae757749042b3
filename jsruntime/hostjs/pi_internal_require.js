// createRequire for extensions: a require bound to a file that also loads
// files relative to it (JSON, CommonJS .js/.cjs), as Node's does; bare names
// go to the host's module map. Extensions use it mostly to read their own
// package.json or a small CommonJS helper next to them.
"use strict";
const fs = require("fs");
const path = require("path");
const { fileURLToPath } = require("url");
const hostRequire = require;
const cache = new Map();

function notFound(spec, from) {
  const e = new Error(`Cannot find module '${spec}'\nRequire stack:\n- ${from}`);
  e.code = "MODULE_NOT_FOUND";
  e.requireStack = [from];
  return e;
}

function isFile(p) {
  try { return fs.statSync(p).isFile(); } catch { return false; }
}

function resolveFile(spec, from) {
  const base = path.resolve(path.dirname(from), spec);
  const candidates = [base, base + ".js", base + ".cjs", base + ".json"];
  let main;
  try { main = JSON.parse(fs.readFileSync(path.join(base, "package.json"), "utf8")).main; } catch { main = undefined; }
  if (typeof main === "string") candidates.push(path.resolve(base, main), path.resolve(base, main) + ".js");
  candidates.push(path.join(base, "index.js"), path.join(base, "index.json"));
  for (const c of candidates) if (isFile(c)) return c;
  return undefined;
}

function isRelative(spec) {
  return spec.startsWith("./") || spec.startsWith("../") || spec === "." || spec === ".." || path.isAbsolute(spec);
}

function load(file) {
  if (cache.has(file)) return cache.get(file).exports;
  const module = { exports: {}, id: file, filename: file, loaded: false };
  cache.set(file, module);
  try {
    const src = fs.readFileSync(file, "utf8");
    if (file.endsWith(".json")) {
      module.exports = JSON.parse(src.charCodeAt(0) === 0xfeff ? src.slice(1) : src);
    } else {
      const body = src.startsWith("#!") ? "//" + src : src;
      const fn = new Function("exports", "require", "module", "__filename", "__dirname", body);
      fn.call(module.exports, module.exports, createRequire(file), module, file, path.dirname(file));
    }
  } catch (e) {
    cache.delete(file);
    throw e;
  }
  module.loaded = true;
  return module.exports;
}

function createRequire(from) {
  if (from instanceof URL) from = from.href;
  if (typeof from !== "string") {
    const e = new TypeError(`The argument 'filename' must be a file URL object, file URL string, or absolute path string. Received ${String(from)}`);
    e.code = "ERR_INVALID_ARG_VALUE";
    throw e;
  }
  const file = from.startsWith("file:") ? fileURLToPath(from) : from;
  const req = function require(spec) {
    if (typeof spec === "string" && isRelative(spec)) {
      const p = resolveFile(spec, file);
      if (!p) throw notFound(spec, file);
      return load(p);
    }
    return hostRequire(spec);
  };
  req.resolve = function resolve(spec) {
    if (typeof spec === "string" && isRelative(spec)) {
      const p = resolveFile(spec, file);
      if (!p) throw notFound(spec, file);
      return p;
    }
    hostRequire(spec); // throws for an unknown module
    return spec;
  };
  req.cache = {};
  req.main = undefined;
  // import.meta.resolve of the file (compile.go rewrites it to this).
  Object.defineProperty(req, Symbol.for("pi.importMetaResolve"), { value: (spec) => importMetaResolve(String(spec), file) });
  return req;
}

// packageEntry is the file a bare import of a package resolves to: its
// "exports" entry for "." (the import, then default condition), else its
// main, else index.js.
function packageEntry(dir, sub) {
  let pkg = {};
  try { pkg = JSON.parse(fs.readFileSync(path.join(dir, "package.json"), "utf8")); } catch { /* no manifest */ }
  const key = sub ? "./" + sub : ".";
  let exp = pkg.exports;
  if (exp !== undefined && (typeof exp === "string" || Array.isArray(exp) || !Object.keys(exp).some((k) => k.startsWith(".")))) exp = { ".": exp };
  const pick = (e) => {
    if (typeof e === "string") return e;
    if (Array.isArray(e)) return pick(e[0]);
    if (e && typeof e === "object") return pick(e.import !== undefined ? e.import : e.node !== undefined ? e.node : e.default);
    return undefined;
  };
  if (exp && exp[key] !== undefined) {
    const target = pick(exp[key]);
    if (target) return path.resolve(dir, target);
  }
  if (sub) return path.resolve(dir, sub);
  return path.resolve(dir, pkg.main || "index.js");
}

// importMetaResolve is Node's import.meta.resolve: a URL for a relative
// or absolute specifier, node:<name> for a built-in, the entry file of an
// installed package (looked up in node_modules from the importing file
// up), and the name itself for the packages the host provides (pi's
// packages and typebox have no files here).
function importMetaResolve(spec, from) {
  const { pathToFileURL } = require("url");
  if (spec.startsWith("file:") || /^[a-z][a-z0-9+.-]*:/i.test(spec) && !spec.startsWith("node:")) return new URL(spec).href;
  if (isRelative(spec)) return pathToFileURL(path.resolve(path.dirname(from), spec)).href;
  const builtins = require("module").builtinModules || [];
  const bare = spec.startsWith("node:") ? spec.slice(5) : spec;
  if (spec.startsWith("node:") || builtins.includes(bare)) return "node:" + bare;
  const parts = spec.split("/");
  const name = spec.startsWith("@") ? parts.slice(0, 2).join("/") : parts[0];
  const sub = parts.slice(spec.startsWith("@") ? 2 : 1).join("/");
  for (let dir = path.dirname(from); ; dir = path.dirname(dir)) {
    const candidate = path.join(dir, "node_modules", name);
    if (isFile(path.join(candidate, "package.json"))) return pathToFileURL(packageEntry(candidate, sub)).href;
    if (path.dirname(dir) === dir) break;
  }
  try {
    hostRequire(spec);
    return spec;
  } catch {
    const e = new Error(`Cannot find package '${name}' imported from ${from}`);
    e.code = "ERR_MODULE_NOT_FOUND";
    throw e;
  }
}

module.exports = { createRequire };
