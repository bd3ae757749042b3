// node:querystring: parse and stringify of URL query strings with Node's
// escaping (encodeURIComponent plus !'()*), repeated keys as arrays, and
// the sep, eq and maxKeys options.
"use strict";
const escape = (s) => encodeURIComponent(s);
const unescape = (s) => { try { return decodeURIComponent(s); } catch { return s.replace(/%([0-9a-fA-F]{2})/g, (m, h) => String.fromCharCode(parseInt(h, 16))); } };
const prim = (v) => (typeof v === "string" ? v : typeof v === "number" && isFinite(v) ? String(v) : typeof v === "bigint" ? String(v) : typeof v === "boolean" ? (v ? "true" : "false") : "");
function stringify(obj, sep, eq, opts) {
  sep = sep || "&"; eq = eq || "=";
  const enc = (opts && opts.encodeURIComponent) || qs.escape;
  if (obj === null || typeof obj !== "object") return "";
  const parts = [];
  for (const k of Object.keys(obj)) {
    const v = obj[k], ks = enc(prim(k)) + eq;
    if (Array.isArray(v)) for (const x of v) parts.push(ks + enc(prim(x)));
    else parts.push(ks + enc(prim(v)));
  }
  return parts.join(sep);
}
function parse(str, sep, eq, opts) {
  sep = sep || "&"; eq = eq || "=";
  const out = Object.create(null);
  if (typeof str !== "string" || str.length === 0) return out;
  const dec = (opts && opts.decodeURIComponent) || qs.unescape;
  let max = opts && typeof opts.maxKeys === "number" ? opts.maxKeys : 1000;
  let pairs = str.split(sep);
  if (max > 0 && pairs.length > max) pairs = pairs.slice(0, max);
  for (const pair of pairs) {
    if (pair.length === 0 && pairs.length > 1) continue;
    const i = pair.indexOf(eq);
    const k = dec((i >= 0 ? pair.slice(0, i) : pair).replace(/\+/g, " "));
    const v = i >= 0 ? dec(pair.slice(i + eq.length).replace(/\+/g, " ")) : "";
    if (!(k in out)) out[k] = v;
    else if (Array.isArray(out[k])) out[k].push(v);
    else out[k] = [out[k], v];
  }
  return out;
}
const qs = { unescapeBuffer: (s) => Buffer.from(unescape(String(s))), unescape, escape, stringify, encode: stringify, parse, decode: parse };
module.exports = qs;
