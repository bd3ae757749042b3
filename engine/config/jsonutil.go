package config

import (
	"bytes"
	"encoding/json"

	"github.com/pi-go/pi/internal/jsonx"
)

// stripJSONComments removes // and /* */ comments outside strings, since
// models.json may carry them (the reference strips them before parsing).
func stripJSONComments(b []byte) []byte {
	if !bytes.Contains(b, []byte("/")) {
		return b
	}
	out := make([]byte, 0, len(b))
	inStr := false
	for i := 0; i < len(b); i++ {
		c := b[i]
		if inStr {
			out = append(out, c)
			if c == '\\' && i+1 < len(b) {
				out = append(out, b[i+1])
				i++
			} else if c == '"' {
				inStr = false
			}
			continue
		}
		if c == '"' {
			inStr = true
			out = append(out, c)
			continue
		}
		if c == '/' && i+1 < len(b) && b[i+1] == '/' {
			for i < len(b) && b[i] != '\n' {
				i++
			}
			if i < len(b) {
				out = append(out, '\n')
			}
			continue
		}
		if c == '/' && i+1 < len(b) && b[i+1] == '*' {
			end := bytes.Index(b[i+2:], []byte("*/"))
			if end < 0 {
				break
			}
			i += end + 3
			continue
		}
		out = append(out, c)
	}
	return out
}

// mergeRawObjects is JavaScript's {...base, ...override} on two JSON
// objects: base's keys in their order (with overridden values), then the
// new keys of override in theirs. The keys named in nested are themselves
// merged one level deep. Either side may be empty.
func mergeRawObjects(base, override json.RawMessage, nested ...string) json.RawMessage {
	if len(override) == 0 {
		return base
	}
	if len(base) == 0 && len(nested) == 0 {
		return override
	}
	// What is not an object contributes no keys, as a spread of it would
	// (a string's characters aside: compat values are objects).
	bf, _ := jsonx.Members(base)
	of, _ := jsonx.Members(override)
	var out jsonx.Object
	for _, f := range bf {
		out = out.Put(f.Key, f.Value)
	}
	for _, f := range of {
		out = out.Put(f.Key, f.Value)
	}
	for _, n := range nested {
		b, o := objectMember(bf, n), objectMember(of, n)
		if b == nil && o == nil {
			continue
		}
		m := mergeRawObjects(b, o)
		if len(m) == 0 {
			m = json.RawMessage("{}")
		}
		out = out.Put(n, m)
	}
	for i, f := range out {
		out[i].Value = compactRaw(f.Value.(json.RawMessage))
	}
	b, _ := out.MarshalJSON()
	return b
}

// objectMember is the first member k of fields when it is a JSON object.
func objectMember(fields jsonx.Object, k string) json.RawMessage {
	v, _ := fields.Get(k)
	raw, _ := v.(json.RawMessage)
	if t := bytes.TrimSpace(raw); len(t) == 0 || t[0] != '{' {
		return nil
	}
	return raw
}

// compactRaw returns v compacted, or v itself if it is not valid JSON.
func compactRaw(v json.RawMessage) json.RawMessage {
	if len(v) == 0 {
		return nil
	}
	var c bytes.Buffer
	if json.Compact(&c, v) != nil {
		return v
	}
	return c.Bytes()
}
