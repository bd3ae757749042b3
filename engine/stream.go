package engine

import (
	"encoding/json"
	"strconv"

	"github.com/pi-go/pi/internal/jsonx"
)

// Assistant stream event types.
const (
	AEStart         = "start"
	AETextStart     = "text_start"
	AETextDelta     = "text_delta"
	AETextEnd       = "text_end"
	AEThinkingStart = "thinking_start"
	AEThinkingDelta = "thinking_delta"
	AEThinkingEnd   = "thinking_end"
	AEToolCallStart = "toolcall_start"
	AEToolCallDelta = "toolcall_delta"
	AEToolCallEnd   = "toolcall_end"
	AEDone          = "done"
	AEError         = "error"
)

// AssistantEvent is one event of a streamed assistant message, as a
// Provider emits it. Partial is the message being built (owned by the
// provider, read it only during the callback); it is never marshalled.
type AssistantEvent struct {
	Type         string
	ContentIndex int
	Delta        string // *_delta
	Content      string // text_end, thinking_end
	// ContentSignature is the signature a text_end or thinking_end event
	// carries on the pi-messages wire, which the reference passes through.
	ContentSignature string
	ToolCall         *Content // toolcall_end
	ID               string   // toolcall_start
	ToolName         string   // toolcall_start
	Reason           StopReason
	Partial          *Message
}

// MarshalJSON writes the wire form: the fields of the event's type, no
// partial message.
func (e AssistantEvent) MarshalJSON() ([]byte, error) { return e.AppendJSON(nil) }

// AppendJSON writes the event into dst (see jsonx.Appender).
func (e AssistantEvent) AppendJSON(dst []byte) ([]byte, error) {
	switch e.Type {
	case AETextDelta, AEThinkingDelta, AEToolCallDelta:
		// The record of every streamed delta, written with plain appends
		// (the builder boxes each value in an interface).
		dst = append(dst, `{"type":`...)
		dst = jsonx.AppendString(dst, e.Type)
		dst = append(dst, `,"contentIndex":`...)
		dst = strconv.AppendInt(dst, int64(e.ContentIndex), 10)
		dst = append(dst, `,"delta":`...)
		dst = jsonx.AppendString(dst, e.Delta)
		return append(dst, '}'), nil
	}
	o := jsonx.NewBuilderAt(dst).Set("type", e.Type)
	switch e.Type {
	case AETextStart, AEThinkingStart:
		o.Set("contentIndex", e.ContentIndex)
	case AETextDelta, AEThinkingDelta, AEToolCallDelta:
		o.Set("contentIndex", e.ContentIndex).Set("delta", e.Delta)
	case AETextEnd, AEThinkingEnd:
		o.Set("contentIndex", e.ContentIndex).Set("content", e.Content).Opt("contentSignature", e.ContentSignature)
	case AEToolCallStart:
		o.Set("contentIndex", e.ContentIndex).Set("id", e.ID).Set("toolName", e.ToolName)
	case AEToolCallEnd:
		var tc any = json.RawMessage("null")
		if e.ToolCall != nil {
			tc = *e.ToolCall
		}
		o.Set("contentIndex", e.ContentIndex).Set("toolCall", tc)
	case AEDone, AEError:
		o.Set("reason", e.Reason)
	}
	return o.Bytes()
}
