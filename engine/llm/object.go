package llm

import (
	"bytes"
	"encoding/json"

	"github.com/pi-go/pi/engine"
)

// Field is one key of an Object.
type Field struct {
	Key   string
	Value any
}

// Object is a JSON object that keeps its keys in order. Request bodies
// are built with it because the reference's bodies have a fixed key order
// that struct tags cannot express for optional fields. Values are
// marshalled with engine.MarshalJSON; json.RawMessage is written as is.
type Object []Field

// Set appends a key.
func (o Object) Set(k string, v any) Object { return append(o, Field{k, v}) }

// MarshalJSON writes the keys in order.
func (o Object) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, f := range o {
		if i > 0 {
			b.WriteByte(',')
		}
		k, err := engine.MarshalJSON(f.Key)
		if err != nil {
			return nil, err
		}
		b.Write(k)
		b.WriteByte(':')
		var v []byte
		if r, ok := f.Value.(json.RawMessage); ok {
			if len(r) == 0 {
				r = json.RawMessage("null")
			}
			v = r
		} else if v, err = engine.MarshalJSON(f.Value); err != nil {
			return nil, err
		}
		b.Write(v)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// CompactArgs returns tool-call arguments as compact JSON text, the form
// JSON.stringify gives the parsed object when a call is replayed.
func CompactArgs(args json.RawMessage) string {
	if len(args) == 0 {
		return "{}"
	}
	var b bytes.Buffer
	if json.Compact(&b, args) != nil {
		return "{}"
	}
	return b.String()
}
