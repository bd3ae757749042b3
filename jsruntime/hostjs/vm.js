// node:vm over goja. goja has one realm per runtime, so a context is a
// sandbox rather than a new realm: code runs inside a with-scope over a
// Proxy where the contextified object is the global (reads, writes,
// var declarations and top-level functions land on it; this and
// globalThis are it), and the ECMAScript built-ins are this realm's
// (Node gives a fresh set; instanceof across the boundary therefore
// holds here where it would not in Node). Nothing of the host (process,
// require, console, timers) is visible unless put on the object.
"use strict";
const codeErr = (Ctor, code, msg) => { const e = new Ctor(msg); e.code = code; return e; };
const typeName = (v) => (v === null ? "null" : typeof v === "object" || typeof v === "function" ? "an instance of " + ((v.constructor && v.constructor.name) || "Object") : "type " + typeof v + " (" + String(v) + ")");
const invalidArg = (name, what, v) => codeErr(TypeError, "ERR_INVALID_ARG_TYPE", 'The "' + name + '" argument must be ' + what + ". Received " + typeName(v));

const BUILTINS = new Set(["Object", "Function", "Array", "Number", "parseFloat", "parseInt", "Infinity", "NaN", "undefined", "Boolean", "String", "Symbol", "Date", "Promise", "RegExp", "Error", "AggregateError", "EvalError", "RangeError", "ReferenceError", "SyntaxError", "TypeError", "URIError", "JSON", "Math", "Intl", "ArrayBuffer", "SharedArrayBuffer", "Atomics", "Uint8Array", "Int8Array", "Uint16Array", "Int16Array", "Uint32Array", "Int32Array", "Float32Array", "Float64Array", "Uint8ClampedArray", "BigUint64Array", "BigInt64Array", "DataView", "Map", "BigInt", "Set", "WeakMap", "WeakSet", "Proxy", "Reflect", "FinalizationRegistry", "WeakRef", "decodeURI", "decodeURIComponent", "encodeURI", "encodeURIComponent", "escape", "unescape", "isFinite", "isNaN", "eval"]);
// Names the runner itself uses; the scope must not answer for them.
const RESERVED = new Set(["__piVmScope", "__piVmCode", "__piVmFns", "__piVmResult"]);

// V8 gives every context a console that, without an inspector attached,
// reaches nothing: Node prints nothing for console.log inside a context.
const quietConsole = {};
for (const m of ["log", "info", "debug", "warn", "error", "dir", "dirxml", "table", "trace", "group", "groupCollapsed", "groupEnd", "clear", "count", "countReset", "assert", "time", "timeEnd", "timeLog", "profile", "profileEnd", "timeStamp"]) quietConsole[m] = () => {};

const contexts = new WeakMap(); // contextified object → its scope proxy

function scopeFor(sandbox) {
  let p = contexts.get(sandbox);
  if (p) return p;
  p = new Proxy(sandbox, {
    has(t, k) {
      if (typeof k !== "string") return false;
      if (RESERVED.has(k) || (k === "eval" && !(k in t))) return false;
      if (scopeFor.hidden && scopeFor.hidden.has(k) && !(k in t)) return false;
      return true;
    },
    get(t, k) {
      if (k === Symbol.unscopables) return undefined;
      if (k === "globalThis" && !(k in t)) return p;
      if (k in t) return t[k];
      if (k === "console") return quietConsole;
      if (typeof k === "string" && BUILTINS.has(k)) return globalThis[k];
      return undefined;
    },
    set(t, k, v) { t[k] = v; return true; },
  });
  contexts.set(sandbox, p);
  return p;
}

// The runner: sloppy direct eval inside the with-scope, so the code's
// completion value comes back; its top-level function declarations are
// hoisted into this function's scope, read back afterwards and copied
// onto the sandbox as Node's global would hold them.
const runner = (0, eval)(`(function (__piVmScope, __piVmCode, __piVmFns) {
  with (__piVmScope) { var __piVmResult = eval(__piVmCode); }
  const fns = {};
  for (const n of __piVmFns) { try { fns[n] = eval(n); } catch (_) {} }
  return [__piVmResult, fns];
})`);

// topFunctions finds the names of function declarations that start a
// line (the usual shape of a script's top level); those names resolve
// to the hoisted functions while the script runs.
const topFunctions = (code) => {
  const out = [];
  const re = /^(?:async\s+)?function\s*\*?\s*([A-Za-z_$][\w$]*)/gm;
  let m;
  while ((m = re.exec(code))) out.push(m[1]);
  return out;
};

function runIn(sandbox, code, opts) {
  const p = scopeFor(sandbox);
  const fns = topFunctions(code);
  const run = () => {
    const prev = scopeFor.hidden;
    scopeFor.hidden = new Set(fns);
    try {
      const [result, found] = runner.call(p, p, code, fns);
      for (const n of Object.keys(found)) if (typeof found[n] === "function" && !(n in sandbox)) sandbox[n] = found[n];
      return result;
    } finally { scopeFor.hidden = prev; }
  };
  return withOptions(run, opts);
}

function withOptions(run, opts) {
  const timeout = opts && typeof opts === "object" ? opts.timeout : undefined;
  if (timeout !== undefined) {
    if (!Number.isInteger(timeout) || timeout <= 0) throw codeErr(RangeError, "ERR_OUT_OF_RANGE", 'The value of "options.timeout" is out of range. It must be >= 1 && <= 4294967295. Received ' + timeout);
    return __host.withTimeout(run, timeout);
  }
  return run();
}

const filenameOf = (opts) => (typeof opts === "string" ? opts : (opts && opts.filename) || "evalmachine.<anonymous>");

function check(code, opts) {
  if (typeof code !== "string") throw invalidArg("code", "of type string", code);
  const msg = __host.check(code, filenameOf(opts));
  if (msg !== null) throw new SyntaxError(msg);
}

const isContext = (obj) => {
  if (obj === null || typeof obj !== "object") throw invalidArg("object", "of type object", obj);
  return contexts.has(obj);
};
function createContext(obj, opts) {
  if (obj === undefined) obj = {};
  if (obj === null || typeof obj !== "object") throw invalidArg("contextObject", "of type object", obj);
  scopeFor(obj);
  return obj;
}
const needContext = (ctx) => {
  if (ctx === null || typeof ctx !== "object" || !contexts.has(ctx)) throw invalidArg("contextifiedObject", "an vm.Context", ctx);
};

class Script {
  constructor(code, opts) {
    code = String(code);
    check(code, opts);
    Object.defineProperty(this, "_code", { value: code });
    this.cachedDataRejected = opts && opts.cachedData ? true : undefined;
    this.sourceMapURL = undefined;
  }
  runInThisContext(opts) { return withOptions(() => (0, eval)(this._code), opts); }
  runInContext(ctx, opts) { needContext(ctx); return runIn(ctx, this._code, opts); }
  runInNewContext(sandbox, opts) { return runIn(createContext(sandbox), this._code, opts); }
  createCachedData() { const e = new Error("vm.Script.createCachedData is not supported in extensions by this runtime (goja has no code cache)"); e.code = "ERR_NOT_SUPPORTED"; throw e; }
}

const runInThisContext = (code, opts) => new Script(code, opts).runInThisContext(opts);
const runInContext = (code, ctx, opts) => { needContext(ctx); return new Script(code, opts).runInContext(ctx, opts); };
const runInNewContext = (code, sandbox, opts) => new Script(code, opts).runInNewContext(sandbox, opts);

function compileFunction(code, params, opts) {
  if (typeof code !== "string") throw invalidArg("code", "of type string", code);
  params = params || [];
  if (!Array.isArray(params)) throw invalidArg("params", "an instance of Array", params);
  opts = opts || {};
  const src = "(function (" + params.join(", ") + ") {\n" + code + "\n})";
  check(src, opts);
  const ext = opts.contextExtensions || [];
  if (ext.length || opts.parsingContext) {
    const ctx = opts.parsingContext ? (needContext(opts.parsingContext), opts.parsingContext) : createContext({});
    const sandbox = ext.length ? Object.assign(Object.create(null), ...ext) : null;
    if (sandbox) {
      // Extensions shadow the context's globals for this function only.
      const inner = createContext(new Proxy(sandbox, { has: (t, k) => k in t || k in ctx, get: (t, k) => (k in t ? t[k] : ctx[k]), set: (t, k, v) => { ctx[k] = v; return true; } }));
      return runIn(inner, src);
    }
    return runIn(ctx, src);
  }
  return (0, eval)(src);
}

const constants = Object.freeze({ USE_MAIN_CONTEXT_DEFAULT_LOADER: Symbol("vm_dynamic_import_main_context_default"), DONT_CONTEXTIFY: Symbol("vm_context_no_contextify") });
module.exports = {
  Script, createContext, createScript: (code, opts) => new Script(code, opts),
  runInContext, runInNewContext, runInThisContext, isContext, compileFunction,
  measureMemory() { const e = new Error("vm.measureMemory is not supported in extensions by this runtime"); e.code = "ERR_NOT_SUPPORTED"; return Promise.reject(e); },
  constants,
};
