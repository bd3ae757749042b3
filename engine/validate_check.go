package engine

import (
	"math"
	"strconv"
	"strings"
)

// schemaErr is one failing keyword: where (a JSON Pointer into the value)
// and the message the model reads.
type schemaErr struct{ path, msg string }

// schemaRun is one validation of one value: the schema, and the answers
// of ok so far. Values never change once built (coercion copies what it
// changes), so an answer for a (schema node, base, value) stays true for
// the whole call; without it, coercion's union checks at every level of a
// nested value would re-walk the levels below, quadratic in the depth.
type schemaRun struct {
	*schemaDoc
	memo map[okKey]bool
}

type okKey struct {
	node, value *jv
	base        string
}

func newSchemaRun(d *schemaDoc) *schemaRun {
	return &schemaRun{schemaDoc: d, memo: map[okKey]bool{}}
}

// ok reports whether v is valid against node. Validity is defined by the
// error walk itself (a value is valid when no keyword fails), so the check
// and the explanation can never disagree.
func (d *schemaRun) ok(node *jv, base string, v *jv) bool {
	key := okKey{node, v, base}
	if r, hit := d.memo[key]; hit {
		return r
	}
	var out []schemaErr
	d.walk(node, base, v, "", &out)
	d.memo[key] = len(out) == 0
	return len(out) == 0
}

// walk appends the errors of v against node, one per failing keyword, in
// the reference's order: type (which stops the walk), enum, const, the
// keywords of v's own type, allOf, anyOf, oneOf, not, if/then/else, $ref,
// then unevaluatedProperties/unevaluatedItems and $dynamicRef when nothing
// else failed.
func (d *schemaRun) walk(node *jv, base string, v *jv, path string, out *[]schemaErr) {
	if node == nil {
		return
	}
	if node.kind == "bool" {
		if !node.b {
			*out = append(*out, schemaErr{path, "no value is allowed here"})
		}
		return
	}
	if !node.isObj() {
		return
	}
	b := d.baseFor(node, base)
	start := len(*out)
	push := func(at, msg string) { *out = append(*out, schemaErr{at, msg}) }

	if t := node.get("type"); t != nil {
		var names []string
		if t.isArr() {
			for _, x := range t.arr {
				names = append(names, x.stringify(""))
				if x.kind == "string" {
					names[len(names)-1] = x.str
				}
			}
		} else if t.kind == "string" {
			names = []string{t.str}
		} else {
			names = []string{t.stringify("")}
		}
		matched := false
		for _, n := range names {
			if typeMatches(n, v) {
				matched = true
				break
			}
		}
		if !matched {
			push(path, "expected "+strings.Join(names, " or ")+", got "+jsTypeName(v))
			return
		}
	}
	if e := node.get("enum"); e.isArr() {
		found := false
		for _, m := range e.arr {
			if jsonEqual(m, v) {
				found = true
				break
			}
		}
		if !found {
			push(path, "expected one of "+listValues(e.arr))
		}
	}
	if c := node.get("const"); c != nil && !jsonEqual(c, v) {
		push(path, "expected "+c.stringify(""))
	}
	switch v.kind {
	case "string":
		d.walkString(node, v.str, path, push)
	case "number":
		walkNumber(node, v.num, path, push)
	case "object":
		d.walkObject(node, b, v, path, out, push)
	case "array":
		d.walkArray(node, b, v, path, out, push)
	}
	for _, s := range listKw(node, "allOf") {
		d.walk(s, b, v, path, out)
	}
	if u := node.get("anyOf"); u.isArr() {
		d.walkUnion(u.arr, b, v, path, out, false)
	}
	if u := node.get("oneOf"); u.isArr() {
		d.walkUnion(u.arr, b, v, path, out, true)
	}
	if n := node.get("not"); n != nil && d.ok(n, b, v) {
		push(path, "must not match the schema in not")
	}
	if cond := node.get("if"); cond != nil {
		branch := node.get("else")
		if d.ok(cond, b, v) {
			branch = node.get("then")
		}
		if branch != nil {
			d.walk(branch, b, v, path, out)
		}
	}
	if ref, ok := strKw(node, "$ref"); ok {
		target, tb, found := d.resolve(ref, b)
		if !found {
			push(path, "unresolved reference "+ref)
		} else {
			d.walk(target, tb, v, path, out)
		}
	}
	if len(*out) == start && (node.get("unevaluatedProperties") != nil || node.get("unevaluatedItems") != nil) {
		d.walkUnevaluated(node, b, v, path, out)
	}
	if ref, ok := strKw(node, "$dynamicRef"); ok && len(*out) == start {
		// Resolved as a plain reference to its initial target: tool
		// schemas do not extend themselves dynamically.
		if target, tb, found := d.resolve(ref, b); !found || !d.ok(target, tb, v) {
			push(path, "does not match the dynamically referenced schema")
		}
	}
}

func (d *schemaRun) walkString(node *jv, s, path string, push func(string, string)) {
	n := -1
	if min, ok := numKw(node, "minLength"); ok {
		n = codePoints(s)
		if float64(n) < min {
			push(path, "expected at least "+jsNumber(min)+" characters")
		}
	}
	if max, ok := numKw(node, "maxLength"); ok {
		if n < 0 {
			n = codePoints(s)
		}
		if float64(n) > max {
			push(path, "expected at most "+jsNumber(max)+" characters")
		}
	}
	if p, ok := strKw(node, "pattern"); ok && !patternMatches(p, s) {
		push(path, "expected to match "+p)
	}
	if f, ok := strKw(node, "format"); ok {
		if check := formatCheck(f); check != nil && !check(s) {
			push(path, "expected format "+f)
		}
	}
}

func walkNumber(node *jv, f float64, path string, push func(string, string)) {
	if x, ok := numKw(node, "minimum"); ok && f < x {
		push(path, "expected >= "+jsNumber(x))
	}
	if x, ok := numKw(node, "maximum"); ok && f > x {
		push(path, "expected <= "+jsNumber(x))
	}
	if x, ok := numKw(node, "exclusiveMinimum"); ok && f <= x {
		push(path, "expected > "+jsNumber(x))
	}
	if x, ok := numKw(node, "exclusiveMaximum"); ok && f >= x {
		push(path, "expected < "+jsNumber(x))
	}
	if x, ok := numKw(node, "multipleOf"); ok && !isMultipleOf(f, x) {
		push(path, "expected a multiple of "+jsNumber(x))
	}
}

func (d *schemaRun) walkObject(node *jv, b string, v *jv, path string, out *[]schemaErr, push func(string, string)) {
	props := node.get("properties")
	if !props.isObj() {
		props = nil
	}
	for _, r := range listKw(node, "required") {
		if r.kind == "string" && v.get(r.str) == nil {
			push(pointer(path, r.str), "missing")
		}
	}
	if props != nil {
		for i, k := range props.keys {
			if c := v.get(k); c != nil {
				d.walk(props.vals[i], b, c, pointer(path, k), out)
			}
		}
	}
	patterns := node.get("patternProperties")
	additional := node.get("additionalProperties")
	names := node.get("propertyNames")
	for i, k := range v.keys {
		c := v.vals[i]
		matched := props.get(k) != nil
		if patterns.isObj() {
			for j, p := range patterns.keys {
				if patternMatches(p, k) {
					matched = true
					d.walk(patterns.vals[j], b, c, pointer(path, k), out)
				}
			}
		}
		if !matched && additional != nil {
			if isSchemaFalse(additional) {
				push(pointer(path, k), "unknown field")
			} else {
				d.walk(additional, b, c, pointer(path, k), out)
			}
		}
		if names != nil && !d.ok(names, b, jvStr(k)) {
			push(pointer(path, k), "invalid property name")
		}
	}
	count := float64(len(v.keys))
	if x, ok := numKw(node, "minProperties"); ok && count < x {
		push(path, "expected at least "+jsNumber(x)+" properties")
	}
	if x, ok := numKw(node, "maxProperties"); ok && count > x {
		push(path, "expected at most "+jsNumber(x)+" properties")
	}
	// dependentRequired, then draft 7's dependencies (which may also hold
	// schemas); a key in both keeps dependentRequired's place and takes
	// dependencies' value, as an object spread of the two does.
	deps := &jv{kind: "object"}
	for _, k := range []string{"dependentRequired", "dependencies"} {
		if m := node.get(k); m.isObj() {
			for i, key := range m.keys {
				deps.put(key, m.vals[i])
			}
		}
	}
	for i, k := range deps.keys {
		if v.get(k) == nil {
			continue
		}
		dep := deps.vals[i]
		if !dep.isArr() {
			d.walk(dep, b, v, path, out)
			continue
		}
		for _, r := range dep.arr {
			if r.kind == "string" && v.get(r.str) == nil {
				push(pointer(path, r.str), "required when "+k+" is present")
			}
		}
	}
	if m := node.get("dependentSchemas"); m.isObj() {
		for i, k := range m.keys {
			if v.get(k) != nil {
				d.walk(m.vals[i], b, v, path, out)
			}
		}
	}
}

// itemSchemas splits an array schema into its tuple prefix and the schema
// of the items after it: prefixItems and items (2020-12), or an items
// array and additionalItems (draft 7).
func itemSchemas(node *jv) (prefix []*jv, rest *jv) {
	if items := node.get("items"); items.isArr() {
		return items.arr, node.get("additionalItems")
	}
	return listKw(node, "prefixItems"), node.get("items")
}

func (d *schemaRun) walkArray(node *jv, b string, v *jv, path string, out *[]schemaErr, push func(string, string)) {
	prefix, rest := itemSchemas(node)
	for i, c := range v.arr {
		s := rest
		if i < len(prefix) {
			s = prefix[i]
		}
		if s != nil {
			d.walk(s, b, c, path+"/"+strconv.Itoa(i), out)
		}
	}
	n := float64(len(v.arr))
	if x, ok := numKw(node, "minItems"); ok && n < x {
		push(path, "expected at least "+jsNumber(x)+" items")
	}
	if x, ok := numKw(node, "maxItems"); ok && n > x {
		push(path, "expected at most "+jsNumber(x)+" items")
	}
	if u := node.get("uniqueItems"); u != nil && u.kind == "bool" && u.b && !uniqueItems(v.arr) {
		push(path, "expected unique items")
	}
	if c := node.get("contains"); c != nil {
		min, max := 1.0, math.Inf(1)
		if x, ok := numKw(node, "minContains"); ok {
			min = x
		}
		if x, ok := numKw(node, "maxContains"); ok {
			max = x
		}
		matches := 0.0
		for _, item := range v.arr {
			if d.ok(c, b, item) {
				matches++
			}
		}
		if matches < min || matches > max {
			push(path, containsMessage(min, max))
		}
	}
}

func uniqueItems(items []*jv) bool {
	for i := 1; i < len(items); i++ {
		for j := 0; j < i; j++ {
			if jsonEqual(items[i], items[j]) {
				return false
			}
		}
	}
	return true
}

func containsMessage(min, max float64) string {
	plural := func(n float64) string {
		if n == 1 {
			return "item"
		}
		return "items"
	}
	switch {
	case math.IsInf(max, 1):
		return "expected at least " + jsNumber(min) + " matching " + plural(min)
	case min == 0:
		return "expected at most " + jsNumber(max) + " matching " + plural(max)
	}
	return "expected between " + jsNumber(min) + " and " + jsNumber(max) + " matching items"
}

// walkUnion explains an anyOf (or, exactlyOne, a oneOf) that failed. A
// union tagged by a const property reports the branch the tag selects (or
// the tag itself); otherwise an object is blamed on the branch declaring
// most of its keys, then on the branch whose first error is deepest, so
// the model hears about the alternative it most likely meant.
func (d *schemaRun) walkUnion(branches []*jv, b string, v *jv, path string, out *[]schemaErr, exactlyOne bool) {
	matches := 0
	for _, s := range branches {
		if d.ok(s, b, v) {
			matches++
		}
	}
	if matches == 1 || (!exactlyOne && matches > 0) {
		return
	}
	if matches > 1 {
		*out = append(*out, schemaErr{path, "matches more than one alternative"})
		return
	}
	if key, values, ok := d.unionTag(branches, b); ok && v.isObj() {
		tag := v.get(key)
		for i, t := range values {
			if tag != nil && sameValue(t, tag) {
				d.walk(branches[i], b, v, path, out)
				return
			}
		}
		*out = append(*out, schemaErr{pointer(path, key), "expected one of " + listValues(values)})
		return
	}
	var best []schemaErr
	bestDeclared := -1
	for _, s := range branches {
		var errs []schemaErr
		d.walk(s, b, v, path, &errs)
		if len(errs) == 0 {
			continue
		}
		declared := 0
		if v.isObj() {
			declared = d.declaredKeys(s, b, v)
		}
		if best == nil || declared > bestDeclared || (declared == bestDeclared && len(errs[0].path) > len(best[0].path)) {
			best, bestDeclared = errs, declared
		}
	}
	if best == nil {
		best = []schemaErr{{path, "matches no alternative"}}
	}
	*out = append(*out, best...)
}

// throughRef is a union branch with its $ref followed (one level).
func (d *schemaRun) throughRef(s *jv, b string) *jv {
	if ref, ok := strKw(s, "$ref"); ok {
		t, _, _ := d.resolve(ref, d.baseFor(s, b))
		return t
	}
	return s
}

func (d *schemaRun) declaredKeys(s *jv, b string, v *jv) int {
	props := d.throughRef(s, b).get("properties")
	if !props.isObj() {
		return 0
	}
	n := 0
	for _, k := range v.keys {
		if props.get(k) != nil {
			n++
		}
	}
	return n
}

// unionTag finds the tag of a tagged union: the first property of the
// first branch whose const is a distinct primitive in every branch.
func (d *schemaRun) unionTag(branches []*jv, b string) (string, []*jv, bool) {
	resolved := make([]*jv, len(branches))
	for i, s := range branches {
		resolved[i] = d.throughRef(s, b)
	}
	first := resolved[0].get("properties")
	if !first.isObj() {
		return "", nil, false
	}
next:
	for _, key := range first.keys {
		values := make([]*jv, len(resolved))
		for i, s := range resolved {
			c := s.get("properties").get(key).get("const")
			if c == nil || c.isObj() || c.isArr() {
				continue next
			}
			for _, prev := range values[:i] {
				if sameValue(prev, c) {
					continue next
				}
			}
			values[i] = c
		}
		return key, values, true
	}
	return "", nil, false
}

// walkUnevaluated reports the properties (items) that no keyword of node
// evaluated, once every other keyword of node passed.
func (d *schemaRun) walkUnevaluated(node *jv, b string, v *jv, path string, out *[]schemaErr) {
	if up := node.get("unevaluatedProperties"); up != nil && v.isObj() {
		seen, all := d.evaluatedProps(node, b, v)
		if !all {
			for i, k := range v.keys {
				if seen[k] {
					continue
				}
				if isSchemaFalse(up) {
					*out = append(*out, schemaErr{pointer(path, k), "unknown field"})
				} else {
					d.walk(up, b, v.vals[i], pointer(path, k), out)
				}
			}
		}
	}
	if ui := node.get("unevaluatedItems"); ui != nil && v.isArr() {
		upTo, seen, all := d.evaluatedItems(node, b, v)
		if !all {
			for i := upTo; i < len(v.arr); i++ {
				if seen[i] {
					continue
				}
				at := path + "/" + strconv.Itoa(i)
				if isSchemaFalse(ui) {
					*out = append(*out, schemaErr{at, "unexpected item"})
				} else {
					d.walk(ui, b, v.arr[i], at, out)
				}
			}
		}
	}
}

// inPlace calls f with each subschema of node that applies to the value
// itself and passed (allOf, anyOf/oneOf branches, if with then or else,
// dependentSchemas of present keys, $ref), the sources of annotations.
func (d *schemaRun) inPlace(node *jv, b string, v *jv, f func(s *jv, base string)) {
	for _, s := range listKw(node, "allOf") {
		f(s, b)
	}
	for _, k := range []string{"anyOf", "oneOf"} {
		for _, s := range listKw(node, k) {
			if d.ok(s, b, v) {
				f(s, b)
			}
		}
	}
	if cond := node.get("if"); cond != nil {
		if d.ok(cond, b, v) {
			f(cond, b)
			if t := node.get("then"); t != nil {
				f(t, b)
			}
		} else if e := node.get("else"); e != nil {
			f(e, b)
		}
	}
	if m := node.get("dependentSchemas"); m.isObj() && v.isObj() {
		for i, k := range m.keys {
			if v.get(k) != nil {
				f(m.vals[i], b)
			}
		}
	}
	for _, k := range []string{"$ref", "$dynamicRef"} {
		if ref, ok := strKw(node, k); ok {
			if t, tb, found := d.resolve(ref, b); found {
				f(t, tb)
			}
		}
	}
}

func (d *schemaRun) evaluatedProps(node *jv, base string, v *jv) (map[string]bool, bool) {
	seen := map[string]bool{}
	all := false
	var visit func(n *jv, b string, depth int)
	visit = func(n *jv, b string, depth int) {
		if all || !n.isObj() || depth > 32 {
			return
		}
		b = d.baseFor(n, b)
		if n.get("additionalProperties") != nil || (depth > 0 && n.get("unevaluatedProperties") != nil) {
			all = true
			return
		}
		if props := n.get("properties"); props.isObj() {
			for _, k := range props.keys {
				if v.get(k) != nil {
					seen[k] = true
				}
			}
		}
		if pats := n.get("patternProperties"); pats.isObj() {
			for _, k := range v.keys {
				for _, p := range pats.keys {
					if patternMatches(p, k) {
						seen[k] = true
					}
				}
			}
		}
		d.inPlace(n, b, v, func(s *jv, sb string) { visit(s, sb, depth+1) })
	}
	visit(node, base, 0)
	return seen, all
}

func (d *schemaRun) evaluatedItems(node *jv, base string, v *jv) (int, map[int]bool, bool) {
	upTo, seen, all := 0, map[int]bool{}, false
	var visit func(n *jv, b string, depth int)
	visit = func(n *jv, b string, depth int) {
		if all || !n.isObj() || depth > 32 {
			return
		}
		b = d.baseFor(n, b)
		prefix, rest := itemSchemas(n)
		if rest != nil || (depth > 0 && n.get("unevaluatedItems") != nil) {
			all = true
			return
		}
		upTo = max(upTo, min(len(prefix), len(v.arr)))
		if c := n.get("contains"); c != nil {
			for i, item := range v.arr {
				if d.ok(c, b, item) {
					seen[i] = true
				}
			}
		}
		d.inPlace(n, b, v, func(s *jv, sb string) { visit(s, sb, depth+1) })
	}
	visit(node, base, 0)
	return upTo, seen, all
}

// listedValues caps the values an enum error lists, so an enum of
// thousands stays readable.
const listedValues = 20

// listValues renders values as a JSON array, cut after listedValues.
func listValues(values []*jv) string {
	arr := &jv{kind: "array", arr: values}
	if len(values) <= listedValues {
		return arr.stringify("")
	}
	head := (&jv{kind: "array", arr: values[:listedValues]}).stringify("")
	return head[:len(head)-1] + ", ... and " + strconv.Itoa(len(values)-listedValues) + " more]"
}

// pointer appends key to a JSON Pointer.
func pointer(path, key string) string {
	return path + "/" + strings.ReplaceAll(strings.ReplaceAll(key, "~", "~0"), "/", "~1")
}

// dottedPath renders a JSON Pointer as the dotted path the model sees:
// "/edits/0/oldText" is "edits.0.oldText", "" is "root".
func dottedPath(p string) string {
	if p == "" {
		return "root"
	}
	segs := strings.Split(p[1:], "/")
	for i, s := range segs {
		segs[i] = strings.ReplaceAll(strings.ReplaceAll(s, "~1", "/"), "~0", "~")
	}
	return strings.Join(segs, ".")
}
