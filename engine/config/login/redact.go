package login

import (
	"regexp"
	"strings"
	"sync"

	"github.com/pi-go/pi/engine"
)

// The patterns match what a token server may echo back: bearer tokens,
// JSON token fields and long opaque strings. They compile on first use, so
// a start that signs nobody in does not pay for them.
var (
	fieldPattern = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)("(?:access_token|refresh_token|id_token|token|code|code_verifier|device_code|api_key|key)"\s*:\s*")[^"]*`)
	})
	opaquePattern = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`[A-Za-z0-9_~+=-]{24,}`) })
)

// Redact removes credentials from text a flow reports (an HTTP error
// body), and every known secret wherever it appears.
func Redact(text string, secrets ...string) string {
	// Known secrets are masked even when short: a flow knows exactly
	// what it sent.
	for _, s := range secrets {
		if s != "" {
			text = strings.ReplaceAll(text, s, "[redacted]")
		}
	}
	text = engine.RedactSecrets(text)
	text = fieldPattern().ReplaceAllString(text, "${1}[redacted]")
	return opaquePattern().ReplaceAllString(text, "[redacted]")
}
