// SharedArrayBuffer and Atomics, single-threaded: what libraries probe for
// and use (Atomics.wait as a synchronous sleep, counters in shared memory).
const show = (label, f) => {
  try {
    console.log(label, f());
  } catch (e) {
    console.log(label, "throws", e.name, e.message);
  }
};
console.log("typeof", typeof SharedArrayBuffer, typeof Atomics, String(Atomics));
const sab = new SharedArrayBuffer(16);
console.log("sab", sab.byteLength, Object.prototype.toString.call(sab), sab instanceof SharedArrayBuffer, sab instanceof ArrayBuffer, sab.growable, sab.maxByteLength);
const part = sab.slice(4, 12);
console.log("slice", part.byteLength, part instanceof SharedArrayBuffer, part !== sab);
show("no new", () => SharedArrayBuffer(1));
show("negative", () => new SharedArrayBuffer(-1));
console.log("proto names", Object.getOwnPropertyNames(SharedArrayBuffer.prototype).filter((n) => n !== "grow").sort().join(","));
console.log("atomics names", Object.getOwnPropertyNames(Atomics).sort().join(","), Object.keys(Atomics).length);

const ia = new Int32Array(sab);
const bytes = new Uint8Array(sab);
console.log("same memory", ia.buffer === sab, bytes.buffer === sab);
console.log("store", Atomics.store(ia, 0, 3.7), Atomics.store(ia, 1, "5"), Atomics.store(ia, 2, 2 ** 33 + 1), Atomics.store(ia, 3, -0));
console.log("load", Atomics.load(ia, 0), Atomics.load(ia, 1), Atomics.load(ia, 2), Atomics.load(ia, 3), ia[2]);
console.log("add", Atomics.add(ia, 0, 10), Atomics.load(ia, 0));
console.log("sub", Atomics.sub(ia, 0, 20), Atomics.load(ia, 0));
console.log("and or xor", Atomics.and(ia, 1, 4), Atomics.or(ia, 1, 3), Atomics.xor(ia, 1, 1), Atomics.load(ia, 1));
console.log("exchange", Atomics.exchange(ia, 1, 42), Atomics.load(ia, 1));
console.log("cmpxchg", Atomics.compareExchange(ia, 1, 41, 0), Atomics.compareExchange(ia, 1, 42, 7), Atomics.load(ia, 1));
console.log("bytes", Array.from(bytes.subarray(0, 8)).join(" "));
const u8 = new Uint8Array(sab, 8, 4);
console.log("u8 wrap", Atomics.add(u8, 0, 255), Atomics.load(u8, 0), Atomics.sub(u8, 1, 1), Atomics.load(u8, 1));
const i16 = new Int16Array(new SharedArrayBuffer(4));
console.log("i16", Atomics.store(i16, 0, 40000), Atomics.load(i16, 0), Atomics.compareExchange(i16, 0, 40000, 1), Atomics.load(i16, 0));
const u32 = new Uint32Array(new SharedArrayBuffer(8));
console.log("u32", Atomics.sub(u32, 0, 1), Atomics.load(u32, 0));
const big = new BigInt64Array(new SharedArrayBuffer(16));
console.log("bigint", Atomics.store(big, 0, 2n ** 63n), Atomics.load(big, 0), Atomics.add(big, 1, -1n), Atomics.load(big, 1));
const ubig = new BigUint64Array(big.buffer);
console.log("biguint", Atomics.load(ubig, 1), Atomics.compareExchange(ubig, 1, 2n ** 64n - 1n, 5n), Atomics.load(big, 1));
console.log("plain buffer", Atomics.add(new Int32Array(2), 0, 1), Atomics.notify(new Int32Array(4), 0));
console.log("lockfree", [1, 2, 3, 4, 8].map((n) => Atomics.isLockFree(n)).join(" "));
show("array", () => Atomics.add([1], 0, 1));
show("float", () => Atomics.load(new Float64Array(2), 0));
show("clamped", () => Atomics.load(new Uint8ClampedArray(2), 0));
show("index", () => Atomics.load(ia, 4));
show("negative index", () => Atomics.load(ia, -1));
console.log("fractional index", Atomics.load(ia, 1.5));
show("bigint to number array", () => Atomics.add(ia, 0, 1n));
show("number to bigint array", () => Atomics.add(big, 0, 1));
show("wait not shared", () => Atomics.wait(new Int32Array(4), 0, 0, 0));
show("wait int8", () => Atomics.wait(new Int8Array(sab), 0, 0, 0));
show("notify int8", () => Atomics.notify(new Int8Array(sab), 0));

const w = new Int32Array(new SharedArrayBuffer(8));
console.log("wait not-equal", Atomics.wait(w, 0, 1, 1000));
const t0 = Date.now();
console.log("wait timed-out", Atomics.wait(w, 0, 0, 30));
console.log("waited at least the timeout", Date.now() - t0 >= 25);
console.log("wait zero", Atomics.wait(w, 0, 0, 0), Atomics.wait(w, 0, 0, -5));
console.log("wait bigint", Atomics.wait(new BigInt64Array(new SharedArrayBuffer(8)), 0, 0n, 1));
console.log("notify none", Atomics.notify(w, 0), Atomics.notify(w, 0, 0), Atomics.notify(w, 1, 5));
console.log("waitAsync immediate", JSON.stringify(Atomics.waitAsync(w, 0, 1)), JSON.stringify(Atomics.waitAsync(w, 0, 0, 0)));
const pending = Atomics.waitAsync(w, 1, 0);
console.log("waitAsync pending", pending.async, typeof pending.value.then);
console.log("notify wakes", Atomics.notify(w, 1, 1), Atomics.notify(w, 1, 1));
pending.value.then((v) => console.log("waitAsync result", v));
const timed = Atomics.waitAsync(w, 0, 0, 20);
timed.value.then((v) => console.log("waitAsync timed", v));
setTimeout(() => console.log("after timeout"), 80);
