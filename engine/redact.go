package engine

import (
	"regexp"
	"strings"
	"sync"
)

// bearerPattern finds a bearer credential in text a server sent back. It
// compiles on first use, so a run without errors does not pay for it.
var bearerPattern = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)(bearer\s+)[A-Za-z0-9._~+/=-]+`)
})

// RedactSecrets masks credentials in text that is about to be shown or
// stored: every given secret wherever it appears (secrets shorter than
// eight characters are ignored, since masking them would mangle ordinary
// words), and any "Bearer <token>". Some gateways echo the credential they
// were sent in their error bodies, and those bodies become the assistant
// message's errorMessage, which reaches the session file, every output
// mode and the HTML export.
func RedactSecrets(text string, secrets ...string) string {
	if text == "" {
		return text
	}
	for _, s := range secrets {
		if len(s) >= 8 {
			text = strings.ReplaceAll(text, s, "[redacted]")
		}
	}
	if !strings.Contains(strings.ToLower(text), "bearer") {
		return text
	}
	return bearerPattern().ReplaceAllString(text, "${1}[redacted]")
}

// requestSecrets are the credentials a request carries: its API key and
// the values of credential-looking headers its model configures.
func requestSecrets(req *LLMRequest) []string {
	if req == nil {
		return nil
	}
	out := []string{req.APIKey}
	if req.Model != nil {
		for k, v := range req.Model.Headers {
			switch strings.ToLower(k) {
			case "authorization", "x-api-key", "api-key", "x-goog-api-key", "proxy-authorization", "cookie":
				out = append(out, strings.TrimSpace(strings.TrimPrefix(strings.TrimPrefix(v, "Bearer "), "bearer ")))
			}
		}
	}
	return out
}
