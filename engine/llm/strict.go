package llm

import (
	"encoding/json"
	"errors"
	"fmt"

	"github.com/pi-go/pi/engine"
	"github.com/pi-go/pi/internal/jsonx"
)

// defaultSampling is the constrained sampling of a tool that does not
// bring its own (the built-in tools): strict JSON-schema sampling when the
// model offers it.
var defaultSampling = json.RawMessage(`{"type":"json_schema","strict":"prefer"}`)

// errNotStrict marks a schema strict mode cannot express.
type errNotStrict struct{ msg string }

func (e errNotStrict) Error() string { return e.msg }

func notStrict(format string, a ...any) error { return errNotStrict{fmt.Sprintf(format, a...)} }

// strictUnsupported are the keywords strict mode rejects anywhere.
var strictUnsupported = []string{"$ref", "$defs", "definitions", "allOf", "oneOf", "patternProperties",
	"dependentSchemas", "dependencies", "unevaluatedProperties", "propertyNames", "contains", "prefixItems", "not",
	"if", "then", "else"}

// StrictToolParameters decides a tool's strict sampling as the reference
// does (its resolveJsonSchemaStrictSampling with makeStrictJsonSchema),
// for every adapter that sends strict tool schemas: it returns the strict
// schema when the tool asks for JSON-schema sampling and the model
// supports it and the schema can be made strict, nil when the tool goes
// without, and an error, worded as the reference's, when the tool requires
// strict sampling it cannot get.
func StrictToolParameters(t engine.ToolInfo, params json.RawMessage, supportsStrict bool) (json.RawMessage, error) {
	cfg := t.ConstrainedSampling
	if !t.OwnSampling && len(cfg) == 0 {
		cfg = defaultSampling
	}
	var c struct {
		Type   string `json:"type"`
		Strict any    `json:"strict"`
	}
	if len(cfg) == 0 || json.Unmarshal(cfg, &c) != nil || c.Type != "json_schema" {
		return nil, nil
	}
	require := c.Strict == "require"
	if !supportsStrict {
		if require {
			return nil, errors.New(`Tool "` + t.Name + `" requires JSON-schema constrained sampling, but strict tools are unsupported.`)
		}
		return nil, nil
	}
	s, err := MakeStrictSchema(params)
	if err == nil {
		return s, nil
	}
	var ns errNotStrict
	if require && errors.As(err, &ns) {
		return nil, errors.New(`Tool "` + t.Name + `" requires JSON-schema constrained sampling, but ` + err.Error() + ".")
	}
	return nil, nil
}

// MakeStrictSchema rewrites a schema to the strict subset: every object
// lists all its properties as required (optional ones become nullable
// through anyOf) and allows no others. Key order is kept; new keys go
// last.
func MakeStrictSchema(raw json.RawMessage) (json.RawMessage, error) {
	tree, err := DecodeOrdered(raw)
	if err != nil {
		return nil, err
	}
	obj, ok := tree.(Object)
	if !ok {
		return nil, notStrict("root schema must have type object")
	}
	if obj, err = strictNode(obj); err != nil {
		return nil, err
	}
	if t, _ := obj.Get("type"); t != "object" {
		return nil, notStrict("root schema must have type object")
	}
	return obj.MarshalJSON()
}

func strictNode(obj Object) (Object, error) {
	for _, k := range strictUnsupported {
		if _, ok := obj.Get(k); ok {
			return nil, notStrict("%s schemas are unsupported", k)
		}
	}
	typ, hasType := obj.Get("type")
	anyOf, hasAnyOf := obj.Get("anyOf")
	if _, hasEnum := obj.Get("enum"); !hasType && !hasAnyOf && !hasEnum {
		return nil, notStrict("schemas without a type are unsupported")
	}
	if hasAnyOf {
		arr, ok := anyOf.([]any)
		if !ok || len(arr) == 0 {
			return nil, notStrict("anyOf must contain at least one schema")
		}
		for i, v := range arr {
			if structured(v) {
				return nil, notStrict("object and array unions are unsupported")
			}
			vo, ok := v.(Object)
			if !ok {
				return nil, notStrict("boolean schemas are unsupported")
			}
			s, err := strictNode(vo)
			if err != nil {
				return nil, err
			}
			arr[i] = s
		}
	}
	if items, ok := obj.Get("items"); ok {
		if _, tuple := items.([]any); tuple {
			return nil, notStrict("tuple schemas are unsupported")
		}
		io, ok := items.(Object)
		if !ok {
			return nil, notStrict("boolean schemas are unsupported")
		}
		s, err := strictNode(io)
		if err != nil {
			return nil, err
		}
		obj = obj.Put("items", s)
	}
	isObject := typ == "object"
	props, hasProps := obj.Get("properties")
	if hasProps && !isObject {
		return nil, notStrict("properties require type object")
	}
	if !isObject {
		return obj, nil
	}
	if ap, ok := obj.Get("additionalProperties"); ok && ap != false {
		return nil, notStrict("schema-valued or true additionalProperties is unsupported")
	}
	var pobj Object
	if hasProps {
		var ok bool
		if pobj, ok = props.(Object); !ok {
			return nil, notStrict("object properties must be a schema map")
		}
	}
	required := map[string]bool{}
	if r, ok := obj.Get("required"); ok {
		arr, ok := r.([]any)
		if !ok {
			return nil, notStrict("object required must be a string array")
		}
		for _, k := range arr {
			s, ok := k.(string)
			if !ok {
				return nil, notStrict("object required must be a string array")
			}
			required[s] = true
		}
	}
	names := make([]any, 0, len(pobj))
	known := map[string]bool{}
	for _, f := range pobj {
		names = append(names, f.Key)
		known[f.Key] = true
	}
	for k := range required {
		if !known[k] {
			return nil, notStrict("required contains an unknown property")
		}
	}
	for i, f := range pobj {
		po, ok := f.Value.(Object)
		if !ok {
			return nil, notStrict("boolean schemas are unsupported")
		}
		s, err := strictNode(po)
		if err != nil {
			return nil, err
		}
		pobj[i].Value = s
		if !required[f.Key] && !allowsNull(s) {
			pobj[i].Value = Object{}.Set("anyOf", []any{s, Object{}.Set("type", "null")})
		}
	}
	if hasProps {
		obj = obj.Put("properties", pobj)
	}
	obj = obj.Put("required", names)
	return obj.Put("additionalProperties", false), nil
}

func structured(v any) bool {
	o, ok := v.(Object)
	if !ok {
		return false
	}
	if typeHas(o, "object") || typeHas(o, "array") {
		return true
	}
	_, p := o.Get("properties")
	_, i := o.Get("items")
	return p || i
}

func typeHas(o Object, name string) bool {
	t, _ := o.Get("type")
	if arr, ok := t.([]any); ok {
		for _, e := range arr {
			if e == name {
				return true
			}
		}
		return false
	}
	return t == name
}

func allowsNull(v any) bool {
	o, ok := v.(Object)
	if !ok {
		return false
	}
	if typeHas(o, "null") {
		return true
	}
	if c, ok := o.Get("const"); ok && c == nil {
		return true
	}
	if e, ok := o.Get("enum"); ok {
		if arr, ok := e.([]any); ok {
			for _, x := range arr {
				if x == nil {
					return true
				}
			}
		}
	}
	if a, ok := o.Get("anyOf"); ok {
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

// DecodeOrdered decodes one JSON value keeping object key order
// (jsonx.Decode): objects become Object (a repeated key keeps its first
// place and last value, as JSON.parse does), arrays []any, numbers
// json.Number so that they print as they came, other scalars string, bool
// or nil. Anything after the value is an error.
func DecodeOrdered(raw []byte) (any, error) { return jsonx.Decode(raw) }
