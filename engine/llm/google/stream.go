package google

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"sync/atomic"
	"time"

	"github.com/pi-go/pi/engine"
	"github.com/pi-go/pi/engine/llm"
)

// callCounter numbers the tool-call ids made up for calls that come
// without one, process-wide, as the reference's counter does.
var callCounter atomic.Int64

// chunk is the part of a GenerateContentResponse the adapter reads.
type chunk struct {
	Candidates []struct {
		Content *struct {
			Parts []part `json:"parts"`
		} `json:"content"`
		FinishReason string `json:"finishReason"`
	} `json:"candidates"`
	UsageMetadata *struct {
		PromptTokenCount        int `json:"promptTokenCount"`
		CandidatesTokenCount    int `json:"candidatesTokenCount"`
		ThoughtsTokenCount      int `json:"thoughtsTokenCount"`
		CachedContentTokenCount int `json:"cachedContentTokenCount"`
		TotalTokenCount         int `json:"totalTokenCount"`
	} `json:"usageMetadata"`
	ResponseID string `json:"responseId"`
}

type part struct {
	Text             *string `json:"text"`
	Thought          bool    `json:"thought"`
	ThoughtSignature string  `json:"thoughtSignature"`
	FunctionCall     *struct {
		ID   string          `json:"id"`
		Name string          `json:"name"`
		Args json.RawMessage `json:"args"`
	} `json:"functionCall"`
}

// streamState turns the chunks of one response into assistant events.
type streamState struct {
	model   *engine.Model
	out     *engine.Message
	emit    func(engine.AssistantEvent)
	onEvent func(json.RawMessage)
	// cur is the index of the open text or thinking block, or -1.
	cur int
	// queue holds the events of the chunk being read. The reference's
	// consumer sees a chunk's events only once the whole chunk has been
	// applied (its stream is read asynchronously, and the next chunk is
	// awaited from the network), so the partial message and usage those
	// events carry are the ones after the chunk. "start" goes out at once:
	// it is seen while the first chunk is still on its way.
	queue    []engine.AssistantEvent
	queueing bool
}

func (s *streamState) emitEvent(e engine.AssistantEvent) {
	e.Partial = s.out
	if s.queueing {
		s.queue = append(s.queue, e)
		return
	}
	s.emit(e)
}

// flush sends the queued events.
func (s *streamState) flush() {
	q := s.queue
	s.queue = nil
	for _, e := range q {
		s.emit(e)
	}
}

// read consumes the SSE body. Events end at a blank line ("\n\n", "\r\r"
// or "\r\n\r\n", whichever comes first); only "data:" events are read.
func (s *streamState) read(ctx context.Context, body io.Reader) error {
	s.cur = -1
	defer func() { s.queueing = false; s.flush() }()
	var buf []byte
	tmp := make([]byte, 32*1024)
	for {
		n, rerr := body.Read(tmp)
		buf = append(buf, tmp[:n]...)
		for {
			at, size := nextDelimiter(buf)
			if at < 0 {
				break
			}
			event := bytes.TrimSpace(buf[:at])
			buf = buf[at+size:]
			data, ok := bytes.CutPrefix(event, []byte("data:"))
			if !ok {
				continue
			}
			err := s.handle(bytes.TrimSpace(data))
			s.flush()
			if err != nil {
				return err
			}
		}
		if rerr == io.EOF {
			if len(bytes.TrimSpace(buf)) > 0 {
				return errors.New(ErrIncompleteChunk)
			}
			break
		}
		if rerr != nil {
			if ctx.Err() != nil {
				return errors.New(ErrAbortedInFlight)
			}
			return fmt.Errorf("terminated: %w", rerr)
		}
	}
	return s.finish(ctx)
}

func nextDelimiter(buf []byte) (int, int) {
	at, size := -1, 0
	for _, d := range []string{"\n\n", "\r\r", "\r\n\r\n"} {
		if i := bytes.Index(buf, []byte(d)); i >= 0 && (at < 0 || i < at) {
			at, size = i, len(d)
		}
	}
	return at, size
}

// streamError returns the SDK's error for an error object sent in the
// stream: "got status: <status>. <the chunk's JSON>".
func streamError(data []byte) error {
	var probe struct {
		Error json.RawMessage `json:"error"`
	}
	if json.Unmarshal(data, &probe) != nil || len(probe.Error) == 0 || probe.Error[0] != '{' {
		return nil
	}
	var e struct {
		Status any `json:"status"`
		Code   any `json:"code"`
	}
	if json.Unmarshal(probe.Error, &e) != nil {
		return nil
	}
	code, ok := e.Code.(float64)
	if !ok || code < 400 || code >= 600 {
		return nil
	}
	status := "undefined"
	if e.Status != nil {
		status = fmt.Sprint(e.Status)
	}
	var compact bytes.Buffer
	_ = json.Compact(&compact, data)
	return fmt.Errorf("got status: %s. %s", status, compact.String())
}

func (s *streamState) handle(data []byte) error {
	if err := streamError(data); err != nil {
		return err
	}
	var c chunk
	if err := json.Unmarshal(data, &c); err != nil {
		return fmt.Errorf("exception parsing stream chunk %s. %w", data, err)
	}
	if s.onEvent != nil {
		s.onEvent(json.RawMessage(data))
	}
	if s.out.ResponseID == "" {
		s.out.ResponseID = c.ResponseID
	}
	if len(c.Candidates) > 0 {
		cand := c.Candidates[0]
		if cand.Content != nil {
			for _, p := range cand.Content.Parts {
				if p.Text != nil {
					s.textPart(p)
				}
				if p.FunctionCall != nil {
					s.callPart(p)
				}
			}
		}
		if cand.FinishReason != "" {
			s.out.RawStopReason = cand.FinishReason
			reason, err := mapStopReason(cand.FinishReason)
			if err != nil {
				return err
			}
			s.out.StopReason = reason
			if reason == engine.StopStop && s.hasToolCall() {
				s.out.StopReason = engine.StopToolUse
			}
		}
	}
	if u := c.UsageMetadata; u != nil {
		reasoning := u.ThoughtsTokenCount
		usage := engine.Usage{
			Input:       u.PromptTokenCount - u.CachedContentTokenCount,
			Output:      u.CandidatesTokenCount + u.ThoughtsTokenCount,
			CacheRead:   u.CachedContentTokenCount,
			Reasoning:   &reasoning,
			TotalTokens: u.TotalTokenCount,
		}
		llm.CalculateCost(s.model, &usage)
		s.out.Usage = usage
	}
	return nil
}

// textPart appends a text or thought part to the open block of its kind,
// closing the other kind first. A signature is kept once seen: later
// deltas of the same block may come without it.
func (s *streamState) textPart(p part) {
	want := engine.ContentText
	if p.Thought {
		want = engine.ContentThinking
	}
	if s.cur < 0 || s.out.Content.Blocks[s.cur].Type != want {
		s.closeBlock()
		s.out.Content.Blocks = append(s.out.Content.Blocks, engine.Content{Type: want})
		s.cur = len(s.out.Content.Blocks) - 1
		typ := engine.AETextStart
		if p.Thought {
			typ = engine.AEThinkingStart
		}
		s.emitEvent(engine.AssistantEvent{Type: typ, ContentIndex: s.cur})
	}
	b := &s.out.Content.Blocks[s.cur]
	if p.Thought {
		b.Thinking += *p.Text
		if p.ThoughtSignature != "" {
			b.ThinkingSignature = p.ThoughtSignature
		}
		s.emitEvent(engine.AssistantEvent{Type: engine.AEThinkingDelta, ContentIndex: s.cur, Delta: *p.Text})
		return
	}
	b.Text += *p.Text
	if p.ThoughtSignature != "" {
		b.TextSignature = p.ThoughtSignature
	}
	s.emitEvent(engine.AssistantEvent{Type: engine.AETextDelta, ContentIndex: s.cur, Delta: *p.Text})
}

// closeBlock ends the open text or thinking block, if any.
func (s *streamState) closeBlock() {
	if s.cur < 0 {
		return
	}
	i := s.cur
	s.cur = -1
	b := s.out.Content.Blocks[i]
	if b.Type == engine.ContentThinking {
		s.emitEvent(engine.AssistantEvent{Type: engine.AEThinkingEnd, ContentIndex: i, Content: b.Thinking})
		return
	}
	s.emitEvent(engine.AssistantEvent{Type: engine.AETextEnd, ContentIndex: i, Content: b.Text})
}

// callPart adds a complete function call. A call without an id, or with
// one already used in this message, gets "<name>_<ms>_<n>".
func (s *streamState) callPart(p part) {
	s.closeBlock()
	fc := p.FunctionCall
	id := fc.ID
	if id == "" || s.hasCallID(id) {
		id = fc.Name + "_" + strconv.FormatInt(time.Now().UnixMilli(), 10) + "_" + strconv.FormatInt(callCounter.Add(1), 10)
	}
	args := fc.Args
	if len(args) == 0 || string(args) == "null" {
		args = json.RawMessage("{}")
	}
	var compact bytes.Buffer
	if json.Compact(&compact, args) == nil {
		args = json.RawMessage(compact.Bytes())
	}
	call := engine.Content{Type: engine.ContentToolCall, ID: id, Name: fc.Name, Arguments: args, ThoughtSignature: p.ThoughtSignature}
	s.out.Content.Blocks = append(s.out.Content.Blocks, call)
	i := len(s.out.Content.Blocks) - 1
	s.emitEvent(engine.AssistantEvent{Type: engine.AEToolCallStart, ContentIndex: i, ID: id, ToolName: fc.Name})
	s.emitEvent(engine.AssistantEvent{Type: engine.AEToolCallDelta, ContentIndex: i, Delta: llm.CompactArgs(args)})
	tc := call
	s.emitEvent(engine.AssistantEvent{Type: engine.AEToolCallEnd, ContentIndex: i, ToolCall: &tc})
}

func (s *streamState) hasCallID(id string) bool {
	for _, b := range s.out.Content.Blocks {
		if b.Type == engine.ContentToolCall && b.ID == id {
			return true
		}
	}
	return false
}

func (s *streamState) hasToolCall() bool {
	for _, b := range s.out.Content.Blocks {
		if b.Type == engine.ContentToolCall {
			return true
		}
	}
	return false
}

// finish closes the open block and checks how the stream ended.
func (s *streamState) finish(ctx context.Context) error {
	s.closeBlock()
	s.flush()
	if ctx.Err() != nil {
		return errors.New(llm.ErrAborted)
	}
	switch s.out.StopReason {
	case engine.StopPending:
		return errors.New(ErrNoFinishReason)
	case engine.StopError, engine.StopAborted:
		if s.out.RawStopReason != "" {
			return errors.New("Provider stopped with: " + s.out.RawStopReason)
		}
		return errors.New("An unknown error occurred")
	}
	return nil
}

// mapStopReason maps a Gemini finishReason to a stop reason; a reason the
// reference does not know is an error.
func mapStopReason(r string) (engine.StopReason, error) {
	switch r {
	case "STOP":
		return engine.StopStop, nil
	case "MAX_TOKENS", "CONTINUATION":
		return engine.StopLength, nil
	case "BLOCKLIST", "PROHIBITED_CONTENT", "SPII", "SAFETY", "IMAGE_SAFETY", "IMAGE_PROHIBITED_CONTENT",
		"IMAGE_RECITATION", "IMAGE_OTHER", "RECITATION", "FINISH_REASON_UNSPECIFIED", "OTHER", "LANGUAGE",
		"MALFORMED_FUNCTION_CALL", "UNEXPECTED_TOOL_CALL", "TOO_MANY_TOOL_CALLS", "NO_IMAGE":
		return engine.StopError, nil
	}
	return "", errors.New("Unhandled stop reason: " + r)
}
