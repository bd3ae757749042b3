// node:punycode (RFC 3492 Punycode and the IDNA label mapping of
// toASCII/toUnicode), written from the RFC.
"use strict";
const BASE = 36, TMIN = 1, TMAX = 26, SKEW = 38, DAMP = 700, INITIAL_BIAS = 72, INITIAL_N = 128, MAX_INT = 2147483647;
const messages = {
  overflow: "Overflow: input needs wider integers to process",
  "not-basic": "Illegal input >= 0x80 (not a basic code point)",
  "invalid-input": "Invalid input",
};
const fail = (kind) => { throw new RangeError(messages[kind]); };

// ucs2decode splits a string into code points, joining surrogate pairs
// and keeping lone surrogates as they are.
function ucs2decode(s) {
  const out = [];
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
      const d = s.charCodeAt(i + 1);
      if ((d & 0xfc00) === 0xdc00) { out.push(((c & 0x3ff) << 10) + (d & 0x3ff) + 0x10000); i++; continue; }
    }
    out.push(c);
  }
  return out;
}
const ucs2encode = (points) => String.fromCodePoint(...points);

const digitChar = (d) => d + 22 + 75 * (d < 26); // 0..25 → a..z, 26..35 → 0..9
const charDigit = (c) => (c >= 0x30 && c < 0x3a ? c - 22 : c >= 0x41 && c < 0x5b ? c - 0x41 : c >= 0x61 && c < 0x7b ? c - 0x61 : BASE);

function adapt(delta, points, first) {
  delta = first ? Math.floor(delta / DAMP) : delta >> 1;
  delta += Math.floor(delta / points);
  let k = 0;
  while (delta > ((BASE - TMIN) * TMAX) >> 1) { delta = Math.floor(delta / (BASE - TMIN)); k += BASE; }
  return Math.floor(k + ((BASE - TMIN + 1) * delta) / (delta + SKEW));
}
const threshold = (k, bias) => (k <= bias ? TMIN : k >= bias + TMAX ? TMAX : k - bias);

function decode(input) {
  const out = [];
  let basic = input.lastIndexOf("-");
  if (basic < 0) basic = 0;
  for (let j = 0; j < basic; j++) {
    if (input.charCodeAt(j) >= 0x80) fail("not-basic");
    out.push(input.charCodeAt(j));
  }
  let n = INITIAL_N, bias = INITIAL_BIAS, i = 0;
  for (let idx = basic > 0 ? basic + 1 : 0; idx < input.length;) {
    const old = i;
    for (let w = 1, k = BASE; ; k += BASE) {
      if (idx >= input.length) fail("invalid-input");
      const digit = charDigit(input.charCodeAt(idx++));
      if (digit >= BASE) fail("invalid-input");
      if (digit > Math.floor((MAX_INT - i) / w)) fail("overflow");
      i += digit * w;
      const t = threshold(k, bias);
      if (digit < t) break;
      if (w > Math.floor(MAX_INT / (BASE - t))) fail("overflow");
      w *= BASE - t;
    }
    const len = out.length + 1;
    bias = adapt(i - old, len, old === 0);
    if (Math.floor(i / len) > MAX_INT - n) fail("overflow");
    n += Math.floor(i / len);
    i %= len;
    out.splice(i++, 0, n);
  }
  return String.fromCodePoint(...out);
}

function encode(input) {
  const points = ucs2decode(input);
  const out = [];
  for (const c of points) if (c < 0x80) out.push(String.fromCharCode(c));
  const b = out.length;
  let h = b;
  if (b) out.push("-");
  let n = INITIAL_N, delta = 0, bias = INITIAL_BIAS;
  while (h < points.length) {
    let m = MAX_INT;
    for (const c of points) if (c >= n && c < m) m = c;
    if (m - n > Math.floor((MAX_INT - delta) / (h + 1))) fail("overflow");
    delta += (m - n) * (h + 1);
    n = m;
    for (const c of points) {
      if (c < n && ++delta > MAX_INT) fail("overflow");
      if (c !== n) continue;
      let q = delta;
      for (let k = BASE; ; k += BASE) {
        const t = threshold(k, bias);
        if (q < t) break;
        out.push(String.fromCharCode(digitChar(t + ((q - t) % (BASE - t)))));
        q = Math.floor((q - t) / (BASE - t));
      }
      out.push(String.fromCharCode(digitChar(q)));
      bias = adapt(delta, h + 1, h === b);
      delta = 0;
      h++;
    }
    delta++;
    n++;
  }
  return out.join("");
}

// mapDomain applies fn to each label of a domain (or of an e-mail
// address's domain part), splitting on the IDNA full stops.
function mapDomain(domain, fn) {
  const at = domain.split("@");
  let prefix = "";
  if (at.length > 1) { prefix = at[0] + "@"; domain = at[1]; }
  return prefix + domain.replace(/[\x2E\u3002\uFF0E\uFF61]/g, ".").split(".").map(fn).join(".");
}
const toASCII = (d) => mapDomain(d, (l) => (/[^\0-\x7F]/.test(l) ? "xn--" + encode(l) : l));
const toUnicode = (d) => mapDomain(d, (l) => (/^xn--/.test(l) ? decode(l.slice(4).toLowerCase()) : l));

module.exports = { version: "2.1.0", ucs2: { decode: ucs2decode, encode: ucs2encode }, decode, encode, toASCII, toUnicode };
