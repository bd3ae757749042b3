// Node's util: format, inspect, promisify and friends.
"use strict";
function inspect(v, opts) {
  const depthMax = opts && typeof opts.depth === "number" ? opts.depth : 2;
  const seen = new Set();
  const str = (x, depth, top) => {
    switch (typeof x) {
      case "string": return top ? x : "'" + x.replace(/\\/g, "\\\\").replace(/'/g, "\\'").replace(/\n/g, "\\n") + "'";
      case "number": return Object.is(x, -0) ? "-0" : String(x);
      case "bigint": return x + "n";
      case "undefined": return "undefined";
      case "boolean": return String(x);
      case "symbol": return x.toString();
      case "function": return x.name ? `[Function: ${x.name}]` : "[Function (anonymous)]";
    }
    if (x === null) return "null";
    if (seen.has(x)) return "[Circular *1]";
    if (x instanceof Error) return x.stack || `${x.name}: ${x.message}`;
    if (x instanceof Date) return isNaN(x) ? "Invalid Date" : x.toISOString();
    if (x instanceof RegExp) return String(x);
    if (depth > depthMax) return Array.isArray(x) ? "[Array]" : "[Object]";
    seen.add(x);
    try {
      if (Array.isArray(x)) {
        if (x.length === 0) return "[]";
        return "[ " + x.map((e) => str(e, depth + 1)).join(", ") + " ]";
      }
      if (x instanceof Map) return `Map(${x.size}) {` + (x.size ? " " + [...x].map(([k, e]) => `${str(k, depth + 1)} => ${str(e, depth + 1)}`).join(", ") + " " : "") + "}";
      if (x instanceof Set) return `Set(${x.size}) {` + (x.size ? " " + [...x].map((e) => str(e, depth + 1)).join(", ") + " " : "") + "}";
      if (ArrayBuffer.isView(x)) return `${x.constructor.name}(${x.length}) [ ${Array.from(x).join(", ")} ]`;
      if (x instanceof Promise) return "Promise { <pending> }";
      const keys = Object.keys(x);
      const name = x.constructor && x.constructor !== Object && x.constructor.name ? x.constructor.name + " " : "";
      if (keys.length === 0) return name + "{}";
      const key = (k) => /^[A-Za-z_$][\w$]*$/.test(k) ? k : "'" + k + "'";
      return name + "{ " + keys.map((k) => `${key(k)}: ${str(x[k], depth + 1)}`).join(", ") + " }";
    } finally { seen.delete(x); }
  };
  return str(v, 0, false);
}
inspect.custom = Symbol.for("nodejs.util.inspect.custom");
inspect.defaultOptions = { depth: 2 };
function format(f, ...args) {
  if (typeof f !== "string") return [f, ...args].map((a) => typeof a === "string" ? a : inspect(a)).join(" ");
  let i = 0;
  let s = f.replace(/%[sdifjoOc%]/g, (m) => {
    if (m === "%%") return "%";
    if (i >= args.length) return m;
    const a = args[i++];
    switch (m) {
      case "%s": return typeof a === "string" ? a : typeof a === "object" && a !== null ? inspect(a, { depth: 0 }) : String(a);
      case "%d": return typeof a === "bigint" ? a + "n" : String(Number(a));
      case "%i": return String(parseInt(a));
      case "%f": return String(parseFloat(a));
      case "%j": try { return JSON.stringify(a); } catch { return "[Circular]"; }
      case "%c": return "";
      default: return inspect(a);
    }
  });
  for (; i < args.length; i++) s += " " + (typeof args[i] === "string" ? args[i] : inspect(args[i]));
  return s;
}
const kCustom = Symbol.for("nodejs.util.promisify.custom");
function promisify(fn) {
  if (fn[kCustom]) return fn[kCustom];
  return function (...args) {
    return new Promise((resolve, reject) => {
      fn.call(this, ...args, (err, ...values) => {
        if (err) reject(err); else resolve(values.length > 1 && fn.__promisifyMulti ? Object.fromEntries(fn.__promisifyMulti.map((k, i) => [k, values[i]])) : values[0]);
      });
    });
  };
}
promisify.custom = kCustom;
const types = {
  isPromise: (v) => v instanceof Promise, isDate: (v) => v instanceof Date, isRegExp: (v) => v instanceof RegExp,
  isMap: (v) => v instanceof Map, isSet: (v) => v instanceof Set, isNativeError: (v) => v instanceof Error,
  isTypedArray: (v) => ArrayBuffer.isView(v) && !(v instanceof DataView), isUint8Array: (v) => v instanceof Uint8Array,
  isArrayBuffer: (v) => v instanceof ArrayBuffer, isAsyncFunction: (v) => typeof v === "function" && v.constructor && v.constructor.name === "AsyncFunction",
  isGeneratorFunction: (v) => typeof v === "function" && v.constructor && v.constructor.name === "GeneratorFunction",
};
const ansi = /[\u001B\u009B][[\]()#;?]*(?:(?:(?:(?:;[-a-zA-Z\d\/#&.:=?%@~_]+)*|[a-zA-Z\d]+(?:;[-a-zA-Z\d\/#&.:=?%@~_]*)*)?\u0007)|(?:(?:\d{1,4}(?:;\d{0,4})*)?[\dA-PR-TZcf-nq-uy=><~]))/g;
module.exports = {
  format, inspect, promisify, types,
  formatWithOptions: (o, ...a) => format(...a),
  callbackify: (fn) => (...args) => { const cb = args.pop(); fn(...args).then((v) => cb(null, v), (e) => cb(e)); },
  deprecate: (fn) => fn,
  inherits: (ctor, sup) => { Object.setPrototypeOf(ctor.prototype, sup.prototype); Object.setPrototypeOf(ctor, sup); ctor.super_ = sup; },
  isDeepStrictEqual: (a, b) => JSON.stringify(a) === JSON.stringify(b),
  stripVTControlCharacters: (s) => String(s).replace(ansi, ""),
  isArray: Array.isArray,
  debuglog: () => () => {},
  TextEncoder, TextDecoder,
  styleText: (fmt, s) => s,
  parseArgs: undefined,
};
