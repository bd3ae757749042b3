// Node's util: format, inspect, promisify and friends.
"use strict";
// inspect prints as Node's util.inspect does for the cases extensions log:
// quoting, class and null-prototype prefixes, holes, getters, custom
// inspectors, and Node's line breaking (an object stays on one line when
// it fits in breakLength and nests at most `compact` levels; arrays of
// more than six short entries are grouped in columns).
function inspect(v, opts) {
  const ctx = {
    depth: 2, breakLength: 80, compact: 3, maxArrayLength: 100, sorted: false,
    ...inspect.defaultOptions, ...(opts && typeof opts === "object" ? opts : {}),
    indentationLvl: 0, currentDepth: 0, seen: [],
  };
  if (ctx.depth === null) ctx.depth = Infinity;
  return formatValue(ctx, v, 0);
}
const identRe = /^[A-Za-z_$][\w$]*$/;
function quote(s) {
  let q = "'";
  if (s.includes("'")) { if (!s.includes('"')) q = '"'; else if (!s.includes("`") && !s.includes("${")) q = "`"; }
  const esc = s.replace(/[\\\x00-\x1f\x7f]/g, (c) => c === "\\" ? "\\\\" : c === "\n" ? "\\n" : c === "\t" ? "\\t" : c === "\r" ? "\\r" : c === "\b" ? "\\b" : c === "\f" ? "\\f" : c === "\v" ? "\\v" : "\\x" + c.charCodeAt(0).toString(16).toUpperCase().padStart(2, "0"));
  return q + (q === "'" ? esc.replace(/'/g, "\\'") : esc) + q;
}
function fnBase(f) {
  const src = Function.prototype.toString.call(f);
  if (src.startsWith("class") && /^class\b/.test(src)) {
    const sup = Object.getPrototypeOf(f);
    return `[class ${f.name || "(anonymous)"}${sup && sup.name ? " extends " + sup.name : ""}]`;
  }
  const kind = f.constructor && f.constructor.name === "AsyncFunction" ? "AsyncFunction" : f.constructor && f.constructor.name === "GeneratorFunction" ? "GeneratorFunction" : f.constructor && f.constructor.name === "AsyncGeneratorFunction" ? "AsyncGeneratorFunction" : "Function";
  return f.name ? `[${kind}: ${f.name}]` : `[${kind} (anonymous)]`;
}
function formatPrimitive(v) {
  switch (typeof v) {
    case "string": return quote(v);
    case "number": return Object.is(v, -0) ? "-0" : String(v);
    case "bigint": return v + "n";
    case "symbol": return v.toString();
    default: return String(v);
  }
}
function formatValue(ctx, v, level) {
  if (v === null || (typeof v !== "object" && typeof v !== "function")) return formatPrimitive(v);
  const custom = v[inspect.custom];
  if (typeof custom === "function" && custom !== inspect) {
    const r = custom.call(v, ctx.depth - level, { ...ctx, stylize: (s) => s }, inspect);
    if (r !== v) return typeof r === "string" ? r : formatValue(ctx, r, level);
  }
  if (ctx.seen.includes(v)) return "[Circular *1]";
  return formatRaw(ctx, v, level);
}
function ctorName(v) {
  let o = v;
  while (o) {
    const d = Object.getOwnPropertyDescriptor(o, "constructor");
    if (d && typeof d.value === "function" && d.value.name) return d.value.name;
    o = Object.getPrototypeOf(o);
  }
  return null;
}
function formatRaw(ctx, v, level) {
  const proto = Object.getPrototypeOf(v);
  const name = ctorName(v);
  let keys = Object.keys(v);
  if (ctx.sorted) keys.sort();
  const symbols = Object.getOwnPropertySymbols(v).filter((s) => Object.getOwnPropertyDescriptor(v, s).enumerable);
  let braces, base = "", extras = 0; // 1: array-like entries
  let formatter = () => [];
  const prefix = (fallback, size) => {
    const n = name || fallback;
    const tag = proto === null ? `[${fallback}: null prototype] ` : n !== fallback && fallback !== "Object" ? `${n} [${fallback}] ` : n === "Object" ? "" : `${n} `;
    return size === undefined ? tag : tag.replace(/ $/, "") + `(${size}) `;
  };
  if (Array.isArray(v)) {
    const p = name === "Array" && proto !== null ? "" : prefix("Array", v.length);
    braces = [`${p}[`, "]"];
    keys = keys.filter((k) => !/^(0|[1-9]\d*)$/.test(k));
    extras = 1;
    formatter = () => formatArray(ctx, v, level);
  } else if (typeof v === "function") {
    base = fnBase(v);
    keys = keys.filter((k) => k !== "prototype");
    if (keys.length === 0 && symbols.length === 0) return base;
    braces = ["{", "}"];
  } else if (v instanceof Error) {
    base = v.stack || `${v.name}: ${v.message}`;
    keys = keys.filter((k) => k !== "stack" && k !== "message");
    if (keys.length === 0 && symbols.length === 0) return base;
    braces = ["{", "}"];
  } else if (v instanceof Date) {
    base = isNaN(v) ? "Invalid Date" : v.toISOString();
    if (keys.length === 0) return base;
    braces = ["{", "}"];
  } else if (v instanceof RegExp) {
    base = String(v);
    if (keys.length === 0) return base;
    braces = ["{", "}"];
  } else if (v instanceof Map) {
    braces = [`${prefix("Map", v.size)}{`, "}"];
    formatter = () => { const out = []; ctx.indentationLvl += 2; for (const [k, x] of v) out.push(`${formatValue(ctx, k, level + 1)} => ${formatValue(ctx, x, level + 1)}`); ctx.indentationLvl -= 2; return out; };
  } else if (v instanceof Set) {
    braces = [`${prefix("Set", v.size)}{`, "}"];
    formatter = () => { const out = []; ctx.indentationLvl += 2; for (const x of v) out.push(formatValue(ctx, x, level + 1)); ctx.indentationLvl -= 2; return out; };
  } else if (typeof Buffer === "function" && v instanceof Buffer) {
    const hex = Array.from(v.subarray(0, 50), (b) => b.toString(16).padStart(2, "0")).join(" ");
    return `<Buffer${hex ? " " + hex : ""}${v.length > 50 ? ` ... ${v.length - 50} more bytes` : ""}>`;
  } else if (ArrayBuffer.isView(v) && !(v instanceof DataView)) {
    braces = [`${name}(${v.length}) [`, "]"];
    keys = keys.filter((k) => !/^(0|[1-9]\d*)$/.test(k));
    extras = 1;
    formatter = () => { const n = Math.min(v.length, ctx.maxArrayLength); const out = []; for (let i = 0; i < n; i++) out.push(formatPrimitive(v[i])); if (v.length > n) out.push(`... ${v.length - n} more item${v.length - n > 1 ? "s" : ""}`); return out; };
  } else if (v instanceof Promise) {
    braces = ["Promise {", "}"];
    formatter = () => ["<pending>"];
  } else if (v instanceof WeakMap || v instanceof WeakSet) {
    return `${name} { <items unknown> }`;
  } else {
    braces = [`${proto === null ? "[Object: null prototype] " : name && name !== "Object" ? name + " " : ""}{`, "}"];
  }
  if (level > ctx.depth) {
    if (Array.isArray(v)) return "[Array]";
    return `[${name || (proto === null ? "Object: null prototype" : "Object")}]`;
  }
  ctx.seen.push(v);
  ctx.currentDepth = level;
  let output;
  try {
    output = formatter();
    for (const k of keys) output.push(formatProperty(ctx, v, level, k, extras));
    for (const k of symbols) output.push(formatProperty(ctx, v, level, k, extras));
  } finally { ctx.seen.pop(); }
  if (output.length === 0 && !base) return `${braces[0]}${braces[1] === "]" ? "" : ""}${braces[1]}`.replace(/\{\}$/, "{}");
  return reduceToSingleString(ctx, output, base, braces, extras, level, v);
}
function formatProperty(ctx, v, level, k, extras) {
  const d = Object.getOwnPropertyDescriptor(v, k) || { value: v[k], enumerable: true };
  let str;
  if (d.value !== undefined || !("get" in d)) {
    ctx.indentationLvl += 2;
    str = formatValue(ctx, d.value, level + 1);
    ctx.indentationLvl -= 2;
  } else {
    str = d.get ? (d.set ? "[Getter/Setter]" : "[Getter]") : d.set ? "[Setter]" : "undefined";
  }
  const key = typeof k === "symbol" ? `[${k.toString()}]` : identRe.test(k) ? k : quote(k);
  return `${key}: ${str}`;
}
function formatArray(ctx, v, level) {
  const out = [];
  const n = Math.min(v.length, ctx.maxArrayLength);
  let holes = 0;
  const flush = () => { if (holes) { out.push(`<${holes} empty item${holes > 1 ? "s" : ""}>`); holes = 0; } };
  ctx.indentationLvl += 2;
  for (let i = 0; i < n; i++) {
    if (!Object.prototype.hasOwnProperty.call(v, i)) { holes++; continue; }
    flush();
    out.push(formatValue(ctx, v[i], level + 1));
  }
  flush();
  ctx.indentationLvl -= 2;
  if (v.length > n) out.push(`... ${v.length - n} more item${v.length - n > 1 ? "s" : ""}`);
  return out;
}
// groupColumns lays out more than six short array entries in columns, as
// Node does, right-aligning numbers.
function groupColumns(ctx, output, value) {
  let total = 0, maxLen = 0;
  const n = output.length - (value.length > ctx.maxArrayLength ? 1 : 0);
  const lens = [];
  for (let i = 0; i < n; i++) { const l = output[i].length; lens.push(l); total += l + 2; if (l > maxLen) maxLen = l; }
  const actualMax = maxLen + 2;
  if (!(actualMax * 3 + ctx.indentationLvl < ctx.breakLength && (total / actualMax > 5 || maxLen <= 6))) return output;
  const bias = Math.sqrt(actualMax - total / output.length);
  const biasedMax = Math.max(actualMax - 3 - bias, 1);
  const columns = Math.min(Math.round(Math.sqrt(2.5 * biasedMax * n) / biasedMax), Math.floor((ctx.breakLength - ctx.indentationLvl) / actualMax), ctx.compact * 4, 15);
  if (columns <= 1) return output;
  const widths = [];
  for (let c = 0; c < columns; c++) { let w = 0; for (let j = c; j < n; j += columns) if (lens[j] > w) w = lens[j]; widths.push(w + 2); }
  let numeric = true;
  for (let i = 0; i < n; i++) if (typeof value[i] !== "number" && typeof value[i] !== "bigint") { numeric = false; break; }
  const rows = [];
  for (let i = 0; i < n; i += columns) {
    const end = Math.min(i + columns, n);
    let line = "";
    let j = i;
    for (; j < end - 1; j++) line += numeric ? `${output[j]}, `.padStart(widths[j - i]) : `${output[j]}, `.padEnd(widths[j - i]);
    line += numeric ? output[j].padStart(widths[j - i] - 2) : output[j];
    rows.push(line);
  }
  if (n < output.length) rows.push(output[n]);
  return rows;
}
function reduceToSingleString(ctx, output, base, braces, extras, level, value) {
  if (ctx.compact === true) {
    const start = base ? `${base} ` : "";
    return `${start}${braces[0]} ${output.join(", ")} ${braces[1]}`;
  }
  const entries = output.length;
  if (extras === 1 && entries > 6) output = groupColumns(ctx, output, value);
  if (ctx.currentDepth - level < ctx.compact && entries === output.length) {
    const start = output.length + ctx.indentationLvl + braces[0].length + base.length + 10;
    let total = output.length + start;
    for (const o of output) total += o.length;
    if (total <= ctx.breakLength && !base.includes("\n")) {
      const joined = output.join(", ");
      if (!joined.includes("\n")) return `${base ? base + " " : ""}${braces[0]} ${joined} ${braces[1]}`;
    }
  }
  const ind = "\n" + " ".repeat(ctx.indentationLvl);
  return `${base ? base + " " : ""}${braces[0]}${ind}  ${output.join("," + ind + "  ")}${ind}${braces[1]}`;
}
inspect.custom = Symbol.for("nodejs.util.inspect.custom");
inspect.defaultOptions = { depth: 2, breakLength: 80, compact: 3, maxArrayLength: 100 };
function format(f, ...args) {
  if (typeof f !== "string") return [f, ...args].map((a) => typeof a === "string" ? a : inspect(a)).join(" ");
  let i = 0;
  let s = f.replace(/%[sdifjoOc%]/g, (m) => {
    if (m === "%%") return "%";
    if (i >= args.length) return m;
    const a = args[i++];
    switch (m) {
      case "%s": return typeof a === "string" ? a : typeof a === "bigint" ? a + "n" : typeof a === "object" && a !== null && !ownToString(a) ? inspect(a, { depth: 0 }) : Object.is(a, -0) ? "-0" : String(a);
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
// ownToString reports a toString that is the object's own or its class's,
// not a built-in one: %s prints such an object with String(), as Node does.
const builtinProtos = [Object.prototype, Error.prototype, Array.prototype, Date.prototype, RegExp.prototype, Function.prototype, Map.prototype, Set.prototype];
function ownToString(o) {
  for (let p = o; p; p = Object.getPrototypeOf(p)) {
    if (builtinProtos.includes(p)) return false;
    if (Object.prototype.hasOwnProperty.call(p, "toString")) return true;
  }
  return false;
}
function isDeepStrictEqual(a, b, seen = new Map()) {
  if (Object.is(a, b)) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  if (Object.getPrototypeOf(a) !== Object.getPrototypeOf(b)) return false;
  if (seen.get(a) === b) return true;
  seen.set(a, b);
  if (a instanceof Date) return a.getTime() === b.getTime();
  if (a instanceof RegExp) return String(a) === String(b);
  if (a instanceof Map) {
    if (a.size !== b.size) return false;
    for (const [k, v] of a) if (!b.has(k) || !isDeepStrictEqual(v, b.get(k), seen)) return false;
    return true;
  }
  if (a instanceof Set) {
    if (a.size !== b.size) return false;
    for (const v of a) if (!b.has(v) && ![...b].some((w) => isDeepStrictEqual(v, w, seen))) return false;
    return true;
  }
  if (ArrayBuffer.isView(a)) {
    if (a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!Object.is(a[i], b[i])) return false;
    return true;
  }
  const ka = Object.keys(a), kb = Object.keys(b);
  if (ka.length !== kb.length) return false;
  for (const k of ka) if (!Object.prototype.hasOwnProperty.call(b, k) || !isDeepStrictEqual(a[k], b[k], seen)) return false;
  return true;
}
// parseArgs follows node:util's: options by long name with type
// "boolean" or "string", short aliases, multiple, defaults, positionals,
// "--" ending options, --name=value, strict mode errors with Node's codes.
function parseArgs(config = {}) {
  const args = config.args !== undefined ? config.args : process.argv.slice(2);
  const options = config.options || {};
  const strict = config.strict !== undefined ? config.strict : true;
  const allowPositionals = config.allowPositionals !== undefined ? config.allowPositionals : !strict;
  const values = { __proto__: null }, positionals = [], tokens = [];
  const fail = (code, msg) => { const e = new TypeError(msg); e.code = code; throw e; };
  const shortOf = (c) => Object.keys(options).find((k) => options[k].short === c);
  const store = (name, value, raw, inlineValue, index) => {
    const o = options[name];
    if (!o) {
      if (strict) fail("ERR_PARSE_ARGS_UNKNOWN_OPTION", `Unknown option '${raw}'`);
      values[name] = value === undefined ? true : value;
    } else {
      if (o.type === "string" && typeof value !== "string") fail("ERR_PARSE_ARGS_INVALID_OPTION_VALUE", `Option '${o.short ? "-" + o.short + ", " : ""}--${name} <value>' argument missing`);
      if (o.type === "boolean" && value !== undefined && strict) fail("ERR_PARSE_ARGS_INVALID_OPTION_VALUE", `Option '--${name}' does not take an argument`);
      const v = o.type === "boolean" ? true : value;
      if (o.multiple) (values[name] || (values[name] = [])).push(v); else values[name] = v;
    }
    tokens.push({ kind: "option", name, rawName: raw, index, value, inlineValue });
  };
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === "--") { for (const r of args.slice(i + 1)) { positionals.push(r); } tokens.push({ kind: "option-terminator", index: i }); break; }
    if (a.startsWith("--")) {
      const eq = a.indexOf("=");
      const name = eq >= 0 ? a.slice(2, eq) : a.slice(2);
      if (eq >= 0) store(name, a.slice(eq + 1), "--" + name, true, i);
      else if (options[name] && options[name].type === "string" && i + 1 < args.length) store(name, args[++i], a, false, i - 1);
      else store(name, undefined, a, undefined, i);
    } else if (a.startsWith("-") && a !== "-") {
      for (let j = 1; j < a.length; j++) {
        const c = a[j];
        const name = shortOf(c) || c;
        if (options[name] && options[name].type === "string") {
          const rest = a.slice(j + 1);
          if (rest) store(name, rest, "-" + c, true, i);
          else if (i + 1 < args.length) store(name, args[++i], "-" + c, false, i - 1);
          else store(name, undefined, "-" + c, undefined, i);
          break;
        }
        store(name, undefined, "-" + c, undefined, i);
      }
    } else {
      if (strict && !allowPositionals) fail("ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL", `Unexpected argument '${a}'. This command does not take positional arguments`);
      positionals.push(a);
      tokens.push({ kind: "positional", index: i, value: a });
    }
  }
  for (const [name, o] of Object.entries(options)) if (o.default !== undefined && values[name] === undefined) values[name] = o.default;
  const res = { values, positionals };
  if (config.tokens) res.tokens = tokens;
  return res;
}
const kCustom = Symbol.for("nodejs.util.promisify.custom");
function promisify(fn) {
  if (fn[kCustom]) return fn[kCustom];
  // Node's timers carry promisify.custom; ours are native functions.
  if (fn === globalThis.setTimeout) return require("timers/promises").setTimeout;
  if (fn === globalThis.setImmediate) return require("timers/promises").setImmediate;
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
  isDeepStrictEqual: (a, b) => isDeepStrictEqual(a, b),
  stripVTControlCharacters: (s) => String(s).replace(ansi, ""),
  isArray: Array.isArray,
  debuglog: () => () => {},
  TextEncoder, TextDecoder,
  styleText: (fmt, s) => s,
  parseArgs,
  ...legacy(),
};
// legacy are util's older helpers (isString, _extend, …) that bundled
// libraries still call, and the errno names of libuv on Linux.
function legacy() {
  const errnos = { EPERM: -1, ENOENT: -2, ESRCH: -3, EINTR: -4, EIO: -5, ENXIO: -6, E2BIG: -7, ENOEXEC: -8, EBADF: -9, ECHILD: -10, EAGAIN: -11, ENOMEM: -12, EACCES: -13, EFAULT: -14, EBUSY: -16, EEXIST: -17, EXDEV: -18, ENODEV: -19, ENOTDIR: -20, EISDIR: -21, EINVAL: -22, ENFILE: -23, EMFILE: -24, ENOTTY: -25, ETXTBSY: -26, EFBIG: -27, ENOSPC: -28, ESPIPE: -29, EROFS: -30, EMLINK: -31, EPIPE: -32, ERANGE: -34, ENAMETOOLONG: -36, ENOSYS: -38, ENOTEMPTY: -39, ELOOP: -40, ENOTSUP: -95, EADDRINUSE: -98, EADDRNOTAVAIL: -99, ENETDOWN: -100, ENETUNREACH: -101, ECONNABORTED: -103, ECONNRESET: -104, ENOBUFS: -105, EISCONN: -106, ENOTCONN: -107, ETIMEDOUT: -110, ECONNREFUSED: -111, EHOSTUNREACH: -113, EALREADY: -114, ECANCELED: -125 };
  const byNum = new Map(Object.entries(errnos).map(([k, v]) => [v, k]));
  const messages = { EPERM: "operation not permitted", ENOENT: "no such file or directory", ESRCH: "no such process", EINTR: "interrupted system call", EIO: "i/o error", ENXIO: "no such device or address", E2BIG: "argument list too long", ENOEXEC: "exec format error", EBADF: "bad file descriptor", ECHILD: "no child processes", EAGAIN: "resource temporarily unavailable", ENOMEM: "not enough memory", EACCES: "permission denied", EFAULT: "bad address in system call argument", EBUSY: "resource busy or locked", EEXIST: "file already exists", EXDEV: "cross-device link not permitted", ENODEV: "no such device", ENOTDIR: "not a directory", EISDIR: "illegal operation on a directory", EINVAL: "invalid argument", ENFILE: "file table overflow", EMFILE: "too many open files", ENOTTY: "inappropriate ioctl for device", ETXTBSY: "text file is busy", EFBIG: "file too large", ENOSPC: "no space left on device", ESPIPE: "invalid seek", EROFS: "read-only file system", EMLINK: "too many links", EPIPE: "broken pipe", ERANGE: "result too large", ENAMETOOLONG: "name too long", ENOSYS: "function not implemented", ENOTEMPTY: "directory not empty", ELOOP: "too many symbolic links encountered", ENOTSUP: "operation not supported on socket", EADDRINUSE: "address already in use", EADDRNOTAVAIL: "address not available", ENETDOWN: "network is down", ENETUNREACH: "network is unreachable", ECONNABORTED: "software caused connection abort", ECONNRESET: "connection reset by peer", ENOBUFS: "no buffer space available", EISCONN: "socket is already connected", ENOTCONN: "socket is not connected", ETIMEDOUT: "connection timed out", ECONNREFUSED: "connection refused", EHOSTUNREACH: "host is unreachable", EALREADY: "connection already in progress", ECANCELED: "operation canceled" };
  const errName = (n) => {
    if (typeof n !== "number") { const e = new TypeError('The "err" argument must be of type number. Received ' + (n === undefined ? "undefined" : "type " + typeof n)); e.code = "ERR_INVALID_ARG_TYPE"; throw e; }
    if (n >= 0 || !Number.isInteger(n)) { const e = new RangeError('The value of "err" is out of range. It must be a negative integer. Received ' + n); e.code = "ERR_OUT_OF_RANGE"; throw e; }
    return byNum.get(n) || "Unknown system error " + n;
  };
  return {
    isBoolean: (v) => typeof v === "boolean", isBuffer: (v) => typeof Buffer === "function" && Buffer.isBuffer(v), isDate: (v) => v instanceof Date,
    isError: (v) => v instanceof Error, isFunction: (v) => typeof v === "function", isNull: (v) => v === null, isNullOrUndefined: (v) => v === null || v === undefined,
    isNumber: (v) => typeof v === "number", isObject: (v) => v !== null && typeof v === "object", isPrimitive: (v) => v === null || (typeof v !== "object" && typeof v !== "function"),
    isRegExp: (v) => v instanceof RegExp, isString: (v) => typeof v === "string", isSymbol: (v) => typeof v === "symbol", isUndefined: (v) => v === undefined,
    _extend: (target, src) => { if (src !== null && typeof src === "object") for (const k of Object.keys(src)) target[k] = src[k]; return target; },
    log: (...a) => console.log(new Date().toTimeString().slice(0, 8) + " - " + format(...a)),
    debug: () => () => {},
    toUSVString: (s) => String(s).toWellFormed(),
    getSystemErrorName: errName,
    getSystemErrorMap: () => new Map(Object.entries(errnos).map(([k, v]) => [v, [k, messages[k]]])),
    getSystemErrorMessage: (n) => { const k = errName(n); return messages[k] || k; },
    aborted: (signal) => new Promise((resolve) => { if (signal.aborted) resolve(); else signal.addEventListener("abort", () => resolve(), { once: true }); }),
    transferableAbortController: () => new AbortController(),
    transferableAbortSignal: (s) => s,
    parseEnv: (text) => {
      const out = {};
      for (const line of String(text).split(/\r?\n/)) {
        const m = /^\s*(?:export\s+)?([\w.-]+)\s*=\s*(.*)?\s*$/.exec(line);
        if (!m) continue;
        let v = (m[2] || "").trim();
        const q = v[0];
        if ((q === '"' || q === "'" || q === "`") && v.endsWith(q) && v.length > 1) { v = v.slice(1, -1); if (q === '"') v = v.replace(/\\n/g, "\n"); }
        else { const hash = v.indexOf(" #"); if (hash >= 0) v = v.slice(0, hash).trim(); else if (v.startsWith("#")) v = ""; }
        out[m[1]] = v;
      }
      return out;
    },
  };
}
