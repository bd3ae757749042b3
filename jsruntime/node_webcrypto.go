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
	r.webCryptoKeyPrims(prim)
	src, err := hostSource("webcrypto")
	if err != nil {
		return nil, err
	}
	prg, err := compileCached("node:internal/webcrypto", src, true)
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
