package llm

import "strings"

// SanitizeID makes a tool-call id from another provider fit the
// [A-Za-z0-9_-]{1,64} pattern the Anthropic and OpenAI Responses APIs
// accept: every other character becomes an underscore, one per UTF-16
// unit as the reference's regular expression counts them, and the result
// is cut at 64 characters.
func SanitizeID(id string) string {
	var b strings.Builder
	for _, r := range id {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '_', r == '-':
			b.WriteRune(r)
		case r > 0xFFFF:
			b.WriteString("__")
		default:
			b.WriteByte('_')
		}
	}
	out := b.String()
	if len(out) > 64 {
		out = out[:64]
	}
	return out
}
