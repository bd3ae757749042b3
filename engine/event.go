package engine

import (
	"encoding/json"

	"github.com/pi-go/pi/internal/jsonx"
)

// Event is anything a session publishes to its subscribers. Each event
// marshals as a JSON object whose first key is "type".
type Event interface {
	EventType() string
}

// MarshalEvent writes an event as the wire record of RPC and JSON modes.
func MarshalEvent(e Event) ([]byte, error) {
	// The records of every streamed reply are written without reflection:
	// encoding/json would re-validate and copy the whole message.
	switch x := e.(type) {
	case MessageUpdate:
		return x.appendJSON(make([]byte, 0, 256))
	case MessageStart:
		return jsonx.NewBuilder().Set("type", EvMessageStart).Set("message", x.Message).Bytes()
	case MessageEnd:
		return jsonx.NewBuilder().Set("type", EvMessageEnd).Set("message", x.Message).Bytes()
	}
	if m, ok := e.(json.Marshaler); ok {
		return m.MarshalJSON()
	}
	b, err := MarshalJSON(e)
	if err != nil {
		return nil, err
	}
	return withType(e.EventType(), b), nil
}

// AppendEvent appends MarshalEvent's record to dst. A streamed delta is
// written straight into dst, which lets a writer encode it into its
// output buffer with no copy and no allocation of its own.
func AppendEvent(dst []byte, e Event) ([]byte, error) {
	if x, ok := e.(MessageUpdate); ok {
		return x.appendJSON(dst)
	}
	b, err := MarshalEvent(e)
	if err != nil {
		return dst, err
	}
	return append(dst, b...), nil
}

// appendJSON writes the message_update record: the usage so far and the
// assistant event, without the partial message (the reference's wire
// shape). On error dst comes back as it was.
func (x MessageUpdate) appendJSON(dst []byte) ([]byte, error) {
	out := append(dst, `{"type":"message_update","usage":`...)
	out, err := x.Usage.AppendJSON(out)
	if err != nil {
		return dst, err
	}
	out = append(out, `,"assistantMessageEvent":`...)
	out, err = x.AssistantMessageEvent.AppendJSON(out)
	if err != nil {
		return dst, err
	}
	return append(out, '}'), nil
}

// Event types as they appear on the wire.
const (
	EvAgentStart                     = "agent_start"
	EvAgentEnd                       = "agent_end"
	EvAgentSettled                   = "agent_settled"
	EvTurnStart                      = "turn_start"
	EvTurnEnd                        = "turn_end"
	EvMessageStart                   = "message_start"
	EvMessageUpdate                  = "message_update"
	EvMessageEnd                     = "message_end"
	EvToolExecutionStart             = "tool_execution_start"
	EvToolExecutionUpdate            = "tool_execution_update"
	EvToolExecutionEnd               = "tool_execution_end"
	EvQueueUpdate                    = "queue_update"
	EvCompactionStart                = "compaction_start"
	EvCompactionEnd                  = "compaction_end"
	EvAutoRetryStart                 = "auto_retry_start"
	EvAutoRetryEnd                   = "auto_retry_end"
	EvSummarizationRetryScheduled    = "summarization_retry_scheduled"
	EvSummarizationRetryAttemptStart = "summarization_retry_attempt_start"
	EvSummarizationRetryFinished     = "summarization_retry_finished"
	EvEntryAppended                  = "entry_appended"
	EvSessionInfoChanged             = "session_info_changed"
	EvThinkingLevelChanged           = "thinking_level_changed"
	EvBashExecutionUpdate            = "bash_execution_update"
	EvExtensionError                 = "extension_error"
)

// AgentStart begins one low-level run (also each retry attempt).
type AgentStart struct{}

// TurnStart begins one turn: one assistant message and its tool calls.
type TurnStart struct{}

// MessageStart announces a message; for an assistant message it is the
// empty partial with stopReason "pending" (or already "error").
type MessageStart struct {
	Message *Message `json:"message"`
}

// MessageUpdate carries one streaming event of an assistant message. On
// the wire it holds the cumulative usage and the event without its partial.
type MessageUpdate struct {
	Usage                 Usage          `json:"usage"`
	AssistantMessageEvent AssistantEvent `json:"assistantMessageEvent"`
	// Message is the partial message, for in-process subscribers only.
	Message *Message `json:"-"`
}

// MessageEnd carries the final message.
type MessageEnd struct {
	Message *Message `json:"message"`
}

// ToolExecutionStart is sent when a tool call is prepared.
type ToolExecutionStart struct {
	ToolCallID       string          `json:"toolCallId"`
	ToolName         string          `json:"toolName"`
	Args             json.RawMessage `json:"args"`
	ParentToolCallID string          `json:"parentToolCallId,omitempty"`
}

// ToolExecutionUpdate carries a tool's partial result.
type ToolExecutionUpdate struct {
	ToolCallID       string          `json:"toolCallId"`
	ToolName         string          `json:"toolName"`
	Args             json.RawMessage `json:"args"`
	PartialResult    ToolResult      `json:"partialResult"`
	ParentToolCallID string          `json:"parentToolCallId,omitempty"`
}

// ToolExecutionEnd carries a tool's final result.
type ToolExecutionEnd struct {
	ToolCallID       string     `json:"toolCallId"`
	ToolName         string     `json:"toolName"`
	Result           ToolResult `json:"result"`
	IsError          bool       `json:"isError"`
	DurationMs       *int64     `json:"durationMs,omitempty"`
	ParentToolCallID string     `json:"parentToolCallId,omitempty"`
}

// TurnEnd closes a turn.
type TurnEnd struct {
	Message     *Message   `json:"message"`
	ToolResults []*Message `json:"toolResults"`
}

// AgentEnd closes a low-level run with all messages it created.
type AgentEnd struct {
	Messages  []*Message `json:"messages"`
	WillRetry bool       `json:"willRetry"`
}

// AgentSettled says nothing more will happen without new input.
type AgentSettled struct {
	Aborted bool `json:"aborted"`
}

// QueueUpdate carries the full steering and follow-up queues.
type QueueUpdate struct {
	Steering []string `json:"steering"`
	FollowUp []string `json:"followUp"`
}

// CompactionStart begins a compaction.
type CompactionStart struct {
	Reason string `json:"reason"` // manual, threshold, overflow
}

// CompactionEnd ends a compaction; Result is absent on failure or abort.
type CompactionEnd struct {
	Reason       string          `json:"reason"`
	Result       json.RawMessage `json:"result,omitempty"`
	Aborted      bool            `json:"aborted"`
	WillRetry    bool            `json:"willRetry"`
	ErrorMessage string          `json:"errorMessage,omitempty"`
}

// AutoRetryStart announces a retry after a transient error.
type AutoRetryStart struct {
	Attempt      int    `json:"attempt"`
	MaxAttempts  int    `json:"maxAttempts"`
	DelayMs      int64  `json:"delayMs"`
	ErrorMessage string `json:"errorMessage"`
}

// AutoRetryEnd closes a series of retries.
type AutoRetryEnd struct {
	Success    bool   `json:"success"`
	Attempt    int    `json:"attempt"`
	FinalError string `json:"finalError,omitempty"`
}

// SummarizationRetryScheduled announces a retry of a summary request.
type SummarizationRetryScheduled struct {
	Attempt      int    `json:"attempt"`
	MaxAttempts  int    `json:"maxAttempts"`
	DelayMs      int64  `json:"delayMs"`
	ErrorMessage string `json:"errorMessage"`
}

// SummarizationRetryAttemptStart begins a retried summary request.
type SummarizationRetryAttemptStart struct {
	Source string `json:"source"` // compaction or branchSummary
	Reason string `json:"reason,omitempty"`
}

// SummarizationRetryFinished ends summary retries.
type SummarizationRetryFinished struct{}

// EntryAppended carries a session entry appended outside the normal
// message flow (extension entries, context edits on retry).
type EntryAppended struct {
	Entry *Entry `json:"entry"`
}

// SessionInfoChanged carries the session's new name; absent means cleared.
type SessionInfoChanged struct {
	Name string `json:"name,omitempty"`
}

// ThinkingLevelChanged carries the new effective thinking level.
type ThinkingLevelChanged struct {
	Level ThinkingLevel `json:"level"`
}

// BashExecutionUpdate streams output of an RPC bash command.
type BashExecutionUpdate struct {
	ID    string `json:"id,omitempty"`
	Delta string `json:"delta"`
}

// ExtensionError reports an extension failure.
type ExtensionError struct {
	ExtensionPath string `json:"extensionPath"`
	Event         string `json:"event"`
	Error         string `json:"error"`
}

func (AgentStart) EventType() string                     { return EvAgentStart }
func (TurnStart) EventType() string                      { return EvTurnStart }
func (MessageStart) EventType() string                   { return EvMessageStart }
func (MessageUpdate) EventType() string                  { return EvMessageUpdate }
func (MessageEnd) EventType() string                     { return EvMessageEnd }
func (ToolExecutionStart) EventType() string             { return EvToolExecutionStart }
func (ToolExecutionUpdate) EventType() string            { return EvToolExecutionUpdate }
func (ToolExecutionEnd) EventType() string               { return EvToolExecutionEnd }
func (TurnEnd) EventType() string                        { return EvTurnEnd }
func (AgentEnd) EventType() string                       { return EvAgentEnd }
func (AgentSettled) EventType() string                   { return EvAgentSettled }
func (QueueUpdate) EventType() string                    { return EvQueueUpdate }
func (CompactionStart) EventType() string                { return EvCompactionStart }
func (CompactionEnd) EventType() string                  { return EvCompactionEnd }
func (AutoRetryStart) EventType() string                 { return EvAutoRetryStart }
func (AutoRetryEnd) EventType() string                   { return EvAutoRetryEnd }
func (SummarizationRetryScheduled) EventType() string    { return EvSummarizationRetryScheduled }
func (SummarizationRetryAttemptStart) EventType() string { return EvSummarizationRetryAttemptStart }
func (SummarizationRetryFinished) EventType() string     { return EvSummarizationRetryFinished }
func (EntryAppended) EventType() string                  { return EvEntryAppended }
func (SessionInfoChanged) EventType() string             { return EvSessionInfoChanged }
func (ThinkingLevelChanged) EventType() string           { return EvThinkingLevelChanged }
func (BashExecutionUpdate) EventType() string            { return EvBashExecutionUpdate }
func (ExtensionError) EventType() string                 { return EvExtensionError }
