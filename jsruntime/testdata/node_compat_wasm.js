// WebAssembly's JS API with hand-assembled modules: exports, imports from
// JS, value conversions, memory, globals, errors and the async forms.
const show = (label, f) => {
  try {
    console.log(label, f());
  } catch (e) {
    console.log(label, "throws", e.name, e instanceof WebAssembly.CompileError, e instanceof WebAssembly.LinkError, e instanceof WebAssembly.RuntimeError, e.message.split(":")[0]);
  }
};
// A tiny assembler for the binary format: LEB128, names, vectors, sections.
const leb = (n) => {
  const out = [];
  do {
    let b = n & 0x7f;
    n >>>= 7;
    if (n) b |= 0x80;
    out.push(b);
  } while (n);
  return out;
};
const sleb = (n) => {
  const out = [];
  for (;;) {
    const b = n & 0x7f;
    n >>= 7;
    if ((n === 0 && !(b & 0x40)) || (n === -1 && b & 0x40)) return [...out, b];
    out.push(b | 0x80);
  }
};
const str = (s) => [...leb(s.length), ...Array.from(s, (c) => c.charCodeAt(0))];
const vec = (items) => [...leb(items.length), ...items.flat()];
const section = (id, items) => {
  const body = vec(items);
  return [id, ...leb(body.length), ...body];
};
const code = (...instrs) => {
  const body = [0, ...instrs.flat(), 0x0b];
  return [...leb(body.length), ...body];
};
const wasm = (...sections) => new Uint8Array([0x00, 0x61, 0x73, 0x6d, 1, 0, 0, 0, ...sections.flat()]);
const [i32, i64, f32, f64] = [0x7f, 0x7e, 0x7d, 0x7c];
const fnType = (params, results) => [0x60, ...vec(params), ...vec(results)];
const exp = (name, kind, index) => [...str(name), kind, ...leb(index)];
const get = (i) => [0x20, i];

console.log("typeof", typeof WebAssembly, String(WebAssembly), Object.keys(WebAssembly).length);
// Exception handling (Tag, Exception, JSTag) is not built here.
const unbuilt = ["Exception", "JSTag", "Tag"];
console.log("names", Object.getOwnPropertyNames(WebAssembly).filter((n) => !unbuilt.includes(n)).sort().join(","));

// (module (func (export "add") (param i32 i32) (result i32) local.get 0 local.get 1 i32.add)), by hand.
const addBytes = new Uint8Array([
  0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00, // magic, version
  0x01, 0x07, 0x01, 0x60, 0x02, 0x7f, 0x7f, 0x01, 0x7f, // type: (i32 i32) -> i32
  0x03, 0x02, 0x01, 0x00, // function 0 has type 0
  0x07, 0x07, 0x01, 0x03, 0x61, 0x64, 0x64, 0x00, 0x00, // export "add" = func 0
  0x0a, 0x09, 0x01, 0x07, 0x00, 0x20, 0x00, 0x20, 0x01, 0x6a, 0x0b, // body
]);
console.log("validate", WebAssembly.validate(addBytes), WebAssembly.validate(new Uint8Array([1, 2, 3, 4])));
const addModule = new WebAssembly.Module(addBytes);
console.log("module", Object.prototype.toString.call(addModule), JSON.stringify(WebAssembly.Module.exports(addModule)), JSON.stringify(WebAssembly.Module.imports(addModule)));
const addInstance = new WebAssembly.Instance(addModule);
const { add } = addInstance.exports;
console.log("instance", Object.prototype.toString.call(addInstance), Object.keys(addInstance.exports).join(","), Object.isFrozen(addInstance.exports), Object.getPrototypeOf(addInstance.exports));
console.log("add", add(2, 3), add(-1, 0), add(2 ** 31 - 1, 1), add("4", 1.9), add(), typeof add, add.length, add.name);
show("add bigint", () => add(1n, 2));

// Conversions: i64 is BigInt both ways, f32 rounds, f64 passes through.
const convBytes = wasm(
  section(1, [fnType([i64, i64], [i64]), fnType([f32], [f32]), fnType([f64], [f64]), fnType([], [i32, i64])]),
  section(3, [[0], [1], [2], [3]]),
  section(7, [exp("add64", 0, 0), exp("f32", 0, 1), exp("f64", 0, 2), exp("pair", 0, 3)]),
  section(10, [code(get(0), get(1), 0x7c), code(get(0)), code(get(0)), code(0x41, ...sleb(-7), 0x42, ...sleb(9))]),
);
const conv = new WebAssembly.Instance(new WebAssembly.Module(convBytes)).exports;
console.log("i64", conv.add64(1n, 2n), conv.add64(2n ** 63n - 1n, 1n), conv.add64(-5n, 2n ** 64n + 3n), typeof conv.add64(0n, 0n));
show("i64 number", () => conv.add64(1, 2));
console.log("f32", conv.f32(0.1), conv.f32(1.5), conv.f32(2 ** 130), Number.isNaN(conv.f32(NaN)));
console.log("f64", conv.f64(0.1), conv.f64(-0) === 0 && 1 / conv.f64(-0), conv.f64("2.5"));
console.log("multi", JSON.stringify(conv.pair().map(String)));

// Imports: JS functions called from wasm, with their own conversions.
const calls = [];
const importBytes = wasm(
  section(1, [fnType([i32], []), fnType([i32], [i32]), fnType([i64], [i64])]),
  section(2, [[...str("env"), ...str("log"), 0, 0], [...str("env"), ...str("twice"), 0, 1], [...str("math"), ...str("neg"), 0, 2]]),
  section(3, [[1], [2]]),
  section(7, [exp("run", 0, 3), exp("negate", 0, 4)]),
  // run(x) = log(x); twice(x) + 1
  section(10, [code(get(0), 0x10, 0, get(0), 0x10, 1, 0x41, 1, 0x6a), code(get(0), 0x10, 2)]),
);
const importModule = new WebAssembly.Module(importBytes);
console.log("imports", JSON.stringify(WebAssembly.Module.imports(importModule)));
const imported = new WebAssembly.Instance(importModule, {
  env: { log: (x) => calls.push(`log ${x}`), twice: (x) => x * 2 },
  math: { neg: (x) => -x },
}).exports;
console.log("run", imported.run(20), imported.run(-3), calls.join("; "));
console.log("i64 import", imported.negate(5n));
const throwing = new WebAssembly.Instance(importModule, {
  env: { log: () => { throw new Error("from JS"); }, twice: (x) => x },
  math: { neg: () => 1 },
}).exports;
show("import throws", () => throwing.run(1));
try {
  throwing.run(1);
} catch (e) {
  console.log("same error", e.message, e instanceof Error, e instanceof WebAssembly.RuntimeError);
}
show("import returns wrong type", () => throwing.negate(1n));
show("missing imports", () => new WebAssembly.Instance(importModule));
show("missing module", () => new WebAssembly.Instance(importModule, { env: { log() {}, twice() {} } }));
show("not callable", () => new WebAssembly.Instance(importModule, { env: { log: 1, twice() {} }, math: { neg() {} } }));

// Re-entry: wasm calls JS, which calls the same export again.
const recBytes = wasm(
  section(1, [fnType([i32], [i32])]),
  section(2, [[...str("env"), ...str("cb"), 0, 0]]),
  section(3, [[0]]),
  section(7, [exp("rec", 0, 1)]),
  // rec(x) = x == 0 ? 0 : cb(x - 1) + 1
  section(10, [code(get(0), 0x45, 0x04, i32, 0x41, 0, 0x05, get(0), 0x41, 1, 0x6b, 0x10, 0, 0x41, 1, 0x6a, 0x0b)]),
);
const depths = [];
const rec = new WebAssembly.Instance(new WebAssembly.Module(recBytes), {
  env: {
    cb: (x) => {
      depths.push(x);
      if (x === 2) {
        try {
          rec(-100); // throws below, caught here
        } catch (e) {
          depths.push(e.message);
        }
      }
      if (x < -50) throw new Error("deep throw");
      return rec(x);
    },
  },
}).exports.rec;
console.log("re-entry", rec(5), depths.join(","));

// Memory: exported, read and written from both sides, grown.
const memBytes = wasm(
  section(1, [fnType([i32, i32], []), fnType([i32], [i32]), fnType([], [i32])]),
  section(3, [[0], [1], [2], [1]]),
  section(5, [[1, 1, 3]]), // memory: min 1, max 3 pages
  section(7, [exp("mem", 2, 0), exp("store", 0, 0), exp("load", 0, 1), exp("size", 0, 2), exp("grow", 0, 3)]),
  section(10, [
    code(get(0), get(1), 0x36, 2, 0), // i32.store
    code(get(0), 0x28, 2, 0), // i32.load
    code(0x3f, 0), // memory.size
    code(get(0), 0x40, 0), // memory.grow
  ]),
  section(11, [[0, 0x41, 16, 0x0b, ...str("hi")]]), // data "hi" at 16
);
const mem = new WebAssembly.Instance(new WebAssembly.Module(memBytes)).exports;
const buf = mem.mem.buffer;
console.log("memory", mem.mem instanceof WebAssembly.Memory, buf instanceof ArrayBuffer, buf.byteLength, buf === mem.mem.buffer);
console.log("data segment", String.fromCharCode(...new Uint8Array(buf, 16, 2)));
mem.store(0, 0x01020304);
console.log("wasm wrote", Array.from(new Uint8Array(mem.mem.buffer, 0, 4)).join(" "));
new DataView(mem.mem.buffer).setInt32(8, -2, true);
console.log("js wrote", mem.load(8));
console.log("grow", mem.mem.grow(1), mem.size(), buf.byteLength, mem.mem.buffer.byteLength, buf === mem.mem.buffer);
const before = mem.mem.buffer;
console.log("wasm grow", mem.grow(1), mem.size(), mem.grow(1), mem.mem.buffer.byteLength, before.byteLength, mem.load(8));
show("grow past maximum", () => mem.mem.grow(1));
show("load out of bounds", () => mem.load(3 * 65536));

// A Memory made in JS and imported.
const jsMem = new WebAssembly.Memory({ initial: 1, maximum: 2 });
console.log("js memory", jsMem.buffer.byteLength, Object.prototype.toString.call(jsMem));
new Uint8Array(jsMem.buffer)[5] = 77;
const impMemBytes = wasm(
  section(1, [fnType([i32], [i32])]),
  section(2, [[...str("js"), ...str("mem"), 2, 0, 1]]),
  section(3, [[0]]),
  section(7, [exp("load8", 0, 0), exp("memory", 2, 0)]),
  section(10, [code(get(0), 0x2d, 0, 0)]), // i32.load8_u
);
const impMem = new WebAssembly.Instance(new WebAssembly.Module(impMemBytes), { js: { mem: jsMem } }).exports;
console.log("imported memory", impMem.load8(5), impMem.memory === jsMem);
console.log("js grow", jsMem.grow(1), jsMem.buffer.byteLength);
show("memory not a Memory", () => new WebAssembly.Instance(new WebAssembly.Module(impMemBytes), { js: { mem: {} } }));
show("memory no initial", () => new WebAssembly.Memory({}));
show("memory maximum below initial", () => new WebAssembly.Memory({ initial: 2, maximum: 1 }));

// Globals: exported constant and mutable, and one made in JS.
const globalBytes = wasm(
  section(1, [fnType([], [i64])]),
  section(3, [[0]]),
  section(6, [[i32, 0, 0x41, 42, 0x0b], [i64, 1, 0x42, 7, 0x0b]]),
  section(7, [exp("g", 3, 0), exp("mg", 3, 1), exp("readMg", 0, 0)]),
  section(10, [code(0x23, 1)]), // global.get 1
);
const globals = new WebAssembly.Instance(new WebAssembly.Module(globalBytes)).exports;
console.log("globals", globals.g instanceof WebAssembly.Global, globals.g.value, globals.mg.value, globals.g.valueOf());
globals.mg.value = 99n;
console.log("set mutable", globals.mg.value, globals.readMg());
show("set constant", () => {
  globals.g.value = 1;
});
const jsGlobal = new WebAssembly.Global({ value: "f64", mutable: true }, 1.5);
jsGlobal.value = 2.25;
console.log("js global", jsGlobal.value, new WebAssembly.Global({ value: "i32" }).value);

// Custom sections, an exported table, an empty memory.
const tableBytes = wasm(
  section(1, [fnType([], [])]),
  section(3, [[0]]),
  section(4, [[0x70, 0, 3]]), // table: funcref, min 3
  section(7, [exp("tbl", 1, 0), exp("nop", 0, 0)]),
  section(10, [code()]),
  [0, ...leb(str("note").length + 2), ...str("note"), 0x68, 0x69], // custom section "note" = "hi"
);
const tableModule = new WebAssembly.Module(tableBytes);
const sections = WebAssembly.Module.customSections(tableModule, "note");
console.log("custom sections", sections.length, sections[0] instanceof ArrayBuffer, String.fromCharCode(...new Uint8Array(sections[0])), WebAssembly.Module.customSections(tableModule, "other").length);
console.log("table export", JSON.stringify(WebAssembly.Module.exports(tableModule)));
const tbl = new WebAssembly.Instance(tableModule).exports.tbl;
console.log("table", tbl instanceof WebAssembly.Table, tbl.length, Object.prototype.toString.call(tbl));
const empty = new WebAssembly.Memory({ initial: 0 });
console.log("empty memory", empty.buffer.byteLength, empty.grow(1), empty.buffer.byteLength);

// Errors.
show("compile bad magic", () => new WebAssembly.Module(new Uint8Array([1, 2, 3, 4])));
show("compile bad body", () => new WebAssembly.Module(wasm(section(1, [fnType([], [i32])]), section(3, [[0]]), section(10, [code()]))));
show("not a buffer", () => new WebAssembly.Module("nope"));
const trapBytes = wasm(
  section(1, [fnType([], []), fnType([i32], [i32])]),
  section(3, [[0], [1]]),
  section(7, [exp("trap", 0, 0), exp("div", 0, 1)]),
  section(10, [code(0x00), code(0x41, 1, get(0), 0x6d)]), // unreachable; 1 / x
);
const traps = new WebAssembly.Instance(new WebAssembly.Module(trapBytes)).exports;
show("unreachable", () => traps.trap());
try {
  traps.trap();
} catch (e) {
  console.log("trap message", e.message);
}
try {
  traps.div(0);
} catch (e) {
  console.log("div message", e.name, e.message);
}
console.log("div", traps.div(1));
console.log("error classes", new WebAssembly.CompileError("x").name, new WebAssembly.LinkError("x") instanceof Error, new WebAssembly.RuntimeError("y").message);

// The promise forms, one after another so the order is fixed.
(async () => {
  const r = await WebAssembly.instantiate(addBytes);
  console.log("instantiate bytes", Object.keys(r).join(","), r.module instanceof WebAssembly.Module, r.instance.exports.add(40, 2));
  const i = await WebAssembly.instantiate(addModule);
  console.log("instantiate module", i instanceof WebAssembly.Instance, i.exports.add(1, 1));
  console.log("compile", (await WebAssembly.compile(addBytes)) instanceof WebAssembly.Module);
  await WebAssembly.compile(new Uint8Array(4)).catch((e) => console.log("compile rejects", e.name));
  await WebAssembly.instantiate(importBytes, {}).catch((e) => console.log("instantiate rejects", e.name));
  const res = new Response(addBytes, { headers: { "content-type": "application/wasm" } });
  console.log("streaming", (await WebAssembly.instantiateStreaming(res)).instance.exports.add(2, 2));
  await WebAssembly.compileStreaming(new Response(addBytes)).catch((e) => console.log("streaming mime", e.name));
  console.log("done");
})();
