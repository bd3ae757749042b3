package openairesponses

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"

	"github.com/openai/openai-go/v3/packages/ssestream"
	"github.com/pi-go/pi/engine"
	"github.com/pi-go/pi/engine/llm"
)

// slot is an output item being streamed, keyed by its output_index.
type slot struct {
	kind string // engine.ContentThinking, ContentText or ContentToolCall
	idx  int    // content index in the message
	args string // tool-call argument text so far
	// custom is the input of a grammar tool call (custom_tool_call).
	custom *customInput
}

// stream turns Responses API events into the builder's events.
type stream struct {
	b      *llm.Builder
	model  *engine.Model
	flavor flavor
	// grammar maps grammar tools to their input property.
	grammar     map[string]string
	slots       map[int]*slot
	reasoning   map[string]int // reasoning item id -> content index
	unfinished  []int          // tool calls whose output_item.done has not come
	sawTerminal bool
	// codexDone is set by Codex's terminal event: the reference stops
	// reading the stream there.
	codexDone bool
	// onEvent is the request's OnStreamEvent, told each parsed event.
	onEvent func(json.RawMessage)
}

// streamFailure is a failure found in the stream: the reference throws it
// and ends the message with it.
type streamFailure struct{ msg string }

func (e *streamFailure) Error() string { return e.msg }

func fail(msg string) error { return &streamFailure{msg} }

// event is the part of a stream event this adapter reads.
type event struct {
	Type        string          `json:"type"`
	OutputIndex int             `json:"output_index"`
	Delta       *string         `json:"delta"`
	Arguments   *string         `json:"arguments"`
	Input       *string         `json:"input"`
	Item        json.RawMessage `json:"item"`
	Response    *response       `json:"response"`
	Code        json.RawMessage `json:"code"`
	Message     json.RawMessage `json:"message"`
	Error       json.RawMessage `json:"error"`
}

type response struct {
	ID                string          `json:"id"`
	EndTurn           *bool           `json:"end_turn"`
	Status            string          `json:"status"`
	Output            json.RawMessage `json:"output"`
	Usage             *usage          `json:"usage"`
	IncompleteDetails *struct {
		Reason json.RawMessage `json:"reason"`
	} `json:"incomplete_details"`
	Error *struct {
		Code    string `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
}

type usage struct {
	InputTokens        int `json:"input_tokens"`
	OutputTokens       int `json:"output_tokens"`
	TotalTokens        int `json:"total_tokens"`
	InputTokensDetails *struct {
		CachedTokens     int `json:"cached_tokens"`
		CacheWriteTokens int `json:"cache_write_tokens"`
	} `json:"input_tokens_details"`
	OutputTokensDetails *struct {
		ReasoningTokens int `json:"reasoning_tokens"`
	} `json:"output_tokens_details"`
}

type item struct {
	ID        string  `json:"id"`
	Type      string  `json:"type"`
	CallID    string  `json:"call_id"`
	Name      string  `json:"name"`
	Arguments string  `json:"arguments"`
	Input     *string `json:"input"`
	Namespace *string `json:"namespace"`
	Phase     *string `json:"phase"`
	Summary   []struct {
		Text string `json:"text"`
	} `json:"summary"`
	Content []struct {
		Type    string `json:"type"`
		Text    string `json:"text"`
		Refusal string `json:"refusal"`
	} `json:"content"`
	EncryptedContent string `json:"encrypted_content"`
}

func (s *stream) run(ctx context.Context, dec ssestream.Decoder) *engine.Message {
	b := s.b
	failWith := func(msg string) *engine.Message {
		if ctx.Err() != nil {
			return b.Fail(engine.StopAborted, msg)
		}
		return b.Fail(engine.StopError, msg)
	}
	for dec.Next() {
		ev := dec.Event()
		data := bytes.TrimSpace(ev.Data)
		if len(data) == 0 {
			continue
		}
		if string(data) == "[DONE]" {
			break
		}
		if err := s.handle(ev.Type, data); err != nil {
			return failWith(err.Error())
		}
		if s.codexDone {
			break
		}
	}
	if err := dec.Err(); err != nil && ctx.Err() == nil {
		return b.Fail(engine.StopError, streamError(err))
	}
	if !s.sawTerminal {
		return failWith(ErrNoTerminalEvent)
	}
	if b.Msg.StopReason == engine.StopToolUse && len(s.unfinished) > 0 {
		c := b.Msg.Content.Blocks[s.unfinished[0]]
		return failWith("OpenAI Responses stream completed with an unfinished tool call: " + c.Name + " (" + c.ID + ")")
	}
	if ctx.Err() != nil {
		return b.Fail(engine.StopAborted, llm.ErrAborted)
	}
	switch b.Msg.StopReason {
	case engine.StopPending:
		switch s.flavor {
		case flavorAzure:
			return b.Fail(engine.StopError, "Azure "+ErrNoStopReason)
		case flavorCodex:
			return b.Fail(engine.StopError, errCodexNoStop)
		}
		return b.Fail(engine.StopError, ErrNoStopReason)
	case engine.StopError, engine.StopAborted:
		msg := b.Msg.ErrorMessage
		if msg == "" {
			msg = ErrUnknown
		}
		return b.Fail(engine.StopError, msg)
	}
	return b.Finish(b.Msg.StopReason)
}

// handle applies one SSE event. Errors the SDK raises (an "error" event,
// an "error" field, malformed JSON) and those the reference throws end the
// stream.
func (s *stream) handle(name string, data []byte) error {
	var ev event
	if err := json.Unmarshal(data, &ev); err != nil {
		if s.flavor == flavorCodex {
			return fail("Invalid Codex SSE JSON: " + err.Error())
		}
		return fail("Error reading response: malformed server-sent event JSON.")
	}
	if s.onEvent != nil {
		s.onEvent(data)
	}
	if s.flavor == flavorCodex {
		return s.handleCodex(&ev, data)
	}
	if name == "error" {
		e := ev.Error
		if !truthyJSON(e) {
			e = data
		}
		return fail(sdkErrorMessage(e))
	}
	if truthyJSON(ev.Error) {
		return fail(sdkErrorMessage(ev.Error))
	}
	return s.handleEvent(&ev)
}

// handleEvent applies one decoded Responses event.
func (s *stream) handleEvent(ev *event) error {
	b := s.b
	switch ev.Type {
	case "response.created":
		if ev.Response != nil {
			b.Msg.ResponseID = ev.Response.ID
		}
	case "response.output_item.added":
		var it item
		if json.Unmarshal(ev.Item, &it) == nil {
			s.create(ev.OutputIndex, &it)
		}
	case "response.reasoning_summary_text.delta", "response.reasoning_text.delta":
		if sl := s.slot(ev.OutputIndex, engine.ContentThinking); sl != nil && ev.Delta != nil {
			b.AppendThinking(sl.idx, *ev.Delta)
		}
	case "response.reasoning_summary_part.done":
		if sl := s.slot(ev.OutputIndex, engine.ContentThinking); sl != nil {
			b.AppendThinking(sl.idx, "\n\n")
		}
	case "response.output_text.delta", "response.refusal.delta":
		if sl := s.slot(ev.OutputIndex, engine.ContentText); sl != nil && ev.Delta != nil {
			b.AppendText(sl.idx, *ev.Delta)
		}
	case "response.function_call_arguments.delta":
		if sl := s.slot(ev.OutputIndex, engine.ContentToolCall); sl != nil && sl.custom == nil && ev.Delta != nil {
			sl.args += *ev.Delta
			b.AppendToolArgs(sl.idx, *ev.Delta)
		}
	case "response.custom_tool_call_input.delta":
		if sl := s.slot(ev.OutputIndex, engine.ContentToolCall); sl != nil && sl.custom != nil && ev.Delta != nil {
			piece, err := sl.custom.appendDelta(*ev.Delta)
			if err != nil {
				return fail(err.Error())
			}
			s.sendCustom(sl, piece)
		}
	case "response.custom_tool_call_input.done":
		if sl := s.slot(ev.OutputIndex, engine.ContentToolCall); sl != nil && sl.custom != nil {
			piece, err := sl.custom.close(ev.Input)
			if err != nil {
				return fail(err.Error())
			}
			s.sendCustom(sl, piece)
		}
	case "response.function_call_arguments.done":
		if sl := s.slot(ev.OutputIndex, engine.ContentToolCall); sl != nil && sl.custom == nil && ev.Arguments != nil {
			s.replaceArgs(sl, *ev.Arguments, true)
		}
	case "response.output_item.done":
		var it item
		if json.Unmarshal(ev.Item, &it) == nil {
			if err := s.done(ev.OutputIndex, &it, ev.Item); err != nil {
				return err
			}
		}
	case "response.completed", "response.incomplete":
		return s.finalize(ev.Response)
	case "error":
		return fail("Error Code " + jsText(ev.Code) + ": " + jsText(ev.Message))
	case "response.failed":
		s.sawTerminal = true
		r := ev.Response
		if r != nil {
			b.Msg.RawStopReason = r.Status
		}
		switch {
		case r != nil && r.Error != nil:
			code, msg := r.Error.Code, r.Error.Message
			if code == "" {
				code = "unknown"
			}
			if msg == "" {
				msg = "no message"
			}
			return fail(code + ": " + msg)
		case r != nil && r.IncompleteDetails != nil && truthyJSON(r.IncompleteDetails.Reason):
			return fail("incomplete: " + jsText(r.IncompleteDetails.Reason))
		}
		return fail("Unknown error (no error details in response)")
	}
	return nil
}

// handleCodex maps the ChatGPT backend's events onto the shared handling
// as the reference does: the SSE event name is ignored, "error" and
// response.failed end the stream with Codex's wording, and response.done,
// response.completed and response.incomplete all finish it as a completed
// response whose unknown statuses are dropped.
func (s *stream) handleCodex(ev *event, data []byte) error {
	switch ev.Type {
	case "":
		return nil
	case "error":
		return fail(codexEventError(data))
	case "response.failed":
		return fail(codexFailedError(ev.Response))
	case "response.done", "response.completed", "response.incomplete":
		s.codexDone = true
		r := ev.Response
		if r != nil && r.EndTurn != nil {
			s.b.Msg.EndTurn = r.EndTurn
		}
		if r != nil && !codexStatuses[r.Status] {
			cp := *r
			cp.Status = ""
			r = &cp
		}
		return s.finalize(r)
	}
	return s.handleEvent(ev)
}

func (s *stream) slot(outputIndex int, kind string) *slot {
	if sl, ok := s.slots[outputIndex]; ok && sl.kind == kind {
		return sl
	}
	return nil
}

// create opens the block of a new output item.
func (s *stream) create(outputIndex int, it *item) *slot {
	b := s.b
	var sl *slot
	switch it.Type {
	case "reasoning":
		sl = &slot{kind: engine.ContentThinking, idx: b.StartThinking("")}
	case "message":
		s.applyPhase(it)
		sl = &slot{kind: engine.ContentText, idx: b.StartText()}
	case "function_call":
		sl = &slot{kind: engine.ContentToolCall}
		sl.idx = b.StartToolCall(it.CallID+"|"+it.ID, it.Name)
		if it.Namespace != nil {
			b.Msg.Content.Blocks[sl.idx].Namespace = *it.Namespace
		}
		if it.Arguments != "" {
			sl.args = it.Arguments
			b.SetToolArgs(sl.idx, it.Arguments)
		}
		s.unfinished = append(s.unfinished, sl.idx)
	case "custom_tool_call":
		prop, ok := s.grammar[it.Name]
		if !ok {
			prop = "input"
		}
		input := ""
		if it.Input != nil {
			input = *it.Input
		}
		sl = &slot{kind: engine.ContentToolCall, custom: &customInput{prop: prop}}
		sl.idx = s.b.StartToolCall(it.CallID+"|"+it.ID, it.Name)
		if it.Namespace != nil {
			b.Msg.Content.Blocks[sl.idx].Namespace = *it.Namespace
		}
		// The arguments hold the input at once; its JSON text goes out with
		// the next piece.
		sl.custom.unsent, _ = sl.custom.appendDelta(input)
		obj, _ := llm.Object{}.Set(prop, input).MarshalJSON()
		b.SetToolArgs(sl.idx, string(obj))
		s.unfinished = append(s.unfinished, sl.idx)
	default:
		return nil
	}
	s.slots[outputIndex] = sl
	return sl
}

// applyPhase marks a final-answer message as a normal stop while the
// response is still streaming, as the reference does.
func (s *stream) applyPhase(it *item) {
	if it.Type == "message" && it.Phase != nil && *it.Phase == "final_answer" {
		s.b.Msg.StopReason = engine.StopStop
	}
}

// replaceArgs takes the complete argument text. When it continues what was
// streamed, the missing piece is sent as a delta (if asked); otherwise the
// arguments start over from it.
func (s *stream) replaceArgs(sl *slot, text string, emitDelta bool) {
	if rest, ok := strings.CutPrefix(text, sl.args); ok {
		sl.args = text
		if rest != "" && emitDelta {
			s.b.AppendToolArgs(sl.idx, rest)
			return
		}
	}
	sl.args = text
	s.b.SetToolArgs(sl.idx, text)
}

// done closes an output item with its final form: the summary text and the
// item itself as the thinking signature, the message text and id, or the
// tool call's complete arguments.
func (s *stream) done(outputIndex int, it *item, raw json.RawMessage) error {
	s.applyPhase(it)
	b := s.b
	sl, ok := s.slots[outputIndex]
	if !ok {
		sl = s.create(outputIndex, it)
	}
	if sl == nil {
		return nil
	}
	switch {
	case it.Type == "reasoning" && sl.kind == engine.ContentThinking:
		blk := &b.Msg.Content.Blocks[sl.idx]
		summary := joinTexts(len(it.Summary), func(i int) string { return it.Summary[i].Text }, "\n\n")
		content := joinTexts(len(it.Content), func(i int) string { return it.Content[i].Text }, "\n\n")
		switch {
		case summary != "":
			blk.Thinking = summary
		case content != "":
			blk.Thinking = content
		}
		blk.ThinkingSignature = compactJSON(raw)
		s.reasoning[it.ID] = sl.idx
	case it.Type == "message" && sl.kind == engine.ContentText:
		blk := &b.Msg.Content.Blocks[sl.idx]
		blk.Text = joinTexts(len(it.Content), func(i int) string {
			if it.Content[i].Type == "output_text" {
				return it.Content[i].Text
			}
			return it.Content[i].Refusal
		}, "")
		phase := ""
		if it.Phase != nil {
			phase = *it.Phase
		}
		blk.TextSignature = encodeTextSignature(it.ID, phase)
	case it.Type == "custom_tool_call" && sl.kind == engine.ContentToolCall && sl.custom != nil:
		piece, err := sl.custom.close(it.Input)
		if err != nil {
			return fail(err.Error())
		}
		s.sendCustom(sl, piece)
		if it.Namespace != nil {
			b.Msg.Content.Blocks[sl.idx].Namespace = *it.Namespace
		}
		s.finishCall(sl.idx)
	case it.Type == "function_call" && sl.kind == engine.ContentToolCall && sl.custom == nil:
		if it.Arguments != "" {
			s.replaceArgs(sl, it.Arguments, false)
		}
		if it.Namespace != nil {
			b.Msg.Content.Blocks[sl.idx].Namespace = *it.Namespace
		}
		s.finishCall(sl.idx)
	default:
		return nil
	}
	b.EndBlock(sl.idx)
	delete(s.slots, outputIndex)
	return nil
}

// finishCall marks a tool call's output item as done.
func (s *stream) finishCall(idx int) {
	for i, u := range s.unfinished {
		if u == idx {
			s.unfinished = append(s.unfinished[:i], s.unfinished[i+1:]...)
			return
		}
	}
}

// sendCustom emits a grammar tool call's JSON piece (with any text held
// back since the item started) as a toolcall_delta; the arguments become
// exactly the text emitted so far.
func (s *stream) sendCustom(sl *slot, piece string) {
	delta := sl.custom.send(piece)
	if delta == "" {
		return
	}
	s.b.SetToolArgs(sl.idx, sl.custom.sent)
	sl.custom.sent += delta
	s.b.AppendToolArgs(sl.idx, delta)
}

// finalize reads a completed or incomplete response: encrypted reasoning
// that only the final output carries, the id, usage and cost, and the stop
// reason.
func (s *stream) finalize(r *response) error {
	s.sawTerminal = true
	b := s.b
	if r == nil {
		r = &response{}
	}
	s.backfillReasoning(r.Output)
	if r.ID != "" {
		b.Msg.ResponseID = r.ID
	}
	if r.Usage != nil {
		u := r.Usage
		cached, written := 0, 0
		if u.InputTokensDetails != nil {
			cached, written = u.InputTokensDetails.CachedTokens, u.InputTokensDetails.CacheWriteTokens
		}
		reasoning := 0
		if u.OutputTokensDetails != nil {
			reasoning = u.OutputTokensDetails.ReasoningTokens
		}
		b.SetUsage(engine.Usage{
			Input: max(0, u.InputTokens-cached-written), Output: u.OutputTokens,
			CacheRead: cached, CacheWrite: written, Reasoning: &reasoning, TotalTokens: u.TotalTokens,
		})
	} else {
		llm.CalculateCost(s.model, &b.Msg.Usage)
	}
	reason := ""
	if r.IncompleteDetails != nil {
		var str string
		if json.Unmarshal(r.IncompleteDetails.Reason, &str) == nil {
			reason = str
		}
	}
	b.Msg.RawStopReason = r.Status
	if reason != "" {
		b.Msg.RawStopReason = r.Status + "." + reason
	}
	b.Msg.ErrorMessage = ""
	switch r.Status {
	case "", "completed", "in_progress", "queued":
		b.Msg.StopReason = engine.StopStop
	case "incomplete":
		switch reason {
		case "max_output_tokens":
			b.Msg.StopReason = engine.StopLength
		case "":
			b.Msg.StopReason = engine.StopError
			b.Msg.ErrorMessage = "Response incomplete without a provider reason"
		default:
			b.Msg.StopReason = engine.StopError
			b.Msg.ErrorMessage = "Response incomplete: " + reason
		}
	case "failed", "cancelled":
		b.Msg.StopReason = engine.StopError
	default:
		return fail("Unhandled stop reason: " + r.Status)
	}
	if b.Msg.StopReason == engine.StopStop && b.HasToolCalls() {
		b.Msg.StopReason = engine.StopToolUse
	}
	return nil
}

// backfillReasoning adds encrypted_content from the final output to
// reasoning signatures that lack it (some servers send it only there).
func (s *stream) backfillReasoning(output json.RawMessage) {
	var items []json.RawMessage
	if len(output) == 0 || json.Unmarshal(output, &items) != nil {
		return
	}
	for _, raw := range items {
		var it item
		if json.Unmarshal(raw, &it) != nil || it.Type != "reasoning" || it.EncryptedContent == "" {
			continue
		}
		idx, ok := s.reasoning[it.ID]
		if !ok {
			continue
		}
		blk := &s.b.Msg.Content.Blocks[idx]
		if blk.ThinkingSignature == "" {
			continue
		}
		var stored item
		if json.Unmarshal([]byte(blk.ThinkingSignature), &stored) != nil || stored.EncryptedContent != "" {
			continue
		}
		enc, _ := engine.MarshalJSON(it.EncryptedContent)
		sig := strings.TrimSpace(blk.ThinkingSignature)
		if !strings.HasSuffix(sig, "}") {
			continue
		}
		sig = strings.TrimSuffix(sig, "}")
		if !strings.HasSuffix(sig, "{") {
			sig += ","
		}
		blk.ThinkingSignature = sig + `"encrypted_content":` + string(enc) + "}"
	}
}

func joinTexts(n int, at func(int) string, sep string) string {
	parts := make([]string, n)
	for i := range n {
		parts[i] = at(i)
	}
	return strings.Join(parts, sep)
}

func compactJSON(raw json.RawMessage) string {
	var buf bytes.Buffer
	if json.Compact(&buf, raw) != nil {
		return string(raw)
	}
	return buf.String()
}

// truthyJSON is JavaScript truthiness of a raw JSON value.
func truthyJSON(r json.RawMessage) bool {
	s := string(bytes.TrimSpace(r))
	switch s {
	case "", "null", "false", "0", `""`:
		return false
	}
	return true
}

// jsText is how a template literal prints a JSON value.
func jsText(r json.RawMessage) string {
	if len(r) == 0 {
		return "undefined"
	}
	var s string
	if json.Unmarshal(r, &s) == nil {
		return s
	}
	return compactJSON(r)
}

// sdkErrorMessage is the OpenAI SDK's message for an error it finds in a
// stream: the error's "message" when it has one, else its JSON.
func sdkErrorMessage(e json.RawMessage) string {
	var obj map[string]json.RawMessage
	if json.Unmarshal(e, &obj) == nil {
		if m, ok := obj["message"]; ok && truthyJSON(m) {
			var s string
			if json.Unmarshal(m, &s) == nil {
				return s
			}
			return compactJSON(m)
		}
	}
	if truthyJSON(e) {
		return compactJSON(e)
	}
	return "(no status code or body)"
}
