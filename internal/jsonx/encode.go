package jsonx

import (
	"bytes"
	"encoding"
	"encoding/json"
	"math"
	"reflect"
	"strconv"
	"unicode/utf8"
)

// Marshal encodes v the way JavaScript's JSON.stringify would: no HTML
// escaping of <, > and &, and U+2028/U+2029 written as raw UTF-8. Go's
// encoder escapes those two unconditionally; clients that compare bytes
// with the reference would see a difference, so they are un-escaped here.
//
// Scalars and values with their own MarshalJSON (every union type of
// engine) skip encoding/json: it would re-validate and re-compact each
// nested level's output again at every enclosing level, which made the
// streaming hot path quadratic in the nesting depth. The bytes are the
// same as encoding/json's with SetEscapeHTML(false).
func Marshal(v any) ([]byte, error) {
	if b, ok, err := appendValue(nil, v); ok {
		if err != nil {
			return nil, err
		}
		return UnescapeLineSeparators(b), nil
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	b := buf.Bytes()
	b = b[:len(b)-1] // Encode appends a newline.
	return UnescapeLineSeparators(b), nil
}

// Appender is implemented by hot wire types whose JSON is built with a
// Builder: it is valid and compact already, so Marshal and Builder write
// it into the enclosing buffer with no copy or re-validation. A type that
// implements it must also implement json.Marshaler with the same bytes,
// for encoding/json to find when it meets the value inside a struct.
type Appender interface {
	AppendJSON(dst []byte) ([]byte, error)
}

// appendValue appends the JSON of v to dst when v is a scalar, a raw
// message or a json.Marshaler; ok is false for anything else (structs,
// maps, slices), which the caller hands to encoding/json. Marshaler output
// is validated and compacted exactly as encoding/json would do it, but the
// common already-compact case costs one scan and no copy.
func appendValue(dst []byte, v any) (out []byte, ok bool, err error) {
	switch x := v.(type) {
	case nil:
		return append(dst, "null"...), true, nil
	case string:
		return AppendString(dst, x), true, nil
	case bool:
		return strconv.AppendBool(dst, x), true, nil
	case int:
		return strconv.AppendInt(dst, int64(x), 10), true, nil
	case int64:
		return strconv.AppendInt(dst, x, 10), true, nil
	case float64:
		if math.IsInf(x, 0) || math.IsNaN(x) {
			return dst, false, nil // encoding/json words the error
		}
		return AppendFloat(dst, x), true, nil
	case json.RawMessage:
		if x == nil {
			return append(dst, "null"...), true, nil
		}
		return appendCompact(dst, x)
	case json.Number:
		// A Number is a string type, so the named-scalar case below would
		// quote it; encoding/json writes its literal (an empty one as 0).
		if x == "" {
			return append(dst, '0'), true, nil
		}
		if isNumberLiteral(string(x)) {
			return append(dst, x...), true, nil
		}
		return dst, false, nil // encoding/json words the error
	case *int:
		if x == nil {
			return append(dst, "null"...), true, nil
		}
		return strconv.AppendInt(dst, int64(*x), 10), true, nil
	case *bool:
		if x == nil {
			return append(dst, "null"...), true, nil
		}
		return strconv.AppendBool(dst, *x), true, nil
	}
	// A nil pointer is null even when its element type has a value
	// receiver MarshalJSON (calling it would dereference nil).
	rv := reflect.ValueOf(v)
	if rv.Kind() == reflect.Pointer && rv.IsNil() {
		return append(dst, "null"...), true, nil
	}
	if a, isA := v.(Appender); isA {
		out, err := a.AppendJSON(dst)
		return out, true, err
	}
	if m, isM := v.(json.Marshaler); isM {
		b, err := m.MarshalJSON()
		if err != nil {
			return dst, false, nil // encoding/json words the error
		}
		return appendCompact(dst, b)
	}
	if _, isText := v.(encoding.TextMarshaler); isText {
		return dst, false, nil
	}
	// Named scalar types (StopReason, ThinkingLevel, …) and pointers to
	// scalars, as encoding/json writes them.
	switch rv.Kind() {
	case reflect.String:
		return AppendString(dst, rv.String()), true, nil
	case reflect.Bool:
		return strconv.AppendBool(dst, rv.Bool()), true, nil
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return strconv.AppendInt(dst, rv.Int(), 10), true, nil
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return strconv.AppendUint(dst, rv.Uint(), 10), true, nil
	case reflect.Float64:
		return appendValue(dst, rv.Float())
	case reflect.Pointer:
		return appendValue(dst, rv.Elem().Interface())
	}
	return dst, false, nil
}

// isNumberLiteral reports whether s is exactly one JSON number, as
// encoding/json requires of a json.Number it writes.
func isNumberLiteral(s string) bool {
	if s[0] != '-' && (s[0] < '0' || s[0] > '9') {
		return false
	}
	last := s[len(s)-1]
	return last >= '0' && last <= '9' && json.Valid([]byte(s))
}

// appendCompact appends the marshaler output b as encoding/json would:
// invalid JSON is an error, insignificant whitespace is dropped. When b
// is not valid, ok is false so that encoding/json reports the error in
// its own words.
func appendCompact(dst, b []byte) ([]byte, bool, error) {
	if !json.Valid(b) {
		return dst, false, nil
	}
	// Raw messages (tool arguments, details) may carry \u2028 escapes that
	// Marshal always turned into raw characters at every level.
	b = UnescapeLineSeparators(b)
	if !hasInsignificantSpace(b) {
		return append(dst, b...), true, nil
	}
	var buf bytes.Buffer
	if err := json.Compact(&buf, b); err != nil {
		return dst, false, nil
	}
	return append(dst, buf.Bytes()...), true, nil
}

// hasInsignificantSpace reports whether valid JSON b has whitespace
// outside its strings.
func hasInsignificantSpace(b []byte) bool {
	inString := false
	for i := 0; i < len(b); i++ {
		c := b[i]
		if inString {
			switch c {
			case '\\':
				i++
			case '"':
				inString = false
			}
			continue
		}
		switch c {
		case '"':
			inString = true
		case ' ', '\t', '\n', '\r':
			return true
		}
	}
	return false
}

const hexDigits = "0123456789abcdef"

// AppendString appends s as a JSON string the way encoding/json does with
// HTML escaping off (short escapes for \b \f \n \r \t, \u00xx for other
// control bytes), except that U+2028 and U+2029 stay raw, as
// JSON.stringify writes them, and each ill-formed UTF-8 sequence becomes a
// raw U+FFFD (InvalidLen).
func AppendString(dst []byte, s string) []byte {
	dst = append(dst, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' {
				i++
				continue
			}
			dst = append(dst, s[start:i]...)
			switch c {
			case '\\', '"':
				dst = append(dst, '\\', c)
			case '\b':
				dst = append(dst, '\\', 'b')
			case '\f':
				dst = append(dst, '\\', 'f')
			case '\n':
				dst = append(dst, '\\', 'n')
			case '\r':
				dst = append(dst, '\\', 'r')
			case '\t':
				dst = append(dst, '\\', 't')
			default:
				dst = append(dst, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xF])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			// Written as the raw character, one for each ill-formed
			// sequence, as JSON.stringify writes the U+FFFD that Node's
			// UTF-8 decoding put there.
			dst = append(dst, s[start:i]...)
			dst = append(dst, "\uFFFD"...)
			i += InvalidLen(s[i:])
			start = i
			continue
		}
		i += size
	}
	dst = append(dst, s[start:]...)
	return append(dst, '"')
}

// AppendFloat formats f like encoding/json (ES6 number to string): plain
// notation between 1e-6 and 1e21, exponent form outside, "e-7" not "e-07".
// f must be finite.
func AppendFloat(dst []byte, f float64) []byte {
	abs := math.Abs(f)
	format := byte('f')
	if abs != 0 && (abs < 1e-6 || abs >= 1e21) {
		format = 'e'
	}
	start := len(dst)
	dst = strconv.AppendFloat(dst, f, format, -1, 64)
	if format == 'e' {
		n := len(dst)
		if n-start >= 4 && dst[n-4] == 'e' && dst[n-3] == '-' && dst[n-2] == '0' {
			dst[n-2] = dst[n-1]
			dst = dst[:n-1]
		}
	}
	return dst
}

// UnescapeLineSeparators rewrites \u2028 and \u2029 escapes in JSON text
// to raw UTF-8, leaving an escaped backslash followed by "u2028" untouched.
// b is returned as it is when it has none.
func UnescapeLineSeparators(b []byte) []byte {
	if !bytes.Contains(b, []byte(`\u202`)) {
		return b
	}
	out := make([]byte, 0, len(b))
	for i := 0; i < len(b); i++ {
		c := b[i]
		if c == '\\' && i+1 < len(b) {
			if b[i+1] == 'u' && i+5 < len(b) && b[i+2] == '2' && b[i+3] == '0' && b[i+4] == '2' && (b[i+5] == '8' || b[i+5] == '9') {
				if b[i+5] == '8' {
					out = append(out, 0xE2, 0x80, 0xA8)
				} else {
					out = append(out, 0xE2, 0x80, 0xA9)
				}
				i += 5
				continue
			}
			// Copy the escape pair verbatim so "\\u2028" stays as written.
			out = append(out, c, b[i+1])
			i++
			continue
		}
		out = append(out, c)
	}
	return out
}

// InvalidLen returns the length of the ill-formed sequence at the start of
// s (which does not start with a valid character): the maximal subpart of
// the WHATWG Encoding Standard's UTF-8 decoder, the bytes that Node turns
// into one U+FFFD. "\xe2\x82" is one sequence; "\xc0\xaf" and a
// surrogate's "\xed\xa0\x80" are one per byte.
func InvalidLen[T string | []byte](s T) int {
	c := s[0]
	n, lo, hi := 0, byte(0x80), byte(0xBF)
	switch {
	case c >= 0xC2 && c <= 0xDF:
		n = 1
	case c == 0xE0:
		n, lo = 2, 0xA0
	case c == 0xED:
		n, hi = 2, 0x9F
	case c >= 0xE1 && c <= 0xEF:
		n = 2
	case c == 0xF0:
		n, lo = 3, 0x90
	case c == 0xF4:
		n, hi = 3, 0x8F
	case c >= 0xF1 && c <= 0xF3:
		n = 3
	default:
		return 1
	}
	j := 1
	for k := 0; k < n; k++ {
		if j >= len(s) || s[j] < lo || s[j] > hi {
			return j
		}
		lo, hi = 0x80, 0xBF
		j++
	}
	// A complete well-formed sequence: the caller only asks when the
	// decoder rejected it, so this is not reached for valid input.
	return j
}
