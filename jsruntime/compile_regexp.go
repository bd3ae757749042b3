package jsruntime

import (
	"reflect"
	"sort"
	"strings"

	"github.com/dop251/goja/ast"
	"github.com/dop251/goja/file"
	"github.com/dop251/goja/parser"
)

// esbuild turns a regex literal that uses a Unicode property escape into a
// RegExp call (which the prelude's wrapper expands), but its scan for the
// escape skips character classes, so /[\P{ASCII}]/u stays a literal and
// goja, which lacks property escapes, compiles it to a class that never
// matches. lowerClassPropertyEscapes expands such literals in the bundle,
// in place and on their own line (a line of the inline source map stays
// the same line), into the code point ranges the wrapper would use.

// lowerClassPropertyEscapes rewrites every u-flag regex literal of code
// whose pattern holds \p{…} or \P{…}. Code that goja cannot parse is
// returned as it is: running it reports the syntax error.
func lowerClassPropertyEscapes(code string) string {
	if !hasBarePropertyEscape(code) {
		return code
	}
	prog, err := parser.ParseFile(nil, "", code, 0, parser.WithDisableSourceMaps)
	if err != nil {
		return code
	}
	var lits []*ast.RegExpLiteral
	collectRegExps(reflect.ValueOf(prog), map[uintptr]bool{}, &lits)
	sort.Slice(lits, func(i, j int) bool { return lits[i].Idx < lits[j].Idx })
	var b strings.Builder
	last := 0
	for _, lit := range lits {
		// The literal's text is rebuilt from its parts: goja's Literal
		// leaves out the flags of a literal that ends the input.
		text := "/" + lit.Pattern + "/" + lit.Flags
		start := int(lit.Idx) - 1 // file.Idx counts from 1
		end := start + len(text)
		if start < last || end > len(code) || code[start:end] != text ||
			!strings.Contains(lit.Flags, "u") || !strings.Contains(lit.Pattern, `\p{`) && !strings.Contains(lit.Pattern, `\P{`) {
			continue
		}
		b.WriteString(code[last:start])
		b.WriteString("/" + expandUnicodeProps(lit.Pattern) + "/" + lit.Flags)
		last = end
	}
	if last == 0 {
		return code
	}
	b.WriteString(code[last:])
	return b.String()
}

// hasBarePropertyEscape reports whether code holds \p{ or \P{ behind a
// single backslash, as only a regex literal prints it: esbuild prints the
// pattern of a RegExp call as a string, where the backslash is doubled.
// It spares the parse for almost every bundle.
func hasBarePropertyEscape(code string) bool {
	for _, needle := range []string{`\p{`, `\P{`} {
		for i := 0; ; {
			k := strings.Index(code[i:], needle)
			if k < 0 {
				break
			}
			at := i + k
			n := 0
			for j := at - 1; j >= 0 && code[j] == '\\'; j-- {
				n++
			}
			if n%2 == 0 {
				return true
			}
			i = at + len(needle)
		}
	}
	return false
}

var (
	regExpLiteralType = reflect.TypeOf((*ast.RegExpLiteral)(nil))
	fileType          = reflect.TypeOf((*file.File)(nil))
)

// collectRegExps walks a goja AST, which has no visitor of its own, and
// appends each regex literal once (declaration lists point into the body,
// so a node can be reached twice).
func collectRegExps(v reflect.Value, seen map[uintptr]bool, out *[]*ast.RegExpLiteral) {
	switch v.Kind() {
	case reflect.Pointer:
		if v.IsNil() || v.Type() == fileType || seen[v.Pointer()] {
			return
		}
		seen[v.Pointer()] = true
		if v.Type() == regExpLiteralType {
			// Through UnsafePointer, since the walk may have reached the
			// node through an unexported field, where Interface panics.
			*out = append(*out, (*ast.RegExpLiteral)(v.UnsafePointer()))
			return
		}
		collectRegExps(v.Elem(), seen, out)
	case reflect.Interface:
		if !v.IsNil() {
			collectRegExps(v.Elem(), seen, out)
		}
	case reflect.Struct:
		for i := range v.NumField() {
			collectRegExps(v.Field(i), seen, out)
		}
	case reflect.Slice, reflect.Array:
		for i := range v.Len() {
			collectRegExps(v.Index(i), seen, out)
		}
	}
}
