package google

import (
	"encoding/json"

	"github.com/pi-go/pi/engine/llm"
)

// Tool schemas are rewritten (strict mode, const as enum) but must keep
// their key order, so they are decoded into ordered nodes with
// llm.DecodeOrdered: llm.Object for objects, []any for arrays, and
// string, json.Number, bool or nil for scalars.
var decodeOrdered = llm.DecodeOrdered

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
		switch c.(type) {
		case string, json.Number:
			out = deleteKey(out, "const")
			out = append(out, llm.Field{Key: "enum", Value: []any{c}})
		}
		return out
	}
	return v
}
