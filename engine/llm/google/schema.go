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
