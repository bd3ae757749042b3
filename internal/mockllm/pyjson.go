package mockllm

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"

	"github.com/pi-go/pi/internal/jsonx"
)

// The Python mock writes JSON with json.dumps: ", " and ": " separators,
// and either raw non-ASCII (ensure_ascii=False, used for streamed events)
// or \uXXXX escapes (the default, used for fault and whole bodies). These
// helpers reproduce those bytes so streams match the Python mock exactly.

// obj is a JSON object with ordered keys, spelled short for the event
// literals (a jsonx.Object would need keyed fields there).
type obj []kv

type kv struct {
	k string
	v any
}

// raw is JSON text re-emitted in Python's style.
type raw json.RawMessage

func pyDumps(v any, ascii bool) []byte {
	var b bytes.Buffer
	writePy(&b, v, ascii)
	return b.Bytes()
}

func writePy(b *bytes.Buffer, v any, ascii bool) {
	switch x := v.(type) {
	case nil:
		b.WriteString("null")
	case bool:
		if x {
			b.WriteString("true")
		} else {
			b.WriteString("false")
		}
	case int:
		b.WriteString(strconv.Itoa(x))
	case string:
		writePyString(b, x, ascii)
	case obj:
		b.WriteByte('{')
		for i, e := range x {
			if i > 0 {
				b.WriteString(", ")
			}
			writePyString(b, e.k, ascii)
			b.WriteString(": ")
			writePy(b, e.v, ascii)
		}
		b.WriteByte('}')
	case []any:
		b.WriteByte('[')
		for i, e := range x {
			if i > 0 {
				b.WriteString(", ")
			}
			writePy(b, e, ascii)
		}
		b.WriteByte(']')
	case jsonx.Object:
		o := make(obj, len(x))
		for i, f := range x {
			o[i] = kv{f.Key, f.Value}
		}
		writePy(b, o, ascii)
	case json.Number:
		b.WriteString(x.String())
	case raw:
		writeRawPy(b, json.RawMessage(x), ascii)
	default:
		panic(fmt.Sprintf("mockllm: cannot encode %T", v))
	}
}

// writeRawPy re-emits arbitrary JSON text with Python's separators,
// keeping key order and number literals. A repeated key is written once,
// in its first place with its last value, as json.loads would leave it.
// Text that is not JSON is written as it is.
func writeRawPy(b *bytes.Buffer, r json.RawMessage, ascii bool) {
	v, err := jsonx.Decode(r)
	if err != nil {
		b.Write(r)
		return
	}
	writePy(b, v, ascii)
}

func writePyString(b *bytes.Buffer, s string, ascii bool) {
	b.WriteByte('"')
	for _, r := range s {
		switch r {
		case '"':
			b.WriteString(`\"`)
		case '\\':
			b.WriteString(`\\`)
		case '\n':
			b.WriteString(`\n`)
		case '\r':
			b.WriteString(`\r`)
		case '\t':
			b.WriteString(`\t`)
		case '\b':
			b.WriteString(`\b`)
		case '\f':
			b.WriteString(`\f`)
		default:
			switch {
			case r < 0x20:
				fmt.Fprintf(b, `\u%04x`, r)
			case ascii && r > 0x7f:
				if r >= 0x10000 {
					r -= 0x10000
					fmt.Fprintf(b, `\u%04x\u%04x`, 0xd800+(r>>10), 0xdc00+(r&0x3ff))
				} else {
					fmt.Fprintf(b, `\u%04x`, r)
				}
			default:
				b.WriteRune(r)
			}
		}
	}
	b.WriteByte('"')
}
