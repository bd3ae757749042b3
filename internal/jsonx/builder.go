package jsonx

import "encoding/json"

// Builder writes a JSON object key by key, in the order the keys are set,
// into one buffer. The reference serialises objects in construction order
// and omits undefined keys, which struct tags cannot express for union
// types. An error from a value is kept and returned by Bytes; the calls
// after it do nothing.
type Builder struct {
	buf   []byte
	start int // offset of this object's '{' in buf
	err   error
}

// NewBuilder starts an object in a fresh buffer.
func NewBuilder() *Builder {
	// One allocation that fits most records (a text delta, a usage
	// object) saves the repeated growth of a small buffer.
	return NewBuilderAt(make([]byte, 0, 512))
}

// NewBuilderAt starts an object at the end of dst, so that a nested value
// that implements Appender writes straight into its parent's buffer.
func NewBuilderAt(dst []byte) *Builder {
	if dst == nil {
		dst = make([]byte, 0, 256)
	}
	return &Builder{buf: append(dst, '{'), start: len(dst)}
}

// Set writes key: value, whatever the value; an empty json.RawMessage is
// written as null.
func (o *Builder) Set(key string, v any) *Builder {
	if o.err != nil {
		return o
	}
	b := o.buf
	if len(b) > o.start+1 {
		b = append(b, ',')
	}
	b = AppendString(b, key)
	b = append(b, ':')
	if raw, isRaw := v.(json.RawMessage); isRaw && len(raw) == 0 {
		b = append(b, "null"...)
	} else if nb, ok, err := appendValue(b, v); ok {
		if err != nil {
			o.err = err
			return o
		}
		b = nb
	} else {
		vb, err := Marshal(v)
		if err != nil {
			o.err = err
			return o
		}
		b = append(b, vb...)
	}
	o.buf = b
	return o
}

// Opt writes key: value unless the value is the zero value of its kind
// (empty string, nil, empty raw message, nil pointer to a scalar), the
// way JSON.stringify leaves out an undefined property.
func (o *Builder) Opt(key string, v any) *Builder {
	switch x := v.(type) {
	case string:
		if x == "" {
			return o
		}
	case json.RawMessage:
		if len(x) == 0 {
			return o
		}
	case *int:
		if x == nil {
			return o
		}
	case *int64:
		if x == nil {
			return o
		}
	case *bool:
		if x == nil {
			return o
		}
	case *string:
		if x == nil {
			return o
		}
	case *float64:
		if x == nil {
			return o
		}
	case nil:
		return o
	}
	return o.Set(key, v)
}

// Bytes closes the object and returns the whole buffer (the caller's dst
// included, for NewBuilderAt), or the first error a value gave.
func (o *Builder) Bytes() ([]byte, error) {
	if o.err != nil {
		return nil, o.err
	}
	return append(o.buf, '}'), nil
}
