package llm

import (
	"bytes"
	"encoding/json"
)

// ParseStreamingJSON turns the tool-call arguments streamed so far into a
// JSON object. Complete JSON is compacted as is (key order kept); truncated
// JSON is repaired by closing open strings, arrays and objects and by
// dropping a dangling key, comma or partial literal. Anything that cannot
// be repaired, or that is not an object, gives "{}".
func ParseStreamingJSON(s string) json.RawMessage {
	b := bytes.TrimSpace([]byte(s))
	if len(b) == 0 {
		return json.RawMessage("{}")
	}
	if json.Valid(b) {
		return objectOrEmpty(b)
	}
	if r := repairJSON(b); r != nil {
		return objectOrEmpty(r)
	}
	return json.RawMessage("{}")
}

func objectOrEmpty(b []byte) json.RawMessage {
	var buf bytes.Buffer
	if json.Compact(&buf, b) != nil || buf.Len() == 0 || buf.Bytes()[0] != '{' {
		return json.RawMessage("{}")
	}
	return json.RawMessage(buf.Bytes())
}

// maxRepairTrim bounds how many trailing bytes repair may drop, so a
// pathological stream costs little per delta.
const maxRepairTrim = 256

// repairJSON closes a truncated JSON text. It trims the tail back to a
// point where closing the open containers yields valid JSON.
func repairJSON(b []byte) []byte {
	for trim := 0; trim <= maxRepairTrim && trim < len(b); trim++ {
		prefix := b[:len(b)-trim]
		if c := closeJSON(prefix); c != nil && json.Valid(c) {
			return c
		}
	}
	return nil
}

// closeJSON appends the closers a prefix needs: a quote when it stops
// inside a string, then the brackets of every open container. A trailing
// comma or colon is removed first (a colon takes its key with it).
func closeJSON(p []byte) []byte {
	var stack []byte
	inString, escaped := false, false
	for _, c := range p {
		if inString {
			switch {
			case escaped:
				escaped = false
			case c == '\\':
				escaped = true
			case c == '"':
				inString = false
			}
			continue
		}
		switch c {
		case '"':
			inString = true
		case '{', '[':
			stack = append(stack, c)
		case '}', ']':
			if len(stack) == 0 {
				return nil
			}
			stack = stack[:len(stack)-1]
		}
	}
	out := append([]byte(nil), p...)
	if inString {
		if escaped {
			out = out[:len(out)-1]
		}
		out = append(out, '"')
	}
	out = bytes.TrimRight(out, " \t\r\n")
	if len(out) > 0 && out[len(out)-1] == ',' {
		out = out[:len(out)-1]
	}
	for i := len(stack) - 1; i >= 0; i-- {
		if stack[i] == '{' {
			out = append(out, '}')
		} else {
			out = append(out, ']')
		}
	}
	return out
}
