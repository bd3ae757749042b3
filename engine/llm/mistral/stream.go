package mistral

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"strconv"

	"github.com/pi-go/pi/engine"
	"github.com/pi-go/pi/engine/llm"
)

// maxEventBytes bounds one server-sent event; a larger one fails the
// stream rather than growing the buffer without limit.
const maxEventBytes = 64 << 20

type chunk struct {
	ID      string          `json:"id"`
	Usage   json.RawMessage `json:"usage"`
	Choices json.RawMessage `json:"choices"`
}

type choice struct {
	Delta *struct {
		Content   json.RawMessage `json:"content"`
		ToolCalls []toolCallDelta `json:"tool_calls"`
	} `json:"delta"`
	FinishReason *string `json:"finish_reason"`
}

type toolCallDelta struct {
	ID       string `json:"id"`
	Index    *int   `json:"index"`
	Function *struct {
		Name      string          `json:"name"`
		Arguments json.RawMessage `json:"arguments"`
	} `json:"function"`
}

// contentItem is one element of a content array: a text chunk, or a
// thinking chunk holding text chunks.
type contentItem struct {
	Type     string `json:"type"`
	Text     string `json:"text"`
	Thinking []struct {
		Text string `json:"text"`
	} `json:"thinking"`
}

// errStreamDone marks the "[DONE]" event.
var errStreamDone = errors.New("done")

// eventReader yields the data of each server-sent event. Lines end with
// CRLF, LF or a lone CR; a blank line ends an event; the data lines of an
// event are joined with newlines.
type eventReader struct {
	sc *bufio.Scanner
}

func newEventReader(r io.Reader) *eventReader {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), maxEventBytes)
	sc.Split(scanLines)
	return &eventReader{sc: sc}
}

// scanLines splits at "\r\n", "\n" or "\r".
func scanLines(data []byte, atEOF bool) (int, []byte, error) {
	if atEOF && len(data) == 0 {
		return 0, nil, nil
	}
	if i := bytes.IndexAny(data, "\r\n"); i >= 0 {
		if data[i] == '\n' {
			return i + 1, data[:i], nil
		}
		if i+1 < len(data) {
			if data[i+1] == '\n' {
				return i + 2, data[:i], nil
			}
			return i + 1, data[:i], nil
		}
		if atEOF {
			return i + 1, data[:i], nil
		}
		return 0, nil, nil // a CR at the end may be the first half of CRLF
	}
	if atEOF {
		return len(data), data, nil
	}
	return 0, nil, nil
}

// next returns the next event's data (never empty), errStreamDone at
// "[DONE]", or io.EOF at the end of the body.
func (r *eventReader) next() ([]byte, error) {
	var data []byte
	has := false
	for {
		more := r.sc.Scan()
		if !more || len(r.sc.Bytes()) == 0 {
			d := bytes.TrimSpace(data)
			if len(d) > 0 {
				if string(d) == "[DONE]" {
					return nil, errStreamDone
				}
				return d, nil
			}
			data, has = data[:0], false
			if !more {
				if err := r.sc.Err(); err != nil {
					return nil, err
				}
				return nil, io.EOF
			}
			continue
		}
		line := r.sc.Bytes()
		if !bytes.HasPrefix(line, []byte("data:")) {
			continue
		}
		if has {
			data = append(data, '\n')
		}
		data = append(data, bytes.TrimLeft(line[5:], " \t\n\r\v\f")...)
		has = true
	}
}

// streamState follows the open block and the tool calls of one response.
type streamState struct {
	b       *llm.Builder
	model   *engine.Model
	cur     int    // content index of the open text or thinking block, or -1
	curType string // its type
	calls   map[string]int
	order   []int // tool-call content indexes in the order they opened
}

// readStream consumes the event stream into b and ends the message.
func readStream(ctx context.Context, b *llm.Builder, req *engine.LLMRequest, body io.Reader) *engine.Message {
	s := &streamState{b: b, model: req.Model, cur: -1, calls: map[string]int{}}
	r := newEventReader(body)
	for {
		data, err := r.next()
		if errors.Is(err, errStreamDone) || errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			if ctx.Err() != nil {
				return b.Fail(engine.StopAborted, errAbortedInFlight)
			}
			return b.Fail(engine.StopError, errTerminated)
		}
		var ch chunk
		if err := json.Unmarshal(data, &ch); err != nil {
			return failParse(ctx, b, err)
		}
		var choices []choice
		if t := bytes.TrimSpace(ch.Choices); len(t) == 0 || t[0] != '[' || json.Unmarshal(t, &choices) != nil {
			return failParse(ctx, b, errors.New(errInvalidEvent))
		}
		if req.OnStreamEvent != nil {
			req.OnStreamEvent(data)
		}
		s.apply(&ch, choices)
		if ctx.Err() != nil {
			return b.Fail(engine.StopAborted, errAbortedInFlight)
		}
	}
	s.endAll()
	if ctx.Err() != nil {
		return b.Fail(engine.StopAborted, errAborted)
	}
	switch b.Msg.StopReason {
	case engine.StopPending:
		return b.Fail(engine.StopError, errNoFinish)
	case engine.StopError, engine.StopAborted:
		msg := b.Msg.ErrorMessage
		if msg == "" {
			msg = "An unknown error occurred"
		}
		return b.Fail(engine.StopError, msg)
	}
	return b.Finish(b.Msg.StopReason)
}

func failParse(ctx context.Context, b *llm.Builder, err error) *engine.Message {
	if ctx.Err() != nil {
		return b.Fail(engine.StopAborted, errAbortedInFlight)
	}
	return b.Fail(engine.StopError, err.Error())
}

func (s *streamState) apply(ch *chunk, choices []choice) {
	b := s.b
	if b.Msg.ResponseID == "" {
		b.Msg.ResponseID = ch.ID
	}
	if hasValue(ch.Usage) {
		b.Msg.Usage = parseUsage(s.model, ch.Usage)
	}
	if len(choices) == 0 {
		return
	}
	c := choices[0]
	if c.FinishReason != nil && *c.FinishReason != "" {
		b.Msg.RawStopReason = *c.FinishReason
		reason, msg := mapStopReason(*c.FinishReason)
		b.Msg.StopReason = reason
		if msg != "" {
			b.Msg.ErrorMessage = msg
		}
	}
	if c.Delta == nil {
		return
	}
	s.content(c.Delta.Content)
	for _, tc := range c.Delta.ToolCalls {
		s.toolCall(tc)
	}
}

// content applies a delta's content: a string, or an array of strings,
// text chunks and thinking chunks. Empty pieces open no block (some models
// send them around thinking and tool calls, and a split thinking block is
// rejected when replayed).
func (s *streamState) content(raw json.RawMessage) {
	if !hasValue(raw) {
		return
	}
	var str string
	if json.Unmarshal(raw, &str) == nil {
		s.text(str)
		return
	}
	var items []json.RawMessage
	if json.Unmarshal(raw, &items) != nil {
		return
	}
	for _, it := range items {
		if json.Unmarshal(it, &str) == nil {
			s.text(str)
			continue
		}
		var ci contentItem
		if json.Unmarshal(it, &ci) != nil {
			continue
		}
		switch ci.Type {
		case "thinking":
			var t []byte
			for _, p := range ci.Thinking {
				t = append(t, p.Text...)
			}
			s.thinking(string(t))
		case "text":
			s.text(ci.Text)
		}
	}
}

func (s *streamState) text(delta string) {
	if delta == "" {
		return
	}
	if s.cur < 0 || s.curType != engine.ContentText {
		s.endCurrent()
		s.cur, s.curType = s.b.StartText(), engine.ContentText
	}
	s.b.AppendText(s.cur, delta)
}

func (s *streamState) thinking(delta string) {
	if delta == "" {
		return
	}
	if s.cur < 0 || s.curType != engine.ContentThinking {
		s.endCurrent()
		s.cur, s.curType = s.b.StartThinking(""), engine.ContentThinking
	}
	s.b.AppendThinking(s.cur, delta)
}

func (s *streamState) endCurrent() {
	if s.cur >= 0 {
		s.b.EndBlock(s.cur)
	}
	s.cur, s.curType = -1, ""
}

// toolCall applies one tool-call delta. Calls are told apart by their
// stream index, or by id when there is none; a call without an id gets one
// derived from its index, as the reference does.
func (s *streamState) toolCall(tc toolCallDelta) {
	s.endCurrent()
	id := tc.ID
	if id == "" || id == "null" {
		n := 0
		if tc.Index != nil {
			n = *tc.Index
		}
		id = deriveToolCallID("toolcall:"+strconv.Itoa(n), 0)
	}
	key := "id:" + id
	if tc.Index != nil {
		key = "i:" + strconv.Itoa(*tc.Index)
	}
	var name string
	var args json.RawMessage
	if tc.Function != nil {
		name, args = tc.Function.Name, tc.Function.Arguments
	}
	idx, ok := s.calls[key]
	if !ok {
		idx = s.b.StartToolCall(id, name)
		s.calls[key] = idx
		s.order = append(s.order, idx)
	}
	s.b.AppendToolArgs(idx, argsText(args))
}

// argsText is the arguments fragment as text: a string as is, an object
// as its compact JSON, nothing as "{}".
func argsText(raw json.RawMessage) string {
	if !hasValue(raw) {
		return "{}"
	}
	var str string
	if json.Unmarshal(raw, &str) == nil {
		return str
	}
	var buf bytes.Buffer
	if json.Compact(&buf, raw) != nil {
		return "{}"
	}
	return buf.String()
}

// endAll ends the open text or thinking block, then every tool call in the
// order they opened, as the reference does when the stream ends.
func (s *streamState) endAll() {
	s.endCurrent()
	for _, i := range s.order {
		s.b.EndBlock(i)
	}
}

func mapStopReason(r string) (engine.StopReason, string) {
	switch r {
	case "stop":
		return engine.StopStop, ""
	case "length", "model_length":
		return engine.StopLength, ""
	case "tool_calls":
		return engine.StopToolUse, ""
	case "error":
		// "server error" makes the failure retryable, as the reference
		// intends for Mistral's transient server failures.
		return engine.StopError, "Provider stopped with: error (server error)"
	}
	return engine.StopError, "Provider stopped with: " + r
}

// parseUsage maps Mistral usage to ours: cached prompt tokens (under any
// of the names the API and SDK use) are cache reads, not input.
func parseUsage(m *engine.Model, raw json.RawMessage) engine.Usage {
	var u struct {
		PromptTokens     float64 `json:"prompt_tokens"`
		CompletionTokens float64 `json:"completion_tokens"`
		TotalTokens      float64 `json:"total_tokens"`
		PTD1             *struct {
			CachedTokens *float64 `json:"cachedTokens"`
		} `json:"promptTokensDetails"`
		PTD2 *struct {
			CachedTokens *float64 `json:"cached_tokens"`
		} `json:"prompt_tokens_details"`
		PTD3 *struct {
			CachedTokens *float64 `json:"cachedTokens"`
		} `json:"promptTokenDetails"`
		PTD4 *struct {
			CachedTokens *float64 `json:"cached_tokens"`
		} `json:"prompt_token_details"`
		NumCached1 *float64 `json:"numCachedTokens"`
		NumCached2 *float64 `json:"num_cached_tokens"`
	}
	_ = json.Unmarshal(raw, &u)
	var cached *float64
	switch {
	case u.PTD1 != nil && u.PTD1.CachedTokens != nil:
		cached = u.PTD1.CachedTokens
	case u.PTD2 != nil && u.PTD2.CachedTokens != nil:
		cached = u.PTD2.CachedTokens
	case u.PTD3 != nil && u.PTD3.CachedTokens != nil:
		cached = u.PTD3.CachedTokens
	case u.PTD4 != nil && u.PTD4.CachedTokens != nil:
		cached = u.PTD4.CachedTokens
	case u.NumCached1 != nil:
		cached = u.NumCached1
	case u.NumCached2 != nil:
		cached = u.NumCached2
	}
	prompt := int(u.PromptTokens)
	cacheRead := 0
	if cached != nil {
		cacheRead = min(prompt, max(0, int(*cached)))
	}
	out := engine.Usage{
		Input:     max(0, prompt-cacheRead),
		Output:    int(u.CompletionTokens),
		CacheRead: cacheRead,
	}
	out.TotalTokens = int(u.TotalTokens)
	if out.TotalTokens == 0 {
		out.TotalTokens = out.Input + out.Output + out.CacheRead
	}
	llm.CalculateCost(m, &out)
	return out
}
