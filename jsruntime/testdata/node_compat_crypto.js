// node:crypto ciphers and key derivation: createCipheriv/createDecipheriv
// (AES GCM, CBC, CTR), auth tags, AAD, padding, encodings, errors;
// pbkdf2/pbkdf2Sync, hkdf/hkdfSync.
const c = require("crypto");
const out = [];
const p = (...a) => out.push(a.map((x) => typeof x === "string" ? x : x === undefined ? "undefined" : JSON.stringify(x)).join(" | "));
const E = (e) => [e && e.constructor && e.constructor.name, e && e.message, e && e.code];
const T = (label, f) => { try { p(label, f()); } catch (e) { p(label, "THREW", ...E(e)); } };
const key16 = Buffer.alloc(16, 1), key32 = Buffer.alloc(32, 2), iv12 = Buffer.alloc(12, 3), iv16 = Buffer.alloc(16, 4);
T("gcm", () => {
  const ci = c.createCipheriv("aes-256-gcm", key32, iv12);
  ci.setAAD(Buffer.from("header"));
  const enc = ci.update("attack at dawn", "utf8", "hex") + ci.final("hex");
  const tag = ci.getAuthTag();
  const de = c.createDecipheriv("aes-256-gcm", key32, iv12);
  de.setAAD(Buffer.from("header"));
  de.setAuthTag(tag);
  return [enc, tag.toString("hex"), de.update(enc, "hex", "utf8") + de.final("utf8")];
});
T("gcm buffers", () => {
  const ci = c.createCipheriv("aes-128-gcm", key16, iv12);
  const enc = Buffer.concat([ci.update(Buffer.from("part one, ")), ci.update("part two"), ci.final()]);
  return [enc.toString("base64"), ci.getAuthTag().toString("base64")];
});
T("gcm bad tag", () => {
  const ci = c.createCipheriv("aes-256-gcm", key32, iv12);
  const enc = Buffer.concat([ci.update("x"), ci.final()]);
  const de = c.createDecipheriv("aes-256-gcm", key32, iv12);
  de.setAuthTag(Buffer.alloc(16));
  de.update(enc);
  return de.final();
});
T("gcm short tag", () => {
  const ci = c.createCipheriv("aes-256-gcm", key32, iv12, { authTagLength: 12 });
  const enc = Buffer.concat([ci.update("y"), ci.final()]);
  return [enc.toString("hex"), ci.getAuthTag().length];
});
T("cbc", () => {
  const ci = c.createCipheriv("aes-256-cbc", key32, iv16);
  const enc = Buffer.concat([ci.update("sixteen byte msg and more"), ci.final()]);
  const de = c.createDecipheriv("aes-256-cbc", key32, iv16);
  return [enc.toString("hex"), Buffer.concat([de.update(enc), de.final()]).toString()];
});
T("cbc base64", () => { const ci = c.createCipheriv("aes-128-cbc", key16, iv16); return ci.update("b64", "utf8", "base64") + ci.final("base64"); });
T("cbc bad decrypt", () => { const de = c.createDecipheriv("aes-256-cbc", key32, iv16); de.update(Buffer.alloc(16, 9)); return de.final(); });
T("cbc no padding", () => { const ci = c.createCipheriv("aes-128-cbc", key16, iv16); ci.setAutoPadding(false); return Buffer.concat([ci.update(Buffer.alloc(32, 5)), ci.final()]).toString("hex"); });
T("ctr", () => { const ci = c.createCipheriv("aes-128-ctr", key16, iv16); const a = ci.update("stream "); const b = ci.update("cipher"); return [a.toString("hex"), b.toString("hex"), ci.final().length]; });
T("unknown cipher", () => c.createCipheriv("aes-999-xyz", key16, iv16));
T("bad key", () => c.createCipheriv("aes-256-gcm", key16, iv12));
T("bad iv", () => c.createCipheriv("aes-128-cbc", key16, iv12));
T("update after final", () => { const ci = c.createCipheriv("aes-128-ctr", key16, iv16); ci.final(); return ci.update("x"); });
T("ciphers", () => ["aes-256-gcm", "aes-128-cbc", "aes-192-ctr"].map((n) => c.getCiphers().includes(n)));
T("pbkdf2Sync", () => c.pbkdf2Sync("password", "salt", 1000, 32, "sha256").toString("hex"));
T("pbkdf2Sync sha512", () => c.pbkdf2Sync(Buffer.from("pw"), Buffer.from("NaCl"), 3, 20, "sha512").toString("base64"));
T("pbkdf2 bad digest", () => c.pbkdf2Sync("a", "b", 1, 8, "nope"));
T("hkdfSync", () => { const ab = c.hkdfSync("sha256", "key", "salt", "info", 42); return [ab instanceof ArrayBuffer, Buffer.from(ab).toString("hex")]; });
(async () => {
  await new Promise((res) => c.pbkdf2("pw", "salt", 10, 16, "sha1", (err, key) => { p("pbkdf2 cb", err, key.toString("hex")); res(); }));
  await new Promise((res) => c.hkdf("sha512", Buffer.from("ikm"), Buffer.alloc(0), "ctx", 16, (err, key) => { p("hkdf cb", err, Buffer.from(key).toString("hex")); res(); }));
  const { promisify } = require("util");
  p("pbkdf2 promisified", (await promisify(c.pbkdf2)("pw", "s", 1, 8, "sha256")).toString("hex"));
  console.log(out.join("\n"));
})();
