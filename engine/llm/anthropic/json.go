package anthropic

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/pi-go/pi/engine"
)

// kv is one member of an ordered JSON object.
type kv struct {
	key string
	val any
}

// obj is a JSON object that keeps its keys in insertion order, because the
// reference builds its request with object literals and JSON.stringify
// writes keys in construction order.
type obj []kv

// set replaces the value of key, or appends key when it is new.
func (o *obj) set(key string, val any) {
	for i := range *o {
		if (*o)[i].key == key {
			(*o)[i].val = val
			return
		}
	}
	*o = append(*o, kv{key, val})
}

// get returns the value of key.
func (o obj) get(key string) (any, bool) {
	for _, m := range o {
		if m.key == key {
			return m.val, true
		}
	}
	return nil, false
}

// MarshalJSON writes the members in order.
func (o obj) MarshalJSON() ([]byte, error) {
	var buf bytes.Buffer
	buf.WriteByte('{')
	for i, m := range o {
		if i > 0 {
			buf.WriteByte(',')
		}
		k, err := engine.MarshalJSON(m.key)
		if err != nil {
			return nil, err
		}
		buf.Write(k)
		buf.WriteByte(':')
		var v []byte
		if raw, ok := m.val.(json.RawMessage); ok {
			if len(raw) == 0 {
				raw = json.RawMessage("null")
			}
			v = raw
		} else {
			v, err = engine.MarshalJSON(m.val)
			if err != nil {
				return nil, fmt.Errorf("key %q: %w", m.key, err)
			}
		}
		buf.Write(v)
	}
	buf.WriteByte('}')
	return buf.Bytes(), nil
}

// orderedObject splits a JSON object into its members, raw values kept, so a
// body returned by a payload hook can be adjusted without reordering it.
func orderedObject(b []byte) (obj, error) {
	keys, vals, err := engine.SplitObject(b)
	if err != nil {
		return nil, err
	}
	out := make(obj, len(keys))
	for i, k := range keys {
		out[i] = kv{k, vals[i]}
	}
	return out, nil
}
