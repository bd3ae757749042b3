package engine

import (
	"math"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/dlclark/regexp2/v2"
)

// defaultSchemaBase is the base URI of a root schema without $id, which
// relative references resolve against (the reference uses the same one, so
// an "unresolved reference" message names the same URI).
const defaultSchemaBase = "https://json-schema.invalid/root.json"

// schemaDoc is one tool's parameter schema, parsed once, with the index of
// its $id resources and anchors for $ref. Schema nodes are *jv: an object,
// or true/false.
type schemaDoc struct {
	root *jv

	once      sync.Once
	baseOf    map[*jv]string
	resources map[string]*jv
	anchors   map[string]*jv
}

// schemaCache holds the parsed schema of each distinct schema text: tool
// schemas live as long as their tools and repeat on every call. It stops
// growing at maxCachedSchemas, so a process whose tools keep changing
// their schemas (an MCP server listing new ones) parses the rest per call
// instead of holding them all.
var (
	schemaCache   sync.Map // string -> *schemaDoc
	cachedSchemas atomic.Int32
)

const maxCachedSchemas = 1024

func loadSchemaDoc(schema []byte) (*schemaDoc, error) {
	if d, ok := schemaCache.Load(string(schema)); ok {
		return d.(*schemaDoc), nil
	}
	root, err := parseJV(schema)
	if err != nil {
		return nil, err
	}
	d := &schemaDoc{root: root}
	if cachedSchemas.Load() >= maxCachedSchemas {
		return d, nil
	}
	actual, loaded := schemaCache.LoadOrStore(string(schema), d)
	if !loaded {
		cachedSchemas.Add(1)
	}
	return actual.(*schemaDoc), nil
}

// isSchemaTrue and isSchemaFalse are the boolean schemas. A node that is
// neither an object nor a boolean (a malformed schema) constrains nothing.
func isSchemaFalse(n *jv) bool { return n != nil && n.kind == "bool" && !n.b }
func isSchemaObj(n *jv) bool   { return n.isObj() }

// strKw is a string-valued keyword, "" when absent or not a string.
func strKw(n *jv, k string) (string, bool) {
	v := n.get(k)
	if v == nil || v.kind != "string" {
		return "", false
	}
	return v.str, true
}

// numKw is a number-valued keyword.
func numKw(n *jv, k string) (float64, bool) {
	v := n.get(k)
	if v == nil || v.kind != "number" {
		return 0, false
	}
	return v.num, true
}

// listKw is an array-valued keyword's items (nil when absent or not an array).
func listKw(n *jv, k string) []*jv {
	v := n.get(k)
	if !v.isArr() {
		return nil
	}
	return v.arr
}

// typesOf lists a schema's type names: type as a string or as an array
// of strings.
func typesOf(n *jv) []string {
	t := n.get("type")
	if t == nil {
		return nil
	}
	if t.kind == "string" {
		return []string{t.str}
	}
	var out []string
	for _, x := range t.arr {
		if x.kind == "string" {
			out = append(out, x.str)
		}
	}
	return out
}

// typeMatches is the check of one type name. Unknown names match nothing.
func typeMatches(t string, v *jv) bool {
	switch t {
	case "object", "array", "string", "null":
		return v.kind == t
	case "boolean":
		return v.kind == "bool"
	case "number":
		return v.kind == "number"
	case "integer":
		return v.kind == "number" && isFinite(v.num) && v.num == math.Trunc(v.num)
	}
	return false
}

// resolveURI resolves ref against base; a base or reference that is not a
// URL (a URN) takes fragment-only references.
func resolveURI(ref, base string) string {
	b, err1 := url.Parse(base)
	r, err2 := url.Parse(ref)
	if err1 != nil || err2 != nil || !b.IsAbs() {
		if strings.HasPrefix(ref, "#") {
			return documentOf(base) + ref
		}
		return ref
	}
	return b.ResolveReference(r).String()
}

func documentOf(uri string) string {
	if i := strings.IndexByte(uri, '#'); i >= 0 {
		return uri[:i]
	}
	return uri
}

// subschemaKeywords are the keywords whose values are schemas, schema
// maps or schema lists; only these are indexed for $id and anchors (an
// $id inside enum or const names nothing).
var (
	schemaKeywords    = []string{"additionalProperties", "propertyNames", "contains", "not", "if", "then", "else", "unevaluatedProperties", "unevaluatedItems", "additionalItems", "contentSchema", "items"}
	schemaMapKeywords = []string{"properties", "patternProperties", "$defs", "definitions", "dependentSchemas", "dependencies"}
	schemaListKws     = []string{"allOf", "anyOf", "oneOf", "prefixItems", "items"}
)

func (d *schemaDoc) ensureIndexed() {
	d.once.Do(func() {
		d.baseOf = map[*jv]string{}
		d.resources = map[string]*jv{defaultSchemaBase: d.root}
		d.anchors = map[string]*jv{}
		d.index(d.root, defaultSchemaBase)
	})
}

func (d *schemaDoc) index(n *jv, base string) {
	if !isSchemaObj(n) {
		return
	}
	if _, seen := d.baseOf[n]; seen {
		return
	}
	b := base
	if id, ok := strKw(n, "$id"); ok {
		uri := resolveURI(id, b)
		b = documentOf(uri)
		d.resources[b] = n
		if len(uri) > len(b)+1 {
			d.anchors[uri] = n
		}
	}
	d.baseOf[n] = b
	for _, k := range []string{"$anchor", "$dynamicAnchor"} {
		if a, ok := strKw(n, k); ok {
			d.anchors[b+"#"+a] = n
		}
	}
	for _, k := range schemaKeywords {
		d.index(n.get(k), b)
	}
	for _, k := range schemaMapKeywords {
		if m := n.get(k); m.isObj() {
			for _, s := range m.vals {
				d.index(s, b)
			}
		}
	}
	for _, k := range schemaListKws {
		for _, s := range listKw(n, k) {
			d.index(s, b)
		}
	}
}

// baseFor is the base URI inside node n whose parent has base.
func (d *schemaDoc) baseFor(n *jv, base string) string {
	if !isSchemaObj(n) {
		return base
	}
	id, ok := strKw(n, "$id")
	if !ok {
		return base
	}
	d.ensureIndexed()
	if b, ok := d.baseOf[n]; ok {
		return b
	}
	return documentOf(resolveURI(id, base))
}

// resolve finds the schema a $ref names. A reference that names nothing
// resolves to false (only values at its place fail, with "unresolved
// reference <ref>"), as the reference's validator is configured for tool
// schemas from other systems whose references may dangle; ok is false then.
func (d *schemaDoc) resolve(ref, base string) (node *jv, nodeBase string, ok bool) {
	d.ensureIndexed()
	uri := resolveURI(ref, base)
	doc := documentOf(uri)
	root, found := d.resources[doc]
	if !found {
		return jvBool(false), base, false
	}
	frag := ""
	if len(uri) > len(doc) {
		raw := uri[len(doc)+1:]
		f, err := url.PathUnescape(raw)
		if err != nil {
			return jvBool(false), base, false
		}
		frag = f
	}
	if frag == "" {
		return root, doc, true
	}
	if strings.HasPrefix(frag, "/") {
		n, b := root, doc
		for _, seg := range strings.Split(frag, "/")[1:] {
			seg = strings.ReplaceAll(strings.ReplaceAll(seg, "~1", "/"), "~0", "~")
			var next *jv
			switch n.kind {
			case "object":
				next = n.get(seg)
			case "array":
				if i, err := parseIndex(seg); err == nil && i < len(n.arr) {
					next = n.arr[i]
				}
			}
			if next == nil {
				return jvBool(false), base, false
			}
			n = next
			if nb, ok := d.baseOf[n]; ok {
				b = nb
			}
		}
		return n, b, true
	}
	t, found := d.anchors[doc+"#"+frag]
	if !found {
		return jvBool(false), base, false
	}
	if b, ok := d.baseOf[t]; ok {
		return t, b, true
	}
	return t, doc, true
}

func parseIndex(s string) (int, error) {
	n := 0
	if s == "" {
		return 0, errBadIndex
	}
	for _, c := range s {
		if c < '0' || c > '9' {
			return 0, errBadIndex
		}
		n = n*10 + int(c-'0')
	}
	return n, nil
}

type indexError struct{}

func (indexError) Error() string { return "not an array index" }

var errBadIndex error = indexError{}

// patternCache shares compiled patterns by source across schemas.
var patternCache sync.Map // string -> *regexp2.Regexp (nil when invalid)

// schemaRegex compiles a pattern as the ECMAScript regular expression it
// is (with the u flag, or without it when the source is invalid with it,
// as some older schemas escape characters u rejects). A pattern that does
// not compile either way is nil: it constrains nothing.
func schemaRegex(src string) *regexp2.Regexp {
	if re, ok := patternCache.Load(src); ok {
		r, _ := re.(*regexp2.Regexp)
		return r
	}
	re, err := regexp2.Compile(src, regexp2.ECMAScript|regexp2.Unicode)
	if err != nil {
		re, err = regexp2.Compile(src, regexp2.ECMAScript)
	}
	if err != nil {
		re = nil
	} else {
		// regexp2 backtracks like JavaScript's engine, so a pathological
		// pattern could run for minutes; the session must keep serving.
		re.MatchTimeout = patternTimeout
	}
	patternCache.Store(src, re)
	return re
}

// patternTimeout bounds one pattern match; a match that runs out of time
// counts as a match, like an invalid pattern.
const patternTimeout = 2 * time.Second

// patternMatches tests s against src; an invalid pattern matches.
func patternMatches(src, s string) bool {
	re := schemaRegex(src)
	if re == nil {
		return true
	}
	ok, err := re.MatchString(s)
	return err != nil || ok
}
