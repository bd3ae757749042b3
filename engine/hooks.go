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

// Hooks is the extension host as the session runtime sees it: one method
// per extension event the runtime dispatches, named after the event, in
// three groups (prompts and runs, provider requests, session lifecycle).
// jsruntime.Runner implements it; NopHooks is the host without
// extensions, and embedding it implements only some events. Every method
// is called on the session's goroutine except ToolCall and ToolResult,
// which run on the goroutine of their tool call.
type Hooks interface {
	// Input runs the "input" handlers on a prompt before expansion.
	Input(ctx context.Context, text string, images []Content, source, streamingBehavior string) (InputResult, error)
	// BeforeAgentStart runs "before_agent_start" with the prompt and the
	// system prompt text built for it.
	BeforeAgentStart(ctx context.Context, prompt string, images []Content, systemPrompt string) (*BeforeAgentStartResult, error)
	// BeforeAgentStartCustom runs "before_agent_start" for a run an
	// extension's custom message started (messageType "custom").
	BeforeAgentStartCustom(ctx context.Context, m *Message, systemPrompt string) (*BeforeAgentStartResult, error)
	// Context runs "context" handlers before each LLM request on the
	// messages without system messages; nil keeps them.
	Context(ctx context.Context, msgs []*Message) ([]*Message, error)
	// ContextWithSystem runs "context_with_system" after the "context"
	// handlers on one request's whole transcript, system messages
	// included; nil keeps msgs.
	ContextWithSystem(ctx context.Context, msgs []*Message) ([]*Message, error)
	// ToolCall runs "tool_call" handlers after validation, before execute.
	// An error blocks the call with the error's text.
	ToolCall(ctx context.Context, call ToolCall) (*ToolCallDecision, error)
	// ToolResult runs "tool_result" handlers; nil keeps the result.
	ToolResult(ctx context.Context, call ToolCall, result ToolResult) (*ToolResult, error)
	// Event forwards every session event (agent_start, turn_start,
	// message_*, tool_execution_*, turn_end, agent_end, agent_settled …)
	// to the extensions' notification handlers.
	Event(ctx context.Context, e Event)
	// BeforeSettle runs "agent_before_settle" once a run has nothing more
	// to do (not after an abort); outcome is "completed" or "error". True
	// makes the session continue with one more run over the current
	// context (the handlers may have queued messages for it).
	BeforeSettle(ctx context.Context, outcome string) (continueRun bool)
	// ModelSelect runs "model_select": the new model, the one before it
	// (nil when there was none) and what selected it, "set" or "cycle".
	ModelSelect(ctx context.Context, model, previous *Model, source string)

	// BeforeProviderRequest runs "before_provider_request" and returns
	// the body to send; nil keeps body.
	BeforeProviderRequest(ctx context.Context, body json.RawMessage) json.RawMessage
	// AfterProviderResponse runs "after_provider_response" with the
	// response's status and headers.
	AfterProviderResponse(ctx context.Context, status int, headers map[string]string)
	// BeforeProviderHeaders runs "before_provider_headers" once per
	// request (summaries included) on its extra headers: the model's,
	// then the request's. It returns the headers after the handlers'
	// changes, a nil value marking one they deleted; ok is false when
	// nobody listens and the headers stay as they are.
	BeforeProviderHeaders(ctx context.Context, headers map[string]string) (out map[string]*string, ok bool)
	// WantsProviderStreamEvents reports whether any "provider_stream_event"
	// handler listens; the stream hook is attached only then, so a stream
	// nobody watches pays nothing per event.
	WantsProviderStreamEvents() bool
	// ProviderStreamEvent runs "provider_stream_event" on one raw event of
	// a response stream, before the provider normalizes it.
	ProviderStreamEvent(ctx context.Context, model *Model, data json.RawMessage)

	// BeforeSwitch runs "session_before_switch" (reason "new" or
	// "resume"); true cancels the switch.
	BeforeSwitch(ctx context.Context, reason, targetSessionFile string) (cancel bool)
	// BeforeFork runs "session_before_fork" (position "before" or "at");
	// true cancels the fork.
	BeforeFork(ctx context.Context, entryID, position string) (cancel bool)
	// BeforeCompact runs "session_before_compact"; a result may cancel the
	// compaction or supply its content.
	BeforeCompact(ctx context.Context, ev BeforeCompactEvent) *BeforeCompactResult
	// Compacted runs "session_compact" once the compaction entry is saved.
	Compacted(ctx context.Context, entry *Entry, fromExtension bool, reason string, willRetry bool)
	// CompactFailed runs "session_compact_failed".
	CompactFailed(ctx context.Context, ev CompactFailedEvent)
	// BeforeTree runs "session_before_tree" before a tree navigation; a
	// result may cancel it, supply the branch summary or override the
	// instructions and label.
	BeforeTree(ctx context.Context, prep TreePreparation) *BeforeTreeOutcome
	// Tree runs "session_tree" after a navigation; summary is the
	// branch_summary entry written, if any.
	Tree(ctx context.Context, newLeafID, oldLeafID string, summary *Entry, fromExtension bool)
	// Shutdown runs "session_shutdown" before the session is replaced
	// (reason "new", "resume" or "fork") or the process quits ("quit").
	Shutdown(ctx context.Context, reason, targetSessionFile string)
	// Started runs "session_start" for a replacement session (reason
	// "new", "resume" or "fork").
	Started(ctx context.Context, reason, previousSessionFile string)
}

// NopHooks is the host without extensions: every event changes nothing.
// Embed it to implement only some events.
type NopHooks struct{}

// Input keeps the prompt.
func (NopHooks) Input(context.Context, string, []Content, string, string) (InputResult, error) {
	return InputResult{Action: InputContinue}, nil
}

// BeforeAgentStart changes nothing.
func (NopHooks) BeforeAgentStart(context.Context, string, []Content, string) (*BeforeAgentStartResult, error) {
	return nil, nil
}

// BeforeAgentStartCustom changes nothing.
func (NopHooks) BeforeAgentStartCustom(context.Context, *Message, string) (*BeforeAgentStartResult, error) {
	return nil, nil
}

// Context keeps the messages.
func (NopHooks) Context(context.Context, []*Message) ([]*Message, error) { return nil, nil }

// ContextWithSystem keeps the messages.
func (NopHooks) ContextWithSystem(context.Context, []*Message) ([]*Message, error) { return nil, nil }

// ToolCall allows the call.
func (NopHooks) ToolCall(context.Context, ToolCall) (*ToolCallDecision, error) { return nil, nil }

// ToolResult keeps the result.
func (NopHooks) ToolResult(context.Context, ToolCall, ToolResult) (*ToolResult, error) {
	return nil, nil
}

// Event ignores the event.
func (NopHooks) Event(context.Context, Event) {}

// BeforeSettle lets the run settle.
func (NopHooks) BeforeSettle(context.Context, string) bool { return false }

// ModelSelect ignores the selection.
func (NopHooks) ModelSelect(context.Context, *Model, *Model, string) {}

// BeforeProviderRequest keeps the body.
func (NopHooks) BeforeProviderRequest(context.Context, json.RawMessage) json.RawMessage { return nil }

// AfterProviderResponse ignores the response.
func (NopHooks) AfterProviderResponse(context.Context, int, map[string]string) {}

// BeforeProviderHeaders has no listener.
func (NopHooks) BeforeProviderHeaders(context.Context, map[string]string) (map[string]*string, bool) {
	return nil, false
}

// WantsProviderStreamEvents has no listener.
func (NopHooks) WantsProviderStreamEvents() bool { return false }

// ProviderStreamEvent ignores the event.
func (NopHooks) ProviderStreamEvent(context.Context, *Model, json.RawMessage) {}

// BeforeSwitch allows the switch.
func (NopHooks) BeforeSwitch(context.Context, string, string) bool { return false }

// BeforeFork allows the fork.
func (NopHooks) BeforeFork(context.Context, string, string) bool { return false }

// BeforeCompact changes nothing.
func (NopHooks) BeforeCompact(context.Context, BeforeCompactEvent) *BeforeCompactResult { return nil }

// Compacted ignores the compaction.
func (NopHooks) Compacted(context.Context, *Entry, bool, string, bool) {}

// CompactFailed ignores the failure.
func (NopHooks) CompactFailed(context.Context, CompactFailedEvent) {}

// BeforeTree allows the navigation.
func (NopHooks) BeforeTree(context.Context, TreePreparation) *BeforeTreeOutcome { return nil }

// Tree ignores the navigation.
func (NopHooks) Tree(context.Context, string, string, *Entry, bool) {}

// Shutdown ignores the shutdown.
func (NopHooks) Shutdown(context.Context, string, string) {}

// Started ignores the start.
func (NopHooks) Started(context.Context, string, string) {}
