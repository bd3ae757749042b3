package jsruntime

import (
	"reflect"
	"strings"

	"github.com/dop251/goja/ast"
	"github.com/dop251/goja/parser"
)

// rewriteBundle is the compile step's pass over esbuild's output: it
// expands property escapes in class-bearing regex literals (see
// lowerClassPropertyEscapes) and starts every catch clause that binds a
// name with a call that rewrites goja's error wording to V8's (see
// errors_v8.go), so an extension's catch sees the message Node gives.
// Edits stay on their line, so the inline source map keeps its lines.
// Code that goja cannot parse is returned as it is.
func rewriteBundle(code string) string {
	if !strings.Contains(code, "catch") && !hasBarePropertyEscape(code) {
		return code
	}
	prog, err := parser.ParseFile(nil, "", code, 0, parser.WithDisableSourceMaps)
	if err != nil {
		return code
	}
	var n bundleNodes
	n.collect(reflect.ValueOf(prog))
	edits := regExpEdits(code, n.regexps)
	for _, c := range n.catches {
		id, ok := c.Parameter.(*ast.Identifier)
		if !ok || c.Body == nil {
			continue
		}
		at := int(c.Body.LeftBrace) // just after the brace (Idx counts from 1)
		if at < 1 || at > len(code) || code[at-1] != '{' {
			continue
		}
		edits = append(edits, edit{at, at, v8ErrorGlobal + "(" + string(id.Name) + ");"})
	}
	return applyEdits(code, edits)
}
