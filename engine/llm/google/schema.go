package google

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/pi-go/pi/engine/llm"
)

// Tool schemas are rewritten (strict mode, const as enum) but must keep
// their key order, so they are decoded into ordered nodes: llm.Object for
// objects, []any for arrays and json.RawMessage for scalars.

// decodeOrdered parses JSON into ordered nodes.
func decodeOrdered(raw []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	v, err := decodeValue(dec)
	if err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errors.New("trailing data after JSON value")
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
			obj := llm.Object{}
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
				obj = setKey(obj, k, v)
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
		return nil, fmt.Errorf("unexpected delimiter %v", t)
	default:
		b, err := json.Marshal(t)
		return json.RawMessage(b), err
	}
}

// setKey sets k in place when present (a JavaScript object keeps a key's
// position on assignment) and appends it otherwise.
func setKey(o llm.Object, k string, v any) llm.Object {
	for i := range o {
		if o[i].Key == k {
			o[i].Value = v
			return o
		}
	}
	return append(o, llm.Field{Key: k, Value: v})
}

func getKey(o llm.Object, k string) (any, bool) {
	for _, f := range o {
		if f.Key == k {
			return f.Value, true
		}
	}
	return nil, false
}

func deleteKey(o llm.Object, k string) llm.Object {
	out := o[:0]
	for _, f := range o {
		if f.Key != k {
			out = append(out, f)
		}
	}
	return out
}

// scalar returns the Go value of a scalar node (string, json.Number,
// bool or nil) and whether the node is a scalar.
func scalar(v any) (any, bool) {
	raw, ok := v.(json.RawMessage)
	if !ok {
		return nil, false
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var out any
	if dec.Decode(&out) != nil {
		return nil, false
	}
	return out, true
}

func isString(v any) bool {
	s, ok := scalar(v)
	if !ok {
		return false
	}
	_, ok = s.(string)
	return ok
}

func stringValue(v any) string {
	s, _ := scalar(v)
	str, _ := s.(string)
	return str
}

func isNull(v any) bool {
	raw, ok := v.(json.RawMessage)
	return ok && string(raw) == "null"
}

// Keywords whose values map names to subschemas, and keywords holding a
// subschema or a list of them; const is rewritten only where a schema is.
var (
	nameMapKeywords   = map[string]bool{"properties": true, "patternProperties": true, "$defs": true, "definitions": true, "dependentSchemas": true, "dependencies": true}
	subschemaKeywords = map[string]bool{
		"additionalProperties": true, "unevaluatedProperties": true, "propertyNames": true, "items": true,
		"prefixItems": true, "additionalItems": true, "unevaluatedItems": true, "contains": true, "allOf": true,
		"anyOf": true, "oneOf": true, "not": true, "if": true, "then": true, "else": true, "contentSchema": true,
	}
)

// constAsEnum rewrites string and number const values into one-value
// enums, because Gemini ignores const in parametersJsonSchema but honours
// enum. The enum key goes last, as deleting and adding a key does in
// JavaScript.
func constAsEnum(v any, nameMap bool) any {
	switch n := v.(type) {
	case []any:
		out := make([]any, len(n))
		for i, e := range n {
			out[i] = constAsEnum(e, false)
		}
		return out
	case llm.Object:
		out := make(llm.Object, 0, len(n)+1)
		for _, f := range n {
			switch {
			case nameMap || subschemaKeywords[f.Key]:
				f.Value = constAsEnum(f.Value, false)
			case nameMapKeywords[f.Key]:
				f.Value = constAsEnum(f.Value, true)
			}
			out = append(out, f)
		}
		if nameMap {
			return out
		}
		c, hasConst := getKey(out, "const")
		if _, hasEnum := getKey(out, "enum"); !hasConst || hasEnum {
			return out
		}
		s, ok := scalar(c)
		if !ok {
			return out
		}
		switch s.(type) {
		case string, json.Number:
			out = deleteKey(out, "const")
			out = append(out, llm.Field{Key: "enum", Value: []any{c}})
		}
		return out
	}
	return v
}

// errUnsupported marks a schema that strict mode cannot express; a tool
// that only prefers strict sampling then goes without it.
type errUnsupported struct{ msg string }

func (e errUnsupported) Error() string { return e.msg }

func unsupported(format string, a ...any) error { return errUnsupported{fmt.Sprintf(format, a...)} }

// Keywords strict mode rejects anywhere in a schema.
var strictUnsupportedKeys = []string{
	"$ref", "$defs", "definitions", "allOf", "oneOf", "patternProperties", "dependentSchemas",
	"dependencies", "unevaluatedProperties", "propertyNames", "contains", "prefixItems", "not", "if", "then", "else",
}

// makeStrict returns the strict form of a tool schema: every property
// required (optional ones made nullable) and no additional properties.
// The input is not modified.
func makeStrict(schema any) (any, error) {
	clone := cloneNode(schema)
	obj, ok := clone.(llm.Object)
	if !ok {
		return nil, unsupported("root schema must have type object")
	}
	obj, err := strictNode(obj)
	if err != nil {
		return nil, err
	}
	if t, _ := getKey(obj, "type"); stringValue(t) != "object" || !isString(t) {
		return nil, unsupported("root schema must have type object")
	}
	return obj, nil
}

func cloneNode(v any) any {
	switch n := v.(type) {
	case llm.Object:
		out := make(llm.Object, len(n))
		for i, f := range n {
			out[i] = llm.Field{Key: f.Key, Value: cloneNode(f.Value)}
		}
		return out
	case []any:
		out := make([]any, len(n))
		for i, e := range n {
			out[i] = cloneNode(e)
		}
		return out
	}
	return v
}

func isStructured(v any) bool {
	obj, ok := v.(llm.Object)
	if !ok {
		return false
	}
	if hasType(obj, "object") || hasType(obj, "array") {
		return true
	}
	_, p := getKey(obj, "properties")
	_, i := getKey(obj, "items")
	return p || i
}

// hasType reports whether the schema's type is name or a list holding it.
func hasType(obj llm.Object, name string) bool {
	t, ok := getKey(obj, "type")
	if !ok {
		return false
	}
	if arr, ok := t.([]any); ok {
		for _, e := range arr {
			if isString(e) && stringValue(e) == name {
				return true
			}
		}
		return false
	}
	return isString(t) && stringValue(t) == name
}

func allowsNull(v any) bool {
	obj, ok := v.(llm.Object)
	if !ok {
		return false
	}
	if hasType(obj, "null") {
		return true
	}
	if c, ok := getKey(obj, "const"); ok && isNull(c) {
		return true
	}
	if e, ok := getKey(obj, "enum"); ok {
		if arr, ok := e.([]any); ok {
			for _, x := range arr {
				if isNull(x) {
					return true
				}
			}
		}
	}
	if a, ok := getKey(obj, "anyOf"); ok {
		if arr, ok := a.([]any); ok {
			for _, x := range arr {
				if allowsNull(x) {
					return true
				}
			}
		}
	}
	return false
}

func strictNode(obj llm.Object) (llm.Object, error) {
	for _, k := range strictUnsupportedKeys {
		if _, ok := getKey(obj, k); ok {
			return nil, unsupported("%s schemas are unsupported", k)
		}
	}
	_, hasT := getKey(obj, "type")
	anyOf, hasAnyOf := getKey(obj, "anyOf")
	_, hasEnum := getKey(obj, "enum")
	if !hasT && !hasAnyOf && !hasEnum {
		return nil, unsupported("schemas without a type are unsupported")
	}
	if hasAnyOf {
		arr, ok := anyOf.([]any)
		if !ok || len(arr) == 0 {
			return nil, unsupported("anyOf must contain at least one schema")
		}
		for i, variant := range arr {
			if isStructured(variant) {
				return nil, unsupported("object and array unions are unsupported")
			}
			vo, ok := variant.(llm.Object)
			if !ok {
				return nil, unsupported("boolean schemas are unsupported")
			}
			s, err := strictNode(vo)
			if err != nil {
				return nil, err
			}
			arr[i] = s
		}
	}
	if items, ok := getKey(obj, "items"); ok {
		if _, isArr := items.([]any); isArr {
			return nil, unsupported("tuple schemas are unsupported")
		}
		io, ok := items.(llm.Object)
		if !ok {
			return nil, unsupported("boolean schemas are unsupported")
		}
		s, err := strictNode(io)
		if err != nil {
			return nil, err
		}
		obj = setKey(obj, "items", s)
	}
	t, _ := getKey(obj, "type")
	isObject := isString(t) && stringValue(t) == "object"
	props, hasProps := getKey(obj, "properties")
	if hasProps && !isObject {
		return nil, unsupported("properties require type object")
	}
	if !isObject {
		return obj, nil
	}
	if ap, ok := getKey(obj, "additionalProperties"); ok && string(rawOf(ap)) != "false" {
		return nil, unsupported("schema-valued or true additionalProperties is unsupported")
	}
	var propObj llm.Object
	if hasProps {
		po, ok := props.(llm.Object)
		if !ok {
			return nil, unsupported("object properties must be a schema map")
		}
		propObj = po
	}
	required := map[string]bool{}
	if r, ok := getKey(obj, "required"); ok {
		arr, ok := r.([]any)
		if !ok {
			return nil, unsupported("object required must be a string array")
		}
		for _, e := range arr {
			if !isString(e) {
				return nil, unsupported("object required must be a string array")
			}
			required[stringValue(e)] = true
		}
	}
	for name := range required {
		if _, ok := getKey(propObj, name); !ok {
			return nil, unsupported("required contains an unknown property")
		}
	}
	names := make([]any, 0, len(propObj))
	for i, f := range propObj {
		po, ok := f.Value.(llm.Object)
		if !ok {
			return nil, unsupported("boolean schemas are unsupported")
		}
		s, err := strictNode(po)
		if err != nil {
			return nil, err
		}
		var v any = s
		if !required[f.Key] && !allowsNull(s) {
			v = llm.Object{{Key: "anyOf", Value: []any{s, llm.Object{{Key: "type", Value: json.RawMessage(`"null"`)}}}}}
		}
		propObj[i].Value = v
		names = append(names, json.RawMessage(mustJSON(f.Key)))
	}
	if hasProps {
		obj = setKey(obj, "properties", propObj)
	}
	obj = setKey(obj, "required", names)
	obj = setKey(obj, "additionalProperties", json.RawMessage("false"))
	return obj, nil
}

func rawOf(v any) json.RawMessage {
	if raw, ok := v.(json.RawMessage); ok {
		return raw
	}
	return nil
}

func mustJSON(s string) []byte {
	b, _ := json.Marshal(s)
	return b
}
