package engine

import (
	"github.com/pi-go/pi/internal/jsonx"

	"bytes"
	"encoding/json"
	"math"
	"sort"
	"strconv"
	"unicode/utf16"
	"unicode/utf8"
)

// replacementChar is U+FFFD in UTF-8.
const replacementChar = "\uFFFD"

// ToValidUTF8 returns b with every ill-formed UTF-8 sequence replaced by
// U+FFFD, the text Node's UTF-8 decoding of the same bytes yields. Valid
// input is returned as is.
func ToValidUTF8(b []byte) []byte {
	if utf8.Valid(b) {
		return b
	}
	out := make([]byte, 0, len(b)+8)
	for i := 0; i < len(b); {
		if b[i] < utf8.RuneSelf {
			out = append(out, b[i])
			i++
			continue
		}
		r, size := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && size == 1 {
			out = append(out, replacementChar...)
			i += jsonx.InvalidLen(b[i:])
			continue
		}
		out = append(out, b[i:i+size]...)
		i += size
	}
	return out
}

// canonicalStrings rewrites the strings of valid JSON b the way
// JSON.parse followed by JSON.stringify would: invalid UTF-8 becomes
// U+FFFD, \uXXXX escapes of characters that need none (\u00e9, \u2028, a
// surrogate pair) become the characters, \/ becomes /, control characters
// keep JSON.stringify's escapes (lower-case hex) and a lone surrogate stays
// escaped. Whitespace is left alone. The common case (valid UTF-8, no \u
// and no \/ escapes) is returned as is without a copy.
func canonicalStrings(b []byte) []byte {
	if utf8.Valid(b) && !bytes.Contains(b, []byte(`\u`)) && !bytes.Contains(b, []byte(`\/`)) {
		return b
	}
	out := make([]byte, 0, len(b))
	inString := false
	for i := 0; i < len(b); {
		c := b[i]
		switch {
		case c >= utf8.RuneSelf:
			r, size := utf8.DecodeRune(b[i:])
			if r == utf8.RuneError && size == 1 {
				out = append(out, replacementChar...)
				i += jsonx.InvalidLen(b[i:])
				continue
			}
			out = append(out, b[i:i+size]...)
			i += size
			continue
		case c == '"':
			inString = !inString
		case c == '\\' && inString && i+1 < len(b):
			n := appendEscape(&out, b[i:])
			i += n
			continue
		}
		out = append(out, c)
		i++
	}
	return out
}

// appendEscape appends the canonical form of the escape at the start of b
// and returns how many bytes of b it consumed.
func appendEscape(out *[]byte, b []byte) int {
	switch b[1] {
	case '/':
		*out = append(*out, '/')
		return 2
	case 'u':
	default:
		*out = append(*out, b[0], b[1])
		return 2
	}
	r, ok := jsonx.Hex4(b[2:])
	if !ok {
		*out = append(*out, b[0], b[1])
		return 2
	}
	n := 6
	if utf16.IsSurrogate(r) {
		if r < 0xDC00 && len(b) >= 12 && b[6] == '\\' && b[7] == 'u' {
			if r2, ok2 := jsonx.Hex4(b[8:]); ok2 && r2 >= 0xDC00 && r2 <= 0xDFFF {
				*out = utf8.AppendRune(*out, utf16.DecodeRune(r, r2))
				return 12
			}
		}
		*out = append(*out, '\\', 'u', hexDigits[r>>12], hexDigits[r>>8&0xF], hexDigits[r>>4&0xF], hexDigits[r&0xF])
		return n
	}
	switch {
	case r == '"' || r == '\\':
		*out = append(*out, '\\', byte(r))
	case r < 0x20:
		*out = appendControl(*out, byte(r))
	default:
		*out = utf8.AppendRune(*out, r)
	}
	return n
}

// appendControl appends JSON.stringify's escape for control byte c.
func appendControl(out []byte, c byte) []byte {
	switch c {
	case '\b':
		return append(out, '\\', 'b')
	case '\f':
		return append(out, '\\', 'f')
	case '\n':
		return append(out, '\\', 'n')
	case '\r':
		return append(out, '\\', 'r')
	case '\t':
		return append(out, '\\', 't')
	}
	return append(out, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xF])
}

// CanonicalJSON re-serialises the valid JSON value raw exactly as
// JSON.stringify(JSON.parse(raw)) would: no whitespace, numbers in
// JavaScript's shortest form (1.0 is 1, 1e400 is null), strings as
// canonicalStrings writes them (a lone surrogate stays escaped), and
// object keys in JavaScript's property order (array-index keys ascending
// first, then the rest in first-seen order, a repeated key keeping its
// last value). It is meant for small values the reference echoes back (a
// command's id or type), not for the streaming path. Invalid JSON is
// returned with only its strings fixed.
func CanonicalJSON(raw []byte) json.RawMessage {
	if !json.Valid(raw) {
		return canonicalStrings(raw)
	}
	out, _ := appendCanonical(nil, raw, skipJSONSpace(raw, 0))
	return out
}

// jsKey is one property of an object being rebuilt: its canonical string
// literal and canonical value.
type jsKey struct {
	name []byte
	val  []byte
}

// appendCanonical appends the canonical form of the value at raw[i] and
// returns the offset after it; raw is valid JSON.
func appendCanonical(out, raw []byte, i int) ([]byte, int) {
	switch c := raw[i]; {
	case c == '"':
		end := endOfString(raw, i)
		return append(out, canonicalStrings(raw[i:end])...), end
	case c == '[':
		out = append(out, '[')
		i = skipJSONSpace(raw, i+1)
		for first := true; raw[i] != ']'; first = false {
			if !first {
				out = append(out, ',')
			}
			out, i = appendCanonical(out, raw, i)
			i = skipJSONSpace(raw, i)
			if raw[i] == ',' {
				i = skipJSONSpace(raw, i+1)
			}
		}
		return append(out, ']'), i + 1
	case c == '{':
		var keys []jsKey
		i = skipJSONSpace(raw, i+1)
		for raw[i] != '}' {
			end := endOfString(raw, i)
			name := canonicalStrings(raw[i:end])
			i = skipJSONSpace(raw, end)
			i = skipJSONSpace(raw, i+1) // the colon
			var val []byte
			val, i = appendCanonical(nil, raw, i)
			seen := false
			for k := range keys {
				if bytes.Equal(keys[k].name, name) {
					keys[k].val, seen = val, true
					break
				}
			}
			if !seen {
				keys = append(keys, jsKey{name, val})
			}
			i = skipJSONSpace(raw, i)
			if raw[i] == ',' {
				i = skipJSONSpace(raw, i+1)
			}
		}
		// Integer-like keys come first, ascending, as in every JavaScript
		// object; the stable sort keeps the others in insertion order.
		sort.SliceStable(keys, func(a, b int) bool {
			ai, aok := arrayIndex(keys[a].name)
			bi, bok := arrayIndex(keys[b].name)
			if aok && bok {
				return ai < bi
			}
			return aok && !bok
		})
		out = append(out, '{')
		for k, kv := range keys {
			if k > 0 {
				out = append(out, ',')
			}
			out = append(out, kv.name...)
			out = append(out, ':')
			out = append(out, kv.val...)
		}
		return append(out, '}'), i + 1
	case c == 't':
		return append(out, "true"...), i + 4
	case c == 'f':
		return append(out, "false"...), i + 5
	case c == 'n':
		return append(out, "null"...), i + 4
	}
	end := i
	for end < len(raw) && bytes.IndexByte([]byte("+-.0123456789eE"), raw[end]) >= 0 {
		end++
	}
	f, err := strconv.ParseFloat(string(raw[i:end]), 64)
	switch {
	case math.IsInf(f, 0):
		// JSON.parse reads an overflowing literal as Infinity, which
		// JSON.stringify writes as null.
		return append(out, "null"...), end
	case err != nil:
		return append(out, raw[i:end]...), end
	case f == 0:
		return append(out, '0'), end // -0 prints as 0
	}
	return appendFloat(out, f), end
}

func skipJSONSpace(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r') {
		i++
	}
	return i
}

// endOfString returns the offset after the string literal at b[i].
func endOfString(b []byte, i int) int {
	for i++; i < len(b) && b[i] != '"'; i++ {
		if b[i] == '\\' {
			i++
		}
	}
	return i + 1
}

// arrayIndex reports whether the string literal s holds a canonical array
// index ("0", "17", not "017" or "-1"), which JavaScript orders before
// other keys.
func arrayIndex(lit []byte) (uint64, bool) {
	s := string(lit[1 : len(lit)-1])
	if s == "" || len(s) > 10 || (len(s) > 1 && s[0] == '0') {
		return 0, false
	}
	n, err := strconv.ParseUint(s, 10, 64)
	if err != nil || n >= 1<<32-1 {
		return 0, false
	}
	return n, true
}

// objectKeys lists the top-level keys of the valid JSON object b in
// document order (a repeated key each time), unescaped.
func objectKeys(b []byte) []string {
	var keys []string
	i := skipJSONSpace(b, 0)
	if i >= len(b) || b[i] != '{' {
		return nil
	}
	i = skipJSONSpace(b, i+1)
	for i < len(b) && b[i] == '"' {
		end := endOfString(b, i)
		var k string
		if json.Unmarshal(b[i:end], &k) != nil {
			return keys
		}
		keys = append(keys, k)
		i = skipJSONSpace(b, end)
		i = skipJSONSpace(b, i+1) // the colon
		i = skipJSONSpace(b, skipJSONValue(b, i))
		if i < len(b) && b[i] == ',' {
			i = skipJSONSpace(b, i+1)
		}
	}
	return keys
}

// skipJSONValue returns the offset after the JSON value at b[i]; b is
// valid JSON, so only strings and nesting need tracking.
func skipJSONValue(b []byte, i int) int {
	depth := 0
	for i < len(b) {
		switch b[i] {
		case '"':
			i = endOfString(b, i)
			if depth == 0 {
				return i
			}
			continue
		case '{', '[':
			depth++
		case '}', ']':
			if depth == 0 {
				return i
			}
			depth--
			if depth == 0 {
				return i + 1
			}
		case ',', ':', ' ', '\t', '\n', '\r':
			if depth == 0 {
				return i
			}
		}
		i++
	}
	return i
}
