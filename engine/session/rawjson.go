package session

import (
	"bytes"
	"encoding/json"

	"github.com/pi-go/pi/engine"
)

// object is a JSON object that keeps its key order and raw values. The
// migration edits files written by other versions in place, and the
// reference appends new keys after the existing ones; a Go struct or map
// would reorder them.
type object struct {
	keys []string
	vals []json.RawMessage
}

func parseObject(b []byte) (*object, error) {
	keys, vals, err := engine.SplitObject(b)
	if err != nil {
		return nil, err
	}
	return &object{keys: keys, vals: vals}, nil
}

func (o *object) index(k string) int {
	for i, key := range o.keys {
		if key == k {
			return i
		}
	}
	return -1
}

func (o *object) get(k string) (json.RawMessage, bool) {
	if i := o.index(k); i >= 0 {
		return o.vals[i], true
	}
	return nil, false
}

// getString returns the value of k if it is a JSON string.
func (o *object) getString(k string) (string, bool) {
	v, ok := o.get(k)
	if !ok {
		return "", false
	}
	var s string
	if json.Unmarshal(v, &s) != nil {
		return "", false
	}
	return s, true
}

// set replaces the value of k where it stands, or appends k, like a
// JavaScript property assignment.
func (o *object) set(k string, v any) {
	var raw json.RawMessage
	switch x := v.(type) {
	case json.RawMessage:
		raw = x
	case []byte:
		raw = x
	default:
		raw, _ = json.Marshal(x)
	}
	if i := o.index(k); i >= 0 {
		o.vals[i] = raw
		return
	}
	o.keys = append(o.keys, k)
	o.vals = append(o.vals, raw)
}

func (o *object) del(k string) {
	if i := o.index(k); i >= 0 {
		o.keys = append(o.keys[:i], o.keys[i+1:]...)
		o.vals = append(o.vals[:i], o.vals[i+1:]...)
	}
}

func (o *object) bytes() []byte {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, k := range o.keys {
		if i > 0 {
			b.WriteByte(',')
		}
		kb, _ := json.Marshal(k)
		b.Write(kb)
		b.WriteByte(':')
		var c bytes.Buffer
		if json.Compact(&c, o.vals[i]) == nil {
			b.Write(c.Bytes())
		} else {
			b.Write(o.vals[i])
		}
	}
	b.WriteByte('}')
	return b.Bytes()
}
