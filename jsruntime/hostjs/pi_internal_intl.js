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
    if (o.notation === "compact") { const u = [[1e12, "T"], [1e9, "B"], [1e6, "M"], [1e3, "K"]]; for (const [v, s] of u) if (Math.abs(n) >= v) { const x = n / v; return (Math.abs(x) < 100 ? Number(x.toFixed(Math.abs(x) < 10 ? 1 : 0)) : Math.round(x)) + s; } return String(Math.round(n)); }
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
class Collator { constructor(l, o) { this.o = o || {}; } compare(a, b) { return this.o.sensitivity === "base" ? String(a).toLowerCase().localeCompare(String(b).toLowerCase()) : String(a).localeCompare(String(b)); } resolvedOptions() { return { locale: "en-US" }; } }
class PluralRules { select(n) { return n === 1 ? "one" : "other"; } resolvedOptions() { return { locale: "en-US" }; } }
class RelativeTimeFormat { format(v, u) { const a = Math.abs(v); const s = `${a} ${u.replace(/s$/, "")}${a === 1 ? "" : "s"}`; return v < 0 ? `${s} ago` : `in ${s}`; } }
class ListFormat { constructor(l, o) { this.o = o || {}; } format(list) { const a = [...list]; if (a.length < 2) return a.join(""); const w = this.o.type === "disjunction" ? "or" : "and"; return a.length === 2 ? `${a[0]} ${w} ${a[1]}` : `${a.slice(0, -1).join(", ")}, ${w} ${a[a.length - 1]}`; } }
class Segmenter { segment(s) { const out = Array.from(String(s)).map((c, i) => ({ segment: c, index: i, input: s })); return out; } }
module.exports = { NumberFormat, DateTimeFormat, Collator, PluralRules, RelativeTimeFormat, ListFormat, Segmenter, getCanonicalLocales: (l) => [].concat(l || []), supportedValuesOf: () => [] };
