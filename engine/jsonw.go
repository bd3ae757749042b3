package engine

import (
	"bytes"
	"encoding/json"
)

// MarshalJSON encodes v the way JavaScript's JSON.stringify would: no HTML
// escaping of <, > and &, and U+2028/U+2029 written as raw UTF-8. Go's
// encoder escapes those two unconditionally; clients that compare bytes
// with the reference would see a difference, so they are un-escaped here.
func MarshalJSON(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	b := buf.Bytes()
	b = b[:len(b)-1] // Encode appends a newline.
	return unescapeLineSeparators(b), nil
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
	buf bytes.Buffer
	err error
}

func newObject() *jsonObject {
	o := &jsonObject{}
	o.buf.WriteByte('{')
	return o
}

// set writes key: value, whatever the value.
func (o *jsonObject) set(key string, v any) *jsonObject {
	if o.err != nil {
		return o
	}
	if o.buf.Len() > 1 {
		o.buf.WriteByte(',')
	}
	k, _ := MarshalJSON(key)
	o.buf.Write(k)
	o.buf.WriteByte(':')
	var b []byte
	switch x := v.(type) {
	case json.RawMessage:
		if len(x) == 0 {
			b = []byte("null")
		} else {
			b = x
		}
	default:
		b, o.err = MarshalJSON(v)
	}
	o.buf.Write(b)
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
	o.buf.WriteByte('}')
	return o.buf.Bytes(), nil
}

// withType returns the JSON object b with "type":t inserted as its first key.
// b must be a JSON object.
func withType(t string, b []byte) []byte {
	out := make([]byte, 0, len(b)+len(t)+12)
	out = append(out, `{"type":`...)
	tb, _ := MarshalJSON(t)
	out = append(out, tb...)
	if len(b) > 2 {
		out = append(out, ',')
		out = append(out, b[1:]...)
	} else {
		out = append(out, '}')
	}
	return out
}
