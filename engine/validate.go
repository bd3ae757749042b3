package engine

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"

	"github.com/pi-go/pi/internal/jsonx"
)

// jv is a JSON value that keeps object key order, so coerced tool
// arguments reach tools, events and the session file in the order the
// model wrote them.
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
// order and the last value of a repeated key.
func toJV(t any) *jv {
	switch x := t.(type) {
	case jsonx.Object:
		v := &jv{kind: "object"}
		for _, f := range x {
			v.keys = append(v.keys, f.Key)
			v.vals = append(v.vals, toJV(f.Value))
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
		return &jv{kind: "null"}
	}
}

// set replaces or appends a key, keeping the position of an existing key
// (JavaScript objects behave the same way).
func (v *jv) set(k string, child *jv) {
	for i, key := range v.keys {
		if key == k {
			v.vals[i] = child
			return
		}
	}
	v.keys = append(v.keys, k)
	v.vals = append(v.vals, child)
}

func (v *jv) get(k string) (*jv, bool) {
	for i, key := range v.keys {
		if key == k {
			return v.vals[i], true
		}
	}
	return nil, false
}

func (v *jv) del(k string) {
	for i, key := range v.keys {
		if key == k {
			v.keys = append(v.keys[:i:i], v.keys[i+1:]...)
			v.vals = append(v.vals[:i:i], v.vals[i+1:]...)
			return
		}
	}
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

// jsNumber formats a float the way JavaScript's String(number) does for
// the common cases (integers without a fraction, otherwise shortest form).
func jsNumber(f float64) string {
	if f == math.Trunc(f) && math.Abs(f) < 1e21 {
		return strconv.FormatFloat(f, 'f', -1, 64)
	}
	return strconv.FormatFloat(f, 'g', -1, 64)
}

// jsTypeName names a value's type as the reference's validator reports it.
func jsTypeName(v *jv) string {
	switch v.kind {
	case "null":
		return "null"
	case "array":
		return "array"
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

// schemaNode is the subset of JSON Schema that tool parameters use.
type schemaNode struct {
	Type                 json.RawMessage        `json:"type"`
	Properties           map[string]*schemaNode `json:"properties"`
	Required             []string               `json:"required"`
	Items                *schemaNode            `json:"items"`
	Enum                 []json.RawMessage      `json:"enum"`
	Const                json.RawMessage        `json:"const"`
	AnyOf                []*schemaNode          `json:"anyOf"`
	OneOf                []*schemaNode          `json:"oneOf"`
	AdditionalProperties json.RawMessage        `json:"additionalProperties"`
	MinLength            *int                   `json:"minLength"`
	MaxLength            *int                   `json:"maxLength"`
	Pattern              string                 `json:"pattern"`
	Minimum              *float64               `json:"minimum"`
	Maximum              *float64               `json:"maximum"`
	ExclusiveMinimum     *float64               `json:"exclusiveMinimum"`
	ExclusiveMaximum     *float64               `json:"exclusiveMaximum"`
	MinItems             *int                   `json:"minItems"`
	MaxItems             *int                   `json:"maxItems"`
}

func (s *schemaNode) types() []string {
	if s == nil || len(s.Type) == 0 {
		return nil
	}
	var one string
	if json.Unmarshal(s.Type, &one) == nil {
		return []string{one}
	}
	var many []string
	_ = json.Unmarshal(s.Type, &many)
	return many
}

func (s *schemaNode) hasType(t string) bool {
	for _, x := range s.types() {
		if x == t {
			return true
		}
	}
	return false
}

// ValidateToolArgs coerces and validates a tool call's arguments against
// the tool's JSON Schema, the way the reference does before executing a
// call: a null for an optional property is dropped, strings become
// numbers or booleans where the schema asks for them (and scalars become
// strings), and a single value becomes a one-element array. It returns
// the coerced arguments, or an error whose text is the one the model sees.
func ValidateToolArgs(toolName string, schema, args json.RawMessage) (json.RawMessage, error) {
	if len(bytes.TrimSpace(args)) == 0 {
		args = json.RawMessage("{}")
	}
	v, err := parseJV(args)
	if err != nil {
		return nil, fmt.Errorf("Invalid arguments for tool %q: %s\n\nReceived arguments:\n%s", toolName, err.Error(), string(args))
	}
	if len(bytes.TrimSpace(schema)) == 0 {
		return args, nil
	}
	var root schemaNode
	if err := json.Unmarshal(schema, &root); err != nil {
		return args, nil //nolint:nilerr // an unreadable schema accepts anything, like an empty one
	}
	original, _ := parseJV(args)
	v = dropOptionalNulls(v, &root)
	v = coerceJV(v, &root)
	var errs []string
	checkJV(v, &root, "", &errs)
	if len(errs) == 0 {
		return v.bytes(), nil
	}
	pretty, _ := json.MarshalIndent(json.RawMessage(original.bytes()), "", "  ")
	pretty = unescapeHTMLish(pretty)
	return nil, fmt.Errorf("Validation failed for tool %q:\n%s\n\nReceived arguments:\n%s", toolName, strings.Join(errs, "\n"), string(pretty))
}

// unescapeHTMLish undoes json.MarshalIndent's HTML escaping, which
// JSON.stringify does not do.
func unescapeHTMLish(b []byte) []byte {
	b = bytes.ReplaceAll(b, []byte(`\u003c`), []byte("<"))
	b = bytes.ReplaceAll(b, []byte(`\u003e`), []byte(">"))
	return bytes.ReplaceAll(b, []byte(`\u0026`), []byte("&"))
}

func dropOptionalNulls(v *jv, s *schemaNode) *jv {
	if s == nil {
		return v
	}
	switch v.kind {
	case "array":
		if s.Items != nil {
			for i, c := range v.arr {
				v.arr[i] = dropOptionalNulls(c, s.Items)
			}
		}
	case "object":
		req := map[string]bool{}
		for _, r := range s.Required {
			req[r] = true
		}
		for k, ps := range s.Properties {
			c, ok := v.get(k)
			if !ok {
				continue
			}
			if c.kind == "null" && !req[k] && !ps.hasType("null") {
				v.del(k)
				continue
			}
			v.set(k, dropOptionalNulls(c, ps))
		}
	}
	return v
}

func coerceJV(v *jv, s *schemaNode) *jv {
	if s == nil {
		return v
	}
	if len(s.AnyOf) > 0 || len(s.OneOf) > 0 {
		alts := s.AnyOf
		if len(alts) == 0 {
			alts = s.OneOf
		}
		for _, a := range alts {
			var errs []string
			checkJV(v, a, "", &errs)
			if len(errs) == 0 {
				return v
			}
		}
		for _, a := range alts {
			c := coerceJV(cloneJV(v), a)
			var errs []string
			checkJV(c, a, "", &errs)
			if len(errs) == 0 {
				return c
			}
		}
		return v
	}
	types := s.types()
	if len(types) != 1 {
		return v
	}
	switch types[0] {
	case "string":
		switch v.kind {
		case "number":
			return &jv{kind: "string", str: jsNumber(v.num)}
		case "bool":
			return &jv{kind: "string", str: strconv.FormatBool(v.b)}
		case "null":
			return &jv{kind: "string", str: "null"}
		}
	case "number", "integer":
		var f float64
		ok := true
		switch v.kind {
		case "number":
			f = v.num
			if types[0] == "number" {
				return v
			}
		case "bool":
			if v.b {
				f = 1
			}
		case "null":
		case "string":
			t := strings.TrimSpace(v.str)
			p, err := strconv.ParseFloat(t, 64)
			switch {
			case t == "" && v.str == "":
				f = 0
			case err == nil && !math.IsInf(p, 0) && !math.IsNaN(p):
				f = p
			case strings.EqualFold(v.str, "true"):
				f = 1
			case strings.EqualFold(v.str, "false"):
				f = 0
			default:
				ok = false
			}
		default:
			ok = false
		}
		if !ok {
			return v
		}
		if types[0] == "integer" {
			f = math.Trunc(f)
		}
		return &jv{kind: "number", num: f}
	case "boolean":
		switch v.kind {
		case "number":
			if v.num == 0 || v.num == 1 {
				return &jv{kind: "bool", b: v.num == 1}
			}
		case "null":
			return &jv{kind: "bool"}
		case "string":
			switch {
			case strings.EqualFold(v.str, "false") || v.str == "0":
				return &jv{kind: "bool"}
			case strings.EqualFold(v.str, "true") || v.str == "1":
				return &jv{kind: "bool", b: true}
			}
		}
	case "array":
		if v.kind != "array" {
			v = &jv{kind: "array", arr: []*jv{v}}
		}
		if s.Items != nil {
			for i, c := range v.arr {
				v.arr[i] = coerceJV(c, s.Items)
			}
		}
	case "object":
		if v.kind == "object" {
			for i, k := range v.keys {
				if ps, ok := s.Properties[k]; ok {
					v.vals[i] = coerceJV(v.vals[i], ps)
				}
			}
		}
	}
	return v
}

func cloneJV(v *jv) *jv {
	c := *v
	c.keys = append([]string(nil), v.keys...)
	c.vals = make([]*jv, len(v.vals))
	for i, x := range v.vals {
		c.vals[i] = cloneJV(x)
	}
	if v.arr != nil {
		c.arr = make([]*jv, len(v.arr))
		for i, x := range v.arr {
			c.arr[i] = cloneJV(x)
		}
	}
	return &c
}

func typeMatches(t string, v *jv) bool {
	switch t {
	case "object", "array", "string", "null":
		return v.kind == t
	case "boolean":
		return v.kind == "bool"
	case "number":
		return v.kind == "number"
	case "integer":
		return v.kind == "number" && v.num == math.Trunc(v.num)
	}
	return true
}

// joinPath renders a location as the dotted path the model sees.
func joinPath(base, key string) string {
	if base == "" {
		return key
	}
	return base + "." + key
}

func checkJV(v *jv, s *schemaNode, path string, errs *[]string) {
	if s == nil {
		return
	}
	push := func(at, msg string) {
		if at == "" {
			at = "root"
		}
		*errs = append(*errs, "  - "+at+": "+msg)
	}
	if types := s.types(); len(types) > 0 {
		ok := false
		for _, t := range types {
			if typeMatches(t, v) {
				ok = true
			}
		}
		if !ok {
			push(path, fmt.Sprintf("expected %s, got %s", strings.Join(types, " or "), jsTypeName(v)))
			return
		}
	}
	if len(s.Enum) > 0 {
		cur := string(v.bytes())
		found := false
		vals := make([]string, 0, len(s.Enum))
		for _, e := range s.Enum {
			var x any
			_ = json.Unmarshal(e, &x)
			eb, _ := MarshalJSON(x)
			vals = append(vals, string(eb))
			if string(eb) == cur {
				found = true
			}
		}
		if !found {
			push(path, "expected one of "+strings.Join(vals, ", "))
		}
	}
	if len(s.Const) > 0 {
		var x any
		_ = json.Unmarshal(s.Const, &x)
		cb, _ := MarshalJSON(x)
		if string(cb) != string(v.bytes()) {
			push(path, "expected "+string(cb))
		}
	}
	switch v.kind {
	case "string":
		n := len([]rune(v.str))
		if s.MinLength != nil && n < *s.MinLength {
			push(path, fmt.Sprintf("expected at least %d characters", *s.MinLength))
		}
		if s.MaxLength != nil && n > *s.MaxLength {
			push(path, fmt.Sprintf("expected at most %d characters", *s.MaxLength))
		}
		if s.Pattern != "" {
			if re, err := regexp.Compile(s.Pattern); err == nil && !re.MatchString(v.str) {
				push(path, "expected to match "+s.Pattern)
			}
		}
	case "number":
		if s.Minimum != nil && v.num < *s.Minimum {
			push(path, "expected >= "+jsNumber(*s.Minimum))
		}
		if s.Maximum != nil && v.num > *s.Maximum {
			push(path, "expected <= "+jsNumber(*s.Maximum))
		}
		if s.ExclusiveMinimum != nil && v.num <= *s.ExclusiveMinimum {
			push(path, "expected > "+jsNumber(*s.ExclusiveMinimum))
		}
		if s.ExclusiveMaximum != nil && v.num >= *s.ExclusiveMaximum {
			push(path, "expected < "+jsNumber(*s.ExclusiveMaximum))
		}
	case "array":
		if s.MinItems != nil && len(v.arr) < *s.MinItems {
			push(path, fmt.Sprintf("expected at least %d items", *s.MinItems))
		}
		if s.MaxItems != nil && len(v.arr) > *s.MaxItems {
			push(path, fmt.Sprintf("expected at most %d items", *s.MaxItems))
		}
		for i, c := range v.arr {
			checkJV(c, s.Items, joinPath(path, strconv.Itoa(i)), errs)
		}
	case "object":
		for _, r := range s.Required {
			if _, ok := v.get(r); !ok {
				push(joinPath(path, r), "missing")
			}
		}
		for _, k := range v.keys {
			c, _ := v.get(k)
			if ps, ok := s.Properties[k]; ok {
				checkJV(c, ps, joinPath(path, k), errs)
				continue
			}
			if string(s.AdditionalProperties) == "false" {
				push(joinPath(path, k), "unknown field")
			}
		}
	}
	if len(s.AnyOf) > 0 || len(s.OneOf) > 0 {
		alts := s.AnyOf
		if len(alts) == 0 {
			alts = s.OneOf
		}
		for _, a := range alts {
			var e []string
			checkJV(v, a, path, &e)
			if len(e) == 0 {
				return
			}
		}
		push(path, "matches no alternative")
	}
}
