package jsruntime

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/pi-go/pi/engine"
)

// Hooks returns the engine.Hooks that dispatch session events to the
// extensions. Every dispatch waits for the handlers (promises included),
// as the reference awaits them; events nobody listens to cost nothing.
func (a *API) Hooks() engine.Hooks { return hooks{a: a} }

// hooks dispatch the session's events to one generation's handlers: a
// fixed one (API.Hooks), or the runner's current one, so that a reload
// reaches the session that stays (Runner.Hooks).
type hooks struct {
	a      *API
	runner *Runner
}

// api is the generation the hooks dispatch to.
func (h hooks) api() *API {
	if h.runner != nil {
		a, _ := h.runner.Current()
		return a
	}
	return h.a
}

var (
	_ engine.Hooks = hooks{}
)

// Input runs extension commands first (a "/name args" prompt naming one is
// consumed by its handler), then the "input" handlers.
func (h hooks) Input(ctx context.Context, text string, images []engine.Content, source, streamingBehavior string) (engine.InputResult, error) {
	a := h.api()
	// Prompts sent back to back start their commands in arrival order
	// (engine.ArrivalTurn): this one waits for the one before, and lets
	// the next go once its handler started or it invokes none.
	turn := engine.ArrivalTurnOf(ctx)
	turn.Wait(ctx)
	if len(text) > 1 && text[0] == '/' && a.IsCommand(ctx, text) {
		// The handler may prompt the session itself, so it runs without
		// holding up this call's caller beyond the handler's own life.
		a.RunCommand(ctx, text)
		turn.Release()
		return engine.InputResult{Action: engine.InputHandled}, nil
	}
	turn.Release()
	if !a.HasHandlers("input") {
		return engine.InputResult{Action: engine.InputContinue}, nil
	}
	fields := []Field{{"text", text}}
	if images != nil {
		fields = append(fields, Field{"images", images})
	}
	fields = append(fields, Field{"source", source})
	if streamingBehavior != "" {
		fields = append(fields, Field{"streamingBehavior", streamingBehavior})
	}
	out, err := a.dispatch(ctx, "input", ordered(fields))
	if err != nil || out == "" {
		return engine.InputResult{Action: engine.InputContinue}, nil
	}
	var r struct {
		Action string           `json:"action"`
		Text   *string          `json:"text"`
		Images []engine.Content `json:"images"`
	}
	if json.Unmarshal([]byte(out), &r) != nil {
		return engine.InputResult{Action: engine.InputContinue}, nil
	}
	switch r.Action {
	case engine.InputHandled:
		return engine.InputResult{Action: engine.InputHandled}, nil
	case engine.InputTransform:
		res := engine.InputResult{Action: engine.InputTransform, Text: text, Images: r.Images}
		if r.Text != nil {
			res.Text = *r.Text
		}
		return res, nil
	}
	return engine.InputResult{Action: engine.InputContinue}, nil
}

// BeforeAgentStart collects injected messages and the chained system
// prompt.
func (h hooks) BeforeAgentStart(ctx context.Context, prompt string, images []engine.Content, systemPrompt string) (*engine.BeforeAgentStartResult, error) {
	a := h.api()
	if !a.HasHandlers("before_agent_start") {
		return nil, nil
	}
	fields := []Field{{"prompt", prompt}}
	if images != nil {
		fields = append(fields, Field{"images", images})
	}
	var options any = ordered{{"cwd", a.opts.Cwd}}
	if a.opts.PromptOptions != nil {
		var infos []engine.ToolInfo
		if s := a.session(); s != nil {
			for _, t := range s.Tools() {
				infos = append(infos, t.Info())
			}
		}
		options = a.opts.PromptOptions(infos)
	}
	fields = append(fields, Field{"systemPrompt", systemPrompt}, Field{"systemPromptOptions", options})
	out, err := a.dispatch(ctx, "before_agent_start", ordered(fields))
	if err != nil || out == "" {
		return nil, err
	}
	return a.beforeAgentStartResult(out)
}

// Context lets handlers replace the messages of one request.
func (h hooks) Context(ctx context.Context, msgs []*engine.Message) ([]*engine.Message, error) {
	a := h.api()
	if !a.HasHandlers("context") {
		return nil, nil
	}
	if msgs == nil {
		msgs = []*engine.Message{}
	}
	out, err := a.dispatch(ctx, "context", ordered{{"messages", msgs}})
	if err != nil || out == "" {
		return nil, err
	}
	var r struct {
		Messages []*engine.Message `json:"messages"`
	}
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		return nil, err
	}
	return r.Messages, nil
}

// ContextWithSystem lets handlers replace one request's whole transcript,
// system messages included, after the "context" handlers.
func (h hooks) ContextWithSystem(ctx context.Context, msgs []*engine.Message) ([]*engine.Message, error) {
	a := h.api()
	if !a.HasHandlers("context_with_system") {
		return nil, nil
	}
	if msgs == nil {
		msgs = []*engine.Message{}
	}
	out, err := a.dispatch(ctx, "context_with_system", ordered{{"type", "context_with_system"}, {"messages", msgs}})
	if err != nil || out == "" {
		return nil, err
	}
	var r struct {
		Messages []*engine.Message `json:"messages"`
	}
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		return nil, err
	}
	return r.Messages, nil
}

// ToolCall runs the gate handlers; a thrown error blocks with its text.
func (h hooks) ToolCall(ctx context.Context, call engine.ToolCall) (*engine.ToolCallDecision, error) {
	a := h.api()
	if !a.HasHandlers("tool_call") {
		return nil, nil
	}
	input := call.Args
	if len(input) == 0 {
		input = json.RawMessage("{}")
	}
	out, err := a.dispatch(ctx, "tool_call", ordered{{"toolName", call.Name}, {"toolCallId", call.ID}, {"input", input}})
	if err != nil {
		return nil, err
	}
	if out == "" {
		return nil, nil
	}
	var r struct {
		Block     bool            `json:"block"`
		Reason    *string         `json:"reason"`
		Terminate bool            `json:"terminate"`
		Input     json.RawMessage `json:"input"`
	}
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		return nil, err
	}
	d := &engine.ToolCallDecision{Block: r.Block, Terminate: r.Terminate}
	if r.Block {
		d.Reason = "Tool execution was blocked by an extension"
		if r.Reason != nil {
			d.Reason = *r.Reason
		}
	}
	if len(r.Input) > 0 && !jsonEqual(r.Input, input) {
		d.Args = r.Input
	}
	return d, nil
}

func jsonEqual(a, b json.RawMessage) bool {
	var x, y bytes.Buffer
	if json.Compact(&x, a) != nil || json.Compact(&y, b) != nil {
		return false
	}
	return bytes.Equal(x.Bytes(), y.Bytes())
}

// ToolResult lets handlers patch a result.
func (h hooks) ToolResult(ctx context.Context, call engine.ToolCall, result engine.ToolResult) (*engine.ToolResult, error) {
	a := h.api()
	if !a.HasHandlers("tool_result") {
		return nil, nil
	}
	input := call.Args
	if len(input) == 0 {
		input = json.RawMessage("{}")
	}
	content := result.Content
	if content == nil {
		content = []engine.Content{}
	}
	fields := ordered{{"toolName", call.Name}, {"toolCallId", call.ID}, {"input", input}, {"content", content}}
	if len(result.Details) > 0 {
		fields = append(fields, Field{"details", result.Details})
	}
	if len(result.StructuredContent) > 0 {
		fields = append(fields, Field{"structuredContent", result.StructuredContent})
	}
	fields = append(fields, Field{"isError", result.IsError})
	out, err := a.dispatch(ctx, "tool_result", fields)
	if err != nil || out == "" {
		return nil, err
	}
	var r engine.ToolResult
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		return nil, err
	}
	r.Terminate = result.Terminate
	return &r, nil
}

// Event forwards session events to notification handlers.
func (h hooks) Event(ctx context.Context, e engine.Event) {
	a := h.api()
	a.flushDeferred()
	typ := e.EventType()
	if ev, ok := e.(engine.ThinkingLevelChanged); ok {
		h.thinkingLevelSelect(ctx, ev.Level)
		return
	}
	switch typ {
	case engine.EvSessionInfoChanged:
		// The name is the session's before its handlers run, whoever set
		// it (an RPC set_session_name too): pi.getSessionName answers
		// from the name an extension last set, so it follows here.
		if ev, ok := e.(engine.SessionInfoChanged); ok {
			n := ev.Name
			a.mu.Lock()
			a.name = &n
			a.mu.Unlock()
		}
	case engine.EvAgentStart:
		a.mu.Lock()
		a.turnIndex = -1
		a.mu.Unlock()
	case engine.EvTurnStart:
		a.mu.Lock()
		a.turnIndex++
		a.mu.Unlock()
	}
	switch typ {
	case engine.EvAgentStart, engine.EvAgentEnd, engine.EvTurnStart, engine.EvTurnEnd, engine.EvMessageStart,
		engine.EvMessageUpdate, engine.EvMessageEnd, engine.EvToolExecutionStart, engine.EvToolExecutionUpdate,
		engine.EvToolExecutionEnd, engine.EvAgentSettled, engine.EvSessionInfoChanged:
	default:
		return
	}
	if !a.HasHandlers(typ) {
		return
	}
	a.mu.Lock()
	turn := a.turnIndex
	a.mu.Unlock()
	var payload any
	switch ev := e.(type) {
	case engine.TurnStart:
		payload = orderedEvent(typ, []Field{{"turnIndex", turn}, {"timestamp", time.Now().UnixMilli()}})
	case engine.TurnEnd:
		// turn_end is a boundary whose handlers may add entries and ask
		// for one more request (api_session.go).
		a.turnEndBoundary(ctx, ev, turn)
		return
	case engine.AgentEnd:
		msgs := ev.Messages
		if msgs == nil {
			msgs = []*engine.Message{}
		}
		payload = orderedEvent(typ, []Field{{"messages", msgs}})
	case engine.MessageUpdate:
		// Extensions see the stream event without the id and tool name
		// the RPC wire adds to toolcall_start; api.js sets its partial.
		var ame any = ev.AssistantMessageEvent
		if ev.AssistantMessageEvent.Type == engine.AEToolCallStart {
			ame = ordered{{"type", engine.AEToolCallStart}, {"contentIndex", ev.AssistantMessageEvent.ContentIndex}}
		}
		payload = orderedEvent(typ, []Field{{"message", ev.Message}, {"assistantMessageEvent", ame}})
	default:
		b, err := engine.MarshalEvent(e)
		if err != nil {
			return
		}
		payload = json.RawMessage(b)
	}
	if typ == engine.EvSessionInfoChanged && a.rt != nil {
		// The reference emits it to extensions without waiting.
		if b, err := engine.MarshalJSON(payload); err == nil {
			a.dispatchQueued(typ, string(b))
		}
		return
	}
	if _, err := a.dispatch(ctx, typ, payload); err != nil && !errors.Is(err, context.Canceled) {
		a.reportError("", typ, err.Error())
	}
}

// thinkingLevelSelect tells extensions that the effective thinking level
// changed (whoever changed it: RPC, a cycle, pi.setThinkingLevel, a model
// that clamps it), with the level they last saw.
func (h hooks) thinkingLevelSelect(ctx context.Context, level engine.ThinkingLevel) {
	a := h.api()
	a.mu.Lock()
	prev := a.thinking
	a.thinking = level
	a.mu.Unlock()
	if prev == level || !a.HasHandlers("thinking_level_select") {
		return
	}
	a.Emit(ctx, "thinking_level_select", Field{"level", level}, Field{"previousLevel", prev})
}

// UserBash is what the "user_bash" handlers decided about a user's shell
// command (RPC "bash"); nil lets it run locally as usual. Err fails the
// command (a handler threw or returned an invalid value, already reported
// as an extension error); Result answers it without running anything;
// Run runs it through the handler's operations (api_userbash.go).
type UserBash struct {
	Err    error
	Result *UserBashResult
	Run    func(ctx context.Context, onData func([]byte)) (exitCode *int, err error)
}

// UserBashResult is a handler's {result} for a user command.
type UserBashResult struct {
	Output         string `json:"output"`
	ExitCode       *int   `json:"exitCode"`
	Cancelled      bool   `json:"cancelled"`
	Truncated      bool   `json:"truncated"`
	FullOutputPath string `json:"fullOutputPath"`
}

// UserBash runs the "user_bash" handlers for a user command in cwd.
func (a *API) UserBash(ctx context.Context, command string, excludeFromContext bool, cwd string) *UserBash {
	if !a.HasHandlers("user_bash") {
		return nil
	}
	out, err := a.dispatch(ctx, "user_bash", ordered{{"type", "user_bash"}, {"command", command},
		{"excludeFromContext", excludeFromContext}, {"cwd", cwd}})
	if err != nil {
		return &UserBash{Err: err}
	}
	if out == "" {
		return nil
	}
	var r struct {
		Error      *string         `json:"error"`
		Result     *UserBashResult `json:"result"`
		Operations int             `json:"operations"`
	}
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		return &UserBash{Err: fmt.Errorf("user_bash: %w", err)}
	}
	switch {
	case r.Error != nil:
		return &UserBash{Err: errors.New(*r.Error)}
	case r.Result != nil:
		return &UserBash{Result: r.Result}
	case r.Operations > 0:
		id := r.Operations
		return &UserBash{Run: func(ctx context.Context, onData func([]byte)) (*int, error) {
			return a.runUserBashOps(ctx, id, command, cwd, onData)
		}}
	}
	return nil
}

// ModelSelect runs "model_select" for a model the user selected over RPC
// (set_model, cycle_model); pi.setModel emits its own.
func (h hooks) ModelSelect(ctx context.Context, model, previous *engine.Model, source string) {
	a := h.api()
	if !a.HasHandlers("model_select") {
		return
	}
	fields := []Field{{"model", model}}
	if previous != nil {
		fields = append(fields, Field{"previousModel", previous})
	}
	a.Emit(ctx, "model_select", append(fields, Field{"source", source})...)
}
