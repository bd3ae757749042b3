package jsonx

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
)

// errNotObject is what the member readers return for JSON that is valid
// but not an object.
var errNotObject = errors.New("expected a JSON object")

// ErrTrailingData is Decode's error for text after the value.
var ErrTrailingData = errors.New("trailing data after JSON value")

// EachMember calls fn with each member of the JSON object b, in order, the
// value as raw JSON text exactly as written (insignificant space inside it
// included). A repeated key is reported each time. It stops at the first
// error, from the JSON or from fn, and returns it; the members before it
// have been reported. Nothing after the object's closing brace is read.
func EachMember(b []byte, fn func(key string, val json.RawMessage) error) error {
	dec := json.NewDecoder(bytes.NewReader(b))
	tok, err := dec.Token()
	if err != nil {
		return err
	}
	if d, ok := tok.(json.Delim); !ok || d != '{' {
		return errNotObject
	}
	for dec.More() {
		kt, err := dec.Token()
		if err != nil {
			return err
		}
		k, _ := kt.(string)
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return err
		}
		if err := fn(k, v); err != nil {
			return err
		}
	}
	_, err = dec.Token()
	return err
}

// Members reads the members of the JSON object b in order, each value a
// json.RawMessage (see EachMember); a repeated key gives two fields. An
// empty object gives an empty Object that is not nil. On an error it
// returns the members read before it with the error, for callers that
// keep what they could read.
func Members(b []byte) (Object, error) {
	var out Object
	err := EachMember(b, func(k string, v json.RawMessage) error {
		out = append(out, Field{k, v})
		return nil
	})
	if out == nil && err == nil {
		out = Object{}
	}
	return out, err
}

// Split reads the members of the JSON object b in order as parallel
// slices of keys and raw values (see EachMember); both are nil on an
// error.
func Split(b []byte) ([]string, []json.RawMessage, error) {
	var keys []string
	var vals []json.RawMessage
	err := EachMember(b, func(k string, v json.RawMessage) error {
		keys = append(keys, k)
		vals = append(vals, v)
		return nil
	})
	if err != nil {
		return nil, nil, err
	}
	return keys, vals, nil
}

// Decode reads one JSON value keeping object key order, as JSON.parse
// does: objects become Object (a repeated key keeps its first place and
// its last value), arrays []any (never nil), numbers json.Number so that
// they print as written, other scalars string, bool or nil. Anything but
// white space after the value is an error, as it is for JSON.parse.
func Decode(b []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	v, err := decodeValue(dec)
	if err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, ErrTrailingData
	}
	return v, nil
}

func decodeValue(dec *json.Decoder) (any, error) {
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	switch t := tok.(type) {
	case json.Delim:
		switch t {
		case '{':
			obj := Object{}
			for dec.More() {
				kt, err := dec.Token()
				if err != nil {
					return nil, err
				}
				k, _ := kt.(string)
				v, err := decodeValue(dec)
				if err != nil {
					return nil, err
				}
				obj = obj.Put(k, v)
			}
			_, err := dec.Token()
			return obj, err
		case '[':
			arr := []any{}
			for dec.More() {
				v, err := decodeValue(dec)
				if err != nil {
					return nil, err
				}
				arr = append(arr, v)
			}
			_, err := dec.Token()
			return arr, err
		}
	}
	return tok, nil
}

// Hex4 reads the four hex digits of a \u escape at the start of b.
func Hex4(b []byte) (rune, bool) {
	if len(b) < 4 {
		return 0, false
	}
	var r rune
	for _, c := range b[:4] {
		switch {
		case c >= '0' && c <= '9':
			r = r<<4 | rune(c-'0')
		case c >= 'a' && c <= 'f':
			r = r<<4 | rune(c-'a'+10)
		case c >= 'A' && c <= 'F':
			r = r<<4 | rune(c-'A'+10)
		default:
			return 0, false
		}
	}
	return r, true
}
