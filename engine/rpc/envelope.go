package rpc

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
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
func Decode(line []byte) (*Command, error) {
	trimmed := bytes.TrimSpace(line)
	if !json.Valid(trimmed) {
		return nil, &DecodeError{Response: Response{
			Command: "parse", HasCommand: true,
			Error: "Failed to parse command: " + parseErrorText(trimmed),
		}}
	}
	if len(trimmed) == 0 || trimmed[0] != '{' {
		return nil, &DecodeError{Response: Response{Error: "Unknown command: undefined"}}
	}
	var head struct {
		ID   json.RawMessage `json:"id"`
		Type json.RawMessage `json:"type"`
	}
	if err := json.Unmarshal(trimmed, &head); err != nil {
		return nil, &DecodeError{Response: Response{Error: "Unknown command: undefined"}}
	}
	cmd := &Command{Raw: json.RawMessage(trimmed)}
	if len(head.ID) > 0 {
		cmd.ID = head.ID
	}
	if len(head.Type) > 0 && head.Type[0] == '"' {
		var t string
		if json.Unmarshal(head.Type, &t) == nil {
			cmd.Type, cmd.HasType = t, true
		}
	} else if len(head.Type) > 0 && string(head.Type) != "null" {
		// A non-string type is named as JavaScript would print it and
		// echoed as sent.
		cmd.Type, cmd.HasType, cmd.TypeRaw = jsPrint(head.Type), true, head.Type
	}
	if !cmd.HasType {
		return cmd, &DecodeError{Response: Response{ID: cmd.ID, Error: "Unknown command: undefined"}}
	}
	return cmd, nil
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
	return string(raw)
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
func (r Response) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	if len(r.ID) > 0 {
		b.WriteString(`"id":`)
		b.Write(r.ID)
		b.WriteByte(',')
	}
	b.WriteString(`"type":"response"`)
	if r.HasCommand {
		c, _ := engine.MarshalJSON(r.Command)
		if len(r.CommandRaw) > 0 {
			c = r.CommandRaw
		}
		b.WriteString(`,"command":`)
		b.Write(c)
	}
	if r.Success {
		b.WriteString(`,"success":true`)
		if r.HasData {
			d, err := engine.MarshalJSON(r.Data)
			if err != nil {
				return nil, fmt.Errorf("response data: %w", err)
			}
			b.WriteString(`,"data":`)
			b.Write(d)
		}
	} else {
		e, _ := engine.MarshalJSON(r.Error)
		b.WriteString(`,"success":false,"error":`)
		b.Write(e)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
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
