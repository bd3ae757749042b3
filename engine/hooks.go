package engine

import (
	"context"
	"encoding/json"
)

// Input actions returned by Hooks.Input.
const (
	InputContinue  = "continue"
	InputTransform = "transform"
	InputHandled   = "handled"
)

// InputResult is what the extension "input" handlers decided.
type InputResult struct {
	Action string // InputContinue, InputTransform or InputHandled
	Text   string
	Images []Content
}

// BeforeAgentStartResult is what "before_agent_start" handlers returned:
// extra custom messages to inject after the user message, and a system
// prompt override ("" keeps the built one).
type BeforeAgentStartResult struct {
	Messages     []*Message
	SystemPrompt string
	// Sections, when set, are the prompt rebuilt from the handlers'
	// changes to systemPromptOptions; they replace the built sections
	// (recorded as a system message patch) unless SystemPrompt forces a
	// text.
	Sections Sections
}

// ToolCallDecision is what "tool_call" handlers decided. Args, when set,
// replaces the call's arguments (handlers may edit them in place in the
// reference; no re-validation happens).
type ToolCallDecision struct {
	Block     bool
	Reason    string
	Terminate bool
	Args      json.RawMessage
}

// Hooks is the extension host as the session runtime sees it. Each method
// is named after the reference's extension event it dispatches; the
// extension engineer implements it in jsruntime and cmd/pi wires it in.
// Every method is called on the loop goroutine except OnToolCall and
// OnToolResult, which run on the goroutine of their tool call.
type Hooks interface {
	// Input runs the "input" handlers on a prompt before expansion.
	Input(ctx context.Context, text string, images []Content, source, streamingBehavior string) (InputResult, error)
	// BeforeAgentStart runs "before_agent_start" with the prompt and the
	// system prompt text built for it.
	BeforeAgentStart(ctx context.Context, prompt string, images []Content, systemPrompt string) (*BeforeAgentStartResult, error)
	// Context runs "context" handlers before each LLM request on the
	// messages without system messages; nil keeps them.
	Context(ctx context.Context, msgs []*Message) ([]*Message, error)
	// ToolCall runs "tool_call" handlers after validation, before execute.
	// An error blocks the call with the error's text.
	ToolCall(ctx context.Context, call ToolCall) (*ToolCallDecision, error)
	// ToolResult runs "tool_result" handlers; nil keeps the result.
	ToolResult(ctx context.Context, call ToolCall, result ToolResult) (*ToolResult, error)
	// Event forwards every session event (agent_start, turn_start,
	// message_*, tool_execution_*, turn_end, agent_end, agent_settled …)
	// to the extensions' notification handlers.
	Event(ctx context.Context, e Event)
}

// NopHooks does nothing; embed it to implement only some hooks.
type NopHooks struct{}

// Input keeps the prompt.
func (NopHooks) Input(context.Context, string, []Content, string, string) (InputResult, error) {
	return InputResult{Action: InputContinue}, nil
}

// BeforeAgentStart changes nothing.
func (NopHooks) BeforeAgentStart(context.Context, string, []Content, string) (*BeforeAgentStartResult, error) {
	return nil, nil
}

// Context keeps the messages.
func (NopHooks) Context(context.Context, []*Message) ([]*Message, error) { return nil, nil }

// ToolCall allows the call.
func (NopHooks) ToolCall(context.Context, ToolCall) (*ToolCallDecision, error) { return nil, nil }

// ToolResult keeps the result.
func (NopHooks) ToolResult(context.Context, ToolCall, ToolResult) (*ToolResult, error) {
	return nil, nil
}

// Event ignores the event.
func (NopHooks) Event(context.Context, Event) {}
