package engine

import (
	"bytes"
	"encoding"
	"encoding/json"
	"math"
	"reflect"
	"strconv"
	"unicode/utf8"
)

// MarshalJSON encodes v the way JavaScript's JSON.stringify would: no HTML
// escaping of <, > and &, and U+2028/U+2029 written as raw UTF-8. Go's
// encoder escapes those two unconditionally; clients that compare bytes
// with the reference would see a difference, so they are un-escaped here.
// The result is always valid UTF-8: invalid bytes in a string (or in a raw
// message passed through) become U+FFFD, written raw, and escapes inside
// raw messages are rewritten to the ones JSON.stringify writes.
//
// Scalars and values with their own MarshalJSON (every union type of this
// package) skip encoding/json: it would re-validate and re-compact each
// nested level's output again at every enclosing level, which made the
// streaming hot path quadratic in the nesting depth. The bytes are the
// same as encoding/json's with SetEscapeHTML(false).
func MarshalJSON(v any) ([]byte, error) {
	if b, ok, err := appendValue(nil, v); ok {
		if err != nil {
			return nil, err
		}
		return canonicalStrings(b), nil
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	b := buf.Bytes()
	b = b[:len(b)-1] // Encode appends a newline.
	return canonicalStrings(b), nil
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
		return appendString(dst, x), true, nil
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
		return appendFloat(dst, x), true, nil
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
	if a, isA := v.(jsonAppender); isA {
		out, err := a.appendJSON(dst)
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
		return appendString(dst, rv.String()), true, nil
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

// jsonAppender is implemented by this package's hot wire types. Their
// output is built with jsonObject, so it is valid and compact already and
// is written into the enclosing buffer with no copy or re-validation.
type jsonAppender interface {
	appendJSON(dst []byte) ([]byte, error)
}

// appendCompact appends the marshaler output b as encoding/json would:
// invalid JSON is an error, insignificant whitespace is dropped. When b
// is not valid, ok is false so that encoding/json reports the error in
// its own words.
func appendCompact(dst, b []byte) ([]byte, bool, error) {
	if !json.Valid(b) {
		return dst, false, nil
	}
	// Raw messages (tool arguments, details) may carry escapes that
	// JSON.stringify would not write (\u2028, \u00e9, \/) and invalid
	// UTF-8, which json.Valid accepts.
	b = canonicalStrings(b)
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

// appendString appends s as a JSON string the way encoding/json does with
// HTML escaping off (short escapes for \b \f \n \r \t, \u00xx for other
// control bytes), except that U+2028 and U+2029 stay raw, as JSON.stringify
// writes them, and invalid UTF-8 becomes a raw U+FFFD for each ill-formed
// sequence, as Node's UTF-8 decoder replaces them.
func appendString(dst []byte, s string) []byte {
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
			// Written as the raw character, as JSON.stringify writes the
			// U+FFFD that Node's UTF-8 decoding put there.
			dst = append(dst, s[start:i]...)
			dst = append(dst, replacementChar...)
			i += invalidLen(s[i:])
			start = i
			continue
		}
		i += size
	}
	dst = append(dst, s[start:]...)
	return append(dst, '"')
}

// appendFloat formats f like encoding/json (ES6 number to string): plain
// notation between 1e-6 and 1e21, exponent form outside, "e-7" not "e-07".
func appendFloat(dst []byte, f float64) []byte {
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

// unescapeLineSeparators rewrites \u2028 and \u2029 escapes to raw UTF-8,
// leaving an escaped backslash followed by "u2028" untouched.
func unescapeLineSeparators(b []byte) []byte {
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

// jsonObject builds a JSON object with keys in insertion order. The
// reference serialises objects in construction order and omits undefined
// keys, which plain struct tags cannot express for union types.
type jsonObject struct {
	buf   []byte
	start int // offset of this object's '{' in buf
	err   error
}

func newObject() *jsonObject {
	// One allocation that fits most records (a text delta, a usage
	// object) saves the repeated growth of a small buffer.
	return newObjectAt(make([]byte, 0, 512))
}

// newObjectAt starts an object at the end of dst, so that a nested value
// that implements jsonAppender writes straight into its parent's buffer.
func newObjectAt(dst []byte) *jsonObject {
	if dst == nil {
		dst = make([]byte, 0, 256)
	}
	o := &jsonObject{buf: append(dst, '{'), start: len(dst)}
	return o
}

// set writes key: value, whatever the value.
func (o *jsonObject) set(key string, v any) *jsonObject {
	if o.err != nil {
		return o
	}
	b := o.buf
	if len(b) > o.start+1 {
		b = append(b, ',')
	}
	b = appendString(b, key)
	b = append(b, ':')
	if raw, isRaw := v.(json.RawMessage); isRaw && len(raw) == 0 {
		b = append(b, "null"...)
	} else if nb, ok, err := appendValue(b, v); ok {
		if err != nil {
			o.err = err
			return o
		}
		b = nb
	} else {
		vb, err := MarshalJSON(v)
		if err != nil {
			o.err = err
			return o
		}
		b = append(b, vb...)
	}
	o.buf = b
	return o
}

// opt writes key: value unless the value is the zero value of its kind
// (empty string, nil, empty raw message, false pointer).
func (o *jsonObject) opt(key string, v any) *jsonObject {
	switch x := v.(type) {
	case string:
		if x == "" {
			return o
		}
	case json.RawMessage:
		if len(x) == 0 {
			return o
		}
	case *int:
		if x == nil {
			return o
		}
	case *int64:
		if x == nil {
			return o
		}
	case *bool:
		if x == nil {
			return o
		}
	case *string:
		if x == nil {
			return o
		}
	case *float64:
		if x == nil {
			return o
		}
	case nil:
		return o
	}
	return o.set(key, v)
}

func (o *jsonObject) bytes() ([]byte, error) {
	if o.err != nil {
		return nil, o.err
	}
	return append(o.buf, '}'), nil
}

// withType returns the JSON object b with "type":t inserted as its first key.
// b must be a JSON object.
func withType(t string, b []byte) []byte {
	out := make([]byte, 0, len(b)+len(t)+12)
	out = append(out, `{"type":`...)
	out = appendString(out, t)
	if len(b) > 2 {
		out = append(out, ',')
		out = append(out, b[1:]...)
	} else {
		out = append(out, '}')
	}
	return out
}
