package anthropic

import (
	"bytes"
	"encoding/json"
	"strconv"
)

// transformationsDiagnostic is the anthropic_input_transformations
// diagnostic of a response: the changes Anthropic reported making to the
// request's input, each reduced to its type, path and reason (absent
// ones left out), as the reference records them. The transcript's
// dropped-thinking notice reads it (engine/cachewarm).
func transformationsDiagnostic(ts []json.RawMessage, now int64) json.RawMessage {
	var b bytes.Buffer
	b.WriteString(`{"type":"anthropic_input_transformations","timestamp":`)
	b.WriteString(strconv.FormatInt(now, 10))
	b.WriteString(`,"details":{"transformations":[`)
	for i, raw := range ts {
		if i > 0 {
			b.WriteByte(',')
		}
		var t map[string]json.RawMessage
		_ = json.Unmarshal(raw, &t)
		b.WriteByte('{')
		first := true
		for _, k := range []string{"type", "path", "reason"} {
			v, ok := t[k]
			if !ok || string(v) == "null" {
				continue
			}
			var c bytes.Buffer
			if json.Compact(&c, v) != nil {
				continue
			}
			if !first {
				b.WriteByte(',')
			}
			first = false
			b.WriteString(strconv.Quote(k))
			b.WriteByte(':')
			b.Write(c.Bytes())
		}
		b.WriteByte('}')
	}
	b.WriteString(`]}}`)
	return b.Bytes()
}

// appendDiagnostic adds d to a message's diagnostics array.
func appendDiagnostic(list json.RawMessage, d json.RawMessage) json.RawMessage {
	var raw []json.RawMessage
	_ = json.Unmarshal(list, &raw)
	items := make([][]byte, 0, len(raw)+1)
	for _, r := range raw {
		items = append(items, r)
	}
	items = append(items, d)
	// Joined by hand: json.Marshal would escape <, > and & inside them.
	return append(append([]byte{'['}, bytes.Join(items, []byte{','})...), ']')
}
