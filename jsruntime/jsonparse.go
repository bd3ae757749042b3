package jsruntime

import (
	"encoding/json"
	"math"
	"strconv"
	"strings"

	"github.com/dop251/goja"
)

// parseJSON builds the JS value of the JSON text s directly, as JSON.parse
// would, for the bridge: every value Go hands to api.js travels as JSON,
// and goja's JSON.parse reads it token by token through encoding/json's
// Decoder, which costs ~0.4 s for the 1 MB model catalog
// (ctx.modelRegistry.getAll). ok is false when s is not valid JSON or
// holds something this reader leaves to JSON.parse (a \u escape of a lone
// surrogate half, which a Go string cannot carry); the caller then falls
// back to JSON.parse, which also words the error.
func parseJSON(vm *goja.Runtime, s string) (v goja.Value, ok bool) {
	p := jsonReader{vm: vm, s: s}
	p.space()
	v, ok = p.value(0)
	if !ok {
		return nil, false
	}
	p.space()
	return v, p.i == len(p.s)
}

type jsonReader struct {
	vm *goja.Runtime
	s  string
	i  int
}

// maxJSONDepth bounds the recursion; deeper documents go to JSON.parse.
const maxJSONDepth = 512

func (p *jsonReader) space() {
	for p.i < len(p.s) {
		switch p.s[p.i] {
		case ' ', '\t', '\n', '\r':
			p.i++
		default:
			return
		}
	}
}

func (p *jsonReader) value(depth int) (goja.Value, bool) {
	if p.i >= len(p.s) || depth > maxJSONDepth {
		return nil, false
	}
	switch c := p.s[p.i]; {
	case c == '{':
		return p.object(depth)
	case c == '[':
		return p.array(depth)
	case c == '"':
		str, ok := p.str()
		if !ok {
			return nil, false
		}
		return p.vm.ToValue(str), true
	case c == 't':
		return p.word("true", p.vm.ToValue(true))
	case c == 'f':
		return p.word("false", p.vm.ToValue(false))
	case c == 'n':
		return p.word("null", goja.Null())
	case c == '-' || (c >= '0' && c <= '9'):
		return p.number()
	}
	return nil, false
}

func (p *jsonReader) word(w string, v goja.Value) (goja.Value, bool) {
	if !strings.HasPrefix(p.s[p.i:], w) {
		return nil, false
	}
	p.i += len(w)
	return v, true
}

func (p *jsonReader) object(depth int) (goja.Value, bool) {
	p.i++ // {
	obj := p.vm.NewObject()
	p.space()
	if p.i < len(p.s) && p.s[p.i] == '}' {
		p.i++
		return obj, true
	}
	for {
		p.space()
		if p.i >= len(p.s) || p.s[p.i] != '"' {
			return nil, false
		}
		key, ok := p.str()
		if !ok {
			return nil, false
		}
		p.space()
		if p.i >= len(p.s) || p.s[p.i] != ':' {
			return nil, false
		}
		p.i++
		p.space()
		v, ok := p.value(depth + 1)
		if !ok {
			return nil, false
		}
		// JSON.parse creates own data properties: "__proto__" is a key
		// like any other, never the prototype.
		if key == "__proto__" {
			if obj.DefineDataProperty(key, v, goja.FLAG_TRUE, goja.FLAG_TRUE, goja.FLAG_TRUE) != nil {
				return nil, false
			}
		} else if obj.Set(key, v) != nil {
			return nil, false
		}
		p.space()
		if p.i >= len(p.s) {
			return nil, false
		}
		switch p.s[p.i] {
		case ',':
			p.i++
		case '}':
			p.i++
			return obj, true
		default:
			return nil, false
		}
	}
}

func (p *jsonReader) array(depth int) (goja.Value, bool) {
	p.i++ // [
	var items []any
	p.space()
	if p.i < len(p.s) && p.s[p.i] == ']' {
		p.i++
		return p.vm.NewArray(), true
	}
	for {
		p.space()
		v, ok := p.value(depth + 1)
		if !ok {
			return nil, false
		}
		items = append(items, v)
		p.space()
		if p.i >= len(p.s) {
			return nil, false
		}
		switch p.s[p.i] {
		case ',':
			p.i++
		case ']':
			p.i++
			return p.vm.NewArray(items...), true
		default:
			return nil, false
		}
	}
}

// str reads a string literal. One without escapes is a slice of s.
func (p *jsonReader) str() (string, bool) {
	start := p.i
	p.i++ // "
	for p.i < len(p.s) {
		c := p.s[p.i]
		switch {
		case c == '"':
			p.i++
			return p.s[start+1 : p.i-1], true
		case c == '\\':
			return p.escaped(start)
		case c < 0x20:
			return "", false
		}
		p.i++
	}
	return "", false
}

// escaped finishes a string literal with escapes, which encoding/json
// decodes. A \u escape of a surrogate half is left to JSON.parse: a lone
// half cannot live in a Go string, and this path is rare enough that a
// pair need not be told apart from one.
func (p *jsonReader) escaped(start int) (string, bool) {
	for p.i < len(p.s) {
		switch c := p.s[p.i]; {
		case c == '"':
			p.i++
			lit := p.s[start:p.i]
			var out string
			if json.Unmarshal([]byte(lit), &out) != nil {
				return "", false
			}
			return out, true
		case c == '\\':
			if p.i+1 >= len(p.s) {
				return "", false
			}
			if p.s[p.i+1] == 'u' {
				if p.i+6 > len(p.s) {
					return "", false
				}
				if h := strings.ToLower(p.s[p.i+2 : p.i+4]); h >= "d8" && h <= "df" {
					return "", false
				}
			}
			p.i += 2
		case c < 0x20:
			return "", false
		default:
			p.i++
		}
	}
	return "", false
}

// number reads a JSON number; integers JS can hold exactly become int64
// values, as goja's JSON.parse makes them.
func (p *jsonReader) number() (goja.Value, bool) {
	start := p.i
	if p.s[p.i] == '-' {
		p.i++
	}
	digits := func() int {
		n := 0
		for p.i < len(p.s) && p.s[p.i] >= '0' && p.s[p.i] <= '9' {
			p.i++
			n++
		}
		return n
	}
	intStart := p.i
	if digits() == 0 || (p.s[intStart] == '0' && p.i-intStart > 1) {
		return nil, false
	}
	integer := true
	if p.i < len(p.s) && p.s[p.i] == '.' {
		p.i++
		if digits() == 0 {
			return nil, false
		}
		integer = false
	}
	if p.i < len(p.s) && (p.s[p.i] == 'e' || p.s[p.i] == 'E') {
		p.i++
		if p.i < len(p.s) && (p.s[p.i] == '+' || p.s[p.i] == '-') {
			p.i++
		}
		if digits() == 0 {
			return nil, false
		}
		integer = false
	}
	lit := p.s[start:p.i]
	if integer && lit != "-0" {
		if n, err := strconv.ParseInt(lit, 10, 64); err == nil && n >= -(1<<53) && n <= 1<<53 {
			return p.vm.ToValue(n), true
		}
	}
	f, err := strconv.ParseFloat(lit, 64)
	if err != nil && !math.IsInf(f, 0) {
		return nil, false
	}
	return p.vm.ToValue(f), true
}
