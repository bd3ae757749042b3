package bedrock

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"io"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws/protocol/eventstream"

	"github.com/pi-go/pi/engine"
	"github.com/pi-go/pi/engine/llm"
)

// redactedPlaceholder stands in the thinking text of encrypted reasoning.
const redactedPlaceholder = "[Reasoning redacted]"

// errorPrefixes are the reference's readable prefixes of Bedrock's
// exception names; the retry logic matches some of them.
var errorPrefixes = map[string]string{
	"InternalServerException":     "Internal server error",
	"ModelStreamErrorException":   "Model stream error",
	"ValidationException":         "Validation error",
	"ThrottlingException":         "Throttling error",
	"ServiceUnavailableException": "Service unavailable",
}

// awsError is a modeled Bedrock exception, from the HTTP response or the
// event stream.
type awsError struct {
	name    string // "ThrottlingException", "Unknown"
	message string
	status  int // 0 for an in-stream exception
}

func (e *awsError) Error() string {
	prefix, ok := errorPrefixes[e.name]
	if !ok {
		prefix = e.name
	}
	return prefix + ": " + e.message
}

// streamEvent is one ConverseStream event's payload; which members are
// set depends on the event type.
type streamEvent struct {
	Role              string `json:"role"`
	ContentBlockIndex int    `json:"contentBlockIndex"`
	Start             *struct {
		ToolUse *struct {
			ToolUseID string `json:"toolUseId"`
			Name      string `json:"name"`
		} `json:"toolUse"`
	} `json:"start"`
	Delta *struct {
		Text    *string `json:"text"`
		ToolUse *struct {
			Input string `json:"input"`
		} `json:"toolUse"`
		ReasoningContent *struct {
			Text            string `json:"text"`
			Signature       string `json:"signature"`
			RedactedContent string `json:"redactedContent"` // base64 blob
		} `json:"reasoningContent"`
	} `json:"delta"`
	StopReason string `json:"stopReason"`
	Usage      *struct {
		InputTokens           int `json:"inputTokens"`
		OutputTokens          int `json:"outputTokens"`
		TotalTokens           int `json:"totalTokens"`
		CacheReadInputTokens  int `json:"cacheReadInputTokens"`
		CacheWriteInputTokens int `json:"cacheWriteInputTokens"`
		CacheDetails          []struct {
			TTL         string `json:"ttl"`
			InputTokens int    `json:"inputTokens"`
		} `json:"cacheDetails"`
	} `json:"usage"`
	Message string `json:"message"`
}

// openBlock is the stream state of one Bedrock content block.
type openBlock struct {
	index    int // content index in the message
	redacted []byte
	isRedact bool
}

// streamState follows one response.
type streamState struct {
	b        *llm.Builder
	req      *engine.LLMRequest
	open     map[int]*openBlock
	order    []int // Bedrock block indexes in opening order
	stopSeen bool
	failMsg  string // a messageStop that maps to an error
}

// errStreamAborted is a cancellation noticed once the stream had ended.
var errStreamAborted = errors.New("aborted after the stream ended")

// readStream decodes the event-stream frames of a 200 response and drives
// the builder. It returns the error that ends the message, or nil.
func readStream(ctx context.Context, st *streamState, body io.Reader) error {
	dec := eventstream.NewDecoder()
	buf := make([]byte, 0, 4096)
	for {
		msg, err := dec.Decode(body, buf)
		if err != nil {
			if errors.Is(err, io.EOF) {
				break
			}
			if ctx.Err() != nil {
				return ctx.Err()
			}
			return err
		}
		if err := st.handle(msg); err != nil {
			return err
		}
	}
	if ctx.Err() != nil {
		return errStreamAborted
	}
	if !st.stopSeen {
		return errors.New("Bedrock stream ended without a stop reason")
	}
	if st.b.Msg.StopReason == engine.StopError {
		if st.failMsg == "" {
			return errors.New("An unknown error occurred")
		}
		return errors.New(st.failMsg)
	}
	return nil
}

func headerString(msg eventstream.Message, name string) string {
	if v := msg.Headers.Get(name); v != nil {
		return v.String()
	}
	return ""
}

// handle applies one frame.
func (st *streamState) handle(msg eventstream.Message) error {
	kind := headerString(msg, ":message-type")
	if st.req.OnStreamEvent != nil && (kind == "event" || kind == "exception") {
		// Hooks see each item as the SDK hands it over, keyed by its
		// type, modeled exceptions included (before they end the stream).
		typ := headerString(msg, ":event-type")
		if kind == "exception" {
			typ = headerString(msg, ":exception-type")
		}
		if obj, err := (llm.Object{}.Set(typ, json.RawMessage(msg.Payload))).MarshalJSON(); err == nil {
			st.req.OnStreamEvent(obj)
		}
	}
	switch kind {
	case "exception":
		var p struct {
			Message string `json:"message"`
		}
		_ = json.Unmarshal(msg.Payload, &p)
		name := headerString(msg, ":exception-type")
		if name != "" {
			name = strings.ToUpper(name[:1]) + name[1:]
		}
		return &awsError{name: name, message: p.Message}
	case "error":
		return &awsError{name: headerString(msg, ":error-code"), message: headerString(msg, ":error-message")}
	}
	var ev streamEvent
	if err := json.Unmarshal(msg.Payload, &ev); err != nil {
		return err
	}
	b := st.b
	switch headerString(msg, ":event-type") {
	case "messageStart":
		if ev.Role != "assistant" {
			return errors.New("Unexpected assistant message start but got user message start instead")
		}
		b.Start()
	case "contentBlockStart":
		if ev.Start != nil && ev.Start.ToolUse != nil {
			i := b.StartToolCall(ev.Start.ToolUse.ToolUseID, ev.Start.ToolUse.Name)
			st.track(ev.ContentBlockIndex, &openBlock{index: i})
		}
	case "contentBlockDelta":
		st.delta(ev)
	case "contentBlockStop":
		if ob, ok := st.open[ev.ContentBlockIndex]; ok {
			st.untrack(ev.ContentBlockIndex)
			st.flushRedacted(ob)
			b.EndBlock(ob.index)
		}
	case "messageStop":
		st.stopSeen = true
		b.Msg.RawStopReason = ev.StopReason
		switch ev.StopReason {
		case "end_turn", "stop_sequence":
			b.Msg.StopReason = engine.StopStop
		case "max_tokens", "model_context_window_exceeded":
			b.Msg.StopReason = engine.StopLength
		case "tool_use":
			b.Msg.StopReason = engine.StopToolUse
		default:
			b.Msg.StopReason = engine.StopError
			if ev.StopReason != "" {
				st.failMsg = "Provider stopped with: " + ev.StopReason
			}
		}
	case "metadata":
		if u := ev.Usage; u != nil {
			usage := engine.Usage{Input: u.InputTokens, Output: u.OutputTokens, CacheRead: u.CacheReadInputTokens,
				CacheWrite: u.CacheWriteInputTokens, TotalTokens: u.TotalTokens}
			if u.CacheDetails != nil {
				long := 0
				for _, d := range u.CacheDetails {
					if d.TTL == "1h" {
						long += d.InputTokens
					}
				}
				usage.CacheWrite1h = &long
			}
			if usage.TotalTokens == 0 {
				usage.TotalTokens = usage.Input + usage.Output
			}
			llm.CalculateCost(st.req.Model, &usage)
			b.Msg.Usage = usage
		}
	}
	return nil
}

func (st *streamState) track(idx int, ob *openBlock) {
	if _, ok := st.open[idx]; !ok {
		st.order = append(st.order, idx)
	}
	st.open[idx] = ob
}

func (st *streamState) untrack(idx int) {
	delete(st.open, idx)
	for i, v := range st.order {
		if v == idx {
			st.order = append(st.order[:i], st.order[i+1:]...)
			break
		}
	}
}

func (st *streamState) delta(ev streamEvent) {
	d := ev.Delta
	if d == nil {
		return
	}
	b := st.b
	ob := st.open[ev.ContentBlockIndex]
	blockType := func() string {
		if ob == nil || ob.index >= len(b.Msg.Content.Blocks) {
			return ""
		}
		return b.Msg.Content.Blocks[ob.index].Type
	}
	switch {
	case d.Text != nil:
		// Text blocks have no contentBlockStart: the first delta opens one.
		if ob == nil {
			ob = &openBlock{index: b.StartText()}
			st.track(ev.ContentBlockIndex, ob)
		}
		if blockType() == engine.ContentText {
			b.AppendText(ob.index, *d.Text)
		}
	case d.ToolUse != nil && blockType() == engine.ContentToolCall:
		b.AppendToolArgs(ob.index, d.ToolUse.Input)
	case d.ReasoningContent != nil:
		rc := d.ReasoningContent
		if ob == nil {
			ob = &openBlock{index: b.StartThinking("")}
			st.track(ev.ContentBlockIndex, ob)
		}
		if blockType() != engine.ContentThinking {
			return
		}
		if rc.Text != "" {
			b.AppendThinking(ob.index, rc.Text)
		}
		// A block holds a signature or an encrypted payload, never both.
		if rc.Signature != "" && !ob.isRedact {
			b.SetThinkingSignature(ob.index, b.Msg.Content.Blocks[ob.index].ThinkingSignature+rc.Signature)
		}
		if raw, err := base64.StdEncoding.DecodeString(rc.RedactedContent); err == nil && len(raw) > 0 {
			if !ob.isRedact {
				ob.isRedact = true
				b.SetRedacted(ob.index)
				b.SetThinkingSignature(ob.index, "")
				b.AppendThinking(ob.index, redactedPlaceholder)
			}
			ob.redacted = append(ob.redacted, raw...)
		}
	}
}

// flushRedacted stores a block's encrypted reasoning as base64 in its
// signature, the form a session file keeps and a later turn replays.
func (st *streamState) flushRedacted(ob *openBlock) {
	if ob.isRedact && ob.redacted != nil {
		st.b.SetThinkingSignature(ob.index, base64.StdEncoding.EncodeToString(ob.redacted))
		ob.redacted = nil
	}
}

// flushOpen finalises blocks the stream never stopped, without events.
func (st *streamState) flushOpen() {
	for _, idx := range st.order {
		st.flushRedacted(st.open[idx])
	}
	st.open = map[int]*openBlock{}
	st.order = nil
}
