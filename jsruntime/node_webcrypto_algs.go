package jsruntime

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/ecdh"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/elliptic"
	"crypto/hkdf"
	"crypto/pbkdf2"
	"crypto/rand"
	"crypto/x509"
	"encoding/base64"
	"errors"
	"fmt"
	"math/big"

	"github.com/dop251/goja"
)

// The Go side of Web Crypto's algorithms beyond digest and HMAC: AES
// (GCM, CBC, CTR), PBKDF2, HKDF, ECDSA and ECDH on the NIST curves, and
// Ed25519, plus the key encodings (SPKI, PKCS #8). The JS side validates
// arguments and builds CryptoKeys; these functions get canonical names
// and bytes, and report failure as a Go error, which the JS side turns
// into Node's OperationError or DataError.

// webCryptoCurve maps a Web Crypto curve name to Go's.
func webCryptoCurve(name string) (elliptic.Curve, ecdh.Curve, error) {
	switch name {
	case "P-256":
		return elliptic.P256(), ecdh.P256(), nil
	case "P-384":
		return elliptic.P384(), ecdh.P384(), nil
	case "P-521":
		return elliptic.P521(), ecdh.P521(), nil
	}
	return nil, nil, fmt.Errorf("unsupported curve %q", name)
}

// curveName is the Web Crypto name of a Go curve.
func curveName(c elliptic.Curve) string {
	return c.Params().Name
}

func aesGCM(encrypt bool, key, iv, data, aad []byte, tagBytes int) ([]byte, error) {
	block, err := aes.NewCipher(key)
	if err != nil {
		return nil, err
	}
	if len(iv) == 0 {
		return nil, errors.New("empty iv")
	}
	g, err := cipher.NewGCMWithNonceSize(block, len(iv))
	if err != nil {
		return nil, err
	}
	if tagBytes != g.Overhead() {
		if g, err = cipher.NewGCMWithTagSize(block, tagBytes); err != nil || len(iv) != g.NonceSize() {
			return nil, errors.New("unsupported tag length for this iv")
		}
	}
	if encrypt {
		return g.Seal(nil, iv, data, aad), nil
	}
	return g.Open(nil, iv, data, aad)
}

func aesCBC(encrypt bool, key, iv, data []byte) ([]byte, error) {
	block, err := aes.NewCipher(key)
	if err != nil {
		return nil, err
	}
	if len(iv) != aes.BlockSize {
		return nil, errors.New("iv must be 16 bytes")
	}
	if encrypt {
		pad := aes.BlockSize - len(data)%aes.BlockSize
		buf := make([]byte, len(data)+pad)
		copy(buf, data)
		for i := len(data); i < len(buf); i++ {
			buf[i] = byte(pad)
		}
		cipher.NewCBCEncrypter(block, iv).CryptBlocks(buf, buf)
		return buf, nil
	}
	if len(data) == 0 || len(data)%aes.BlockSize != 0 {
		return nil, errors.New("bad ciphertext length")
	}
	buf := make([]byte, len(data))
	cipher.NewCBCDecrypter(block, iv).CryptBlocks(buf, data)
	pad := int(buf[len(buf)-1])
	if pad == 0 || pad > aes.BlockSize {
		return nil, errors.New("bad padding")
	}
	for _, b := range buf[len(buf)-pad:] {
		if int(b) != pad {
			return nil, errors.New("bad padding")
		}
	}
	return buf[:len(buf)-pad], nil
}

func aesCTR(key, counter, data []byte) ([]byte, error) {
	block, err := aes.NewCipher(key)
	if err != nil {
		return nil, err
	}
	if len(counter) != aes.BlockSize {
		return nil, errors.New("counter must be 16 bytes")
	}
	out := make([]byte, len(data))
	cipher.NewCTR(block, counter).XORKeyStream(out, data)
	return out, nil
}

// ecPrivate rebuilds an ECDSA private key from its scalar.
func ecPrivate(curve string, d []byte) (*ecdsa.PrivateKey, error) {
	c, _, err := webCryptoCurve(curve)
	if err != nil {
		return nil, err
	}
	return ecdsa.ParseRawPrivateKey(c, d)
}

func ecPublic(curve string, pub []byte) (*ecdsa.PublicKey, error) {
	c, _, err := webCryptoCurve(curve)
	if err != nil {
		return nil, err
	}
	return ecdsa.ParseUncompressedPublicKey(c, pub)
}

// ecdsaSign returns the signature as r || s, each padded to the curve's
// size, which is Web Crypto's format (not ASN.1).
func ecdsaSign(curve string, d, digest []byte) ([]byte, error) {
	k, err := ecPrivate(curve, d)
	if err != nil {
		return nil, err
	}
	r, s, err := ecdsa.Sign(rand.Reader, k, digest)
	if err != nil {
		return nil, err
	}
	n := (k.Curve.Params().BitSize + 7) / 8
	out := make([]byte, 2*n)
	r.FillBytes(out[:n])
	s.FillBytes(out[n:])
	return out, nil
}

func ecdsaVerify(curve string, pub, sig, digest []byte) bool {
	k, err := ecPublic(curve, pub)
	if err != nil {
		return false
	}
	n := (k.Curve.Params().BitSize + 7) / 8
	if len(sig) != 2*n {
		return false
	}
	r, s := new(big.Int).SetBytes(sig[:n]), new(big.Int).SetBytes(sig[n:])
	return ecdsa.Verify(k, digest, r, s)
}

func ecdhDerive(curve string, d, pub []byte) ([]byte, error) {
	_, c, err := webCryptoCurve(curve)
	if err != nil {
		return nil, err
	}
	priv, err := c.NewPrivateKey(d)
	if err != nil {
		return nil, err
	}
	p, err := c.NewPublicKey(pub)
	if err != nil {
		return nil, err
	}
	return priv.ECDH(p)
}

// webCryptoKeyPrims adds the primitives above to prim, the object the
// Web Crypto script receives. Each returns an ArrayBuffer (or a plain
// object of them) and throws a JS Error carrying the Go message on failure.
func (r *Runtime) webCryptoKeyPrims(prim *goja.Object) {
	vm := r.vm
	ab := func(b []byte) goja.Value { return vm.ToValue(vm.NewArrayBuffer(b)) }
	check := func(b []byte, err error) goja.Value {
		if err != nil {
			panic(vm.NewGoError(err))
		}
		return ab(b)
	}
	by := func(v goja.Value) []byte { return bytesOf(vm, v) }
	set := func(name string, v any) { _ = prim.Set(name, v) }
	set("random", func(n int) goja.Value {
		b := make([]byte, n)
		_, _ = rand.Read(b)
		return ab(b)
	})
	set("aesGCM", func(encrypt bool, key, iv, data, aad goja.Value, tagBits int) goja.Value {
		return check(aesGCM(encrypt, by(key), by(iv), by(data), by(aad), tagBits/8))
	})
	set("aesCBC", func(encrypt bool, key, iv, data goja.Value) goja.Value {
		return check(aesCBC(encrypt, by(key), by(iv), by(data)))
	})
	set("aesCTR", func(key, counter, data goja.Value) goja.Value {
		return check(aesCTR(by(key), by(counter), by(data)))
	})
	set("pbkdf2", func(hash string, password, salt goja.Value, iterations, bytes int) goja.Value {
		return check(pbkdf2.Key(webCryptoHash(hash), string(by(password)), by(salt), iterations, bytes))
	})
	set("hkdf", func(hash string, ikm, salt, info goja.Value, bytes int) goja.Value {
		return check(hkdf.Key(webCryptoHash(hash), by(ikm), by(salt), string(by(info)), bytes))
	})
	set("ecGenerate", func(curve string) goja.Value {
		c, _, err := webCryptoCurve(curve)
		if err != nil {
			panic(vm.NewGoError(err))
		}
		k, err := ecdsa.GenerateKey(c, rand.Reader)
		if err != nil {
			panic(vm.NewGoError(err))
		}
		d, _ := k.Bytes()
		pub, _ := k.PublicKey.Bytes()
		o := vm.NewObject()
		_ = o.Set("d", ab(d))
		_ = o.Set("pub", ab(pub))
		return o
	})
	set("ecPublicOf", func(curve string, d goja.Value) goja.Value {
		k, err := ecPrivate(curve, by(d))
		if err != nil {
			panic(vm.NewGoError(err))
		}
		return check(k.PublicKey.Bytes())
	})
	set("ecCheckPublic", func(curve string, pub goja.Value) bool {
		_, err := ecPublic(curve, by(pub))
		return err == nil
	})
	set("ecdsaSign", func(curve, hash string, d, data goja.Value) goja.Value {
		h := webCryptoHash(hash)()
		h.Write(by(data))
		return check(ecdsaSign(curve, by(d), h.Sum(nil)))
	})
	set("ecdsaVerify", func(curve, hash string, pub, sig, data goja.Value) bool {
		h := webCryptoHash(hash)()
		h.Write(by(data))
		return ecdsaVerify(curve, by(pub), by(sig), h.Sum(nil))
	})
	set("ecdh", func(curve string, d, pub goja.Value) goja.Value {
		return check(ecdhDerive(curve, by(d), by(pub)))
	})
	set("edGenerate", func() goja.Value {
		pub, priv, _ := ed25519.GenerateKey(rand.Reader)
		o := vm.NewObject()
		_ = o.Set("d", ab(priv.Seed()))
		_ = o.Set("pub", ab(pub))
		return o
	})
	set("edPublicOf", func(seed goja.Value) goja.Value {
		s := by(seed)
		if len(s) != ed25519.SeedSize {
			panic(vm.NewGoError(errors.New("bad Ed25519 private key")))
		}
		return ab(ed25519.NewKeyFromSeed(s).Public().(ed25519.PublicKey))
	})
	set("edSign", func(seed, data goja.Value) goja.Value {
		s := by(seed)
		if len(s) != ed25519.SeedSize {
			panic(vm.NewGoError(errors.New("bad Ed25519 private key")))
		}
		return ab(ed25519.Sign(ed25519.NewKeyFromSeed(s), by(data)))
	})
	set("edVerify", func(pub, sig, data goja.Value) bool {
		p := by(pub)
		return len(p) == ed25519.PublicKeySize && ed25519.Verify(p, by(data), by(sig))
	})
	set("spkiExport", func(kind, curve string, pub goja.Value) goja.Value {
		var key any
		switch kind {
		case "EC":
			k, err := ecPublic(curve, by(pub))
			if err != nil {
				panic(vm.NewGoError(err))
			}
			key = k
		default:
			key = ed25519.PublicKey(by(pub))
		}
		return check(x509.MarshalPKIXPublicKey(key))
	})
	set("pkcs8Export", func(kind, curve string, d goja.Value) goja.Value {
		var key any
		switch kind {
		case "EC":
			k, err := ecPrivate(curve, by(d))
			if err != nil {
				panic(vm.NewGoError(err))
			}
			key = k
		default:
			key = ed25519.NewKeyFromSeed(by(d))
		}
		return check(x509.MarshalPKCS8PrivateKey(key))
	})
	// parseKey reads an SPKI or PKCS #8 DER key into {kind, curve, pub, d};
	// null when the data is not such a key.
	set("parseKey", func(format string, der goja.Value) goja.Value {
		var key any
		var err error
		if format == "spki" {
			key, err = x509.ParsePKIXPublicKey(by(der))
		} else {
			key, err = x509.ParsePKCS8PrivateKey(by(der))
		}
		if err != nil {
			return goja.Null()
		}
		o := vm.NewObject()
		switch k := key.(type) {
		case *ecdsa.PublicKey:
			pub, _ := k.Bytes()
			_ = o.Set("kind", "EC")
			_ = o.Set("curve", curveName(k.Curve))
			_ = o.Set("pub", ab(pub))
		case *ecdsa.PrivateKey:
			d, _ := k.Bytes()
			pub, _ := k.PublicKey.Bytes()
			_ = o.Set("kind", "EC")
			_ = o.Set("curve", curveName(k.Curve))
			_ = o.Set("pub", ab(pub))
			_ = o.Set("d", ab(d))
		case ed25519.PublicKey:
			_ = o.Set("kind", "Ed25519")
			_ = o.Set("pub", ab(k))
		case ed25519.PrivateKey:
			_ = o.Set("kind", "Ed25519")
			_ = o.Set("pub", ab(k.Public().(ed25519.PublicKey)))
			_ = o.Set("d", ab(k.Seed()))
		default:
			_ = o.Set("kind", fmt.Sprintf("%T", key))
		}
		return o
	})
	set("b64u", func(v goja.Value) string { return base64.RawURLEncoding.EncodeToString(by(v)) })
	set("unb64u", func(s string) goja.Value {
		b, err := base64.RawURLEncoding.DecodeString(s)
		if err != nil {
			panic(vm.NewGoError(err))
		}
		return ab(b)
	})
}
