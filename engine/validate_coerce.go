package engine

import (
	"math"
	"strconv"
	"strings"
)

// coercer turns a model's loosely typed arguments into what the schema
// most likely meant, in the reference's three passes:
//
//  1. a null in an optional property whose schema rejects null is dropped;
//  2. conversions keyed on the first of $ref, const, enum, anyOf/oneOf,
//     allOf, type that a node has (numeric strings to numbers, "true" to
//     true, null to "null" for a string, a single value to a one-item
//     array, the first union branch whose conversion the union accepts);
//  3. primitive coercion by type, also for type arrays such as
//     ["integer","null"], for what pass 2 left.
//
// Every pass copies only what it changes, so a pass that changes nothing
// returns the very value it got.
type coercer struct {
	d *schemaRun
	// entered holds the (node, value) pairs pass 2 is converting through
	// a $ref or a wrap into an array: meeting one again (a recursive
	// schema and a value no branch takes) leaves the value as it is
	// instead of converting forever.
	entered []enteredPair
}

type enteredPair struct{ node, value *jv }

func (c *coercer) coerce(v *jv) *jv {
	root := c.d.root
	v = c.dropOptionalNulls(v, root, defaultSchemaBase)
	v = c.convert(root, defaultSchemaBase, v)
	return c.coerceTypes(v, root, defaultSchemaBase)
}

func (c *coercer) passes(node *jv, base string, v *jv) bool { return c.d.ok(node, base, v) }

// itemSchemaAt is the schema of an array's item at i, nil when none applies.
func itemSchemaAt(node *jv, i int) *jv {
	if items := node.get("items"); items.isArr() {
		if i < len(items.arr) {
			return items.arr[i]
		}
		return nil
	}
	if p := listKw(node, "prefixItems"); i < len(p) {
		return p[i]
	}
	return node.get("items")
}

// mapItems maps an array's items, returning a copy only if one changed.
func mapItems(v *jv, f func(item *jv, i int) *jv) *jv {
	var out *jv
	for i, item := range v.arr {
		next := f(item, i)
		if next == item {
			continue
		}
		if out == nil {
			out = v.shallow()
		}
		out.arr[i] = next
	}
	if out == nil {
		return v
	}
	return out
}

// objectWriter changes an object's members copy-on-write.
type objectWriter struct{ orig, out *jv }

func (w *objectWriter) cur() *jv {
	if w.out != nil {
		return w.out
	}
	return w.orig
}

func (w *objectWriter) set(k string, next *jv) {
	if w.cur().get(k) == next {
		return
	}
	if w.out == nil {
		w.out = w.orig.shallow()
	}
	w.out.put(k, next)
}

func (w *objectWriter) del(k string) { w.out = w.cur().without(k) }

// members walks an object's members the way every pass does: each key's
// schemas are its properties entry, then every matching patternProperties
// entry, then additionalProperties (an object schema) when neither
// applied.
func members(node *jv) (props, patterns, additional *jv) {
	props = node.get("properties")
	if !props.isObj() {
		props = nil
	}
	patterns = node.get("patternProperties")
	if !patterns.isObj() {
		patterns = nil
	}
	additional = node.get("additionalProperties")
	if !additional.isObj() {
		additional = nil
	}
	return
}

// ---- pass 1: optional nulls ----

func (c *coercer) dropOptionalNulls(v, node *jv, base string) *jv {
	if !node.isObj() {
		return v
	}
	b := c.d.baseFor(node, base)
	if v.isArr() {
		return mapItems(v, func(item *jv, i int) *jv {
			if s := itemSchemaAt(node, i); s != nil {
				return c.dropOptionalNulls(item, s, b)
			}
			return item
		})
	}
	if !v.isObj() {
		return v
	}
	props, patterns, additional := members(node)
	if props == nil && patterns == nil && additional == nil {
		return v
	}
	required := map[string]bool{}
	for _, r := range listKw(node, "required") {
		if r.kind == "string" {
			required[r.str] = true
		}
	}
	w := &objectWriter{orig: v}
	if props != nil {
		for i, k := range props.keys {
			cur := w.cur().get(k)
			if cur == nil {
				continue
			}
			ps := props.vals[i]
			_, isRef := strKw(ps, "$ref")
			if cur.isNull() && !required[k] && !isRef && isSchemaObjOrBool(ps) && !c.passes(ps, b, jvNull) {
				w.del(k)
				continue
			}
			w.set(k, c.dropOptionalNulls(cur, ps, b))
		}
	}
	if patterns != nil || additional != nil {
		for _, k := range append([]string(nil), w.cur().keys...) {
			matched := props.get(k) != nil
			if patterns != nil {
				for j, p := range patterns.keys {
					if patternMatches(p, k) {
						matched = true
						w.set(k, c.dropOptionalNulls(w.cur().get(k), patterns.vals[j], b))
					}
				}
			}
			if !matched && additional != nil {
				w.set(k, c.dropOptionalNulls(w.cur().get(k), additional, b))
			}
		}
	}
	return w.cur()
}

func isSchemaObjOrBool(n *jv) bool { return n.isObj() || (n != nil && n.kind == "bool") }

// ---- pass 2: conversions ----

func (c *coercer) convert(node *jv, base string, v *jv) *jv {
	if !node.isObj() {
		return v
	}
	b := c.d.baseFor(node, base)
	if ref, ok := strKw(node, "$ref"); ok {
		t, tb, found := c.d.resolve(ref, b)
		if !found || !t.isObj() {
			return v
		}
		return c.reenter(t, tb, v)
	}
	return c.convertNode(node, b, v)
}

func (c *coercer) reenter(node *jv, base string, v *jv) *jv {
	for _, e := range c.entered {
		if e.node == node && sameValue(e.value, v) {
			return v
		}
	}
	c.entered = append(c.entered, enteredPair{node, v})
	defer func() { c.entered = c.entered[:len(c.entered)-1] }()
	return c.convert(node, base, v)
}

func (c *coercer) convertNode(node *jv, b string, v *jv) *jv {
	if lit := node.get("const"); lit != nil {
		return convertLiteral(lit, v)
	}
	if e := node.get("enum"); e.isArr() {
		for _, m := range e.arr {
			if sameValue(m, v) {
				return v
			}
		}
		for _, m := range e.arr {
			if cand := convertLiteral(m, v); cand != v && c.passes(node, b, cand) {
				return cand
			}
		}
		return v
	}
	for _, k := range []string{"anyOf", "oneOf"} {
		if u := node.get(k); u.isArr() {
			return c.convertUnion(node, u.arr, b, v)
		}
	}
	if all := node.get("allOf"); all.isArr() {
		next := v
		for _, s := range all.arr {
			next = c.convert(s, b, next)
		}
		return c.convertMembers(node, b, next)
	}
	t := node.get("type")
	if t == nil {
		if node.get("properties") != nil || node.get("patternProperties") != nil {
			return c.convertObject(node, b, v)
		}
		if node.get("items") != nil || node.get("prefixItems") != nil {
			return c.convertArray(node, b, v)
		}
		return v
	}
	if t.kind != "string" {
		return v
	}
	switch t.str {
	case "string":
		return orValue(tryString(v), v)
	case "number":
		return orValue(tryNumber(v), v)
	case "integer":
		r := tryNumber(v)
		if r == nil {
			return v
		}
		return orValue(jvNum(math.Trunc(r.num)), v)
	case "boolean":
		return orValue(tryBoolean(v), v)
	case "null":
		return orValue(tryNull(v), v)
	case "array":
		return c.convertArray(node, b, v)
	case "object":
		return c.convertObject(node, b, v)
	}
	return v
}

// orValue is r, unless r is missing or equals v (then v itself, so an
// unchanged primitive keeps its identity and its number text).
func orValue(r, v *jv) *jv {
	if r == nil || sameValue(r, v) {
		return v
	}
	return r
}

func (c *coercer) convertUnion(node *jv, branches []*jv, b string, v *jv) *jv {
	for _, s := range branches {
		if c.passes(s, b, v) {
			return c.convertMembers(node, b, v)
		}
	}
	for _, s := range branches {
		cand := c.convertMembers(node, b, c.convert(s, b, v))
		if c.passes(node, b, cand) {
			return cand
		}
	}
	return c.convertMembers(node, b, v)
}

// convertMembers converts the members a union or allOf node declares
// beside its branches.
func (c *coercer) convertMembers(node *jv, b string, v *jv) *jv {
	if node.get("properties") != nil || node.get("patternProperties") != nil || node.get("additionalProperties") != nil {
		return c.convertObject(node, b, v)
	}
	return v
}

func (c *coercer) convertArray(node *jv, b string, v *jv) *jv {
	var prefix []*jv
	tuple := false
	if items := node.get("items"); items.isArr() {
		prefix, tuple = items.arr, true
	} else if p := node.get("prefixItems"); p.isArr() {
		prefix, tuple = p.arr, true
	}
	if tuple {
		// A tuple converts its items and never wraps a single value.
		if !v.isArr() {
			return v
		}
		var rest *jv
		if items := node.get("items"); !items.isArr() {
			rest = items
		}
		return mapItems(v, func(item *jv, i int) *jv {
			s := rest
			if i < len(prefix) {
				s = prefix[i]
			}
			if s == nil {
				return item
			}
			return c.convert(s, b, item)
		})
	}
	items := node.get("items")
	if v.isArr() {
		if items == nil {
			return v
		}
		return mapItems(v, func(item *jv, _ int) *jv { return c.convert(items, b, item) })
	}
	if items.isObj() {
		return &jv{kind: "array", arr: []*jv{c.reenter(items, b, v)}}
	}
	return &jv{kind: "array", arr: []*jv{v}}
}

func (c *coercer) convertObject(node *jv, b string, v *jv) *jv {
	if !v.isObj() {
		return v
	}
	props, patterns, additional := members(node)
	w := &objectWriter{orig: v}
	for i, k := range v.keys {
		next := v.vals[i]
		matched := false
		if ps := props.get(k); ps != nil {
			matched = true
			next = c.convert(ps, b, next)
		}
		if patterns != nil {
			for j, p := range patterns.keys {
				if patternMatches(p, k) {
					matched = true
					next = c.convert(patterns.vals[j], b, next)
				}
			}
		}
		if !matched && additional != nil {
			next = c.convert(additional, b, next)
		}
		w.set(k, next)
	}
	return w.cur()
}

// convertLiteral takes a const or enum member from a value of another type
// that converts to exactly it, else returns v.
func convertLiteral(lit, v *jv) *jv {
	if sameValue(lit, v) {
		return v
	}
	var r *jv
	switch lit.kind {
	case "string":
		r = tryString(v)
	case "number":
		r = tryNumber(v)
	case "bool":
		r = tryBoolean(v)
	}
	if r != nil && sameValue(r, lit) {
		return r
	}
	return v
}

func tryString(v *jv) *jv {
	switch v.kind {
	case "bool":
		return jvStr(strconv.FormatBool(v.b))
	case "number":
		return jvStr(jsNumber(v.num))
	case "null":
		return jvStr("null")
	case "string":
		return v
	}
	return nil
}

func tryNumber(v *jv) *jv {
	switch v.kind {
	case "bool":
		if v.b {
			return jvNum(1)
		}
		return jvNum(0)
	case "number":
		return v
	case "null":
		return jvNum(0)
	case "string":
		if f := jsToNumber(v.str); isFinite(f) {
			return jvNum(f)
		}
		switch strings.ToLower(v.str) {
		case "false":
			return jvNum(0)
		case "true":
			return jvNum(1)
		}
		if f, ok := bigIntText(v.str); ok {
			return jvNum(f)
		}
	}
	return nil
}

// bigIntText reads the integer forms TypeBox's bigint conversion takes,
// "12n" and "-3", within the safe integer range.
func bigIntText(s string) (float64, bool) {
	body := strings.TrimSuffix(s, "n")
	if body == s || body == "" {
		return 0, false
	}
	digits := strings.TrimPrefix(body, "-")
	if digits == "" || (len(digits) > 1 && digits[0] == '0') {
		return 0, false
	}
	for _, c := range digits {
		if c < '0' || c > '9' {
			return 0, false
		}
	}
	f, err := strconv.ParseFloat(body, 64)
	if err != nil || math.Abs(f) > 1<<53-1 {
		return 0, false
	}
	return f, true
}

func tryBoolean(v *jv) *jv {
	switch v.kind {
	case "bool":
		return v
	case "number":
		switch v.num {
		case 0:
			return jvBool(false)
		case 1:
			return jvBool(true)
		}
	case "null":
		return jvBool(false)
	case "string":
		l := strings.ToLower(v.str)
		switch {
		case l == "false" || v.str == "0":
			return jvBool(false)
		case l == "true" || v.str == "1":
			return jvBool(true)
		}
	}
	return nil
}

func tryNull(v *jv) *jv {
	switch v.kind {
	case "bool":
		if !v.b {
			return jvNull
		}
	case "number":
		if v.num == 0 {
			return jvNull
		}
	case "null":
		return v
	case "string":
		l := strings.ToLower(v.str)
		if l == "undefined" || l == "null" || v.str == "" || v.str == "0" {
			return jvNull
		}
	}
	return nil
}

// ---- pass 3: primitive coercion by type ----

func (c *coercer) coerceTypes(v, node *jv, base string) *jv {
	if !node.isObj() {
		return v
	}
	b := c.d.baseFor(node, base)
	next := v
	for _, s := range listKw(node, "allOf") {
		next = c.coerceTypes(next, s, b)
	}
	for _, k := range []string{"anyOf", "oneOf"} {
		if u := node.get(k); u.isArr() {
			next = c.coerceUnion(next, u.arr, b)
		}
	}
	types := typesOf(node)
	matchesMember := false
	if len(types) > 1 {
		for _, t := range types {
			if primitiveMatches(next, t) {
				matchesMember = true
				break
			}
		}
	}
	if len(types) > 0 && !matchesMember {
		for _, t := range types {
			if cand := coercePrimitive(next, t); cand != next {
				next = cand
				break
			}
		}
	}
	for _, t := range types {
		if t == "object" && next.isObj() {
			next = c.coerceProperties(next, node, b)
		}
		if t == "array" && next.isArr() {
			next = mapItems(next, func(item *jv, i int) *jv {
				if s := itemSchemaAt(node, i); s.isObj() {
					return c.coerceTypes(item, s, b)
				}
				return item
			})
		}
	}
	return next
}

func (c *coercer) coerceUnion(v *jv, branches []*jv, b string) *jv {
	for _, s := range branches {
		if c.passes(s, b, v) {
			return v
		}
	}
	for _, s := range branches {
		if cand := c.coerceTypes(v, s, b); c.passes(s, b, cand) {
			return cand
		}
	}
	return v
}

func (c *coercer) coerceProperties(v, node *jv, b string) *jv {
	props, patterns, additional := members(node)
	w := &objectWriter{orig: v}
	if props != nil {
		for i, k := range props.keys {
			if cur := w.cur().get(k); cur != nil {
				w.set(k, c.coerceTypes(cur, props.vals[i], b))
			}
		}
	}
	for _, k := range append([]string(nil), w.cur().keys...) {
		matched := props.get(k) != nil
		if patterns != nil {
			for j, p := range patterns.keys {
				if patternMatches(p, k) {
					matched = true
					w.set(k, c.coerceTypes(w.cur().get(k), patterns.vals[j], b))
				}
			}
		}
		if !matched && additional != nil {
			w.set(k, c.coerceTypes(w.cur().get(k), additional, b))
		}
	}
	return w.cur()
}

func primitiveMatches(v *jv, t string) bool {
	if t == "number" {
		return v.kind == "number"
	}
	return typeMatches(t, v)
}

// coercePrimitive converts v to type t where a loose reading allows it
// (numeric strings and booleans to numbers, "true"/1 to true, scalars to
// strings, "", 0 and false to null, null to each type's zero); v itself
// when none applies.
func coercePrimitive(v *jv, t string) *jv {
	switch t {
	case "number", "integer":
		switch v.kind {
		case "null":
			return jvNum(0)
		case "string":
			if strings.Trim(v.str, jsWhitespace) != "" {
				f := jsToNumber(v.str)
				if isFinite(f) && (t == "number" || f == math.Trunc(f)) {
					return jvNum(f)
				}
			}
		case "bool":
			if v.b {
				return jvNum(1)
			}
			return jvNum(0)
		}
	case "boolean":
		switch {
		case v.kind == "null":
			return jvBool(false)
		case v.kind == "string" && v.str == "true", v.kind == "number" && v.num == 1:
			return jvBool(true)
		case v.kind == "string" && v.str == "false", v.kind == "number" && v.num == 0:
			return jvBool(false)
		}
	case "string":
		switch v.kind {
		case "null":
			return jvStr("")
		case "number":
			return jvStr(jsNumber(v.num))
		case "bool":
			return jvStr(strconv.FormatBool(v.b))
		}
	case "null":
		if (v.kind == "string" && v.str == "") || (v.kind == "number" && v.num == 0) || (v.kind == "bool" && !v.b) {
			return jvNull
		}
	}
	return v
}
