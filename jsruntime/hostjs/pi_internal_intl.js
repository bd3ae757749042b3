// A minimal Intl: en-US number and date formatting, Collator via
// localeCompare, enough for footers and status lines.
"use strict";
const pad = (n, w = 2) => String(n).padStart(w, "0");
const MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"];
const DAYS = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"];
function group(s) { const [i, f] = s.split("."); const neg = i.startsWith("-"); const d = neg ? i.slice(1) : i; const g = d.replace(/\B(?=(\d{3})+(?!\d))/g, ","); return (neg ? "-" : "") + g + (f !== undefined ? "." + f : ""); }
class NumberFormat {
  constructor(locale, opts) { this.o = Object.assign({ useGrouping: true }, opts || {}); }
  format(n) {
    const o = this.o; n = Number(n);
    if (!isFinite(n)) return isNaN(n) ? "NaN" : (n < 0 ? "-∞" : "∞");
    if (o.notation === "compact") {
      // Without fraction options ICU keeps two significant digits below
      // 100 (1.2K, 12K); maximumFractionDigits overrides that (123.5K).
      const digits = (x) => o.maximumFractionDigits !== undefined ? String(Number(x.toFixed(o.maximumFractionDigits))) : String(Math.abs(x) < 100 ? Number(x.toFixed(Math.abs(x) < 10 ? 1 : 0)) : Math.round(x));
      const u = [[1e12, "T"], [1e9, "B"], [1e6, "M"], [1e3, "K"]];
      for (const [v, s] of u) if (Math.abs(n) >= v) return digits(n / v) + s;
      return digits(n);
    }
    let v = o.style === "percent" ? n * 100 : n;
    const minF = o.minimumFractionDigits !== undefined ? o.minimumFractionDigits : (o.style === "currency" ? 2 : 0);
    const maxF = o.maximumFractionDigits !== undefined ? Math.max(o.maximumFractionDigits, minF) : Math.max(minF, o.style === "currency" ? 2 : o.style === "percent" ? 0 : 3);
    let s = v.toFixed(maxF);
    if (s.includes(".")) { s = s.replace(/0+$/, ""); const f = s.split(".")[1] || ""; if (f.length < minF) s = s.split(".")[0] + "." + f.padEnd(minF, "0"); s = s.replace(/\.$/, ""); }
    if (o.useGrouping !== false) s = group(s);
    if (o.style === "percent") s += "%";
    if (o.style === "currency") s = (o.currency === "EUR" ? "€" : o.currency === "GBP" ? "£" : "$") + s.replace(/^-/, "") , s = (v < 0 ? "-" : "") + s;
    if (o.style === "unit" && o.unit) s += " " + o.unit;
    return s;
  }
  formatToParts(n) { return [{ type: "literal", value: this.format(n) }]; }
  resolvedOptions() { return Object.assign({ locale: "en-US", numberingSystem: "latn" }, this.o); }
  static supportedLocalesOf(l) { return [].concat(l || []); }
}
class DateTimeFormat {
  constructor(locale, opts) { this.o = opts || {}; }
  format(d) {
    d = d === undefined ? new Date() : new Date(d);
    const o = this.o, utc = o.timeZone === "UTC";
    const get = (k) => utc ? d["getUTC" + k]() : d["get" + k]();
    const parts = [];
    const hasDate = o.year || o.month || o.day || o.weekday || o.dateStyle, hasTime = o.hour || o.minute || o.second || o.timeStyle;
    if (!hasDate && !hasTime) return `${get("Month") + 1}/${get("Date")}/${get("FullYear")}`;
    if (hasDate) {
      if (o.month === "long" || o.month === "short" || o.dateStyle === "long" || o.dateStyle === "medium") { const m = MONTHS[get("Month")]; parts.push(`${o.weekday ? DAYS[get("Day")].slice(0, o.weekday === "long" ? 9 : 3) + ", " : ""}${o.month === "short" || o.dateStyle === "medium" ? m.slice(0, 3) : m} ${get("Date")}, ${get("FullYear")}`); }
      else parts.push(`${o.month === "2-digit" ? pad(get("Month") + 1) : get("Month") + 1}/${o.day === "2-digit" ? pad(get("Date")) : get("Date")}/${get("FullYear")}`);
    }
    if (hasTime) {
      let h = get("Hours"); const h12 = o.hour12 !== false && o.hourCycle !== "h23";
      const ap = h >= 12 ? "PM" : "AM"; if (h12) h = h % 12 || 12;
      let t = `${o.hour === "2-digit" || !h12 ? pad(h) : h}:${pad(get("Minutes"))}`;
      if (o.second || o.timeStyle === "medium" || o.timeStyle === "long") t += ":" + pad(get("Seconds"));
      if (h12) t += " " + ap;
      parts.push(t);
    }
    return parts.join(", ");
  }
  formatToParts(d) { return [{ type: "literal", value: this.format(d) }]; }
  resolvedOptions() { return { locale: "en-US", calendar: "gregory", numberingSystem: "latn", timeZone: this.o.timeZone || "UTC" }; }
  static supportedLocalesOf(l) { return [].concat(l || []); }
}
// compare is a bound getter, as ICU's: arr.sort(new Intl.Collator().compare).
class Collator {
  constructor(l, o) { this.o = o || {}; }
  get compare() {
    const o = this.o;
    const f = (a, b) => {
      a = String(a); b = String(b);
      if (o.numeric) { const r = a.localeCompare(b, undefined, { numeric: true }); if (r !== 0 || o.sensitivity !== "base") return r; }
      return o.sensitivity === "base" || o.sensitivity === "accent" ? a.toLowerCase().localeCompare(b.toLowerCase()) : a.localeCompare(b);
    };
    Object.defineProperty(this, "compare", { value: f, configurable: true });
    return f;
  }
  resolvedOptions() { return Object.assign({ locale: "en-US", usage: "sort", sensitivity: "variant" }, this.o); }
  static supportedLocalesOf(l) { return [].concat(l || []); }
}
class PluralRules { select(n) { return n === 1 ? "one" : "other"; } resolvedOptions() { return { locale: "en-US" }; } }
// numeric: "auto" words the near values as ICU's en does (yesterday, next week).
const RTF_AUTO = {
  second: { 0: "now" }, minute: { 0: "this minute" }, hour: { 0: "this hour" },
  day: { "-1": "yesterday", 0: "today", 1: "tomorrow" },
  week: { "-1": "last week", 0: "this week", 1: "next week" },
  month: { "-1": "last month", 0: "this month", 1: "next month" },
  quarter: { "-1": "last quarter", 0: "this quarter", 1: "next quarter" },
  year: { "-1": "last year", 0: "this year", 1: "next year" },
};
class RelativeTimeFormat {
  constructor(l, o) { this.o = o || {}; }
  format(v, u) {
    v = Number(v); const unit = String(u).replace(/s$/, "");
    if (this.o.numeric === "auto") { const w = RTF_AUTO[unit] && RTF_AUTO[unit][String(v === 0 ? 0 : v)]; if (w) return w; }
    const a = Math.abs(v); const s = `${a} ${unit}${a === 1 ? "" : "s"}`;
    return v < 0 || Object.is(v, -0) ? `${s} ago` : `in ${s}`;
  }
  resolvedOptions() { return Object.assign({ locale: "en-US", style: "long", numeric: "always", numberingSystem: "latn" }, this.o); }
}
class ListFormat { constructor(l, o) { this.o = o || {}; } format(list) { const a = [...list]; if (a.length < 2) return a.join(""); const w = this.o.type === "disjunction" ? "or" : "and"; return a.length === 2 ? `${a[0]} ${w} ${a[1]}` : `${a.slice(0, -1).join(", ")}, ${w} ${a[a.length - 1]}`; } }
// Grapheme clusters, enough for terminal widths: combining marks,
// variation selectors, emoji modifiers and tags extend the previous
// character, ZWJ joins the next, regional indicators pair, CR LF is one.
const extendsPrev = (c) => (c >= 0x300 && c <= 0x36f) || (c >= 0x483 && c <= 0x489) || (c >= 0x591 && c <= 0x5bd) || (c >= 0x610 && c <= 0x61a) || (c >= 0x64b && c <= 0x65f) || (c >= 0x900 && c <= 0x903) || (c >= 0x93a && c <= 0x94f) || (c >= 0xe31 && c <= 0xe3a && c !== 0xe32 && c !== 0xe33) || (c >= 0x1ab0 && c <= 0x1aff) || (c >= 0x1dc0 && c <= 0x1dff) || (c >= 0x20d0 && c <= 0x20ff) || (c >= 0xfe00 && c <= 0xfe0f) || (c >= 0xfe20 && c <= 0xfe2f) || (c >= 0x1f3fb && c <= 0x1f3ff) || (c >= 0xe0020 && c <= 0xe007f) || (c >= 0xe0100 && c <= 0xe01ef) || c === 0x200c || c === 0x200d;
const isRI = (c) => c >= 0x1f1e6 && c <= 0x1f1ff;
function graphemes(str) {
  const out = [];
  let cur = "", prev = -1, riRun = 0, index = 0, start = 0;
  for (const ch of str) {
    const c = ch.codePointAt(0);
    const join = cur !== "" && (extendsPrev(c) || prev === 0x200d || (prev === 0x0d && c === 0x0a) || (isRI(c) && isRI(prev) && riRun % 2 === 1));
    if (!join && cur !== "") { out.push({ segment: cur, index: start }); start = index; cur = ""; riRun = 0; }
    cur += ch; index += ch.length;
    riRun = isRI(c) ? riRun + 1 : 0;
    prev = c;
  }
  if (cur !== "") out.push({ segment: cur, index: start });
  return out;
}
class Segmenter {
  constructor(l, o) { this.o = Object.assign({ granularity: "grapheme" }, o || {}); }
  segment(s) {
    const input = String(s);
    let list;
    if (this.o.granularity === "word") {
      list = []; const re = /[A-Za-z0-9_\u00C0-\uFFFF']+|[^A-Za-z0-9_\u00C0-\uFFFF']/g; let m;
      while ((m = re.exec(input))) list.push({ segment: m[0], index: m.index, isWordLike: /[A-Za-z0-9_\u00C0-\uFFFF]/.test(m[0]) });
    } else if (this.o.granularity === "sentence") {
      list = []; const re = /[^.!?]+[.!?]*\s*/g; let m;
      while ((m = re.exec(input))) list.push({ segment: m[0], index: m.index });
    } else list = graphemes(input);
    for (const x of list) x.input = input;
    const segs = { [Symbol.iterator]: () => list[Symbol.iterator](), containing: (i = 0) => list.find((x) => i >= x.index && i < x.index + x.segment.length) };
    return segs;
  }
  resolvedOptions() { return { locale: "en-US", granularity: this.o.granularity }; }
}
// Node's NumberFormat, DateTimeFormat and Collator may be called without
// new (legacy constructor functions); classes cannot.
const callable = (C) => {
  const F = { [C.name]: function (locales, options) { return new C(locales, options); } }[C.name];
  F.prototype = C.prototype;
  Object.defineProperty(C.prototype, "constructor", { value: F, writable: true, configurable: true });
  F.supportedLocalesOf = (l) => [].concat(l || []);
  return F;
};
module.exports = { NumberFormat: callable(NumberFormat), DateTimeFormat: callable(DateTimeFormat), Collator: callable(Collator), PluralRules, RelativeTimeFormat, ListFormat, Segmenter, getCanonicalLocales: (l) => [].concat(l || []), supportedValuesOf: () => [] };
