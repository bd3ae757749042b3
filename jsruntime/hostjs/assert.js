"use strict";
class AssertionError extends Error { constructor(o) { super(o && o.message || "Assertion failed"); this.name = "AssertionError"; this.code = "ERR_ASSERTION"; } }
function assert(v, m) { if (!v) throw m instanceof Error ? m : new AssertionError({ message: m || "The expression evaluated to a falsy value" }); }
const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);
Object.assign(assert, {
  AssertionError, ok: assert,
  equal: (a, b, m) => assert(a == b, m || `${a} == ${b}`), notEqual: (a, b, m) => assert(a != b, m),
  strictEqual: (a, b, m) => assert(Object.is(a, b), m || `Expected values to be strictly equal: ${a} !== ${b}`), notStrictEqual: (a, b, m) => assert(!Object.is(a, b), m),
  deepEqual: (a, b, m) => assert(same(a, b), m), deepStrictEqual: (a, b, m) => assert(same(a, b), m), notDeepStrictEqual: (a, b, m) => assert(!same(a, b), m),
  throws: (fn, _e, m) => { try { fn(); } catch { return; } throw new AssertionError({ message: m || "Missing expected exception." }); },
  rejects: async (p, _e, m) => { try { await (typeof p === "function" ? p() : p); } catch { return; } throw new AssertionError({ message: m || "Missing expected rejection." }); },
  fail: (m) => { throw new AssertionError({ message: m || "Failed" }); },
});
assert.strict = assert;
module.exports = assert;
