package engine

import (
	"encoding/json"
	"strings"
	"testing"
)

// benchEditSchema has the shape of the built-in edit tool's parameters.
const benchEditSchema = `{"type":"object","required":["path","edits"],"properties":{"path":{"type":"string","description":"File"},"edits":{"type":"array","items":{"type":"object","required":["oldText","newText"],"properties":{"oldText":{"type":"string"},"newText":{"type":"string"}}}}}}`

// benchTreeSchema is a recursive JSON-value schema (a union through
// $ref), the worst shape for a walk that checks unions branch by branch.
const benchTreeSchema = `{"$defs":{"v":{"anyOf":[{"type":"string"},{"type":"number"},{"type":"boolean"},{"type":"null"},{"type":"array","items":{"$ref":"#/$defs/v"}},{"type":"object","additionalProperties":{"$ref":"#/$defs/v"}}]}},"type":"object","properties":{"data":{"$ref":"#/$defs/v"}},"required":["data"]}`

func BenchmarkValidateToolArgs(b *testing.B) {
	deep := strings.Repeat(`{"k":[1,"x",`, 20) + `null` + strings.Repeat(`]}`, 20)
	cases := []struct{ name, schema, args string }{
		{"edit", benchEditSchema, `{"path":"a.go","edits":[{"oldText":"foo","newText":"bar"},{"oldText":"x","newText":"y"}]}`},
		{"edit coerced", benchEditSchema, `{"path":"a.go","edits":{"oldText":"foo","newText":"bar"}}`},
		{"edit invalid", benchEditSchema, `{"path":"a.go","edits":[{"oldText":"foo"}]}`},
		{"tree depth 20", benchTreeSchema, `{"data":` + deep + `}`},
	}
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				_, _ = ValidateToolArgs("t", json.RawMessage(c.schema), json.RawMessage(c.args))
			}
		})
	}
}
