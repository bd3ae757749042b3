package engine

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
)

// ValidateToolArgs coerces and validates a tool call's arguments against
// the tool's JSON Schema, the way the reference does before executing a
// call: a null for an optional property is dropped, strings become
// numbers or booleans where the schema asks for them (and scalars become
// strings), a single value becomes a one-element array, and a union takes
// the first branch the value converts to. It returns the coerced
// arguments, or an error whose text is the one the model sees: one line
// per failing keyword, at the dotted path of the value it failed on, then
// the arguments as received.
//
// The schema may use any keyword of JSON Schema 2020-12 (and draft 7's
// items arrays and dependencies): $ref into $defs or definitions, by
// $anchor or $id, allOf/anyOf/oneOf/not/if, format checks, and so on. A
// $ref that names nothing rejects only the values at its place.
func ValidateToolArgs(toolName string, schema, args json.RawMessage) (json.RawMessage, error) {
	if len(bytes.TrimSpace(args)) == 0 {
		args = json.RawMessage("{}")
	}
	v, err := parseJV(args)
	if err != nil {
		return nil, fmt.Errorf("Invalid arguments for tool %q: %s\n\nReceived arguments:\n%s", toolName, err.Error(), string(args))
	}
	if len(bytes.TrimSpace(schema)) == 0 {
		return args, nil
	}
	doc, err := loadSchemaDoc(schema)
	if err != nil {
		return args, nil //nolint:nilerr // an unreadable schema accepts anything, like an empty one
	}
	run := newSchemaRun(doc)
	coerced := (&coercer{d: run}).coerce(v)
	var errs []schemaErr
	run.walk(doc.root, defaultSchemaBase, coerced, "", &errs)
	if len(errs) == 0 {
		return coerced.bytes(), nil
	}
	lines := make([]string, len(errs))
	for i, e := range errs {
		lines[i] = "  - " + dottedPath(e.path) + ": " + e.msg
	}
	return nil, fmt.Errorf("Validation failed for tool %q:\n%s\n\nReceived arguments:\n%s", toolName, strings.Join(lines, "\n"), v.stringify("  "))
}
