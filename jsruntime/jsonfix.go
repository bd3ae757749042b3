package jsruntime

import (
	"bytes"
	"encoding/json"
	"math"
	"strings"

	"github.com/dop251/goja"
)

// patchJSONStringify replaces JSON.stringify with a wrapper that indents in
// Go. goja's own indenting loses a level after an empty array: in
// JSON.stringify({e: [], k: {a: 1}}, null, 2) every later line is indented
// one step too far. Extensions write settings and state files this way, so
// the wrapper lets goja produce the compact text (replacer, toJSON and
// escaping stay goja's, which are right) and indents that as Node does:
// "key": value, empty arrays and objects kept as [] and {}.
func patchJSONStringify(vm *goja.Runtime) error {
	jsonObj := vm.GlobalObject().Get("JSON").ToObject(vm)
	orig, ok := goja.AssertFunction(jsonObj.Get("stringify"))
	if !ok {
		return nil
	}
	fn := vm.ToValue(func(call goja.FunctionCall) goja.Value {
		indent := jsonIndent(call.Argument(2))
		if indent == "" {
			res, err := orig(goja.Undefined(), call.Arguments...)
			if err != nil {
				panic(err)
			}
			return res
		}
		res, err := orig(goja.Undefined(), call.Argument(0), call.Argument(1))
		if err != nil {
			panic(err)
		}
		if goja.IsUndefined(res) {
			return res
		}
		var buf bytes.Buffer
		if err := json.Indent(&buf, []byte(res.String()), "", indent); err != nil {
			return res // cannot happen for goja's output; keep it rather than fail
		}
		return vm.ToValue(buf.String())
	}).ToObject(vm)
	// Node's JSON.stringify has length 3 and is not enumerable on JSON.
	_ = fn.DefineDataProperty("length", vm.ToValue(3), goja.FLAG_FALSE, goja.FLAG_TRUE, goja.FLAG_FALSE)
	_ = fn.DefineDataProperty("name", vm.ToValue("stringify"), goja.FLAG_FALSE, goja.FLAG_TRUE, goja.FLAG_FALSE)
	return jsonObj.DefineDataProperty("stringify", fn, goja.FLAG_TRUE, goja.FLAG_TRUE, goja.FLAG_FALSE)
}

// jsonIndent is the gap string JSON.stringify's space argument asks for
// (ECMA-262 SerializeJSONProperty's gap): a number gives that many spaces
// up to 10, a string its first 10 characters, anything else none.
func jsonIndent(space goja.Value) string {
	if space == nil || goja.IsUndefined(space) || goja.IsNull(space) {
		return ""
	}
	switch v := space.Export().(type) {
	case int64:
		return strings.Repeat(" ", int(min(max(v, 0), 10)))
	case float64:
		if math.IsNaN(v) || v < 1 {
			return ""
		}
		return strings.Repeat(" ", int(math.Min(math.Floor(v), 10)))
	case string:
		if r := []rune(v); len(r) > 10 {
			return string(r[:10])
		}
		return v
	}
	// Number and String wrapper objects count as their primitive.
	if o, ok := space.(*goja.Object); ok {
		switch o.ClassName() {
		case "Number":
			return jsonIndent(goja.Value(space.ToNumber()))
		case "String":
			return jsonIndent(space.ToString())
		}
	}
	return ""
}
