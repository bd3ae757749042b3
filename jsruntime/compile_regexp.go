package jsruntime

import (
	"reflect"
	"sort"
	"strings"
	"sync"

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
	var n bundleNodes
	n.collect(reflect.ValueOf(prog))
	return applyEdits(code, regExpEdits(code, n.regexps))
}

// edit replaces code[start:end] with text (an insertion when end == start).
type edit struct {
	start, end int
	text       string
}

// regExpEdits expands the property escapes of the u-flag literals.
func regExpEdits(code string, lits []*ast.RegExpLiteral) []edit {
	var out []edit
	for _, lit := range lits {
		if !strings.Contains(lit.Flags, "u") || !strings.Contains(lit.Pattern, `\p{`) && !strings.Contains(lit.Pattern, `\P{`) {
			continue
		}
		// The literal's text is rebuilt from its parts: goja's Literal
		// leaves out the flags of a literal that ends the input.
		text := "/" + lit.Pattern + "/" + lit.Flags
		start := int(lit.Idx) - 1 // file.Idx counts from 1
		end := start + len(text)
		if start < 0 || end > len(code) || code[start:end] != text {
			continue
		}
		out = append(out, edit{start, end, "/" + expandUnicodeProps(lit.Pattern) + "/" + lit.Flags})
	}
	return out
}

// applyEdits applies non-overlapping edits in offset order; an edit that
// overlaps the one before it is dropped.
func applyEdits(code string, edits []edit) string {
	if len(edits) == 0 {
		return code
	}
	sort.SliceStable(edits, func(i, j int) bool { return edits[i].start < edits[j].start })
	var b strings.Builder
	b.Grow(len(code) + 64*len(edits))
	last := 0
	for _, e := range edits {
		if e.start < last {
			continue
		}
		b.WriteString(code[last:e.start])
		b.WriteString(e.text)
		last = e.end
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
	regExpLiteralType  = reflect.TypeOf((*ast.RegExpLiteral)(nil))
	catchStatementType = reflect.TypeOf((*ast.CatchStatement)(nil))
	fileType           = reflect.TypeOf((*file.File)(nil))
)

// bundleNodes are the nodes of a bundle the compile step rewrites.
type bundleNodes struct {
	regexps []*ast.RegExpLiteral
	catches []*ast.CatchStatement
}

// walkFields caches, per struct type of the AST, the fields that can hold
// nodes: strings, numbers and positions are skipped, and so is
// DeclarationList, which repeats declarations of the body (walking it too
// would visit a nested function once per enclosing declaration list).
var walkFields sync.Map // reflect.Type → []int

func fieldsToWalk(t reflect.Type) []int {
	if v, ok := walkFields.Load(t); ok {
		return v.([]int)
	}
	var idx []int
	for i := range t.NumField() {
		f := t.Field(i)
		if f.Name == "DeclarationList" {
			continue
		}
		switch f.Type.Kind() {
		case reflect.Pointer, reflect.Interface, reflect.Struct, reflect.Slice, reflect.Array:
			if f.Type != fileType {
				idx = append(idx, i)
			}
		}
	}
	walkFields.Store(t, idx)
	return idx
}

// collect walks a goja AST, which has no visitor of its own, and records
// the nodes of interest. Nodes are taken through UnsafePointer, since the
// walk may reach them through an unexported field, where Interface panics.
func (n *bundleNodes) collect(v reflect.Value) {
	switch v.Kind() {
	case reflect.Pointer:
		if v.IsNil() {
			return
		}
		switch v.Type() {
		case regExpLiteralType:
			n.regexps = append(n.regexps, (*ast.RegExpLiteral)(v.UnsafePointer()))
			return
		case catchStatementType:
			n.catches = append(n.catches, (*ast.CatchStatement)(v.UnsafePointer()))
		}
		n.collect(v.Elem())
	case reflect.Interface:
		if !v.IsNil() {
			n.collect(v.Elem())
		}
	case reflect.Struct:
		for _, i := range fieldsToWalk(v.Type()) {
			n.collect(v.Field(i))
		}
	case reflect.Slice, reflect.Array:
		for i := range v.Len() {
			n.collect(v.Index(i))
		}
	}
}
