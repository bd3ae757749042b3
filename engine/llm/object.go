package llm

import (
	"bytes"
	"encoding/json"

	"github.com/pi-go/pi/internal/jsonx"
)

// Field is one key of an Object.
type Field = jsonx.Field

// Object is a JSON object that keeps its keys in order (jsonx.Object).
// Request bodies are built with it because the reference's bodies have a
// fixed key order that struct tags cannot express for optional fields.
// Values are marshalled with engine.MarshalJSON; json.RawMessage is
// written as is.
type Object = jsonx.Object

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
