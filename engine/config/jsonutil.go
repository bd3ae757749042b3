package config

import (
	"bytes"
	"encoding/json"

	"github.com/tidwall/gjson"
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
	type kv struct {
		k string
		v json.RawMessage
	}
	var keys []kv
	idx := map[string]int{}
	add := func(src json.RawMessage) {
		gjson.ParseBytes(src).ForEach(func(k, v gjson.Result) bool {
			raw := json.RawMessage(v.Raw)
			if i, ok := idx[k.String()]; ok {
				keys[i].v = raw
			} else {
				idx[k.String()] = len(keys)
				keys = append(keys, kv{k.String(), raw})
			}
			return true
		})
	}
	add(base)
	add(override)
	for _, n := range nested {
		bv := gjson.GetBytes(base, escapeGJSON(n))
		ov := gjson.GetBytes(override, escapeGJSON(n))
		if (bv.IsObject() || ov.IsObject()) && (bv.Exists() || ov.Exists()) {
			var b, o json.RawMessage
			if bv.IsObject() {
				b = json.RawMessage(bv.Raw)
			}
			if ov.IsObject() {
				o = json.RawMessage(ov.Raw)
			}
			m := mergeRawObjects(b, o)
			if len(m) == 0 {
				m = json.RawMessage("{}")
			}
			keys[idx[n]].v = m
		}
	}
	var buf bytes.Buffer
	buf.WriteByte('{')
	for i, e := range keys {
		if i > 0 {
			buf.WriteByte(',')
		}
		kb, _ := json.Marshal(e.k)
		buf.Write(kb)
		buf.WriteByte(':')
		var c bytes.Buffer
		if json.Compact(&c, e.v) == nil {
			buf.Write(c.Bytes())
		} else {
			buf.Write(e.v)
		}
	}
	buf.WriteByte('}')
	return buf.Bytes()
}

func escapeGJSON(k string) string { return sjsonPath([]string{k}) }

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
