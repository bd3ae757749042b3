package engine

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"
)

// Texts the model sees for tool calls that did not run; models and tests
// match on them, so they are the reference's.
const (
	textOperationAborted = "Operation aborted"
	textToolBlocked      = "Tool execution was blocked"
)

func textToolNotFound(name string) string { return "Tool " + name + " not found" }

func textTruncatedCall(name string) string {
	return fmt.Sprintf("Tool call %q was not executed: the response hit the output token limit, so its arguments may be truncated. Re-issue the tool call with complete arguments.", name)
}

// agentLoop is one low-level run: turns of "stream an assistant message,
// run its tool calls" until the model stops and no queued message is
// left. It emits every event through emit on the calling goroutine; the
// session decides what agent_end means (retry or not), so the loop does
// not emit it.
type agentLoop struct {
	model        *Model
	thinking     ThinkingLevel
	tools        []Tool
	provider     Provider
	apiKey       string
	systemPrompt string
	sessionID    string
	hooks        Hooks
	emit         func(Event)
	steering     func() []*Message
	followUp     func() []*Message
	now          func() time.Time
	// toolsNow, when set, is read before each later turn: tools declared
	// during a run (tool_search's matches) reach the next model call, and
	// toolsDecl's system message (nil for no change) declares them first.
	toolsNow  func() []Tool
	toolsDecl func(history []*Message, tools []Tool) *Message
	// beforeTurn runs between turns, before turn_start; a non-nil result
	// replaces the context (a compaction rebuilt it).
	beforeTurn func(ctx context.Context) []*Message
	// continueTurn, after a completed turn's turn_end, reports whether
	// the extensions asked for one more request (a turn_end boundary).
	continueTurn func() bool
	// halted reports that the session sends no more requests (print mode
	// is finishing): the next request is aborted before it starts.
	halted func() bool
	// thinkingBudgets are the custom budgets passed on to each request.
	thinkingBudgets map[ThinkingLevel]int
	// blockImages, when it reports true, replaces images in what is sent
	// (SessionOptions.BlockImages).
	blockImages func() bool
}

// run executes the loop over context (the transcript so far) with the
// prompt messages, and returns every message it created.
func (a *agentLoop) run(ctx context.Context, history []*Message, prompts []*Message) []*Message {
	msgs := append([]*Message(nil), history...)
	var created []*Message
	a.emit(AgentStart{})
	a.emit(TurnStart{})
	pending := append([]*Message(nil), prompts...)
	if a.steering != nil {
		pending = append(pending, a.steering()...)
	}
	if len(pending) == 0 && a.followUp != nil {
		// A continuation (after compaction or a settle boundary) answers
		// the queued follow-ups first, as the reference's continue does.
		pending = a.followUp()
	}
	first := true
	for {
		more := true
		for more || len(pending) > 0 {
			if !first {
				if a.beforeTurn != nil {
					if rebuilt := a.beforeTurn(ctx); rebuilt != nil {
						msgs = rebuilt
					}
				}
				if len(pending) == 0 && a.steering != nil {
					pending = a.steering()
				}
				if a.toolsNow != nil {
					a.tools = a.toolsNow()
					if a.toolsDecl != nil {
						if m := a.toolsDecl(msgs, a.tools); m != nil {
							pending = append([]*Message{m}, pending...)
						}
					}
				}
				a.emit(TurnStart{})
			}
			first = false
			for _, m := range pending {
				a.emit(MessageStart{Message: m})
				a.emit(MessageEnd{Message: m})
				msgs = append(msgs, m)
				created = append(created, m)
			}
			pending = nil

			reply := a.streamAssistant(ctx, msgs)
			msgs = append(msgs, reply)
			created = append(created, reply)
			if reply.StopReason == StopError || reply.StopReason == StopAborted {
				a.emit(TurnEnd{Message: reply, ToolResults: []*Message{}})
				return created
			}
			calls := reply.ToolCalls()
			results := []*Message{}
			more = false
			if len(calls) > 0 {
				var terminate bool
				if reply.StopReason == StopLength {
					results = a.failTruncated(calls)
				} else {
					results, terminate = a.executeTools(ctx, calls)
				}
				more = !terminate
				msgs = append(msgs, results...)
				created = append(created, results...)
			}
			a.emit(TurnEnd{Message: reply, ToolResults: results})
			if a.continueTurn != nil && a.continueTurn() {
				more = true
			}
			if a.steering != nil {
				pending = a.steering()
			}
		}
		if a.followUp != nil {
			if f := a.followUp(); len(f) > 0 {
				pending = f
				continue
			}
		}
		return created
	}
}

// snapshot copies a provider-owned partial message so subscribers may
// keep it after the callback returns.
func snapshot(m *Message) *Message {
	if m == nil {
		return nil
	}
	if len(m.Content.Blocks) == 1 {
		// The usual streamed partial (one text block) is copied with its
		// block in one allocation: a snapshot is taken for every delta.
		w := &struct {
			msg   Message
			block [1]Content
		}{msg: *m}
		w.block[0] = m.Content.Blocks[0]
		w.msg.Content.Blocks = w.block[:]
		return &w.msg
	}
	c := *m
	c.Content.Blocks = append([]Content(nil), m.Content.Blocks...)
	return &c
}

// streamAssistant runs one provider request and turns its events into
// message_start / message_update / message_end.
func (a *agentLoop) streamAssistant(ctx context.Context, msgs []*Message) *Message {
	llmMsgs := msgs
	systemPrompt := a.systemPrompt
	// The tools a context_with_system handler left declared in the
	// transcript (both nil when no handler replaced it).
	var declaredBefore, declaredAfter []ToolDecl
	if a.hooks != nil {
		var nonSystem []*Message
		var system []*Message
		for _, m := range msgs {
			if m.Role == RoleSystem {
				system = append(system, m)
			} else {
				nonSystem = append(nonSystem, m)
			}
		}
		if repl, err := a.hooks.Context(ctx, nonSystem); err == nil && repl != nil {
			llmMsgs = append(system, repl...)
		}
		if repl, err := a.hooks.ContextWithSystem(ctx, llmMsgs); err == nil && repl != nil {
			systemPrompt = systemPromptAfterHooks(systemPrompt, llmMsgs, repl)
			declaredBefore, declaredAfter = currentToolDecls(llmMsgs), currentToolDecls(repl)
			llmMsgs = repl
		}
	}
	llmMsgs = ConvertToLLM(llmMsgs)
	if a.blockImages != nil && a.blockImages() {
		llmMsgs = BlockImages(llmMsgs)
	}
	infos := make([]ToolInfo, 0, len(a.tools))
	for _, t := range a.tools {
		infos = append(infos, t.Info())
	}
	if !sameToolDecls(declaredBefore, declaredAfter) {
		infos = toolsAfterHooks(infos, declaredAfter)
	}
	maxTokens := 0
	if a.model != nil {
		maxTokens = ClampMaxTokens(a.model, EstimateContextTokens(llmMsgs), a.model.MaxTokens)
	}
	req := &LLMRequest{
		Model: a.model, SystemPrompt: systemPrompt, Messages: llmMsgs, Tools: infos,
		ThinkingLevel: a.thinking, MaxTokens: maxTokens, APIKey: a.apiKey, SessionID: a.sessionID,
		ThinkingBudgets: a.thinkingBudgets,
	}
	attachProviderHooks(ctx, a.hooks, req)
	started := false
	begin := a.now()
	var final *Message
	if ctx.Err() != nil || (a.halted != nil && a.halted()) {
		// Aborted before the request started: the reference's provider
		// setup fails with the abort reason and emits no stream events.
		final = setupAborted(a.model, begin.UnixMilli())
	} else {
		final = a.stream(ctx, req, &started)
	}
	if final == nil {
		final = &Message{Role: RoleAssistant, StopReason: StopError, ErrorMessage: "provider returned no message"}
	}
	if final.ErrorMessage != "" {
		final.ErrorMessage = RedactSecrets(final.ErrorMessage, requestSecrets(req)...)
	}
	if len(final.Diagnostics) > 0 {
		// A provider's diagnostics quote the failed response (its error
		// message and body) too. Masking inserts no JSON syntax, so the
		// raw JSON stays valid.
		final.Diagnostics = json.RawMessage(RedactSecrets(string(final.Diagnostics), requestSecrets(req)...))
	}
	if final.Role == "" {
		final.Role = RoleAssistant
	}
	if final.Timestamp == 0 {
		final.Timestamp = begin.UnixMilli()
	}
	if a.model != nil {
		if final.API == "" {
			final.API = a.model.API
		}
		if final.Provider == "" {
			final.Provider = a.model.Provider
		}
		if final.Model == "" {
			final.Model = a.model.ID
		}
	}
	if final.DurationMs == nil {
		d := a.now().Sub(begin).Milliseconds()
		final.DurationMs = &d
	}
	if final.ThinkingLevel == "" {
		final.ThinkingLevel = string(a.thinking)
	}
	if !started {
		a.emit(MessageStart{Message: snapshot(final)})
	}
	a.emit(MessageEnd{Message: final})
	return final
}

// stream sends the request and turns the provider's events into
// message_start and message_update; started records whether
// message_start went out.
func (a *agentLoop) stream(ctx context.Context, req *LLMRequest, started *bool) *Message {
	return a.provider.Stream(ctx, req, func(ev AssistantEvent) {
		switch ev.Type {
		case AEStart:
			if !*started {
				*started = true
				a.emit(MessageStart{Message: snapshot(ev.Partial)})
			}
		case AEDone, AEError:
			// The final message is announced by message_end below.
		default:
			if !*started {
				*started = true
				a.emit(MessageStart{Message: snapshot(ev.Partial)})
			}
			if ev.Type == AEToolCallStart && ev.Partial != nil && ev.ContentIndex < len(ev.Partial.Content.Blocks) {
				b := ev.Partial.Content.Blocks[ev.ContentIndex]
				if ev.ID == "" {
					ev.ID = b.ID
				}
				if ev.ToolName == "" {
					ev.ToolName = b.Name
				}
			}
			var usage Usage
			if ev.Partial != nil {
				usage = ev.Partial.Usage
			}
			part := snapshot(ev.Partial)
			ev.Partial = nil
			a.emit(MessageUpdate{Usage: usage, AssistantMessageEvent: ev, Message: part})
		}
	})
}

// toolOutcome is the finished state of one tool call.
type toolOutcome struct {
	call     Content
	result   ToolResult
	duration *int64
	// nested records the calls the tool made of other tools.
	nested *nestedRecorder
}

func (a *agentLoop) findTool(name string) Tool {
	for _, t := range a.tools {
		if t.Info().Name == name {
			return t
		}
	}
	return nil
}

func argsOf(c Content) json.RawMessage {
	if len(c.Arguments) == 0 {
		return json.RawMessage("{}")
	}
	return c.Arguments
}

func (a *agentLoop) emitEnd(o toolOutcome) {
	a.emit(ToolExecutionEnd{ToolCallID: o.call.ID, ToolName: o.call.Name, Result: o.result, IsError: o.result.IsError, DurationMs: o.duration})
}

func (a *agentLoop) resultMessage(o toolOutcome) *Message {
	content := o.result.Content
	if content == nil {
		content = []Content{}
	}
	m := &Message{
		Role: RoleToolResult, ToolCallID: o.call.ID, ToolName: o.call.Name, Content: Blocks(content...),
		Details: o.result.Details, IsError: o.result.IsError, DurationMs: o.duration, Timestamp: a.now().UnixMilli(),
		NestedCalls: o.nested.snapshot(),
	}
	a.emit(MessageStart{Message: m})
	a.emit(MessageEnd{Message: m})
	return m
}

// failTruncated answers every call of a length-stopped message with an
// error, since its arguments may be cut off.
func (a *agentLoop) failTruncated(calls []Content) []*Message {
	out := make([]*Message, 0, len(calls))
	for _, c := range calls {
		a.emit(ToolExecutionStart{ToolCallID: c.ID, ToolName: c.Name, Args: argsOf(c)})
		o := toolOutcome{call: c, result: ErrorResult(textTruncatedCall(c.Name))}
		a.emitEnd(o)
		out = append(out, a.resultMessage(o))
	}
	return out
}

// prepared is a call ready to execute, or already finished.
type prepared struct {
	call     Content
	tool     Tool
	args     json.RawMessage
	finished *toolOutcome
}

func (a *agentLoop) prepare(ctx context.Context, c Content) prepared {
	p := prepared{call: c}
	fail := func(text string) prepared {
		p.finished = &toolOutcome{call: c, result: ErrorResult(text)}
		return p
	}
	if ctx.Err() != nil {
		return fail(textOperationAborted)
	}
	t := a.findTool(c.Name)
	if t == nil {
		return fail(textToolNotFound(c.Name))
	}
	raw := argsOf(c)
	if p, ok := t.(ArgumentPreparer); ok {
		raw = p.PrepareArguments(raw)
	}
	args, err := ValidateToolArgs(c.Name, t.Info().Parameters, raw)
	if err != nil {
		return fail(err.Error())
	}
	if a.hooks != nil {
		d, err := a.hooks.ToolCall(ctx, ToolCall{ID: c.ID, Name: c.Name, Args: args})
		if err != nil {
			return fail(err.Error())
		}
		if d != nil {
			if d.Block {
				reason := d.Reason
				if reason == "" {
					reason = textToolBlocked
				}
				f := fail(reason)
				f.finished.result.Terminate = d.Terminate
				return f
			}
			if len(d.Args) > 0 {
				args = d.Args
			}
		}
	}
	p.tool, p.args = t, args
	return p
}

// execute runs one prepared call; update forwards partial results.
func (a *agentLoop) execute(ctx context.Context, p prepared, update func(ToolResult)) toolOutcome {
	if ctx.Err() != nil {
		return toolOutcome{call: p.call, result: ErrorResult(textOperationAborted)}
	}
	call := ToolCall{ID: p.call.ID, Name: p.call.Name, Args: p.args}
	begin := time.Now()
	nctx, rec := a.withNested(ctx, p.call.ID)
	res, err := safeExecute(nctx, p.tool, call, update)
	d := time.Since(begin).Milliseconds()
	if err != nil {
		res = ErrorResult(err.Error())
	}
	return toolOutcome{call: p.call, result: res, duration: &d, nested: rec}
}

// afterTool runs the tool_result hooks on an executed call's outcome. It
// runs on the loop goroutine once the call's updates were emitted, so the
// hooks see them first, as in the reference.
func (a *agentLoop) afterTool(ctx context.Context, p prepared, o toolOutcome) toolOutcome {
	if a.hooks == nil || o.duration == nil {
		return o
	}
	call := ToolCall{ID: p.call.ID, Name: p.call.Name, Args: p.args}
	if repl, herr := a.hooks.ToolResult(ctx, call, o.result); herr != nil {
		o.result = ErrorResult(herr.Error())
	} else if repl != nil {
		o.result = *repl
	}
	return o
}

// safeExecute turns a panicking tool into an error result instead of a
// crashed process.
func safeExecute(ctx context.Context, t Tool, call ToolCall, update func(ToolResult)) (res ToolResult, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("%v", r)
		}
	}()
	return t.Execute(ctx, call, update)
}

// toolEvent carries a tool goroutine's update or completion back to the
// loop goroutine, which alone emits events.
type toolEvent struct {
	index   int
	partial *ToolResult
	done    *toolOutcome
}

// executeTools runs a batch: starts and preparation in source order,
// executions concurrently (or one by one when a tool asks for it), end
// events in completion order, result messages in source order.
func (a *agentLoop) executeTools(ctx context.Context, calls []Content) ([]*Message, bool) {
	sequential := false
	for _, c := range calls {
		if t := a.findTool(c.Name); t != nil && t.Info().Sequential {
			sequential = true
		}
	}
	outcomes := make([]toolOutcome, len(calls))
	if sequential {
		out := make([]*Message, 0, len(calls))
		for i, c := range calls {
			a.emit(ToolExecutionStart{ToolCallID: c.ID, ToolName: c.Name, Args: argsOf(c)})
			p := a.prepare(ctx, c)
			if p.finished != nil {
				outcomes[i] = *p.finished
			} else {
				outcomes[i] = a.runCollected(ctx, []prepared{p}, []int{0}, make([]toolOutcome, 1))[0]
			}
			a.emitEndIfImmediate(p, outcomes[i])
			out = append(out, a.resultMessage(outcomes[i]))
		}
		return out, allTerminate(outcomes)
	}
	var toRun []prepared
	var idx []int
	for i, c := range calls {
		a.emit(ToolExecutionStart{ToolCallID: c.ID, ToolName: c.Name, Args: argsOf(c)})
		p := a.prepare(ctx, c)
		if p.finished != nil {
			outcomes[i] = *p.finished
			a.emitEnd(outcomes[i])
			continue
		}
		toRun = append(toRun, p)
		idx = append(idx, i)
	}
	a.runCollected(ctx, toRun, idx, outcomes)
	out := make([]*Message, 0, len(calls))
	for _, o := range outcomes {
		out = append(out, a.resultMessage(o))
	}
	return out, allTerminate(outcomes)
}

// emitEndIfImmediate emits the end event of a call that never ran; calls
// that ran had theirs emitted by runCollected.
func (a *agentLoop) emitEndIfImmediate(p prepared, o toolOutcome) {
	if p.finished != nil {
		a.emitEnd(o)
	}
}

// runCollected executes calls concurrently and emits their updates and
// end events on this goroutine as they arrive.
func (a *agentLoop) runCollected(ctx context.Context, ps []prepared, idx []int, outcomes []toolOutcome) []toolOutcome {
	if len(ps) == 0 {
		return outcomes
	}
	ch := make(chan toolEvent)
	for k, p := range ps {
		go func(k int, p prepared) {
			o := a.execute(ctx, p, func(r ToolResult) {
				r2 := r
				ch <- toolEvent{index: k, partial: &r2}
			})
			ch <- toolEvent{index: k, done: &o}
		}(k, p)
	}
	for remaining := len(ps); remaining > 0; {
		ev := <-ch
		p := ps[ev.index]
		if ev.partial != nil {
			a.emit(ToolExecutionUpdate{ToolCallID: p.call.ID, ToolName: p.call.Name, Args: argsOf(p.call), PartialResult: *ev.partial})
			continue
		}
		done := a.afterTool(ctx, p, *ev.done)
		outcomes[idx[ev.index]] = done
		a.emitEnd(done)
		remaining--
	}
	return outcomes
}

func allTerminate(os []toolOutcome) bool {
	if len(os) == 0 {
		return false
	}
	for _, o := range os {
		if !o.result.Terminate {
			return false
		}
	}
	return true
}

// errNoModel is returned when a run is started without a model.
var errNoModel = errors.New("No model selected")
