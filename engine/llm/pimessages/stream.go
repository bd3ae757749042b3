package pimessages

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"strings"

	"github.com/pi-go/pi/engine"
	"github.com/pi-go/pi/engine/llm"
)

// wireEvent is one data line of the response: one of pi's assistant
// events, or the terminal done/error event with the response metadata.
type wireEvent struct {
	Type                  string          `json:"type"`
	ContentIndex          json.RawMessage `json:"contentIndex"`
	Delta                 string          `json:"delta"`
	Content               string          `json:"content"`
	ContentSignature      string          `json:"contentSignature"`
	Redacted              bool            `json:"redacted"`
	ID                    string          `json:"id"`
	ToolName              string          `json:"toolName"`
	ToolCall              json.RawMessage `json:"toolCall"`
	Reason                string          `json:"reason"`
	Usage                 json.RawMessage `json:"usage"`
	ErrorMessage          string          `json:"errorMessage"`
	ResponseID            string          `json:"responseId"`
	ResponseModel         string          `json:"responseModel"`
	ProviderThinkingLevel string          `json:"providerThinkingLevel"`
	Rewrite               json.RawMessage `json:"rewrite"`
}

// streamer rebuilds the partial message from the wire events. It works on
// the Builder's message directly, because the wire names each block's
// index itself (a start may even replace a block), which the Builder's
// append-only block methods do not model.
type streamer struct {
	p    *Provider
	ctx  context.Context
	req  *engine.LLMRequest
	b    *llm.Builder
	emit func(engine.AssistantEvent)
	// acc holds each block's text, thinking or streamed arguments so far,
	// so that appending stays linear in the reply's length.
	acc map[int]*strings.Builder
}

func (s *streamer) send(e engine.AssistantEvent) {
	e.Partial = s.b.Msg
	s.emit(e)
}

// fail ends the request the way the reference's catch does: a fresh
// message (the partial content is dropped) with the error text before the
// timestamp, and for an HTTP error the response-failure diagnostic.
func (s *streamer) fail(err error, f *failure) *engine.Message {
	aborted := s.ctx.Err() != nil
	reason := engine.StopError
	msg := err.Error()
	if aborted {
		reason = engine.StopAborted
		msg = errAbortedInFlight
	}
	m := s.b.Msg
	m.Content = engine.Contents{Blocks: []engine.Content{}}
	m.Usage = engine.Usage{}
	m.ResponseID, m.ResponseModel, m.ProviderThinkingLevel = "", "", ""
	m.Diagnostics = nil
	m.MetaBeforeDuration, m.ErrorBeforeResponseID = false, false
	m.Timestamp = s.p.millis()
	m.ErrorFirst = true
	if f != nil && !aborted {
		de := &diagError{Name: "PiMessagesResponseError", Message: msg, Code: f.code}
		details, _ := engine.MarshalJSON(f.details)
		d, _ := engine.MarshalJSON([]diagnostic{{Type: "pi_messages_response_failure", Timestamp: m.Timestamp, Error: de, Details: details}})
		m.Diagnostics = d
		m.DiagnosticsAfterError = true
	}
	return s.b.Fail(reason, msg)
}

// run reads the event stream until its terminal event.
func (s *streamer) run(body io.Reader) *engine.Message {
	s.acc = map[int]*strings.Builder{}
	r := bufio.NewReaderSize(body, 64*1024)
	var data []byte
	haveData := false
	for {
		line, err := r.ReadBytes('\n')
		if len(line) > 0 {
			t := bytes.TrimRight(line, "\r\n")
			switch {
			case len(t) == 0:
				if haveData {
					if m, done := s.event(data); done {
						return m
					}
				}
				data, haveData = nil, false
			case bytes.HasPrefix(t, []byte("data:")) && !haveData:
				// Only an event's first data line counts, as in the reference.
				data, haveData = bytes.TrimSpace(t[5:]), true
			}
		}
		if err != nil {
			if !errors.Is(err, io.EOF) {
				return s.fail(readError(err), nil)
			}
			break
		}
	}
	if haveData {
		if m, done := s.event(data); done {
			return m
		}
	}
	return s.fail(fmt.Errorf("%s stream ended without a terminal event", s.req.Model.Provider), nil)
}

// event handles one data payload; done reports that the stream ended.
func (s *streamer) event(data []byte) (*engine.Message, bool) {
	if len(data) == 0 || string(data) == "[DONE]" {
		return nil, false
	}
	if s.req.OnStreamEvent != nil {
		s.req.OnStreamEvent(data)
	}
	var ev wireEvent
	if err := json.Unmarshal(data, &ev); err != nil {
		return s.fail(fmt.Errorf("invalid pi-messages event: %w", err), nil), true
	}
	m := s.b.Msg
	blocks := m.Content.Blocks
	i := -1
	if len(ev.ContentIndex) > 0 {
		limit := len(blocks) - 1
		if strings.HasSuffix(ev.Type, "_start") {
			limit = len(blocks)
		}
		var f float64
		raw := bytes.TrimSpace(ev.ContentIndex)
		if raw[0] == '"' || json.Unmarshal(raw, &f) != nil || f != math.Trunc(f) || f < 0 || f > float64(limit) {
			return s.fail(fmt.Errorf("Invalid contentIndex %s in pi-messages %s event", compact(raw), ev.Type), nil), true
		}
		i = int(f)
	}
	switch ev.Type {
	case "done", "error":
		return s.terminal(&ev), true
	case "start":
		s.b.Start()
	case "text_start":
		s.put(i, engine.TextContent(""))
		s.send(engine.AssistantEvent{Type: engine.AETextStart, ContentIndex: i})
	case "text_delta":
		if c := s.block(i, engine.ContentText); c != nil {
			c.Text = s.grow(i, c.Text, ev.Delta)
		}
		s.send(engine.AssistantEvent{Type: engine.AETextDelta, ContentIndex: i, Delta: ev.Delta})
	case "text_end":
		if c := s.block(i, engine.ContentText); c != nil {
			c.Text, c.TextSignature = ev.Content, ev.ContentSignature
		}
		s.send(engine.AssistantEvent{Type: engine.AETextEnd, ContentIndex: i, Content: ev.Content, ContentSignature: ev.ContentSignature})
	case "thinking_start":
		s.put(i, engine.Content{Type: engine.ContentThinking})
		s.send(engine.AssistantEvent{Type: engine.AEThinkingStart, ContentIndex: i})
	case "thinking_delta":
		if c := s.block(i, engine.ContentThinking); c != nil {
			c.Thinking = s.grow(i, c.Thinking, ev.Delta)
		}
		s.send(engine.AssistantEvent{Type: engine.AEThinkingDelta, ContentIndex: i, Delta: ev.Delta})
	case "thinking_end":
		if c := s.block(i, engine.ContentThinking); c != nil {
			c.Thinking, c.ThinkingSignature, c.Redacted = ev.Content, ev.ContentSignature, ev.Redacted
		}
		s.send(engine.AssistantEvent{Type: engine.AEThinkingEnd, ContentIndex: i, Content: ev.Content, ContentSignature: ev.ContentSignature})
	case "toolcall_start":
		s.put(i, engine.Content{Type: engine.ContentToolCall, ID: ev.ID, Name: ev.ToolName, Arguments: json.RawMessage("{}")})
		s.acc[i] = &strings.Builder{}
		s.send(engine.AssistantEvent{Type: engine.AEToolCallStart, ContentIndex: i, ID: ev.ID, ToolName: ev.ToolName})
	case "toolcall_delta":
		if a, ok := s.acc[i]; ok {
			if c := s.block(i, engine.ContentToolCall); c != nil {
				a.WriteString(ev.Delta)
				c.Arguments = llm.ParseStreamingJSON(a.String())
			}
		}
		s.send(engine.AssistantEvent{Type: engine.AEToolCallDelta, ContentIndex: i, Delta: ev.Delta})
	case "toolcall_end":
		c := s.block(i, engine.ContentToolCall)
		if c == nil {
			c = &m.Content.Blocks[i]
		}
		mergeToolCall(c, ev.ToolCall)
		delete(s.acc, i)
		tc := *c
		s.send(engine.AssistantEvent{Type: engine.AEToolCallEnd, ContentIndex: i, ToolCall: &tc})
	}
	return nil, false
}

// terminal applies a done or error event: the message takes the event's
// stop reason, usage and response metadata as sent, in the reference's
// key order.
func (s *streamer) terminal(ev *wireEvent) *engine.Message {
	m := s.b.Msg
	if len(ev.Usage) > 0 {
		var u engine.Usage
		if json.Unmarshal(ev.Usage, &u) == nil {
			m.Usage = u
		}
	}
	m.ResponseID = ev.ResponseID
	m.ResponseModel = ev.ResponseModel
	m.ProviderThinkingLevel = ev.ProviderThinkingLevel
	m.MetaBeforeDuration = true
	if r := bytes.TrimSpace(ev.Rewrite); len(r) > 0 && r[0] == '{' {
		d, _ := engine.MarshalJSON([]diagnostic{{Type: "pi_messages_rewrite", Timestamp: s.p.millis(), Details: r}})
		m.Diagnostics = d
	}
	reason := engine.StopReason(ev.Reason)
	if ev.Type == "done" {
		return s.b.Finish(reason)
	}
	m.ErrorBeforeResponseID = true
	return s.b.Fail(reason, ev.ErrorMessage)
}

// put sets block i: a new block at the end, or a replacement.
func (s *streamer) put(i int, c engine.Content) {
	m := s.b.Msg
	if i == len(m.Content.Blocks) {
		m.Content.Blocks = append(m.Content.Blocks, c)
	} else {
		m.Content.Blocks[i] = c
	}
	delete(s.acc, i)
}

// block is block i when it has the given type.
func (s *streamer) block(i int, typ string) *engine.Content {
	if i < 0 || i >= len(s.b.Msg.Content.Blocks) || s.b.Msg.Content.Blocks[i].Type != typ {
		return nil
	}
	return &s.b.Msg.Content.Blocks[i]
}

// grow returns cur+delta in amortised constant time (see llm.Builder).
func (s *streamer) grow(i int, cur, delta string) string {
	sb, ok := s.acc[i]
	if !ok {
		sb = &strings.Builder{}
		s.acc[i] = sb
	}
	if sb.String() != cur {
		sb.Reset()
		sb.WriteString(cur)
	}
	sb.WriteString(delta)
	return sb.String()
}

// mergeToolCall copies the fields a toolcall_end's toolCall carries onto
// the block, as Object.assign does.
func mergeToolCall(c *engine.Content, raw json.RawMessage) {
	var f map[string]json.RawMessage
	if json.Unmarshal(raw, &f) != nil {
		return
	}
	str := func(k string, dst *string) {
		if v, ok := f[k]; ok {
			var s string
			if json.Unmarshal(v, &s) == nil {
				*dst = s
			}
		}
	}
	str("id", &c.ID)
	str("name", &c.Name)
	str("thoughtSignature", &c.ThoughtSignature)
	if v, ok := f["arguments"]; ok {
		var buf bytes.Buffer
		if json.Compact(&buf, v) == nil {
			c.Arguments = json.RawMessage(buf.Bytes())
		}
	}
}

func compact(raw []byte) string {
	var buf bytes.Buffer
	if json.Compact(&buf, raw) != nil {
		return string(raw)
	}
	return buf.String()
}
