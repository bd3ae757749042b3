package rpc

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/pi-go/pi/engine"
)

// Command is one decoded input record. ID is the client's id exactly as
// sent (any JSON value, or nil when absent); Type is "" when the record had
// no string "type". Raw keeps the whole object for the handler's own
// fields.
type Command struct {
	ID      json.RawMessage
	Type    string
	HasType bool
	Raw     json.RawMessage
	// TypeRaw is the type as sent when it was not a string (a number, an
	// object); responses echo it in that form, as the reference does.
	TypeRaw json.RawMessage
}

// DecodeError is a record that could not be read as a command. Response
// is the reply to send.
type DecodeError struct {
	Response Response
}

func (e *DecodeError) Error() string { return e.Response.Error }

// Decode reads one record. A record that is not JSON yields the "parse"
// failure response; JSON that is not an object (including null, which
// crashes the reference) yields "Unknown command: undefined" without a
// command key, as the reference answers non-object values.
//
// A record that is not valid UTF-8 has each ill-formed sequence replaced
// by U+FFFD first, as the reference's UTF-8 decoding of stdin does before
// JSON.parse sees it, so nothing echoed from a record can put invalid
// UTF-8 on the wire.
func Decode(line []byte) (*Command, error) {
	trimmed := engine.ToValidUTF8(bytes.TrimSpace(line))
	if !json.Valid(trimmed) {
		return nil, &DecodeError{Response: Response{
			Command: "parse", HasCommand: true,
			Error: "Failed to parse command: " + parseErrorText(trimmed),
		}}
	}
	if len(trimmed) == 0 || trimmed[0] != '{' {
		return nil, &DecodeError{Response: Response{Error: "Unknown command: undefined"}}
	}
	// Keys match exactly and a repeated key keeps its last value, as
	// JSON.parse reads them: encoding/json's case-insensitive matching
	// would let {"type":"get_state","TYPE":"bash"} run bash.
	var id, typ []byte
	for _, m := range objectMembers(trimmed) {
		switch m.key {
		case "id":
			id = m.val
		case "type":
			typ = m.val
		}
	}
	cmd := &Command{Raw: json.RawMessage(trimmed)}
	if id != nil {
		cmd.ID = engine.CanonicalJSON(id)
	}
	switch {
	case typ == nil:
		return cmd, &DecodeError{Response: Response{ID: cmd.ID, Error: "Unknown command: undefined"}}
	case typ[0] == '"':
		var t string
		if err := json.Unmarshal(typ, &t); err != nil {
			return cmd, &DecodeError{Response: Response{ID: cmd.ID, Error: "Unknown command: undefined"}}
		}
		cmd.Type, cmd.HasType = t, true
		return cmd, nil
	}
	// A type that is not a string (null, a number, an array holding a
	// command name) never names a command: the reference compares it
	// with strict equality, so it answers "Unknown command" with the type
	// named as String() prints it and echoed as sent.
	cmd.Type, cmd.HasType, cmd.TypeRaw = jsPrint(typ), true, engine.CanonicalJSON(typ)
	return cmd, &DecodeError{Response: Fail(cmd, fmt.Errorf("Unknown command: %s", cmd.Type))}
}

// member is one key of a JSON object and its raw value.
type member struct {
	key string
	val []byte
}

// objectMembers lists the members of the valid JSON object b in document
// order, with keys unescaped. A key that appears more than once is listed
// once, at its first position, with its last value: the object JSON.parse
// builds.
func objectMembers(b []byte) []member {
	var out []member
	i := skipSpace(b, 0)
	if i >= len(b) || b[i] != '{' {
		return nil
	}
	i = skipSpace(b, i+1)
	for i < len(b) && b[i] == '"' {
		end := skipValue(b, i)
		rawKey := b[i:end]
		var key string
		if bytes.IndexByte(rawKey, '\\') < 0 {
			key = string(rawKey[1 : len(rawKey)-1])
		} else if json.Unmarshal(rawKey, &key) != nil {
			return out
		}
		i = skipSpace(b, end)
		if i >= len(b) || b[i] != ':' {
			return out
		}
		i = skipSpace(b, i+1)
		end = skipValue(b, i)
		val := b[i:end]
		dup := false
		for k := range out {
			if out[k].key == key {
				out[k].val, dup = val, true
				break
			}
		}
		if !dup {
			out = append(out, member{key, val})
		}
		i = skipSpace(b, end)
		if i < len(b) && b[i] == ',' {
			i = skipSpace(b, i+1)
		}
	}
	return out
}

// arrayElements lists the raw elements of the valid JSON array b.
func arrayElements(b []byte) [][]byte {
	var out [][]byte
	i := skipSpace(b, 0)
	if i >= len(b) || b[i] != '[' {
		return nil
	}
	i = skipSpace(b, i+1)
	for i < len(b) && b[i] != ']' {
		end := skipValue(b, i)
		out = append(out, b[i:end])
		i = skipSpace(b, end)
		if i < len(b) && b[i] == ',' {
			i = skipSpace(b, i+1)
		}
	}
	return out
}

func skipSpace(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r') {
		i++
	}
	return i
}

// skipValue returns the end of the JSON value starting at b[i]; b is
// known to be valid JSON, so only strings and nesting need tracking.
func skipValue(b []byte, i int) int {
	depth := 0
	for i < len(b) {
		switch c := b[i]; c {
		case '"':
			i++
			for i < len(b) && b[i] != '"' {
				if b[i] == '\\' {
					i++
				}
				i++
			}
			i++
			if depth == 0 {
				return i
			}
			continue
		case '{', '[':
			depth++
		case '}', ']':
			depth--
			if depth == 0 {
				return i + 1
			}
			if depth < 0 {
				return i
			}
		case ',', ':', ' ', '\t', '\n', '\r':
			if depth == 0 {
				return i
			}
		}
		i++
	}
	return i
}

// jsPrint renders a JSON value the way JavaScript's String() does for the
// values a type field may hold.
func jsPrint(raw json.RawMessage) string {
	switch raw[0] {
	case '{':
		return "[object Object]"
	case '[':
		var items []json.RawMessage
		if json.Unmarshal(raw, &items) != nil {
			return string(raw)
		}
		parts := make([]string, len(items))
		for i, it := range items {
			var str string
			switch {
			case string(it) == "null":
			case json.Unmarshal(it, &str) == nil:
				parts[i] = str
			default:
				parts[i] = jsPrint(it)
			}
		}
		return strings.Join(parts, ",")
	}
	return string(engine.CanonicalJSON(raw))
}

// Response is the reply to one command. Key order on the wire is id,
// type, command, success, data|error; id is omitted when the command had
// none, command when the record had no type.
type Response struct {
	ID         json.RawMessage
	Command    string
	HasCommand bool
	// CommandRaw, when set, is written as the command instead of Command
	// (a non-string type echoed as sent).
	CommandRaw json.RawMessage
	Success    bool
	// Data is written when HasData is set, even when it is nil (the
	// reference writes "data":null for cycle_model with nothing to cycle).
	Data    any
	HasData bool
	Error   string
}

// OK builds a success response for cmd.
func OK(cmd *Command, data any) Response {
	return Response{ID: cmd.ID, Command: cmd.Type, HasCommand: true, Success: true, Data: data, HasData: data != nil}
}

// OKNull builds a success response whose data is explicitly null.
func OKNull(cmd *Command) Response {
	return Response{ID: cmd.ID, Command: cmd.Type, HasCommand: true, Success: true, HasData: true}
}

// Fail builds a failure response for cmd.
func Fail(cmd *Command, err error) Response {
	return Response{ID: cmd.ID, Command: cmd.Type, HasCommand: true, CommandRaw: cmd.TypeRaw, Error: err.Error()}
}

// MarshalJSON writes the response in the reference's key order.
func (r Response) MarshalJSON() ([]byte, error) { return r.AppendJSON(nil) }

// AppendJSON appends the response to dst (jsonx.Appender): its parts are
// each written valid and compact (the echoed id and command compacted as
// JSON.stringify prints them), so the writer need not scan the whole
// record again, which for a large get_state or get_messages answer was
// most of its cost.
func (r Response) AppendJSON(dst []byte) ([]byte, error) {
	// The parts first, so that the record is sized once.
	var id, c, body []byte
	var err error
	if len(r.ID) > 0 {
		if id, err = engine.MarshalJSON(r.ID); err != nil {
			return nil, fmt.Errorf("response id: %w", err)
		}
	}
	if r.HasCommand {
		if len(r.CommandRaw) > 0 {
			if c, err = engine.MarshalJSON(r.CommandRaw); err != nil {
				return nil, fmt.Errorf("response command: %w", err)
			}
		} else {
			c, _ = engine.MarshalJSON(r.Command)
		}
	}
	switch {
	case r.Success && r.HasData:
		if body, err = engine.MarshalJSON(r.Data); err != nil {
			return nil, fmt.Errorf("response data: %w", err)
		}
	case !r.Success:
		body, _ = engine.MarshalJSON(r.Error)
	}
	b := slices.Grow(dst, len(id)+len(c)+len(body)+64)
	b = append(b, '{')
	if id != nil {
		b = append(b, `"id":`...)
		b = append(b, id...)
		b = append(b, ',')
	}
	b = append(b, `"type":"response"`...)
	if r.HasCommand {
		b = append(b, `,"command":`...)
		b = append(b, c...)
	}
	if r.Success {
		b = append(b, `,"success":true`...)
		if r.HasData {
			b = append(b, `,"data":`...)
			b = append(b, body...)
		}
	} else {
		b = append(b, `,"success":false,"error":`...)
		b = append(b, body...)
	}
	return append(b, '}'), nil
}

// parseErrorText imitates V8's JSON.parse messages for the common cases
// so clients that show them read the same thing; only the
// "Failed to parse command: " prefix is a contract.
func parseErrorText(b []byte) string {
	if len(b) == 0 {
		return "Unexpected end of JSON input"
	}
	var v any
	err := json.Unmarshal(b, &v)
	var syn *json.SyntaxError
	if errors.As(err, &syn) {
		off := int(syn.Offset) - 1
		if off < 0 {
			off = 0
		}
		if off >= len(b) || strings.Contains(syn.Error(), "unexpected end") {
			return "Unexpected end of JSON input"
		}
		r, _ := utf8.DecodeRune(b[off:])
		src := string(b)
		if len(src) > 30 {
			return fmt.Sprintf("Unexpected token '%c', \"%s\"... is not valid JSON", r, src[:min(len(src), 10)])
		}
		return fmt.Sprintf("Unexpected token '%c', \"%s\" is not valid JSON", r, src)
	}
	if err != nil {
		return err.Error()
	}
	return "Unexpected end of JSON input"
}

// decodeExact decodes the valid JSON value raw into rv the way
// encoding/json would, except that object keys match struct fields
// exactly and a repeated key keeps its last value, as JSON.parse reads
// them. encoding/json's case-insensitive matching would let "COMMAND"
// override "command" or "Message" stand in for a missing "message". Values
// with their own UnmarshalJSON decode as they always do. path names the
// enclosing keys for type errors, as encoding/json's Field does.
func decodeExact(raw []byte, rv reflect.Value, path []string) error {
	if rv.CanAddr() {
		if _, own := rv.Addr().Interface().(json.Unmarshaler); own {
			return leafDecode(raw, rv, path)
		}
	}
	switch rv.Kind() {
	case reflect.Pointer:
		if string(raw) == "null" {
			rv.SetZero()
			return nil
		}
		if rv.IsNil() {
			rv.Set(reflect.New(rv.Type().Elem()))
		}
		return decodeExact(raw, rv.Elem(), path)
	case reflect.Struct:
		if raw[0] != '{' {
			return leafDecode(raw, rv, path)
		}
		for _, m := range objectMembers(raw) {
			f, found := fieldByJSONName(rv.Type(), m.key)
			if !found {
				continue
			}
			if err := decodeExact(m.val, rv.FieldByIndex(f), append(path, m.key)); err != nil {
				return err
			}
		}
		return nil
	case reflect.Slice:
		if raw[0] != '[' || rv.Type().Elem().Kind() == reflect.Uint8 {
			return leafDecode(raw, rv, path)
		}
		elems := arrayElements(raw)
		s := reflect.MakeSlice(rv.Type(), len(elems), len(elems))
		for i, e := range elems {
			if err := decodeExact(e, s.Index(i), path); err != nil {
				return err
			}
		}
		rv.Set(s)
		return nil
	case reflect.Map:
		if raw[0] != '{' || rv.Type().Key().Kind() != reflect.String {
			return leafDecode(raw, rv, path)
		}
		if rv.IsNil() {
			rv.Set(reflect.MakeMap(rv.Type()))
		}
		for _, m := range objectMembers(raw) {
			v := reflect.New(rv.Type().Elem()).Elem()
			if err := decodeExact(m.val, v, append(path, m.key)); err != nil {
				return err
			}
			rv.SetMapIndex(reflect.ValueOf(m.key).Convert(rv.Type().Key()), v)
		}
		return nil
	}
	return leafDecode(raw, rv, path)
}

// leafDecode hands a value without keys of its own to encoding/json and
// names the enclosing keys in a type error.
func leafDecode(raw []byte, rv reflect.Value, path []string) error {
	err := json.Unmarshal(raw, rv.Addr().Interface())
	// Only a bare type error gets the path: one that a type's own
	// UnmarshalJSON wrapped keeps its own wording, as encoding/json
	// leaves it.
	if te, bare := err.(*json.UnmarshalTypeError); bare && len(path) > 0 {
		if te.Field == "" {
			te.Field = strings.Join(path, ".")
		} else {
			te.Field = strings.Join(path, ".") + "." + te.Field
		}
	}
	return err
}

// fieldByJSONName finds the exported field of struct type t whose JSON
// name is exactly name.
func fieldByJSONName(t reflect.Type, name string) ([]int, bool) {
	for _, f := range reflect.VisibleFields(t) {
		if !f.IsExported() || (f.Anonymous && f.Tag.Get("json") == "") {
			continue
		}
		tag, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if tag == "-" {
			continue
		}
		if tag == "" {
			tag = f.Name
		}
		if tag == name {
			return f.Index, true
		}
	}
	return nil, false
}
