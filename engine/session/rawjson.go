package session

import (
	"bytes"
	"encoding/json"

	"github.com/pi-go/pi/internal/jsonx"
)

// object is a JSON object that keeps its key order and raw values. The
// migration edits files written by other versions in place, and the
// reference appends new keys after the existing ones; a Go struct or map
// would reorder them. Every value is a json.RawMessage.
type object struct{ fields jsonx.Object }

func parseObject(b []byte) (*object, error) {
	f, err := jsonx.Members(b)
	if err != nil {
		return nil, err
	}
	return &object{fields: f}, nil
}

func (o *object) get(k string) (json.RawMessage, bool) {
	v, ok := o.fields.Get(k)
	r, _ := v.(json.RawMessage)
	return r, ok
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
		raw, _ = jsonx.Marshal(x)
	}
	o.fields = o.fields.Put(k, raw)
}

func (o *object) del(k string) { o.fields = o.fields.Delete(k) }

// bytes writes the object back compact, keys in order.
func (o *object) bytes() []byte {
	out := make(jsonx.Object, len(o.fields))
	for i, f := range o.fields {
		out[i] = f
		var c bytes.Buffer
		if json.Compact(&c, f.Value.(json.RawMessage)) == nil {
			out[i].Value = json.RawMessage(c.Bytes())
		}
	}
	b, _ := out.MarshalJSON()
	return b
}
