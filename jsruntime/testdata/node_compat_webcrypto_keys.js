// Web Crypto beyond HMAC: AES-GCM/CBC/CTR, PBKDF2, HKDF, ECDSA, ECDH and
// Ed25519 with generateKey, importKey/exportKey (raw, jwk, spki, pkcs8),
// deriveBits/deriveKey, wrapKey/unwrapKey, and the errors callers see.
// Only deterministic results are printed (random keys show shapes only).
const out = [];
const p = (...a) => out.push(a.map((x) => typeof x === "string" ? x : x === undefined ? "undefined" : JSON.stringify(x)).join(" | "));
const hex = (b) => Array.from(new Uint8Array(b), (x) => x.toString(16).padStart(2, "0")).join("");
const L = async (label, f) => {
  try { const v = await f(); p(label, v instanceof ArrayBuffer ? "AB " + hex(v) : v); }
  catch (e) { p(label, "THREW", e && e.constructor && e.constructor.name, e && e.name, e && e.message, e && e.code); }
};
const keyInfo = (k) => [k.type, k.extractable, k.algorithm, k.usages];
(async () => {
  const s = crypto.subtle;
  const enc = new TextEncoder();
  const key16 = new Uint8Array(16).map((_, i) => i);
  const key32 = new Uint8Array(32).map((_, i) => 255 - i);
  const iv12 = new Uint8Array(12).fill(7), iv16 = new Uint8Array(16).fill(9);
  // AES
  const gcm = await s.importKey("raw", key16, "AES-GCM", true, ["encrypt", "decrypt"]);
  p("gcm key", keyInfo(gcm));
  const ct = await s.encrypt({ name: "AES-GCM", iv: iv12 }, gcm, enc.encode("secret text"));
  p("gcm ct", hex(ct));
  await L("gcm pt", async () => new TextDecoder().decode(await s.decrypt({ name: "AES-GCM", iv: iv12 }, gcm, ct)));
  await L("gcm aad", () => s.encrypt({ name: "AES-GCM", iv: iv12, additionalData: enc.encode("hdr"), tagLength: 96 }, gcm, enc.encode("x")));
  await L("gcm tamper", () => { const b = new Uint8Array(ct); b[0] ^= 1; return s.decrypt({ name: "AES-GCM", iv: iv12 }, gcm, b); });
  await L("gcm no iv", () => s.encrypt({ name: "AES-GCM" }, gcm, enc.encode("x")));
  await L("gcm jwk", () => s.exportKey("jwk", gcm));
  await L("gcm bad len", () => s.importKey("raw", new Uint8Array(15), "AES-GCM", true, ["encrypt"]));
  await L("gcm bad usage", () => s.importKey("raw", key16, "AES-GCM", true, ["sign"]));
  const g256 = await s.importKey("jwk", { kty: "oct", k: "__________________________________________8", alg: "A256GCM", ext: true }, { name: "AES-GCM" }, true, ["encrypt"]);
  p("gcm from jwk", keyInfo(g256), hex(await s.exportKey("raw", g256)));
  await L("gcm decrypt not allowed", () => s.decrypt({ name: "AES-GCM", iv: iv12 }, g256, ct));
  const cbc = await s.importKey("raw", key32, { name: "AES-CBC" }, true, ["encrypt", "decrypt"]);
  const cbcCt = await s.encrypt({ name: "AES-CBC", iv: iv16 }, cbc, enc.encode("sixteen bytes!!!"));
  p("cbc", hex(cbcCt), new TextDecoder().decode(await s.decrypt({ name: "AES-CBC", iv: iv16 }, cbc, cbcCt)));
  await L("cbc short iv", () => s.encrypt({ name: "AES-CBC", iv: iv12 }, cbc, enc.encode("x")));
  await L("cbc jwk", async () => (await s.exportKey("jwk", cbc)).alg);
  const ctr = await s.importKey("raw", key16, "AES-CTR", false, ["encrypt", "decrypt"]);
  await L("ctr", () => s.encrypt({ name: "AES-CTR", counter: iv16, length: 64 }, ctr, enc.encode("counter mode")));
  await L("ctr export", () => s.exportKey("raw", ctr));
  const gen = await s.generateKey({ name: "AES-GCM", length: 256 }, true, ["encrypt", "decrypt"]);
  p("aes generate", keyInfo(gen), (await s.exportKey("raw", gen)).byteLength);
  await L("aes generate bad", () => s.generateKey({ name: "AES-GCM", length: 100 }, true, ["encrypt"]));
  const hg = await s.generateKey({ name: "HMAC", hash: "SHA-384" }, false, ["sign"]);
  p("hmac generate", keyInfo(hg));
  // PBKDF2 and HKDF
  const pw = await s.importKey("raw", enc.encode("password"), "PBKDF2", false, ["deriveBits", "deriveKey"]);
  p("pbkdf2 key", keyInfo(pw));
  await L("pbkdf2 bits", () => s.deriveBits({ name: "PBKDF2", salt: enc.encode("salt"), iterations: 1000, hash: "SHA-256" }, pw, 256));
  await L("pbkdf2 sha1", () => s.deriveBits({ name: "PBKDF2", salt: enc.encode("salt"), iterations: 2, hash: { name: "SHA-1" } }, pw, 160));
  await L("pbkdf2 extractable", () => s.importKey("raw", enc.encode("p"), "PBKDF2", true, ["deriveBits"]));
  await L("pbkdf2 no salt", () => s.deriveBits({ name: "PBKDF2", iterations: 1, hash: "SHA-256" }, pw, 128));
  const dk = await s.deriveKey({ name: "PBKDF2", salt: enc.encode("salt"), iterations: 10, hash: "SHA-256" }, pw, { name: "AES-GCM", length: 128 }, true, ["encrypt"]);
  p("pbkdf2 deriveKey", keyInfo(dk), hex(await s.exportKey("raw", dk)));
  const dh = await s.deriveKey({ name: "PBKDF2", salt: enc.encode("salt"), iterations: 10, hash: "SHA-256" }, pw, { name: "HMAC", hash: "SHA-256" }, true, ["sign"]);
  p("pbkdf2 deriveKey hmac", keyInfo(dh), (await s.exportKey("raw", dh)).byteLength);
  const ikm = await s.importKey("raw", new Uint8Array(22).fill(11), "HKDF", false, ["deriveBits"]);
  await L("hkdf", () => s.deriveBits({ name: "HKDF", hash: "SHA-256", salt: new Uint8Array(13).map((_, i) => i), info: new Uint8Array(10).map((_, i) => 0xf0 + i) }, ikm, 336));
  await L("hkdf no info", () => s.deriveBits({ name: "HKDF", hash: "SHA-256", salt: new Uint8Array(0) }, ikm, 128));
  await L("hkdf deriveKey not allowed", () => s.deriveKey({ name: "HKDF", hash: "SHA-256", salt: new Uint8Array(0), info: new Uint8Array(0) }, ikm, { name: "AES-GCM", length: 128 }, true, ["encrypt"]));
  // ECDSA
  const ec = await s.generateKey({ name: "ECDSA", namedCurve: "P-256" }, true, ["sign", "verify"]);
  p("ecdsa pair", Object.keys(ec), keyInfo(ec.publicKey), keyInfo(ec.privateKey));
  const sig = await s.sign({ name: "ECDSA", hash: "SHA-256" }, ec.privateKey, enc.encode("msg"));
  p("ecdsa sig", sig.byteLength, await s.verify({ name: "ECDSA", hash: "SHA-256" }, ec.publicKey, sig, enc.encode("msg")), await s.verify({ name: "ECDSA", hash: "SHA-256" }, ec.publicKey, sig, enc.encode("msh")));
  const jwk = await s.exportKey("jwk", ec.privateKey);
  p("ecdsa jwk", Object.keys(jwk), jwk.key_ops, jwk.kty, jwk.crv, jwk.x.length, jwk.d.length);
  const pubJwk = await s.exportKey("jwk", ec.publicKey);
  p("ecdsa pub jwk", Object.keys(pubJwk));
  const imported = await s.importKey("jwk", pubJwk, { name: "ECDSA", namedCurve: "P-256" }, true, ["verify"]);
  p("ecdsa import jwk", keyInfo(imported), await s.verify({ name: "ECDSA", hash: "SHA-256" }, imported, sig, enc.encode("msg")));
  const raw = await s.exportKey("raw", ec.publicKey);
  const spki = await s.exportKey("spki", ec.publicKey);
  const pkcs8 = await s.exportKey("pkcs8", ec.privateKey);
  p("ecdsa raw/spki/pkcs8", raw.byteLength, new Uint8Array(raw)[0], spki.byteLength, pkcs8.byteLength > 100);
  const fromSpki = await s.importKey("spki", spki, { name: "ECDSA", namedCurve: "P-256" }, false, ["verify"]);
  const fromPkcs8 = await s.importKey("pkcs8", pkcs8, { name: "ECDSA", namedCurve: "P-256" }, false, ["sign"]);
  const sig2 = await s.sign({ name: "ECDSA", hash: "SHA-384" }, fromPkcs8, enc.encode("m2"));
  p("ecdsa spki/pkcs8", keyInfo(fromSpki), keyInfo(fromPkcs8), await s.verify({ name: "ECDSA", hash: "SHA-384" }, fromSpki, sig2, enc.encode("m2")));
  await L("ecdsa raw private", () => s.exportKey("raw", ec.privateKey));
  await L("ecdsa wrong curve", () => s.importKey("spki", spki, { name: "ECDSA", namedCurve: "P-384" }, false, ["verify"]));
  await L("ecdsa sign with public", () => s.sign({ name: "ECDSA", hash: "SHA-256" }, ec.publicKey, enc.encode("m")));
  await L("ecdsa bad usage", () => s.generateKey({ name: "ECDSA", namedCurve: "P-256" }, true, ["encrypt"]));
  const fixed = await s.importKey("jwk", { kty: "EC", crv: "P-256", x: "MKBCTNIcKUSDii11ySs3526iDZ8AiTo7Tu6KPAqv7D4", y: "4Etl6SRW2YiLUrN5vfvVHuhp7x8PxltmWWlbbM4IFyM", d: "870MB6gfuTJ4HtUnUvYMyJpr5eUZNP4Bk43bVdj3eAE" }, { name: "ECDSA", namedCurve: "P-256" }, true, ["sign"]);
  p("ecdsa fixed jwk", keyInfo(fixed), hex(await s.exportKey("spki", await s.importKey("jwk", { kty: "EC", crv: "P-256", x: "MKBCTNIcKUSDii11ySs3526iDZ8AiTo7Tu6KPAqv7D4", y: "4Etl6SRW2YiLUrN5vfvVHuhp7x8PxltmWWlbbM4IFyM" }, { name: "ECDSA", namedCurve: "P-256" }, true, ["verify"]))));
  // ECDH
  const a = await s.generateKey({ name: "ECDH", namedCurve: "P-384" }, false, ["deriveBits"]);
  const b = await s.generateKey({ name: "ECDH", namedCurve: "P-384" }, false, ["deriveBits"]);
  const ab = await s.deriveBits({ name: "ECDH", public: b.publicKey }, a.privateKey, 384);
  const ba = await s.deriveBits({ name: "ECDH", public: a.publicKey }, b.privateKey, 384);
  p("ecdh", keyInfo(a.publicKey), keyInfo(a.privateKey), ab.byteLength, hex(ab) === hex(ba));
  // Ed25519
  const edPriv = await s.importKey("pkcs8", new Uint8Array([48, 46, 2, 1, 0, 48, 5, 6, 3, 43, 101, 112, 4, 34, 4, 32, ...new Uint8Array(32).fill(1)]), "Ed25519", true, ["sign"]);
  p("ed25519 key", keyInfo(edPriv));
  const edSig = await s.sign("Ed25519", edPriv, enc.encode("hello"));
  p("ed25519 sig", hex(edSig));
  const edJwk = await s.exportKey("jwk", edPriv);
  p("ed25519 jwk", edJwk);
  const edPub = await s.importKey("raw", new Uint8Array(await s.importKey("jwk", { kty: "OKP", crv: "Ed25519", x: edJwk.x }, "Ed25519", true, ["verify"]).then((k) => s.exportKey("raw", k))), { name: "Ed25519" }, true, ["verify"]);
  p("ed25519 verify", keyInfo(edPub), await s.verify("Ed25519", edPub, edSig, enc.encode("hello")), await s.verify("Ed25519", edPub, edSig, enc.encode("hellO")));
  p("ed25519 spki", hex(await s.exportKey("spki", edPub)));
  const edGen = await s.generateKey("Ed25519", false, ["sign", "verify"]);
  p("ed25519 generate", keyInfo(edGen.publicKey), keyInfo(edGen.privateKey));
  await L("ed25519 export nonext", () => s.exportKey("pkcs8", edGen.privateKey));
  // wrapKey / unwrapKey
  const kek = await s.importKey("raw", key32, "AES-GCM", false, ["wrapKey", "unwrapKey"]);
  const wrapped = await s.wrapKey("raw", gcm, kek, { name: "AES-GCM", iv: iv12 });
  p("wrapKey", hex(wrapped));
  const unwrapped = await s.unwrapKey("raw", wrapped, kek, { name: "AES-GCM", iv: iv12 }, "AES-GCM", true, ["decrypt"]);
  p("unwrapKey", keyInfo(unwrapped), hex(await s.exportKey("raw", unwrapped)));
  await L("unknown alg", () => s.generateKey({ name: "AES-XYZ", length: 128 }, true, ["encrypt"]));
  console.log(out.join("\n"));
})();
