package engine

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"math/big"
	"strconv"
	"strings"

	"github.com/pi-go/pi/internal/jsonx"
)

// jv is a JSON value that keeps object key order, so coerced tool
// arguments reach tools, events and the session file in the order the
// model wrote them. Schemas are read into the same type, because keyword
// order matters too: errors list properties in the schema's order.
//
// Values are never modified once built; coercion copies the objects and
// arrays along the paths it changes, so pointer identity tells whether a
// pass changed anything.
type jv struct {
	kind string // object, array, string, number, bool, null
	keys []string
	vals []*jv
	arr  []*jv
	str  string
	num  float64
	raw  string // number text as written, kept when unchanged
	b    bool
}

func parseJV(b []byte) (*jv, error) {
	t, err := jsonx.Decode(b)
	if errors.Is(err, jsonx.ErrTrailingData) {
		return nil, fmt.Errorf("unexpected data after JSON value")
	}
	if err != nil {
		return nil, err
	}
	return toJV(t), nil
}

// toJV converts a jsonx.Decode tree, whose objects already keep their key
// order and the last value of a repeated key (the one ordered-JSON
// reader, internal/jsonx).
func toJV(t any) *jv {
	switch x := t.(type) {
	case jsonx.Object:
		v := &jv{kind: "object"}
		for _, f := range x {
			v.put(f.Key, toJV(f.Value))
		}
		return v
	case []any:
		v := &jv{kind: "array", arr: make([]*jv, 0, len(x))}
		for _, e := range x {
			v.arr = append(v.arr, toJV(e))
		}
		return v
	case string:
		return &jv{kind: "string", str: x}
	case json.Number:
		f, _ := x.Float64()
		return &jv{kind: "number", num: f, raw: x.String()}
	case bool:
		return &jv{kind: "bool", b: x}
	default:
		return jvNull
	}
}

var jvNull = &jv{kind: "null"}

func jvNum(f float64) *jv  { return &jv{kind: "number", num: f} }
func jvStr(s string) *jv   { return &jv{kind: "string", str: s} }
func jvBool(b bool) *jv    { return &jv{kind: "bool", b: b} }
func (v *jv) isObj() bool  { return v != nil && v.kind == "object" }
func (v *jv) isArr() bool  { return v != nil && v.kind == "array" }
func (v *jv) isNull() bool { return v != nil && v.kind == "null" }

// put replaces or appends a key in place, keeping the position of an
// existing key (JavaScript objects behave the same way). Only a value
// being built may be changed this way.
func (v *jv) put(k string, child *jv) {
	for i, key := range v.keys {
		if key == k {
			v.vals[i] = child
			return
		}
	}
	v.keys = append(v.keys, k)
	v.vals = append(v.vals, child)
}

func (v *jv) get(k string) *jv {
	if v == nil || v.kind != "object" {
		return nil
	}
	for i, key := range v.keys {
		if key == k {
			return v.vals[i]
		}
	}
	return nil
}

// shallow copies an object or array one level deep, for copy-on-write.
func (v *jv) shallow() *jv {
	c := *v
	c.keys = append([]string(nil), v.keys...)
	c.vals = append([]*jv(nil), v.vals...)
	if v.arr != nil {
		c.arr = append([]*jv(nil), v.arr...)
	}
	return &c
}

// without returns a copy of object v lacking key k.
func (v *jv) without(k string) *jv {
	c := &jv{kind: "object"}
	for i, key := range v.keys {
		if key != k {
			c.keys = append(c.keys, key)
			c.vals = append(c.vals, v.vals[i])
		}
	}
	return c
}

// sameValue is JavaScript's Object.is for our values: primitives compare
// by value, objects and arrays by identity.
func sameValue(a, b *jv) bool {
	if a == b {
		return true
	}
	if a == nil || b == nil || a.kind != b.kind {
		return false
	}
	switch a.kind {
	case "string":
		return a.str == b.str
	case "number":
		return a.num == b.num
	case "bool":
		return a.b == b.b
	case "null":
		return true
	}
	return false
}

// jsonEqual is JSON equality as const, enum and uniqueItems compare: object
// key order does not matter, 1 and 1.0 are equal.
func jsonEqual(a, b *jv) bool {
	if a.kind != b.kind {
		return false
	}
	switch a.kind {
	case "object":
		if len(a.keys) != len(b.keys) {
			return false
		}
		for i, k := range a.keys {
			o := b.get(k)
			if o == nil || !jsonEqual(a.vals[i], o) {
				return false
			}
		}
		return true
	case "array":
		if len(a.arr) != len(b.arr) {
			return false
		}
		for i := range a.arr {
			if !jsonEqual(a.arr[i], b.arr[i]) {
				return false
			}
		}
		return true
	}
	return sameValue(a, b)
}

func (v *jv) marshal(buf *bytes.Buffer) {
	switch v.kind {
	case "object":
		buf.WriteByte('{')
		for i, k := range v.keys {
			if i > 0 {
				buf.WriteByte(',')
			}
			kb, _ := MarshalJSON(k)
			buf.Write(kb)
			buf.WriteByte(':')
			v.vals[i].marshal(buf)
		}
		buf.WriteByte('}')
	case "array":
		buf.WriteByte('[')
		for i, c := range v.arr {
			if i > 0 {
				buf.WriteByte(',')
			}
			c.marshal(buf)
		}
		buf.WriteByte(']')
	case "string":
		sb, _ := MarshalJSON(v.str)
		buf.Write(sb)
	case "number":
		if v.raw != "" {
			buf.WriteString(v.raw)
		} else {
			buf.WriteString(jsNumber(v.num))
		}
	case "bool":
		buf.WriteString(strconv.FormatBool(v.b))
	default:
		buf.WriteString("null")
	}
}

func (v *jv) bytes() json.RawMessage {
	var buf bytes.Buffer
	v.marshal(&buf)
	return buf.Bytes()
}

// stringify is JSON.stringify(v, null, indent) (indent "" for compact):
// numbers in JavaScript's form (1.0 is 1), empty containers as {} and [].
func (v *jv) stringify(indent string) string {
	var buf bytes.Buffer
	v.pretty(&buf, indent, "")
	return buf.String()
}

func (v *jv) pretty(buf *bytes.Buffer, indent, prefix string) {
	inner := prefix + indent
	open := func(i int) {
		if i > 0 {
			buf.WriteByte(',')
		}
		if indent != "" {
			buf.WriteByte('\n')
			buf.WriteString(inner)
		}
	}
	closeWith := func(c byte) {
		if indent != "" {
			buf.WriteByte('\n')
			buf.WriteString(prefix)
		}
		buf.WriteByte(c)
	}
	switch v.kind {
	case "object":
		if len(v.keys) == 0 {
			buf.WriteString("{}")
			return
		}
		buf.WriteByte('{')
		for i, k := range v.keys {
			open(i)
			kb, _ := MarshalJSON(k)
			buf.Write(kb)
			buf.WriteByte(':')
			if indent != "" {
				buf.WriteByte(' ')
			}
			v.vals[i].pretty(buf, indent, inner)
		}
		closeWith('}')
	case "array":
		if len(v.arr) == 0 {
			buf.WriteString("[]")
			return
		}
		buf.WriteByte('[')
		for i, c := range v.arr {
			open(i)
			c.pretty(buf, indent, inner)
		}
		closeWith(']')
	case "number":
		buf.WriteString(jsNumber(v.num))
	default:
		v.marshal(buf)
	}
}

// jsNumber formats a float the way JavaScript's String(number) does.
func jsNumber(f float64) string {
	if f == 0 {
		return "0"
	}
	a := math.Abs(f)
	if a >= 1e21 || a < 1e-6 {
		s := strconv.FormatFloat(f, 'e', -1, 64)
		// Go writes e-07 and e+21; JavaScript e-7 and e+21.
		mant, exp, _ := strings.Cut(s, "e")
		sign := exp[0]
		exp = strings.TrimLeft(exp[1:], "0")
		return mant + "e" + string(sign) + exp
	}
	return strconv.FormatFloat(f, 'f', -1, 64)
}

// jsTypeName names a value's type as the reference's validator reports it.
func jsTypeName(v *jv) string {
	switch v.kind {
	case "number":
		if v.num == math.Trunc(v.num) {
			return "integer"
		}
		return "number"
	case "bool":
		return "boolean"
	}
	return v.kind
}

// jsWhitespace is what JavaScript's String.prototype.trim and Number()
// strip: the Unicode white space and line terminators.
const jsWhitespace = " \t\n\v\f\r\u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000\ufeff"

// jsToNumber is JavaScript's Number(string): trimmed, "" is 0, decimal
// literals (with exponent, leading "." or trailing "."), Infinity, and
// unsigned 0x/0o/0b integers; anything else is NaN.
func jsToNumber(s string) float64 {
	t := strings.Trim(s, jsWhitespace)
	if t == "" {
		return 0
	}
	if len(t) > 2 && t[0] == '0' {
		base := 0
		switch t[1] {
		case 'x', 'X':
			base = 16
		case 'o', 'O':
			base = 8
		case 'b', 'B':
			base = 2
		}
		if base != 0 {
			n, ok := new(big.Int).SetString(t[2:], base)
			if !ok {
				return math.NaN()
			}
			f, _ := new(big.Float).SetInt(n).Float64()
			return f
		}
	}
	body := strings.TrimLeft(t, "+-")
	if len(t)-len(body) > 1 {
		return math.NaN()
	}
	if body == "Infinity" {
		if t[0] == '-' {
			return math.Inf(-1)
		}
		return math.Inf(1)
	}
	// ParseFloat also takes hex floats, "inf", "nan" and underscores, none
	// of which Number() accepts: only digits, one dot and an exponent pass.
	digits, dot, exp := 0, false, false
	for i := 0; i < len(body); i++ {
		c := body[i]
		switch {
		case c >= '0' && c <= '9':
			digits++
		case c == '.' && !dot && !exp:
			dot = true
		case (c == 'e' || c == 'E') && digits > 0 && !exp:
			exp = true
			if i+1 < len(body) && (body[i+1] == '+' || body[i+1] == '-') {
				i++
			}
			if i+1 >= len(body) {
				return math.NaN()
			}
		default:
			return math.NaN()
		}
	}
	if digits == 0 {
		return math.NaN()
	}
	f, err := strconv.ParseFloat(t, 64)
	if err != nil && !math.IsInf(f, 0) {
		return math.NaN()
	}
	return f
}

func isFinite(f float64) bool { return !math.IsInf(f, 0) && !math.IsNaN(f) }

// codePoints counts a string's Unicode code points, as JSON Schema string
// lengths do.
func codePoints(s string) int {
	return len([]rune(s))
}

// isMultipleOf reports whether v is a multiple of d, exactly for decimals
// (0.0075 is a multiple of 0.0001 although the float quotient is not an
// integer): both are taken at their shortest decimal form.
func isMultipleOf(v, d float64) bool {
	if d == 0 {
		return false
	}
	q := v / d
	if q == math.Trunc(q) && isFinite(q) {
		return true
	}
	rv, ok1 := new(big.Rat).SetString(strconv.FormatFloat(v, 'g', -1, 64))
	rd, ok2 := new(big.Rat).SetString(strconv.FormatFloat(d, 'g', -1, 64))
	if !ok1 || !ok2 {
		return false
	}
	return new(big.Rat).Quo(rv, rd).IsInt()
}
