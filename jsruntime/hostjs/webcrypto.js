// Web Crypto (globalThis.crypto, crypto.webcrypto): digest; HMAC, AES-GCM,
// AES-CBC, AES-CTR, PBKDF2, HKDF, ECDSA, ECDH and Ed25519 keys with
// generateKey, importKey and exportKey (raw, jwk, spki, pkcs8), encrypt,
// decrypt, sign, verify, deriveBits and deriveKey, wrapKey and unwrapKey.
// The cryptography is Go's (prim); this script checks arguments and keeps
// CryptoKeys. Errors carry Node 22's names, messages and codes, since
// callers match on them. Built on the first read of one of the globals.
"use strict";
(function (nc, prim) {
  const HASHES = ["SHA-1", "SHA-256", "SHA-384", "SHA-512"];
  const CANON = {};
  for (const n of ["AES-GCM", "AES-CBC", "AES-CTR", "AES-KW", "HMAC", "PBKDF2", "HKDF", "ECDSA", "ECDH", "Ed25519", "X25519", "Ed448", "X448", "RSASSA-PKCS1-v1_5", "RSA-PSS", "RSA-OAEP", ...HASHES]) CANON[n.toUpperCase()] = n;
  const SUPPORTED = ["AES-GCM", "AES-CBC", "AES-CTR", "HMAC", "PBKDF2", "HKDF", "ECDSA", "ECDH", "Ed25519"];
  const illegal = function () { throw new TypeError("Illegal constructor"); };
  const typeErr = (msg, code) => { const e = new TypeError(msg); e.code = code; return e; };
  const dom = (msg, name) => new DOMException(msg, name);
  const nth = (i) => i + (i === 1 ? "st" : i === 2 ? "nd" : i === 3 ? "rd" : "th");
  const args = (method, n, a) => {
    if (a.length < n) throw typeErr("Failed to execute '" + method + "' on 'SubtleCrypto': " + n + " arguments required, but only " + a.length + " present.", "ERR_MISSING_ARGS");
  };
  const source = (method, i, v) => {
    if (v instanceof ArrayBuffer || ArrayBuffer.isView(v)) return v;
    throw typeErr("Failed to execute '" + method + "' on 'SubtleCrypto': " + nth(i) + " argument is not instance of ArrayBuffer, Buffer, TypedArray, or DataView.", "ERR_INVALID_ARG_TYPE");
  };
  const algName = (a) => (typeof a === "string" ? a : a !== null && typeof a === "object" ? String(a.name) : String(a));
  const unknown = () => dom("Unrecognized algorithm name", "NotSupportedError");
  // canon returns the standard spelling of a supported algorithm name.
  const canon = (a) => {
    const n = CANON[algName(a).toUpperCase()];
    if (!n || !SUPPORTED.includes(n)) throw unknown();
    return n;
  };
  const hashName = (a) => {
    const n = algName(a).toUpperCase();
    if (!HASHES.includes(n)) throw unknown();
    return n;
  };
  const params = (alg, type, member) => {
    const v = alg !== null && typeof alg === "object" ? alg[member] : undefined;
    if (v === undefined) throw typeErr("Failed to normalize algorithm: passed algorithm can not be converted to '" + type + "' because '" + member + "' is required in '" + type + "'.", "ERR_MISSING_OPTION");
    return v;
  };
  const bytes = (v) => new Uint8Array(ArrayBuffer.isView(v) ? v.buffer.slice(v.byteOffset, v.byteOffset + v.byteLength) : v.slice(0));
  const hashBits = (h) => (h === "SHA-384" || h === "SHA-512" ? 1024 : 512);
  const opFailed = () => dom("The operation failed for an operation-specific reason", "OperationError");

  const slots = new WeakMap();
  function CryptoKey() { illegal(); }
  const slot = (k) => { const s = slots.get(k); if (!s) throw new TypeError("Illegal invocation"); return s; };
  Object.defineProperties(CryptoKey.prototype, {
    type: { get() { return slot(this).type; }, configurable: true, enumerable: true },
    extractable: { get() { return slot(this).extractable; }, configurable: true, enumerable: true },
    algorithm: { get() { return slot(this).algorithm; }, configurable: true, enumerable: true },
    usages: { get() { return slot(this).usages; }, configurable: true, enumerable: true },
    [Symbol.toStringTag]: { value: "CryptoKey", configurable: true },
  });
  const newKey = (s) => { const k = Object.create(CryptoKey.prototype); slots.set(k, s); return k; };
  const keyOf = (method, i, k) => {
    const s = slots.get(k);
    if (!s) throw typeErr("Failed to execute '" + method + "' on 'SubtleCrypto': " + nth(i) + " argument is not of type CryptoKey.", "ERR_INVALID_ARG_TYPE");
    return s;
  };
  // useKey checks that the key belongs to the named algorithm and allows
  // the usage, as every operation does before it runs.
  const useKey = (alg, s, usage) => {
    const n = CANON[algName(alg).toUpperCase()];
    if (!n) throw unknown();
    if (n !== s.algorithm.name || !s.usages.includes(usage)) {
      if (usage === "sign" || usage === "verify") throw dom("Unable to use this key to " + usage, "InvalidAccessError");
      if (usage === "deriveKey" && n === s.algorithm.name) throw dom("baseKey does not have deriveKey usage", "InvalidAccessError");
      throw dom("The requested operation is not valid for the provided key", "InvalidAccessError");
    }
    return n;
  };

  // Which usages each kind of key may carry.
  const USAGES = {
    "AES-GCM": ["encrypt", "decrypt", "wrapKey", "unwrapKey"], "AES-CBC": ["encrypt", "decrypt", "wrapKey", "unwrapKey"], "AES-CTR": ["encrypt", "decrypt", "wrapKey", "unwrapKey"],
    HMAC: ["sign", "verify"], PBKDF2: ["deriveKey", "deriveBits"], HKDF: ["deriveKey", "deriveBits"],
  };
  const PUBLIC_USAGES = { ECDSA: ["verify"], ECDH: [], Ed25519: ["verify"] };
  const PRIVATE_USAGES = { ECDSA: ["sign"], ECDH: ["deriveKey", "deriveBits"], Ed25519: ["sign"] };
  const checkUsages = (name, list, allowed) => {
    for (const u of list) if (!allowed.includes(u)) throw dom("Unsupported key usage for " + (name === "HMAC" || /^[AEIOU]/.test(name) ? "an " : "a ") + (name.startsWith("AES") ? "AES" : name) + " key", "SyntaxError");
  };

  // ---- secret keys ----
  const secretAlgorithm = (name, alg, raw, generating) => {
    if (name === "HMAC") {
      const hash = { name: hashName(params(alg, generating ? "HmacKeyGenParams" : "HmacImportParams", "hash")) };
      const length = alg.length === undefined ? (generating ? hashBits(hash.name) : raw.length * 8) : Number(alg.length);
      return generating ? { name, length, hash } : { name, hash, length };
    }
    if (name.startsWith("AES")) {
      const length = generating ? Number(params(alg, "AesKeyGenParams", "length")) : raw.length * 8;
      if (![128, 192, 256].includes(length)) throw generating ? dom("AES key length must be 128, 192, or 256 bits", "OperationError") : dom("Invalid key length", "DataError");
      return { name, length };
    }
    return { name };
  };
  const importSecret = (name, format, keyData, alg, extractable, list) => {
    let raw;
    if (format === "raw") raw = bytes(source("importKey", 2, keyData));
    else if (format === "jwk" && (name === "HMAC" || name.startsWith("AES"))) {
      if (keyData === null || typeof keyData !== "object") throw typeErr('The "keyData" argument must be of type object.', "ERR_INVALID_ARG_TYPE");
      if (keyData.kty !== "oct") throw dom("Invalid JWK \"kty\" Parameter", "DataError");
      raw = new Uint8Array(prim.unb64u(String(keyData.k)));
    } else throw dom("Unable to import " + name + " using " + format + " format", "NotSupportedError");
    checkUsages(name, list, USAGES[name]);
    if (name === "HMAC" && raw.length === 0) throw dom("Zero-length key is not supported", "DataError");
    if ((name === "PBKDF2" || name === "HKDF") && extractable) throw dom(name + " keys are not extractable", "SyntaxError");
    if (list.length === 0) throw dom("Usages cannot be empty when importing a secret key.", "SyntaxError");
    const algorithm = secretAlgorithm(name, alg, raw, false);
    return newKey({ type: "secret", extractable: !!extractable, algorithm, usages: list, raw });
  };
  const jwkAlg = (s) => {
    const a = s.algorithm;
    if (a.name === "HMAC") return "HS" + a.hash.name.slice(4);
    if (a.name.startsWith("AES")) return "A" + a.length + a.name.slice(4);
    return undefined;
  };

  // ---- asymmetric keys (EC, Ed25519); slot.pub/slot.d are bytes ----
  const curveOf = (alg) => {
    const c = String(params(alg, "EcKeyImportParams", "namedCurve"));
    if (!["P-256", "P-384", "P-521"].includes(c)) throw dom("Unrecognized namedCurve", "NotSupportedError");
    return c;
  };
  const asymAlgorithm = (name, curve) => (name === "Ed25519" ? { name } : { name, namedCurve: curve });
  const asymKey = (type, name, curve, extractable, list, pub, d) => newKey({ type, extractable: !!extractable, algorithm: asymAlgorithm(name, curve), usages: list, pub, d, curve });
  const importAsym = (name, format, keyData, alg, extractable, list) => {
    const curve = name === "Ed25519" ? undefined : curveOf(alg);
    let type, pub, d;
    if (format === "raw") {
      pub = bytes(source("importKey", 2, keyData));
      type = "public";
      if (name === "Ed25519" ? pub.length !== 32 : !prim.ecCheckPublic(curve, pub)) throw dom("Invalid keyData", "DataError");
    } else if (format === "spki" || format === "pkcs8") {
      const k = prim.parseKey(format, source("importKey", 2, keyData));
      if (!k) throw dom("Invalid keyData", "DataError");
      if ((name === "Ed25519") !== (k.kind === "Ed25519")) throw dom("Invalid key type", "DataError");
      if (curve && k.curve !== curve) throw dom("Named curve mismatch", "DataError");
      type = format === "spki" ? "public" : "private";
      pub = new Uint8Array(k.pub);
      if (k.d) d = new Uint8Array(k.d);
    } else if (format === "jwk") {
      if (keyData === null || typeof keyData !== "object") throw typeErr('The "keyData" argument must be of type object.', "ERR_INVALID_ARG_TYPE");
      const kty = name === "Ed25519" ? "OKP" : "EC";
      if (keyData.kty !== kty) throw dom("Invalid JWK \"kty\" Parameter", "DataError");
      if (keyData.crv !== (curve || "Ed25519")) throw dom("JWK \"crv\" does not match the requested algorithm", "DataError");
      if (name === "Ed25519") pub = new Uint8Array(prim.unb64u(String(keyData.x)));
      else {
        const x = new Uint8Array(prim.unb64u(String(keyData.x))), y = new Uint8Array(prim.unb64u(String(keyData.y)));
        pub = new Uint8Array(1 + x.length + y.length);
        pub[0] = 4; pub.set(x, 1); pub.set(y, 1 + x.length);
        if (!prim.ecCheckPublic(curve, pub)) throw dom("Invalid keyData", "DataError");
      }
      if (keyData.d !== undefined) { d = new Uint8Array(prim.unb64u(String(keyData.d))); type = "private"; } else type = "public";
    } else throw dom("Unable to import " + name + " using " + format + " format", "NotSupportedError");
    checkUsages(name, list, type === "public" ? PUBLIC_USAGES[name] : PRIVATE_USAGES[name]);
    if (type === "private" && list.length === 0) throw dom("Usages cannot be empty when importing a private key.", "SyntaxError");
    return asymKey(type, name, curve, extractable, list, pub, d);
  };
  const badExport = (name, type, format) => dom("Unable to export " + name + " " + type + " key using " + format + " format", "NotSupportedError");
  const exportAsym = (format, s) => {
    const name = s.algorithm.name;
    const kind = name === "Ed25519" ? "Ed25519" : "EC";
    if (format === "raw") {
      if (s.type !== "public") throw badExport(name, s.type, format);
      return s.pub.slice().buffer;
    }
    if (format === "spki") {
      if (s.type !== "public") throw badExport(name, s.type, format);
      return prim.spkiExport(kind, s.curve, s.pub);
    }
    if (format === "pkcs8") {
      if (s.type !== "private") throw badExport(name, s.type, format);
      return prim.pkcs8Export(kind, s.curve, s.d);
    }
    if (format === "jwk") {
      const jwk = { key_ops: s.usages.slice(), ext: s.extractable };
      if (kind === "Ed25519") {
        jwk.alg = "Ed25519"; jwk.crv = "Ed25519";
        if (s.d) jwk.d = prim.b64u(s.d);
        jwk.x = prim.b64u(s.pub); jwk.kty = "OKP";
      } else {
        const n = (s.pub.length - 1) / 2;
        jwk.kty = "EC"; jwk.x = prim.b64u(s.pub.subarray(1, 1 + n)); jwk.y = prim.b64u(s.pub.subarray(1 + n)); jwk.crv = s.curve;
        if (s.d) jwk.d = prim.b64u(s.d);
      }
      return jwk;
    }
    throw dom("Unable to export " + name + " using " + format + " format", "NotSupportedError");
  };

  const deriveBitsOf = (algorithm, s, length) => {
    const name = useKey(algorithm, s, "deriveBits");
    if (name === "ECDH") {
      const pk = slots.get(params(algorithm, "EcdhKeyDeriveParams", "public"));
      if (!pk || pk.type !== "public" || pk.algorithm.name !== "ECDH") throw dom("algorithm.public must be an ECDH public key", "InvalidAccessError");
      if (pk.curve !== s.curve) throw dom("Named curve mismatch", "InvalidAccessError");
      const all = new Uint8Array(prim.ecdh(s.curve, s.d, pk.pub));
      if (length === null || length === undefined) return all.buffer;
      if (length > all.length * 8) throw opFailed();
      return all.slice(0, Math.ceil(length / 8)).buffer;
    }
    if (length === null || length === undefined) throw dom("length cannot be null", "OperationError");
    if (length % 8 !== 0) throw dom("length must be a multiple of 8", "OperationError");
    if (length === 0) return new ArrayBuffer(0);
    const hash = hashName(params(algorithm, name === "PBKDF2" ? "Pbkdf2Params" : "HkdfParams", "hash"));
    if (name === "PBKDF2") {
      const salt = params(algorithm, "Pbkdf2Params", "salt");
      const iterations = Number(params(algorithm, "Pbkdf2Params", "iterations"));
      if (!(iterations > 0)) throw dom("iterations cannot be zero", "OperationError");
      return prim.pbkdf2(hash, s.raw, salt, iterations, length / 8);
    }
    const salt = params(algorithm, "HkdfParams", "salt"), info = params(algorithm, "HkdfParams", "info");
    try { return prim.hkdf(hash, s.raw, salt, info, length / 8); } catch { throw opFailed(); }
  };
  // derivedLength is the key length, in bits, deriveKey asks for.
  const derivedLength = (alg) => {
    const n = canon(alg);
    if (n.startsWith("AES")) { const l = Number(params(alg, "AesDerivedKeyParams", "length")); if (![128, 192, 256].includes(l)) throw dom("AES key length must be 128, 192, or 256 bits", "OperationError"); return l; }
    if (n === "HMAC") return alg.length !== undefined ? Number(alg.length) : hashBits(hashName(params(alg, "HmacImportParams", "hash")));
    throw dom("Unsupported derived key algorithm", "NotSupportedError");
  };

  const cipher = (encrypt, algorithm, s, data) => {
    const name = useKey(algorithm, s, encrypt ? "encrypt" : "decrypt");
    if (name === "AES-GCM") {
      const iv = params(algorithm, "AesGcmParams", "iv");
      const tag = algorithm.tagLength === undefined ? 128 : Number(algorithm.tagLength);
      if (![32, 64, 96, 104, 112, 120, 128].includes(tag)) throw dom(tag + " is not a valid AES-GCM tag length", "OperationError");
      if (!encrypt && data.byteLength < tag / 8) throw dom("The provided data is too small.", "OperationError");
      try { return prim.aesGCM(encrypt, s.raw, iv, data, algorithm.additionalData, tag); } catch { throw opFailed(); }
    }
    if (name === "AES-CBC") {
      const iv = params(algorithm, "AesCbcParams", "iv");
      if (iv.byteLength !== 16) throw dom("algorithm.iv must contain exactly 16 bytes", "OperationError");
      try { return prim.aesCBC(encrypt, s.raw, iv, data); } catch { throw opFailed(); }
    }
    const counter = params(algorithm, "AesCtrParams", "counter");
    if (counter.byteLength !== 16) throw dom("algorithm.counter must contain exactly 16 bytes", "OperationError");
    return prim.aesCTR(s.raw, counter, data);
  };

  function SubtleCrypto() { illegal(); }
  const methods = {
    async digest(algorithm, data) {
      args("digest", 2, arguments);
      const name = hashName(algorithm);
      return prim.digest(name, source("digest", 2, data));
    },
    async generateKey(algorithm, extractable, usages) {
      args("generateKey", 3, arguments);
      const name = canon(algorithm);
      const list = Array.from(usages);
      if (name === "PBKDF2" || name === "HKDF") throw dom("Unable to use this algorithm to generate keys", "NotSupportedError");
      if (USAGES[name]) {
        checkUsages(name, list, USAGES[name]);
        const algo = secretAlgorithm(name, algorithm, null, true);
        if (list.length === 0) throw dom("Usages cannot be empty when creating a key.", "SyntaxError");
        return newKey({ type: "secret", extractable: !!extractable, algorithm: algo, usages: list, raw: new Uint8Array(prim.random(algo.length / 8)) });
      }
      const curve = name === "Ed25519" ? undefined : curveOf(algorithm);
      checkUsages(name, list, PUBLIC_USAGES[name].concat(PRIVATE_USAGES[name]));
      const pubUsages = list.filter((u) => PUBLIC_USAGES[name].includes(u)), privUsages = list.filter((u) => PRIVATE_USAGES[name].includes(u));
      if (privUsages.length === 0) throw dom("Usages cannot be empty when creating a key.", "SyntaxError");
      const k = name === "Ed25519" ? prim.edGenerate() : prim.ecGenerate(curve);
      const pub = new Uint8Array(k.pub), d = new Uint8Array(k.d);
      return { publicKey: asymKey("public", name, curve, true, pubUsages, pub), privateKey: asymKey("private", name, curve, extractable, privUsages, pub, d) };
    },
    async importKey(format, keyData, algorithm, extractable, usages) {
      args("importKey", 5, arguments);
      const name = canon(algorithm);
      if (name === "HMAC") params(algorithm, "HmacImportParams", "hash");
      const list = Array.from(usages);
      if (USAGES[name]) return importSecret(name, format, keyData, algorithm, extractable, list);
      return importAsym(name, format, keyData, algorithm, extractable, list);
    },
    async exportKey(format, key) {
      args("exportKey", 2, arguments);
      const s = keyOf("exportKey", 2, key);
      if (!s.extractable) throw dom("key is not extractable", "InvalidAccessException");
      if (s.type !== "secret") return exportAsym(format, s);
      if (format === "raw" && (s.algorithm.name === "HMAC" || s.algorithm.name.startsWith("AES"))) return s.raw.slice().buffer;
      if (format === "jwk" && (s.algorithm.name === "HMAC" || s.algorithm.name.startsWith("AES"))) {
        return { key_ops: s.usages.slice(), ext: s.extractable, alg: jwkAlg(s), kty: "oct", k: prim.b64u(s.raw) };
      }
      throw dom("Unable to export " + s.algorithm.name + " using " + format + " format", "NotSupportedError");
    },
    async sign(algorithm, key, data) {
      args("sign", 3, arguments);
      const s = keyOf("sign", 2, key);
      const name = useKey(algorithm, s, "sign");
      data = source("sign", 3, data);
      if (name === "HMAC") return prim.hmac(s.algorithm.hash.name, s.raw, data);
      if (name === "Ed25519") return prim.edSign(s.d, data);
      return prim.ecdsaSign(s.curve, hashName(params(algorithm, "EcdsaParams", "hash")), s.d, data);
    },
    async verify(algorithm, key, signature, data) {
      args("verify", 4, arguments);
      const s = keyOf("verify", 2, key);
      const name = useKey(algorithm, s, "verify");
      const sig = source("verify", 3, signature);
      data = source("verify", 4, data);
      if (name === "HMAC") return prim.equal(prim.hmac(s.algorithm.hash.name, s.raw, data), sig);
      if (name === "Ed25519") return prim.edVerify(s.pub, sig, data);
      return prim.ecdsaVerify(s.curve, hashName(params(algorithm, "EcdsaParams", "hash")), s.pub, sig, data);
    },
    async encrypt(algorithm, key, data) {
      args("encrypt", 3, arguments);
      return cipher(true, algorithm, keyOf("encrypt", 2, key), source("encrypt", 3, data));
    },
    async decrypt(algorithm, key, data) {
      args("decrypt", 3, arguments);
      return cipher(false, algorithm, keyOf("decrypt", 2, key), source("decrypt", 3, data));
    },
    async deriveBits(algorithm, baseKey, length) {
      args("deriveBits", 2, arguments);
      return deriveBitsOf(algorithm, keyOf("deriveBits", 2, baseKey), length);
    },
    async deriveKey(algorithm, baseKey, derivedKeyAlgorithm, extractable, usages) {
      args("deriveKey", 5, arguments);
      const s = keyOf("deriveKey", 2, baseKey);
      useKey(algorithm, s, "deriveKey");
      const bits = deriveBitsOf(algorithm, Object.assign({}, s, { usages: ["deriveBits"] }), derivedLength(derivedKeyAlgorithm));
      return methods.importKey.call(this, "raw", bits, derivedKeyAlgorithm, extractable, usages);
    },
    async wrapKey(format, key, wrappingKey, wrapAlgorithm) {
      args("wrapKey", 4, arguments);
      const w = keyOf("wrapKey", 3, wrappingKey);
      let data = await methods.exportKey.call(this, format, key);
      if (format === "jwk") data = new TextEncoder().encode(JSON.stringify(data));
      return cipher(true, wrapAlgorithm, Object.assign({}, w, { usages: w.usages.includes("wrapKey") ? ["encrypt"] : [] }), data);
    },
    async unwrapKey(format, wrappedKey, unwrappingKey, unwrapAlgorithm, unwrappedKeyAlgorithm, extractable, usages) {
      args("unwrapKey", 7, arguments);
      const w = keyOf("unwrapKey", 3, unwrappingKey);
      let data = cipher(false, unwrapAlgorithm, Object.assign({}, w, { usages: w.usages.includes("unwrapKey") ? ["decrypt"] : [] }), source("unwrapKey", 2, wrappedKey));
      if (format === "jwk") data = JSON.parse(new TextDecoder().decode(data));
      return methods.importKey.call(this, format, data, unwrappedKeyAlgorithm, extractable, usages);
    },
  };
  for (const [name, fn] of Object.entries(methods)) Object.defineProperty(SubtleCrypto.prototype, name, { value: fn, writable: true, configurable: true, enumerable: true });
  Object.defineProperty(SubtleCrypto.prototype, Symbol.toStringTag, { value: "SubtleCrypto", configurable: true });
  const subtle = Object.create(SubtleCrypto.prototype);

  function Crypto() { illegal(); }
  Object.defineProperties(Crypto.prototype, {
    subtle: { get() { return subtle; }, configurable: true, enumerable: true },
    getRandomValues: { value: function getRandomValues(arr) {
      if (arr && arr.byteLength > 65536) throw dom("The ArrayBufferView's byte length (" + arr.byteLength + ") exceeds the number of bytes of entropy available via this API (65536)", "QuotaExceededError");
      return nc.getRandomValues(arr);
    }, writable: true, configurable: true, enumerable: true },
    randomUUID: { value: function randomUUID() { return nc.randomUUID(); }, writable: true, configurable: true, enumerable: true },
    [Symbol.toStringTag]: { value: "Crypto", configurable: true },
  });
  return { crypto: Object.create(Crypto.prototype), Crypto, SubtleCrypto, CryptoKey };
})
