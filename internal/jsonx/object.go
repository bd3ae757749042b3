package jsonx

import (
	"bytes"
	"encoding/json"
)

// Field is one member of an Object.
type Field struct {
	Key   string
	Value any
}

// Object is a JSON object that keeps its keys in order, for values that
// are built or edited field by field (request bodies, records migrated in
// place, schemas rewritten for a provider). Values are written with
// Marshal, except that a json.RawMessage is written as it is (the caller
// vouches for it; an empty one is null). It may hold a key twice when it
// was built so (Set, Members); Put and Decode never make a duplicate.
type Object []Field

// Set appends a key, even one the object has already.
func (o Object) Set(k string, v any) Object { return append(o, Field{k, v}) }

// Put sets k where it stands, or appends it when o does not have it, as a
// JavaScript property assignment does.
func (o Object) Put(k string, v any) Object {
	if i := o.Index(k); i >= 0 {
		o[i].Value = v
		return o
	}
	return o.Set(k, v)
}

// Index is the position of the first field named k, or -1.
func (o Object) Index(k string) int {
	for i := range o {
		if o[i].Key == k {
			return i
		}
	}
	return -1
}

// Get returns the value of the first field named k.
func (o Object) Get(k string) (any, bool) {
	if i := o.Index(k); i >= 0 {
		return o[i].Value, true
	}
	return nil, false
}

// Delete removes the first field named k, keeping the others' order. It
// edits o's backing array, like append.
func (o Object) Delete(k string) Object {
	if i := o.Index(k); i >= 0 {
		return append(o[:i], o[i+1:]...)
	}
	return o
}

// MarshalJSON writes the fields in order.
func (o Object) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	var buf []byte
	for i, f := range o {
		if i > 0 {
			b.WriteByte(',')
		}
		buf = AppendString(buf[:0], f.Key)
		b.Write(buf)
		b.WriteByte(':')
		if r, ok := f.Value.(json.RawMessage); ok {
			if len(r) == 0 {
				r = json.RawMessage("null")
			}
			b.Write(r)
			continue
		}
		v, err := Marshal(f.Value)
		if err != nil {
			return nil, err
		}
		b.Write(v)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}
