package config

import (
	"bytes"
	"encoding/json"
	"slices"
	"sort"
	"strconv"

	"github.com/pi-go/pi/engine"
	"github.com/pi-go/pi/internal/jsonx"
)

// keyOrder records the key order of a settings file's objects: Go maps
// forget it, and pi.getSettings() shows the merged object with the order
// the reference's object spread gives it (the global file's keys as
// written, then the project's new ones; nested objects alike).
type keyOrder struct {
	keys []string
	kids map[string]*keyOrder
}

// decodeKeyOrder reads the key order of a JSON document; nil when it is
// not valid JSON. A repeated key keeps its first position and its last
// value's order, as in JSON.parse (jsonx.Decode does both).
func decodeKeyOrder(b []byte) *keyOrder {
	v, err := jsonx.Decode(b)
	if err != nil {
		return nil
	}
	return orderOf(v)
}

// orderOf is the key order of a decoded value, nil for a scalar. Array
// elements are recorded under their index.
func orderOf(v any) *keyOrder {
	var o *keyOrder
	switch x := v.(type) {
	case jsonx.Object:
		o = &keyOrder{keys: make([]string, 0, len(x)), kids: map[string]*keyOrder{}}
		for _, f := range x {
			o.keys = append(o.keys, f.Key)
			if kid := orderOf(f.Value); kid != nil {
				o.kids[f.Key] = kid
			}
		}
	case []any:
		o = &keyOrder{kids: map[string]*keyOrder{}}
		for i, e := range x {
			if kid := orderOf(e); kid != nil {
				o.kids[strconv.Itoa(i)] = kid
			}
		}
	}
	return o
}

// kid returns the order of the value under key, nil when unknown.
func (o *keyOrder) kid(key string) *keyOrder {
	if o == nil {
		return nil
	}
	return o.kids[key]
}

// mergeKeyOrder is the order of deepMergeObjects(base, override): base's
// keys, then override's new ones.
func mergeKeyOrder(base, override *keyOrder) *keyOrder {
	if base == nil {
		return override
	}
	if override == nil {
		return base
	}
	out := &keyOrder{keys: slices.Clone(base.keys), kids: map[string]*keyOrder{}}
	for k, v := range base.kids {
		out.kids[k] = v
	}
	for _, k := range override.keys {
		if !slices.Contains(out.keys, k) {
			out.keys = append(out.keys, k)
		}
	}
	for k, v := range override.kids {
		out.kids[k] = mergeKeyOrder(out.kids[k], v)
	}
	return out
}

// MergedJSON is the merged settings object as pi.getSettings() shows it:
// keys in the reference's order (integer-like keys first, as in any
// JavaScript object), keys the files did not have (set since, or renamed
// by a migration) after the others.
func (s *Settings) MergedJSON() (json.RawMessage, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	var buf bytes.Buffer
	if err := writeOrdered(&buf, s.merged, mergeKeyOrder(s.globalOrder, s.projectOrder)); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

func writeOrdered(buf *bytes.Buffer, v any, o *keyOrder) error {
	switch x := v.(type) {
	case map[string]any:
		buf.WriteByte('{')
		for i, k := range orderedKeys(x, o) {
			if i > 0 {
				buf.WriteByte(',')
			}
			kb, err := engine.MarshalJSON(k)
			if err != nil {
				return err
			}
			buf.Write(kb)
			buf.WriteByte(':')
			if err := writeOrdered(buf, x[k], o.kid(k)); err != nil {
				return err
			}
		}
		buf.WriteByte('}')
		return nil
	case []any:
		buf.WriteByte('[')
		for i, e := range x {
			if i > 0 {
				buf.WriteByte(',')
			}
			if err := writeOrdered(buf, e, o.kid(strconv.Itoa(i))); err != nil {
				return err
			}
		}
		buf.WriteByte(']')
		return nil
	}
	b, err := engine.MarshalJSON(v)
	if err != nil {
		return err
	}
	buf.Write(b)
	return nil
}

// orderedKeys lists m's keys: array-index keys ascending, then the
// recorded order, then keys without a recorded place, sorted.
func orderedKeys(m map[string]any, o *keyOrder) []string {
	var index, named []string
	placed := map[string]bool{}
	if o != nil {
		for _, k := range o.keys {
			if _, ok := m[k]; ok && !placed[k] {
				placed[k] = true
				if isIndexKey(k) {
					index = append(index, k)
				} else {
					named = append(named, k)
				}
			}
		}
	}
	var rest []string
	for k := range m {
		if placed[k] {
			continue
		}
		if isIndexKey(k) {
			index = append(index, k)
		} else {
			rest = append(rest, k)
		}
	}
	sort.Slice(index, func(i, j int) bool {
		a, _ := strconv.ParseUint(index[i], 10, 32)
		b, _ := strconv.ParseUint(index[j], 10, 32)
		return a < b
	})
	sort.Strings(rest)
	return append(append(index, named...), rest...)
}

// isIndexKey reports whether k is a canonical array index, which
// JavaScript objects list first in ascending order.
func isIndexKey(k string) bool {
	n, err := strconv.ParseUint(k, 10, 32)
	return err == nil && n < 1<<32-1 && strconv.FormatUint(n, 10) == k
}
