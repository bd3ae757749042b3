package login

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
)

// newPKCE returns an S256 PKCE pair: a verifier of 32 random bytes and its
// challenge, both unpadded base64url, as the reference makes them.
func newPKCE() (verifier, challenge string) {
	b := make([]byte, 32)
	_, _ = rand.Read(b) // crypto/rand.Read never fails on supported platforms.
	verifier = base64.RawURLEncoding.EncodeToString(b)
	return verifier, pkceChallenge(verifier)
}

func pkceChallenge(verifier string) string {
	sum := sha256.Sum256([]byte(verifier))
	return base64.RawURLEncoding.EncodeToString(sum[:])
}
