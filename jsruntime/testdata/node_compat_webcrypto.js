// Web Crypto: crypto.subtle digest and HMAC (importKey raw, sign, verify,
// exportKey), the errors callers match on, and the global crypto's shape.
const nodeCrypto = require("crypto");
const out = [];
const p = (...a) => out.push(a.map((x) => typeof x === "string" ? x : x === undefined ? "undefined" : JSON.stringify(x)).join(" | "));
const hex = (b) => Array.from(new Uint8Array(b), (x) => x.toString(16).padStart(2, "0")).join("");
const L = async (label, f) => {
  try { const v = await f(); p(label, v instanceof ArrayBuffer ? "AB " + hex(v) : v); }
  catch (e) { p(label, "THREW", e && e.constructor && e.constructor.name, e && e.name, e && e.message, e && e.code); }
};
(async () => {
  const s = globalThis.crypto.subtle;
  const enc = new TextEncoder();
  p(typeof s, nodeCrypto.webcrypto === globalThis.crypto, nodeCrypto.subtle === s, Object.prototype.toString.call(globalThis.crypto), Object.prototype.toString.call(s));
  p(typeof Crypto, typeof SubtleCrypto, typeof CryptoKey, s instanceof SubtleCrypto, Object.keys(globalThis.crypto), Object.keys(s));
  p(typeof globalThis.crypto.getRandomValues, typeof globalThis.crypto.randomUUID, /^[0-9a-f-]{36}$/.test(globalThis.crypto.randomUUID()), globalThis.crypto.getRandomValues(new Uint8Array(4)).length);
  for (const alg of ["SHA-1", "SHA-256", "SHA-384", "SHA-512", "sha-256", { name: "SHA-1" }]) await L("digest " + JSON.stringify(alg), () => s.digest(alg, enc.encode("hello")));
  await L("digest AB", () => s.digest("SHA-256", enc.encode("a").buffer));
  await L("digest DataView", () => s.digest("SHA-256", new DataView(enc.encode("a").buffer)));
  await L("digest Buffer", () => s.digest("SHA-256", Buffer.from("a")));
  await L("digest MD5", () => s.digest("MD5", enc.encode("a")));
  await L("digest string", () => s.digest("SHA-256", "abc"));
  await L("digest none", () => s.digest());
  const key = await s.importKey("raw", enc.encode("secret"), { name: "HMAC", hash: "SHA-256" }, false, ["sign", "verify"]);
  p(key.type, key.extractable, key.algorithm, key.usages, Object.keys(key), JSON.stringify(key), Object.prototype.toString.call(key), key instanceof CryptoKey);
  const sig = await s.sign("HMAC", key, enc.encode("msg"));
  p("sig", sig instanceof ArrayBuffer, hex(sig));
  await L("verify", () => s.verify("HMAC", key, sig, enc.encode("msg")));
  await L("verify bad", () => s.verify({ name: "HMAC" }, key, sig, enc.encode("msg2")));
  const k512 = await s.importKey("raw", enc.encode("k"), { name: "hmac", hash: { name: "sha-512" } }, true, ["verify", "sign"]);
  p(k512.algorithm, k512.usages);
  await L("sign 512", () => s.sign({ name: "HMAC" }, k512, enc.encode("a")));
  await L("export", () => s.exportKey("raw", k512));
  await L("export nonext", () => s.exportKey("raw", key));
  await L("length", async () => (await s.importKey("raw", enc.encode("k"), { name: "HMAC", hash: "SHA-256", length: 8 }, true, ["sign"])).algorithm);
  await L("no hash", () => s.importKey("raw", enc.encode("k"), { name: "HMAC" }, true, ["sign"]));
  await L("empty key", () => s.importKey("raw", enc.encode(""), { name: "HMAC", hash: "SHA-256" }, true, ["sign"]));
  await L("bad usage", () => s.importKey("raw", enc.encode("k"), { name: "HMAC", hash: "SHA-256" }, true, ["encrypt"]));
  await L("no usage", () => s.importKey("raw", enc.encode("k"), { name: "HMAC", hash: "SHA-256" }, true, []));
  await L("bad format", () => s.importKey("spki", enc.encode("k"), { name: "HMAC", hash: "SHA-256" }, true, ["sign"]));
  await L("bad alg", () => s.importKey("raw", enc.encode("k"), { name: "FOO" }, true, ["sign"]));
  const vOnly = await s.importKey("raw", enc.encode("k"), { name: "HMAC", hash: "SHA-256" }, false, ["verify"]);
  await L("sign no usage", () => s.sign("HMAC", vOnly, enc.encode("a")));
  await L("sign other alg", () => s.sign("RSASSA-PKCS1-v1_5", k512, enc.encode("a")));
  await L("sign not key", () => s.sign("HMAC", {}, enc.encode("a")));
  console.log(out.join("\n"));
})();
