package anthropic

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"

	"github.com/anthropics/anthropic-sdk-go/packages/ssestream"
	"github.com/pi-go/pi/engine"
	"github.com/pi-go/pi/engine/llm"
)

// streamState builds the assistant message from the SSE events.
type streamState struct {
	ctx  context.Context
	req  *engine.LLMRequest
	out  *engine.Message
	emit func(engine.AssistantEvent)

	// abortText is the reference's message for an abort in the current
	// phase of the request.
	abortText string

	// open maps an Anthropic block index to the content index it fills.
	open map[int]*openBlock

	// transformations are the last input_transformations the stream
	// reported (message_start, then message_delta); a successful response
	// records them as a diagnostic (diagnostics.go).
	transformations []json.RawMessage

	// oauth maps tool names in the reply back from Claude Code's casing.
	oauth bool
}

type openBlock struct {
	contentIndex int
	args         *bytes.Buffer // tool_use: the JSON streamed so far
}

func (s *streamState) emitEvent(e engine.AssistantEvent) {
	e.Partial = s.out
	s.emit(e)
}

// Wire shapes of the events read here. Pointers tell absent from zero.
type (
	wireUsage struct {
		InputTokens              *int `json:"input_tokens"`
		OutputTokens             *int `json:"output_tokens"`
		CacheReadInputTokens     *int `json:"cache_read_input_tokens"`
		CacheCreationInputTokens *int `json:"cache_creation_input_tokens"`
		CacheCreation            *struct {
			Ephemeral1h *int `json:"ephemeral_1h_input_tokens"`
		} `json:"cache_creation"`
		OutputTokensDetails *struct {
			ThinkingTokens *int `json:"thinking_tokens"`
		} `json:"output_tokens_details"`
	}
	wireEvent struct {
		Type    string `json:"type"`
		Index   int    `json:"index"`
		Message *struct {
			ID    string    `json:"id"`
			Model string    `json:"model"`
			Usage wireUsage `json:"usage"`
			// InputTransformations are the changes Anthropic made to the
			// request's input, dropped thinking blocks among them.
			InputTransformations []json.RawMessage `json:"input_transformations"`
		} `json:"message"`
		ContentBlock *struct {
			Type      string          `json:"type"`
			Text      string          `json:"text"`
			Thinking  string          `json:"thinking"`
			Signature string          `json:"signature"`
			Data      string          `json:"data"`
			ID        string          `json:"id"`
			Name      string          `json:"name"`
			Input     json.RawMessage `json:"input"`
		} `json:"content_block"`
		Delta *struct {
			Type        string `json:"type"`
			Text        string `json:"text"`
			Thinking    string `json:"thinking"`
			PartialJSON string `json:"partial_json"`
			Signature   string `json:"signature"`
			StopReason  string `json:"stop_reason"`
			StopDetails *struct {
				Explanation string `json:"explanation"`
			} `json:"stop_details"`
		} `json:"delta"`
		Usage                *wireUsage        `json:"usage"`
		InputTransformations []json.RawMessage `json:"input_transformations"`
	}
)

var messageEvents = map[string]bool{
	"message_start": true, "message_delta": true, "message_stop": true,
	"content_block_start": true, "content_block_delta": true, "content_block_stop": true,
}

// read consumes the event stream. It returns nil only when the message
// ended with a stop reason the engine treats as success.
func (s *streamState) read(resp *http.Response) error {
	dec := ssestream.NewDecoder(resp)
	defer dec.Close()
	s.open = map[int]*openBlock{}
	sawStart, sawStop := false, false
	for dec.Next() {
		if s.ctx.Err() != nil {
			return s.ctx.Err()
		}
		ev := dec.Event()
		data := bytes.TrimSuffix(ev.Data, []byte("\n"))
		if ev.Type == "error" {
			return errors.New(string(data))
		}
		if !messageEvents[ev.Type] {
			continue
		}
		var we wireEvent
		if err := json.Unmarshal(data, &we); err != nil {
			return fmt.Errorf("Could not parse Anthropic SSE event %s: %v; data=%s", ev.Type, err, data)
		}
		if s.req.OnStreamEvent != nil {
			s.req.OnStreamEvent(data)
		}
		switch we.Type {
		case "message_start":
			sawStart = true
		case "message_stop":
			sawStop = true
		}
		if err := s.handle(&we); err != nil {
			return err
		}
	}
	if err := dec.Err(); err != nil {
		if s.ctx.Err() != nil {
			return s.ctx.Err()
		}
		return streamError(err)
	}
	if s.ctx.Err() != nil {
		return s.ctx.Err()
	}
	if sawStart && !sawStop {
		return errors.New(errNoMessageStop)
	}
	switch s.out.StopReason {
	case engine.StopPending:
		return errors.New(errNoStopReason)
	case engine.StopError, engine.StopAborted:
		msg := s.out.ErrorMessage
		if msg == "" {
			msg = "An unknown error occurred"
		}
		return errors.New(msg)
	}
	return nil
}

func (s *streamState) handle(we *wireEvent) error {
	out := s.out
	switch we.Type {
	case "message_start":
		if we.Message == nil {
			return nil
		}
		out.ResponseID = we.Message.ID
		if we.Message.InputTransformations != nil {
			s.transformations = we.Message.InputTransformations
		}
		if we.Message.Model != "" && we.Message.Model != s.req.Model.ID {
			out.ResponseModel = we.Message.Model
		}
		u := we.Message.Usage
		out.Usage.Input = deref(u.InputTokens)
		out.Usage.Output = deref(u.OutputTokens)
		out.Usage.CacheRead = deref(u.CacheReadInputTokens)
		out.Usage.CacheWrite = deref(u.CacheCreationInputTokens)
		long := 0
		if u.CacheCreation != nil {
			long = deref(u.CacheCreation.Ephemeral1h)
		}
		out.Usage.CacheWrite1h = &long
		s.totals()
	case "content_block_start":
		cb := we.ContentBlock
		if cb == nil {
			return nil
		}
		idx := len(out.Content.Blocks)
		switch cb.Type {
		case "fallback":
			if idx > 0 {
				return errors.New("Anthropic performed an unsupported mid-output model fallback")
			}
		case "text":
			out.Content.Blocks = append(out.Content.Blocks, engine.Content{Type: engine.ContentText, Text: cb.Text})
			s.open[we.Index] = &openBlock{contentIndex: idx}
			s.emitEvent(engine.AssistantEvent{Type: engine.AETextStart, ContentIndex: idx})
		case "thinking":
			out.Content.Blocks = append(out.Content.Blocks, engine.Content{Type: engine.ContentThinking, Thinking: cb.Thinking, ThinkingSignature: cb.Signature})
			s.open[we.Index] = &openBlock{contentIndex: idx}
			s.emitEvent(engine.AssistantEvent{Type: engine.AEThinkingStart, ContentIndex: idx})
		case "redacted_thinking":
			out.Content.Blocks = append(out.Content.Blocks, engine.Content{Type: engine.ContentThinking, Thinking: "[Reasoning redacted]", ThinkingSignature: cb.Data, Redacted: true})
			s.open[we.Index] = &openBlock{contentIndex: idx}
			s.emitEvent(engine.AssistantEvent{Type: engine.AEThinkingStart, ContentIndex: idx})
		case "tool_use":
			args := cb.Input
			if len(args) == 0 || string(args) == "null" {
				args = json.RawMessage("{}")
			}
			name := cb.Name
			if s.oauth {
				name = fromClaudeCodeName(name, s.req.Tools)
			}
			out.Content.Blocks = append(out.Content.Blocks, engine.Content{Type: engine.ContentToolCall, ID: cb.ID, Name: name, Arguments: args})
			s.open[we.Index] = &openBlock{contentIndex: idx, args: &bytes.Buffer{}}
			s.emitEvent(engine.AssistantEvent{Type: engine.AEToolCallStart, ContentIndex: idx, ID: cb.ID, ToolName: name})
		}
	case "content_block_delta":
		ob := s.open[we.Index]
		d := we.Delta
		if ob == nil || d == nil {
			return nil
		}
		b := &out.Content.Blocks[ob.contentIndex]
		switch d.Type {
		case "text_delta":
			if b.Type == engine.ContentText {
				b.Text += d.Text
				s.emitEvent(engine.AssistantEvent{Type: engine.AETextDelta, ContentIndex: ob.contentIndex, Delta: d.Text})
			}
		case "thinking_delta":
			if b.Type == engine.ContentThinking {
				b.Thinking += d.Thinking
				s.emitEvent(engine.AssistantEvent{Type: engine.AEThinkingDelta, ContentIndex: ob.contentIndex, Delta: d.Thinking})
			}
		case "input_json_delta":
			if b.Type == engine.ContentToolCall && ob.args != nil {
				ob.args.WriteString(d.PartialJSON)
				b.Arguments = llm.ParseStreamingJSON(ob.args.String())
				s.emitEvent(engine.AssistantEvent{Type: engine.AEToolCallDelta, ContentIndex: ob.contentIndex, Delta: d.PartialJSON})
			}
		case "signature_delta":
			if b.Type == engine.ContentThinking {
				b.ThinkingSignature += d.Signature
			}
		}
	case "content_block_stop":
		ob := s.open[we.Index]
		delete(s.open, we.Index)
		if ob == nil {
			return nil
		}
		b := &out.Content.Blocks[ob.contentIndex]
		switch b.Type {
		case engine.ContentText:
			s.emitEvent(engine.AssistantEvent{Type: engine.AETextEnd, ContentIndex: ob.contentIndex, Content: b.Text})
		case engine.ContentThinking:
			s.emitEvent(engine.AssistantEvent{Type: engine.AEThinkingEnd, ContentIndex: ob.contentIndex, Content: b.Thinking})
		case engine.ContentToolCall:
			if ob.args != nil {
				if ob.args.Len() > 0 {
					b.Arguments = llm.ParseStreamingJSON(ob.args.String())
				}
				tc := *b
				s.emitEvent(engine.AssistantEvent{Type: engine.AEToolCallEnd, ContentIndex: ob.contentIndex, ToolCall: &tc})
			}
		}
	case "message_delta":
		if we.InputTransformations != nil {
			s.transformations = we.InputTransformations
		}
		if d := we.Delta; d != nil && d.StopReason != "" {
			out.RawStopReason = d.StopReason
			reason, msg, err := mapStopReason(d.StopReason, d.StopDetails)
			if err != nil {
				return err
			}
			out.StopReason = reason
			if msg != "" {
				out.ErrorMessage = msg
			}
		}
		if u := we.Usage; u != nil {
			if u.InputTokens != nil {
				out.Usage.Input = *u.InputTokens
			}
			if u.OutputTokens != nil {
				out.Usage.Output = *u.OutputTokens
			}
			if u.CacheReadInputTokens != nil {
				out.Usage.CacheRead = *u.CacheReadInputTokens
			}
			if u.CacheCreationInputTokens != nil {
				out.Usage.CacheWrite = *u.CacheCreationInputTokens
			}
			if u.CacheCreation != nil && u.CacheCreation.Ephemeral1h != nil {
				v := *u.CacheCreation.Ephemeral1h
				out.Usage.CacheWrite1h = &v
			}
			if u.OutputTokensDetails != nil && u.OutputTokensDetails.ThinkingTokens != nil {
				v := *u.OutputTokensDetails.ThinkingTokens
				out.Usage.Reasoning = &v
			}
		}
		s.totals()
	}
	return nil
}

// totals recomputes the total (Anthropic reports none) and the cost.
func (s *streamState) totals() {
	u := &s.out.Usage
	u.TotalTokens = u.Input + u.Output + u.CacheRead + u.CacheWrite
	llm.CalculateCost(s.req.Model, u)
}

// mapStopReason maps Anthropic's stop_reason. refusal and sensitive end
// the message as errors; an unknown reason fails the stream.
func mapStopReason(reason string, details *struct {
	Explanation string `json:"explanation"`
}) (engine.StopReason, string, error) {
	switch reason {
	case "end_turn", "pause_turn", "stop_sequence":
		return engine.StopStop, "", nil
	case "max_tokens":
		return engine.StopLength, "", nil
	case "tool_use":
		return engine.StopToolUse, "", nil
	case "refusal":
		if details != nil && details.Explanation != "" {
			return engine.StopError, details.Explanation, nil
		}
		return engine.StopError, errRefused, nil
	case "sensitive":
		return engine.StopError, errSensitive, nil
	}
	return "", "", fmt.Errorf("Unhandled stop reason: %s", reason)
}

func deref(p *int) int {
	if p == nil {
		return 0
	}
	return *p
}
