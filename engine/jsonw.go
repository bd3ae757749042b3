package engine

import "github.com/pi-go/pi/internal/jsonx"

// MarshalJSON encodes v the way JavaScript's JSON.stringify would: no HTML
// escaping of <, > and &, and U+2028/U+2029 written as raw UTF-8 (see
// jsonx.Marshal, which it is). This package's wire types build their
// objects with jsonx.Builder and implement jsonx.Appender, so nested ones
// are written into their parent's buffer.
//
// The result is always valid UTF-8: invalid bytes in a string (or in a raw
// message passed through) become U+FFFD, written raw, and escapes inside
// raw messages are rewritten to the ones JSON.stringify writes
// (canonicalStrings).
func MarshalJSON(v any) ([]byte, error) {
	b, err := jsonx.Marshal(v)
	if err != nil {
		return nil, err
	}
	return canonicalStrings(b), nil
}

// appendString appends s as a JSON string with JSON.stringify's escaping.
func appendString(dst []byte, s string) []byte { return jsonx.AppendString(dst, s) }

// unescapeLineSeparators rewrites \u2028 and \u2029 escapes to raw UTF-8.
func unescapeLineSeparators(b []byte) []byte { return jsonx.UnescapeLineSeparators(b) }

// withType returns the JSON object b with "type":t inserted as its first key.
// b must be a JSON object.
func withType(t string, b []byte) []byte {
	out := make([]byte, 0, len(b)+len(t)+12)
	out = append(out, `{"type":`...)
	out = jsonx.AppendString(out, t)
	if len(b) > 2 {
		out = append(out, ',')
		out = append(out, b[1:]...)
	} else {
		out = append(out, '}')
	}
	return out
}

// hexDigits are the digits of \u escapes.
const hexDigits = "0123456789abcdef"

// appendFloat appends f as JSON.stringify writes a number.
func appendFloat(dst []byte, f float64) []byte { return jsonx.AppendFloat(dst, f) }
