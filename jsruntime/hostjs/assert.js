"use strict";
class AssertionError extends Error { constructor(o) { super(o && o.message || "Assertion failed"); this.name = "AssertionError"; this.code = "ERR_ASSERTION"; } }
function assert(v, m) { if (!v) throw m instanceof Error ? m : new AssertionError({ message: m || "The expression evaluated to a falsy value" }); }
const same = (a, b) => require("util").isDeepStrictEqual(a, b);
const threw = (fn) => { try { fn(); } catch (e) { return { e }; } return null; };
Object.assign(assert, {
  AssertionError, ok: assert,
  equal: (a, b, m) => assert(a == b, m || `${a} == ${b}`), notEqual: (a, b, m) => assert(a != b, m),
  strictEqual: (a, b, m) => assert(Object.is(a, b), m || `Expected values to be strictly equal: ${a} !== ${b}`), notStrictEqual: (a, b, m) => assert(!Object.is(a, b), m),
  deepEqual: (a, b, m) => assert(same(a, b), m), deepStrictEqual: (a, b, m) => assert(same(a, b), m), notDeepStrictEqual: (a, b, m) => assert(!same(a, b), m),
  throws: (fn, _e, m) => { try { fn(); } catch { return; } throw new AssertionError({ message: m || "Missing expected exception." }); },
  rejects: async (p, _e, m) => { try { await (typeof p === "function" ? p() : p); } catch { return; } throw new AssertionError({ message: m || "Missing expected rejection." }); },
  fail: (m) => { throw new AssertionError({ message: m || "Failed" }); },
  notDeepEqual: (a, b, m) => assert(!same(a, b), m || "Expected \"actual\" not to be loosely deep-equal to \"expected\""),
  doesNotThrow: (fn, _e, m) => { const t = threw(fn); if (t) throw new AssertionError({ message: "Got unwanted exception" + (typeof m === "string" ? ": " + m : typeof _e === "string" ? ": " + _e : ".") + "\nActual message: \"" + (t.e && t.e.message) + "\"" }); },
  doesNotReject: async (p, _e, m) => { try { await (typeof p === "function" ? p() : p); } catch (e) { throw new AssertionError({ message: "Got unwanted rejection.\nActual message: \"" + (e && e.message) + "\"" }); } },
  ifError: (v) => { if (v !== null && v !== undefined) throw new AssertionError({ message: "ifError got unwanted exception: " + (v && v.message !== undefined ? v.message : v) }); },
  match: (s, re, m) => assert(re.test(s), m || `The input did not match the regular expression ${re}. Input:\n\n'${s}'\n`),
  doesNotMatch: (s, re, m) => assert(!re.test(s), m || `The input was expected to not match the regular expression ${re}. Input:\n\n'${s}'\n`),
});
assert.strict = assert;
module.exports = assert;
