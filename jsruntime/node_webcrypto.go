package jsruntime

import (
	"crypto/hmac"
	"crypto/sha1"
	"crypto/sha256"
	"crypto/sha512"
	"hash"

	"github.com/dop251/goja"
)

// webCryptoHash returns the hash of a Web Crypto algorithm name, already
// made canonical by the JS side.
func webCryptoHash(name string) func() hash.Hash {
	switch name {
	case "SHA-1":
		return sha1.New
	case "SHA-256":
		return sha256.New
	case "SHA-384":
		return sha512.New384
	case "SHA-512":
		return sha512.New
	}
	return nil
}

// newWebCrypto builds the global crypto (Crypto, SubtleCrypto and
// CryptoKey) the first time an extension reads one of them. The JS lives
// here rather than in the prelude so that a start compiles none of it.
func (r *Runtime) newWebCrypto(nodeCrypto goja.Value) (goja.Value, error) {
	vm := r.vm
	prim := vm.NewObject()
	_ = prim.Set("digest", func(name string, data goja.Value) goja.Value {
		h := webCryptoHash(name)()
		h.Write(bytesOf(vm, data))
		return vm.ToValue(vm.NewArrayBuffer(h.Sum(nil)))
	})
	_ = prim.Set("hmac", func(name string, key, data goja.Value) goja.Value {
		m := hmac.New(webCryptoHash(name), bytesOf(vm, key))
		m.Write(bytesOf(vm, data))
		return vm.ToValue(vm.NewArrayBuffer(m.Sum(nil)))
	})
	_ = prim.Set("equal", func(a, b goja.Value) bool { return hmac.Equal(bytesOf(vm, a), bytesOf(vm, b)) })
	prg, err := compileCached("node:internal/webcrypto", webCryptoSrc, true)
	if err != nil {
		return nil, err
	}
	fnv, err := vm.RunProgram(prg)
	if err != nil {
		return nil, err
	}
	fn, _ := goja.AssertFunction(fnv)
	return fn(goja.Undefined(), nodeCrypto, prim)
}

// webCryptoSrc implements the parts of Web Crypto extensions use: digest
// with SHA-1/256/384/512 and HMAC keys imported raw for sign, verify and
// exportKey. Errors carry Node 22's names, messages and codes, since
// callers match on them; other algorithms are NotSupportedError.
const webCryptoSrc = `"use strict";
(function (nc, prim) {
  const HASHES = ["SHA-1", "SHA-256", "SHA-384", "SHA-512"];
  const illegal = function () { throw new TypeError("Illegal constructor"); };
  const typeErr = (msg, code) => { const e = new TypeError(msg); e.code = code; return e; };
  const nth = (i) => i + (i === 1 ? "st" : i === 2 ? "nd" : i === 3 ? "rd" : "th");
  const args = (method, n, a) => {
    if (a.length < n) throw typeErr("Failed to execute '" + method + "' on 'SubtleCrypto': " + n + " arguments required, but only " + a.length + " present.", "ERR_MISSING_ARGS");
  };
  const source = (method, i, v) => {
    if (v instanceof ArrayBuffer || ArrayBuffer.isView(v)) return v;
    throw typeErr("Failed to execute '" + method + "' on 'SubtleCrypto': " + nth(i) + " argument is not instance of ArrayBuffer, Buffer, TypedArray, or DataView.", "ERR_INVALID_ARG_TYPE");
  };
  const algName = (a) => (typeof a === "string" ? a : a !== null && typeof a === "object" ? String(a.name) : String(a));
  const unknown = () => new DOMException("Unrecognized algorithm name", "NotSupportedError");
  const hashName = (a) => {
    const n = algName(a).toUpperCase();
    if (!HASHES.includes(n)) throw unknown();
    return n;
  };
  const copy = (v) => new Uint8Array(ArrayBuffer.isView(v) ? v.buffer.slice(v.byteOffset, v.byteOffset + v.byteLength) : v.slice(0));

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
  const keyOf = (method, i, k) => {
    const s = slots.get(k);
    if (!s) throw typeErr("Failed to execute '" + method + "' on 'SubtleCrypto': " + nth(i) + " argument is not of type CryptoKey.", "ERR_INVALID_ARG_TYPE");
    return s;
  };
  const hmacKey = (alg, s, usage) => {
    if (algName(alg).toUpperCase() !== "HMAC") {
      if (!["RSASSA-PKCS1-V1_5", "RSA-PSS", "ECDSA", "ED25519", "ED448"].includes(algName(alg).toUpperCase())) throw unknown();
    }
    if (algName(alg).toUpperCase() !== "HMAC" || s.algorithm.name !== "HMAC" || !s.usages.includes(usage)) throw new DOMException("Unable to use this key to " + usage, "InvalidAccessError");
  };

  function SubtleCrypto() { illegal(); }
  const methods = {
    async digest(algorithm, data) {
      args("digest", 2, arguments);
      const name = hashName(algorithm);
      return prim.digest(name, source("digest", 2, data));
    },
    async importKey(format, keyData, algorithm, extractable, usages) {
      args("importKey", 5, arguments);
      if (algName(algorithm).toUpperCase() !== "HMAC") throw unknown();
      if (algorithm === null || typeof algorithm !== "object" || algorithm.hash === undefined) {
        throw typeErr("Failed to normalize algorithm: passed algorithm can not be converted to 'HmacImportParams' because 'hash' is required in 'HmacImportParams'.", "ERR_MISSING_OPTION");
      }
      const hash = hashName(algorithm.hash);
      if (format !== "raw") throw new DOMException("Unable to import HMAC using " + format + " format", "NotSupportedError");
      const raw = copy(source("importKey", 2, keyData));
      const list = Array.from(usages);
      for (const u of list) if (u !== "sign" && u !== "verify") throw new DOMException("Unsupported key usage for an HMAC key", "SyntaxError");
      if (raw.length === 0) throw new DOMException("Zero-length key is not supported", "DataError");
      if (list.length === 0) throw new DOMException("Usages cannot be empty when importing a secret key.", "SyntaxError");
      const length = algorithm.length === undefined ? raw.length * 8 : Number(algorithm.length);
      const key = Object.create(CryptoKey.prototype);
      slots.set(key, { type: "secret", extractable: !!extractable, algorithm: { name: "HMAC", hash: { name: hash }, length }, usages: list, raw });
      return key;
    },
    async exportKey(format, key) {
      args("exportKey", 2, arguments);
      const s = keyOf("exportKey", 2, key);
      if (format !== "raw") throw new DOMException("Unable to export HMAC using " + format + " format", "NotSupportedError");
      if (!s.extractable) throw new DOMException("key is not extractable", "InvalidAccessException");
      return s.raw.buffer.slice(0);
    },
    async sign(algorithm, key, data) {
      args("sign", 3, arguments);
      const s = keyOf("sign", 2, key);
      hmacKey(algorithm, s, "sign");
      return prim.hmac(s.algorithm.hash.name, s.raw, source("sign", 3, data));
    },
    async verify(algorithm, key, signature, data) {
      args("verify", 4, arguments);
      const s = keyOf("verify", 2, key);
      hmacKey(algorithm, s, "verify");
      const sig = source("verify", 3, signature);
      return prim.equal(prim.hmac(s.algorithm.hash.name, s.raw, source("verify", 4, data)), sig);
    },
  };
  for (const [name, fn] of Object.entries(methods)) Object.defineProperty(SubtleCrypto.prototype, name, { value: fn, writable: true, configurable: true, enumerable: true });
  Object.defineProperty(SubtleCrypto.prototype, Symbol.toStringTag, { value: "SubtleCrypto", configurable: true });
  const subtle = Object.create(SubtleCrypto.prototype);

  function Crypto() { illegal(); }
  Object.defineProperties(Crypto.prototype, {
    subtle: { get() { return subtle; }, configurable: true, enumerable: true },
    getRandomValues: { value: function getRandomValues(arr) {
      if (arr && arr.byteLength > 65536) throw new DOMException("The ArrayBufferView's byte length (" + arr.byteLength + ") exceeds the number of bytes of entropy available via this API (65536)", "QuotaExceededError");
      return nc.getRandomValues(arr);
    }, writable: true, configurable: true, enumerable: true },
    randomUUID: { value: function randomUUID() { return nc.randomUUID(); }, writable: true, configurable: true, enumerable: true },
    [Symbol.toStringTag]: { value: "Crypto", configurable: true },
  });
  return { crypto: Object.create(Crypto.prototype), Crypto, SubtleCrypto, CryptoKey };
})`
