// node:console: the global console, with the Console class that writes
// to the streams it is given (log/info/debug/dir/table to stdout,
// warn/error/trace/assert to stderr).
"use strict";
const util = require("util");

const streamErr = (name) => { const e = new TypeError("Console expects a writable stream instance for " + name); e.code = "ERR_CONSOLE_WRITABLE_STREAM"; return e; };
const writable = (s) => s !== null && typeof s === "object" && typeof s.write === "function";

// formatTime follows Node's console.timeEnd wording.
function formatTime(ms) {
  let hours = 0, minutes = 0, seconds = 0;
  if (ms >= 1000) {
    if (ms >= 60000) {
      if (ms >= 3600000) { hours = Math.floor(ms / 3600000); ms %= 3600000; }
      minutes = Math.floor(ms / 60000); ms %= 60000;
    }
    seconds = ms / 1000;
  }
  const pad = (v) => String(v).padStart(2, "0");
  if (hours !== 0 || minutes !== 0) {
    const [s, frac] = seconds.toFixed(3).split(".");
    const head = hours !== 0 ? hours + ":" + pad(minutes) : String(minutes);
    return head + ":" + pad(s) + "." + frac + " (" + (hours !== 0 ? "h:m" : "") + "m:ss.mmm)";
  }
  if (seconds !== 0) return seconds.toFixed(3) + "s";
  return Number(ms.toFixed(3)) + "ms";
}

// width is the terminal width of s: East Asian wide and full-width
// characters take two columns, combining marks none.
function width(s) {
  let n = 0;
  for (const ch of String(s).replace(/\x1b\[[0-9;]*m/g, "")) {
    const c = ch.codePointAt(0);
    if ((c >= 0x300 && c <= 0x36f) || (c >= 0x200b && c <= 0x200f)) continue;
    if ((c >= 0x1100 && c <= 0x115f) || (c >= 0x2e80 && c <= 0xa4cf) || (c >= 0xac00 && c <= 0xd7a3) || (c >= 0xf900 && c <= 0xfaff) || (c >= 0xfe30 && c <= 0xfe4f) || (c >= 0xff00 && c <= 0xff60) || (c >= 0xffe0 && c <= 0xffe6) || (c >= 0x1f300 && c <= 0x1f64f) || (c >= 0x1f900 && c <= 0x1f9ff) || (c >= 0x20000 && c <= 0x3fffd)) n += 2;
    else n += 1;
  }
  return n;
}

function renderTable(head, columns) {
  const rows = Math.max(0, ...columns.map((c) => c.length));
  const widths = head.map((h, i) => {
    let w = width(h);
    for (let r = 0; r < rows; r++) if (columns[i][r] !== undefined) w = Math.max(w, width(columns[i][r]));
    return w + 2;
  });
  const line = (l, m, r) => l + widths.map((w) => "─".repeat(w)).join(m) + r;
  const row = (cells) => "│" + cells.map((c, i) => " " + c + " ".repeat(widths[i] - width(c) - 1)).join("│") + "│";
  const out = [line("┌", "┬", "┐"), row(head), line("├", "┼", "┤")];
  for (let r = 0; r < rows; r++) out.push(row(columns.map((c) => (c[r] === undefined ? "" : c[r]))));
  out.push(line("└", "┴", "┘"));
  return out.join("\n");
}

const cell = (v) => {
  const depth = v !== null && typeof v === "object" && !Array.isArray(v) && Object.keys(v).length > 2 ? -1 : 0;
  return util.inspect(v, { depth, maxArrayLength: 3, breakLength: Infinity });
};
const primitive = (v) => v === null || (typeof v !== "object" && typeof v !== "function");

function table(data, props) {
  if (props !== undefined && !Array.isArray(props)) { const e = new TypeError('The "properties" argument must be an instance of Array.' + util.inspect(props)); e.code = "ERR_INVALID_ARG_TYPE"; throw e; }
  if (primitive(data)) return null;
  const indexKey = "(index)";
  if (data instanceof Map) {
    const idx = [], keys = [], vals = [];
    let i = 0;
    for (const [k, v] of data) { idx.push(String(i++)); keys.push(cell(k)); vals.push(cell(v)); }
    return renderTable(["(iteration index)", "Key", "Values"], [idx, keys, vals]);
  }
  if (data instanceof Set) {
    const idx = [], vals = [];
    let i = 0;
    for (const v of data) { idx.push(String(i++)); vals.push(cell(v)); }
    return renderTable(["(iteration index)", "Values"], [idx, vals]);
  }
  const keys = Object.keys(data);
  const cols = new Map();
  const values = [];
  let hasValues = false;
  keys.forEach((k, r) => {
    const v = data[k];
    if (primitive(v)) { hasValues = true; values[r] = cell(v); return; }
    const names = props || Object.keys(v);
    for (const name of names) {
      if (!cols.has(name)) cols.set(name, []);
      if (props && !(name in v)) continue;
      cols.get(name)[r] = cell(v[name]);
    }
  });
  const head = [indexKey, ...cols.keys()];
  const columns = [keys, ...cols.values()];
  if (hasValues) { head.push("Values"); columns.push(values); }
  for (const c of columns) c.length = keys.length;
  return renderTable(head, columns);
}

function Console(options, stderr, ignoreErrors) {
  if (!new.target) return new Console(options, stderr, ignoreErrors);
  if (!options || typeof options.write === "function") options = { stdout: options, stderr, ignoreErrors };
  const out = options.stdout;
  const err = options.stderr === undefined ? out : options.stderr;
  if (!writable(out)) throw streamErr("stdout");
  if (!writable(err)) throw streamErr("stderr");
  const ignore = options.ignoreErrors === undefined ? true : !!options.ignoreErrors;
  const step = options.groupIndentation === undefined ? 2 : options.groupIndentation;
  const inspectOptions = options.inspectOptions;
  let indent = "";
  const counts = new Map(), timers = new Map();
  const write = (stream, text) => {
    if (indent) text = text.includes("\n") ? text.replace(/\n/g, "\n" + indent) : text;
    text = indent + text + "\n";
    if (!ignore) return stream.write(text);
    try { stream.write(text); } catch (_) { /* ignoreErrors: a broken stream must not throw into the caller */ }
  };
  const fmt = (args) => (inspectOptions ? util.formatWithOptions(inspectOptions, ...args) : util.format(...args));
  const warn = (msg) => process.emitWarning(msg);
  const m = {
    log: (...a) => write(out, fmt(a)),
    warn: (...a) => write(err, fmt(a)),
    dir: (v, o) => write(out, util.inspect(v, Object.assign({ customInspect: false }, inspectOptions, o))),
    time: (label = "default") => {
      label = String(label);
      if (timers.has(label)) return warn("Label '" + label + "' already exists for console.time()");
      timers.set(label, performance.now());
    },
    timeEnd: (label = "default") => {
      label = String(label);
      if (!timers.has(label)) return warn("No such label '" + label + "' for console.timeEnd()");
      write(out, label + ": " + formatTime(performance.now() - timers.get(label)));
      timers.delete(label);
    },
    timeLog: (label = "default", ...data) => {
      label = String(label);
      if (!timers.has(label)) return warn("No such label '" + label + "' for console.timeLog()");
      write(out, fmt([label + ": " + formatTime(performance.now() - timers.get(label)), ...data]));
    },
    trace: (...a) => {
      const stack = String(new Error().stack || "").split("\n").slice(2).join("\n");
      write(err, "Trace" + (a.length ? ": " + fmt(a) : "") + (stack ? "\n" + stack : ""));
    },
    assert: (ok, ...a) => {
      if (ok) return;
      if (typeof a[0] === "string") { a[0] = "Assertion failed: " + a[0]; m.warn(...a); } else m.warn("Assertion failed", ...a);
    },
    clear: () => { if (out.isTTY && typeof out.cursorTo === "function") { out.cursorTo(0, 0); out.clearScreenDown(); } },
    count: (label = "default") => {
      label = String(label);
      const n = (counts.get(label) || 0) + 1;
      counts.set(label, n);
      write(out, label + ": " + n);
    },
    countReset: (label = "default") => {
      label = String(label);
      if (!counts.has(label)) return warn("Count for '" + label + "' does not exist");
      counts.delete(label);
    },
    group: (...a) => { if (a.length) m.log(...a); indent += " ".repeat(step); },
    groupEnd: () => { indent = indent.slice(0, Math.max(0, indent.length - step)); },
    table: (data, props) => { const t = table(data, props); if (t === null) m.log(data); else write(out, t); },
  };
  m.debug = m.log; m.info = m.log; m.dirxml = m.log; m.error = m.warn; m.groupCollapsed = m.group;
  for (const k of Object.keys(m)) Object.defineProperty(this, k, { value: m[k], writable: true, configurable: true, enumerable: true });
}
Object.defineProperty(Console, Symbol.hasInstance, { value: (v) => v !== null && typeof v === "object" && typeof v.log === "function" && typeof v.warn === "function" });

// require("console") is the global console, as in Node, with the class
// on it.
const g = globalThis.console;
if (!g.Console) Object.defineProperty(g, "Console", { value: Console, writable: true, configurable: true });
module.exports = g;
