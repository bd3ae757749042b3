package jsruntime

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/hkdf"
	"crypto/pbkdf2"
	"errors"
	"hash"
	"strconv"
	"strings"

	"github.com/dop251/goja"
	"github.com/dop251/goja_nodejs/buffer"
)

// This file adds node:crypto's AES ciphers (createCipheriv and
// createDecipheriv for aes-{128,192,256}-{gcm,cbc,ctr}) and key
// derivation (pbkdf2, hkdf). GCM and CBC hand out their output at
// final(): the concatenated result is Node's, though Node's update()
// already returns the bytes it can.

// nodeCipherSpec parses a cipher name into its key size and mode.
func nodeCipherSpec(name string) (keyLen int, mode string, ok bool) {
	n := strings.ToLower(name)
	if !strings.HasPrefix(n, "aes-") && !strings.HasPrefix(n, "aes") {
		return 0, "", false
	}
	rest := strings.TrimPrefix(strings.TrimPrefix(n, "aes"), "-")
	bits, mode, found := strings.Cut(rest, "-")
	if !found {
		return 0, "", false
	}
	b, err := strconv.Atoi(bits)
	if err != nil || (b != 128 && b != 192 && b != 256) {
		return 0, "", false
	}
	switch mode {
	case "gcm", "cbc", "ctr":
		return b / 8, mode, true
	}
	return 0, "", false
}

// nodeCipher is the state of one Cipheriv or Decipheriv.
type nodeCipher struct {
	encrypt bool
	mode    string
	block   cipher.Block
	key     []byte
	iv      []byte
	ctr     cipher.Stream
	buf     []byte // GCM and CBC input, converted at final
	aad     []byte
	tag     []byte
	tagLen  int
	padding bool
	done    bool
}

func (c *nodeCipher) update(in []byte) []byte {
	if c.mode == "ctr" {
		out := make([]byte, len(in))
		c.ctr.XORKeyStream(out, in)
		return out
	}
	c.buf = append(c.buf, in...)
	return nil
}

var errBadDecrypt = errors.New("bad decrypt")

func (c *nodeCipher) final() ([]byte, error) {
	c.done = true
	switch c.mode {
	case "gcm":
		g, err := cipher.NewGCMWithNonceSize(c.block, len(c.iv))
		if err != nil {
			return nil, err
		}
		if c.encrypt {
			sealed := g.Seal(nil, c.iv, c.buf, c.aad)
			n := len(sealed) - g.Overhead()
			c.tag = sealed[n:]
			return sealed[:n], nil
		}
		if len(c.tag) == 0 {
			return nil, errors.New("Unsupported state or unable to authenticate data")
		}
		if len(c.tag) != g.Overhead() {
			if g, err = cipher.NewGCMWithTagSize(c.block, len(c.tag)); err != nil || len(c.iv) != g.NonceSize() {
				return nil, errors.New("Unsupported state or unable to authenticate data")
			}
		}
		out, err := g.Open(nil, c.iv, append(append([]byte(nil), c.buf...), c.tag...), c.aad)
		if err != nil {
			return nil, errors.New("Unsupported state or unable to authenticate data")
		}
		return out, nil
	case "cbc":
		if c.padding {
			out, err := aesCBC(c.encrypt, c.key, c.iv, c.buf)
			if err != nil && !c.encrypt {
				return nil, errBadDecrypt
			}
			return out, err
		}
		if len(c.buf)%aes.BlockSize != 0 {
			return nil, errors.New("wrong final block length")
		}
		out := make([]byte, len(c.buf))
		if c.encrypt {
			cipher.NewCBCEncrypter(c.block, c.iv).CryptBlocks(out, c.buf)
		} else {
			cipher.NewCBCDecrypter(c.block, c.iv).CryptBlocks(out, c.buf)
		}
		return out, nil
	}
	return nil, nil
}

// cryptoErr builds an Error (or, with kind "TypeError"/"RangeError",
// that class) with Node's code.
func (r *Runtime) cryptoErr(kind, code, msg string) *goja.Object {
	e, err := r.vm.New(r.vm.Get(kind), r.vm.ToValue(msg))
	if err != nil {
		return r.nodeError(code, msg)
	}
	if code != "" {
		_ = e.Set("code", code)
	}
	return e
}

// cryptoInput reads data for update(): a string in its encoding (UTF-8 by
// default) or bytes.
func cryptoInput(vm *goja.Runtime, data, enc goja.Value) []byte {
	if s, ok := data.Export().(string); ok && enc != nil && !goja.IsUndefined(enc) && !goja.IsNull(enc) {
		return buffer.DecodeBytes(vm, vm.ToValue(s), enc)
	}
	return bytesOf(vm, data)
}

// cryptoOutput returns b as a Buffer, or as a string when enc names one.
func cryptoOutput(vm *goja.Runtime, b []byte, enc goja.Value) goja.Value {
	if enc == nil || goja.IsUndefined(enc) || goja.IsNull(enc) || enc.String() == "buffer" {
		return buffer.WrapBytes(vm, b)
	}
	return vm.ToValue(decodeString(b, enc.String()))
}

// addCryptoCiphers adds the ciphers and key derivation functions to the
// node:crypto exports o; newHash resolves Node's digest names.
func (r *Runtime) addCryptoCiphers(o *goja.Object, newHash func(string) func() hash.Hash) {
	vm := r.vm
	newCipher := func(encrypt bool) func(name string, key, iv goja.Value, opts goja.Value) *goja.Object {
		return func(name string, key, iv goja.Value, opts goja.Value) *goja.Object {
			keyLen, mode, ok := nodeCipherSpec(name)
			if !ok {
				panic(r.cryptoErr("Error", "ERR_CRYPTO_UNKNOWN_CIPHER", "Unknown cipher"))
			}
			k := append([]byte(nil), bytesOf(vm, key)...)
			if len(k) != keyLen {
				panic(r.cryptoErr("RangeError", "ERR_CRYPTO_INVALID_KEYLEN", "Invalid key length"))
			}
			ivb := append([]byte(nil), bytesOf(vm, iv)...)
			if (mode != "gcm" && len(ivb) != aes.BlockSize) || (mode == "gcm" && len(ivb) == 0) {
				panic(r.cryptoErr("TypeError", "ERR_CRYPTO_INVALID_IV", "Invalid initialization vector"))
			}
			block, _ := aes.NewCipher(k)
			c := &nodeCipher{encrypt: encrypt, mode: mode, block: block, key: k, iv: ivb, padding: true, tagLen: 16}
			if mode == "ctr" {
				c.ctr = cipher.NewCTR(block, ivb)
			}
			if o, ok := opts.(*goja.Object); ok {
				if t := o.Get("authTagLength"); t != nil && !goja.IsUndefined(t) {
					c.tagLen = int(t.ToInteger())
				}
			}
			obj := vm.NewObject()
			_ = obj.Set("update", func(data, inEnc, outEnc goja.Value) goja.Value {
				if c.done {
					panic(r.cryptoErr("Error", "", "Trying to add data in unsupported state"))
				}
				return cryptoOutput(vm, c.update(cryptoInput(vm, data, inEnc)), outEnc)
			})
			_ = obj.Set("final", func(outEnc goja.Value) goja.Value {
				if c.done {
					panic(r.cryptoErr("Error", "ERR_CRYPTO_INVALID_STATE", "Invalid state for operation final"))
				}
				out, err := c.final()
				if err == errBadDecrypt {
					panic(r.cryptoErr("Error", "ERR_OSSL_BAD_DECRYPT", "error:1C800064:Provider routines::bad decrypt"))
				}
				if err != nil {
					panic(r.cryptoErr("Error", "", err.Error()))
				}
				return cryptoOutput(vm, out, outEnc)
			})
			_ = obj.Set("setAAD", func(b goja.Value) *goja.Object {
				c.aad = append(c.aad, bytesOf(vm, b)...)
				return obj
			})
			_ = obj.Set("setAutoPadding", func(on goja.Value) *goja.Object {
				c.padding = on == nil || goja.IsUndefined(on) || on.ToBoolean()
				return obj
			})
			if encrypt {
				_ = obj.Set("getAuthTag", func() goja.Value {
					if mode != "gcm" || !c.done {
						panic(r.cryptoErr("Error", "ERR_CRYPTO_INVALID_STATE", "Invalid state for operation getAuthTag"))
					}
					return buffer.WrapBytes(vm, c.tag[:min(c.tagLen, len(c.tag))])
				})
			} else {
				_ = obj.Set("setAuthTag", func(b goja.Value) *goja.Object {
					if mode != "gcm" || c.done {
						panic(r.cryptoErr("Error", "ERR_CRYPTO_INVALID_STATE", "Invalid state for operation setAuthTag"))
					}
					c.tag = append([]byte(nil), bytesOf(vm, b)...)
					return obj
				})
			}
			return obj
		}
	}
	_ = o.Set("createCipheriv", newCipher(true))
	_ = o.Set("createDecipheriv", newCipher(false))
	_ = o.Set("getCiphers", func() []string {
		var out []string
		for _, b := range []string{"128", "192", "256"} {
			for _, m := range []string{"cbc", "ctr", "gcm"} {
				out = append(out, "aes-"+b+"-"+m)
			}
		}
		return out
	})
	digest := func(name string) func() hash.Hash {
		f := newHash(name)
		if f == nil {
			panic(r.cryptoErr("TypeError", "ERR_CRYPTO_INVALID_DIGEST", "Invalid digest: "+name))
		}
		return f
	}
	pbkdf2Sync := func(pw, salt goja.Value, iter, keyLen int, name string) goja.Value {
		out, err := pbkdf2.Key(digest(name), string(bytesOf(vm, pw)), bytesOf(vm, salt), iter, keyLen)
		if err != nil {
			panic(r.cryptoErr("Error", "", err.Error()))
		}
		return buffer.WrapBytes(vm, out)
	}
	hkdfSync := func(name string, ikm, salt, info goja.Value, keyLen int) goja.Value {
		out, err := hkdf.Key(digest(name), bytesOf(vm, ikm), bytesOf(vm, salt), string(bytesOf(vm, info)), keyLen)
		if err != nil {
			panic(r.cryptoErr("RangeError", "ERR_CRYPTO_INVALID_KEYLEN", "Invalid key length"))
		}
		return vm.ToValue(vm.NewArrayBuffer(out))
	}
	_ = o.Set("pbkdf2Sync", pbkdf2Sync)
	_ = o.Set("hkdfSync", hkdfSync)
	// The callback forms run on the loop's next turn, as Node's run on
	// its thread pool and call back later.
	later := func(cb goja.Value, f func() goja.Value) {
		fn, ok := goja.AssertFunction(cb)
		if !ok {
			panic(r.cryptoErr("TypeError", "ERR_INVALID_ARG_TYPE", `The "callback" argument must be of type function.`))
		}
		done := r.loop.Reserve()
		done(func(*goja.Runtime) {
			var res goja.Value
			if ex := vm.Try(func() { res = f() }); ex != nil {
				_, _ = fn(goja.Undefined(), ex.Value())
				return
			}
			_, _ = fn(goja.Undefined(), goja.Null(), res)
		})
	}
	_ = o.Set("pbkdf2", func(pw, salt goja.Value, iter, keyLen int, name string, cb goja.Value) {
		later(cb, func() goja.Value { return pbkdf2Sync(pw, salt, iter, keyLen, name) })
	})
	_ = o.Set("hkdf", func(name string, ikm, salt, info goja.Value, keyLen int, cb goja.Value) {
		later(cb, func() goja.Value { return hkdfSync(name, ikm, salt, info, keyLen) })
	})
}
