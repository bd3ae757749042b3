// V8's wording of the TypeErrors and ReferenceErrors the engine throws
// itself, as e.message shows them in catch clauses, promise rejection
// handlers and stacks. (Reads and writes on null are left out: goja
// reports them as on undefined, and the value is gone by the time the
// message is rewritten.)
const out = [];
const T = (label, f) => { try { f(); out.push(label + " | no throw"); } catch (e) { out.push(label + " | " + e.constructor.name + " | " + e.message); } };
let u, o = { a: {} }, num = 5;
T("read undefined", () => u.x);
T("read nested", () => o.b.c);
T("read computed", () => u[0]);
T("read in call chain", () => o.b.c());
T("set undefined", () => { u.x = 1; });
T("set nested", () => { o.b.c = 1; });
T("set computed", () => { o.b["key"] = 1; });
T("call undefined variable", () => u());
T("call missing method", () => o.f());
T("call nested missing method", () => o.a.g());
T("call number", () => num());
T("call method of number", () => num.foo());
T("call computed", () => o["x-y"]());
T("call optional member", () => o?.f());
T("call result", () => o.constructor()());
T("not defined", () => notDefinedVar);
T("not defined call", () => notDefinedFn());
T("typeof not defined", () => { if (typeof notDefinedVar !== "undefined") throw new Error("?"); });
T("tdz let", () => { tdz; let tdz = 1; });
T("tdz class", () => { new C(); class C {} });
T("not constructor", () => new num());
T("not constructor member", () => new o.f());
T("not constructor arrow", () => { const a = () => 1; new a(); });
T("const assign", () => new Function("const c = 1; c = 2;")());
T("not iterable for-of", () => { for (const x of num) {} });
T("not iterable array pattern", () => { const [a] = o; });
T("not iterable undefined pattern", () => { const [a] = u; });
T("not iterable spread", () => [...o]);
T("destructure undefined", () => { const { a } = u; });
T("instanceof", () => o instanceof o);
T("keys of undefined", () => Object.keys(u));
T("own TypeError kept", () => { throw new TypeError("Cannot read property 'x' of undefined"); });
T("multiline call", () => {
  o.method(
    1,
    2,
  );
});
async function failing() { await null; return u.name; }
async function main() {
  try { await failing(); } catch (e) { out.push("await in try | " + e.message); }
  await failing().catch((e) => out.push("promise catch | " + e.message));
  await failing().then(null, (e) => out.push("then rejection handler | " + e.message));
  const e = (() => { try { o.f(); } catch (err) { return err; } })();
  out.push("stack head | " + e.stack.split("\n")[0]);
  console.log(out.join("\n"));
}
main();
