package llm

import (
	"strings"
	"time"

	"github.com/pi-go/pi/engine"
)

// Builder turns a provider's deltas into the engine's assistant event
// sequence and keeps the partial message (Msg) current, so every event
// carries the message as it stands. Providers call Start once the HTTP
// response is accepted, then the block methods, then exactly one of
// Finish or Fail. A Builder is used from one goroutine.
type Builder struct {
	// Msg is the message being built; its StopReason is "pending" until
	// Finish or Fail.
	Msg *engine.Message

	model   *engine.Model
	emit    func(engine.AssistantEvent)
	started time.Time
	open    []bool // per content index: block not yet ended
	// args holds, per content index, the streamed tool-call JSON or the
	// text or thinking so far. Pointers, because a strings.Builder must
	// not be copied once written and the slice grows as blocks are added.
	args  []*strings.Builder
	text  int // index of the current text block, or -1
	think int // index of the current thinking block, or -1
	done  bool
}

// NewBuilder returns a builder for one response of model. emit may be nil.
func NewBuilder(model *engine.Model, emit func(engine.AssistantEvent)) *Builder {
	m := &engine.Message{
		Role:       engine.RoleAssistant,
		Content:    engine.Contents{Blocks: []engine.Content{}},
		StopReason: engine.StopPending,
		Timestamp:  engine.NowMillis(),
	}
	if model != nil {
		m.API, m.Provider, m.Model = model.API, model.Provider, model.ID
	}
	if emit == nil {
		emit = func(engine.AssistantEvent) {}
	}
	return &Builder{Msg: m, model: model, emit: emit, started: time.Now(), text: -1, think: -1}
}

func (b *Builder) send(e engine.AssistantEvent) {
	e.Partial = b.Msg
	b.emit(e)
}

// Start emits the "start" event.
func (b *Builder) Start() { b.send(engine.AssistantEvent{Type: engine.AEStart}) }

func (b *Builder) add(c engine.Content) int {
	b.Msg.Content.Blocks = append(b.Msg.Content.Blocks, c)
	b.open = append(b.open, true)
	b.args = append(b.args, &strings.Builder{})
	return len(b.Msg.Content.Blocks) - 1
}

// StartText opens a new text block and returns its content index.
func (b *Builder) StartText() int {
	i := b.add(engine.TextContent(""))
	b.text = i
	b.send(engine.AssistantEvent{Type: engine.AETextStart, ContentIndex: i})
	return i
}

// Text appends to the current text block, opening one if needed (the
// OpenAI chat style, where a response has at most one text block).
func (b *Builder) Text(delta string) {
	if b.text < 0 {
		b.StartText()
	}
	b.AppendText(b.text, delta)
}

// AppendText appends delta to the text block at index i.
func (b *Builder) AppendText(i int, delta string) {
	if !b.valid(i, engine.ContentText) {
		return
	}
	b.Msg.Content.Blocks[i].Text = b.grow(i, b.Msg.Content.Blocks[i].Text, delta)
	b.send(engine.AssistantEvent{Type: engine.AETextDelta, ContentIndex: i, Delta: delta})
}

// grow returns cur+delta in amortised constant time: the block's builder
// keeps the text so far, and the strings it hands out share its buffer
// without copying (bytes already handed out are never rewritten). Adding
// with += copied the whole text for every delta, quadratic in the reply.
// If cur was replaced by other means, the builder restarts from it.
func (b *Builder) grow(i int, cur, delta string) string {
	sb := b.args[i]
	if sb.String() != cur { // O(1) when both share the buffer
		sb.Reset()
		sb.WriteString(cur)
	}
	sb.WriteString(delta)
	return sb.String()
}

// SetTextSignature records a signature on the text block at index i.
func (b *Builder) SetTextSignature(i int, sig string) {
	if b.valid(i, engine.ContentText) {
		b.Msg.Content.Blocks[i].TextSignature = sig
	}
}

// StartThinking opens a new thinking block with an optional signature and
// returns its content index.
func (b *Builder) StartThinking(signature string) int {
	i := b.add(engine.Content{Type: engine.ContentThinking, ThinkingSignature: signature})
	b.think = i
	b.send(engine.AssistantEvent{Type: engine.AEThinkingStart, ContentIndex: i})
	return i
}

// Thinking appends to the current thinking block, opening one with the
// given signature if needed.
func (b *Builder) Thinking(signature, delta string) {
	if b.think < 0 {
		b.StartThinking(signature)
	}
	b.AppendThinking(b.think, delta)
}

// AppendThinking appends delta to the thinking block at index i.
func (b *Builder) AppendThinking(i int, delta string) {
	if !b.valid(i, engine.ContentThinking) {
		return
	}
	b.Msg.Content.Blocks[i].Thinking = b.grow(i, b.Msg.Content.Blocks[i].Thinking, delta)
	b.send(engine.AssistantEvent{Type: engine.AEThinkingDelta, ContentIndex: i, Delta: delta})
}

// SetThinkingSignature sets the signature of the thinking block at index i
// (Anthropic's signature_delta, OpenAI's encrypted reasoning).
func (b *Builder) SetThinkingSignature(i int, sig string) {
	if b.valid(i, engine.ContentThinking) {
		b.Msg.Content.Blocks[i].ThinkingSignature = sig
	}
}

// SetRedacted marks the thinking block at index i as redacted.
func (b *Builder) SetRedacted(i int) {
	if b.valid(i, engine.ContentThinking) {
		b.Msg.Content.Blocks[i].Redacted = true
	}
}

// StartToolCall opens a tool-call block and returns its content index.
func (b *Builder) StartToolCall(id, name string) int {
	i := b.add(engine.Content{Type: engine.ContentToolCall, ID: id, Name: name, Arguments: []byte("{}")})
	b.send(engine.AssistantEvent{Type: engine.AEToolCallStart, ContentIndex: i, ID: id, ToolName: name})
	return i
}

// SetToolCallIdentity fills in an id or name that arrived after the start.
func (b *Builder) SetToolCallIdentity(i int, id, name string) {
	if !b.valid(i, engine.ContentToolCall) {
		return
	}
	c := &b.Msg.Content.Blocks[i]
	if c.ID == "" {
		c.ID = id
	}
	if c.Name == "" {
		c.Name = name
	}
}

// AppendToolArgs appends a fragment of the call's JSON arguments and emits
// a toolcall_delta, even for an empty fragment (the reference does so for
// the first OpenAI tool-call chunk). The partial arguments are re-parsed
// so the partial message always holds an object.
func (b *Builder) AppendToolArgs(i int, delta string) {
	if !b.valid(i, engine.ContentToolCall) {
		return
	}
	if delta != "" {
		b.args[i].WriteString(delta)
		b.Msg.Content.Blocks[i].Arguments = ParseStreamingJSON(b.args[i].String())
	}
	b.send(engine.AssistantEvent{Type: engine.AEToolCallDelta, ContentIndex: i, Delta: delta})
}

// SetToolArgs replaces the call's arguments with a complete JSON object
// (APIs that deliver the input whole).
func (b *Builder) SetToolArgs(i int, args string) {
	if !b.valid(i, engine.ContentToolCall) {
		return
	}
	b.args[i].Reset()
	b.args[i].WriteString(args)
	b.Msg.Content.Blocks[i].Arguments = ParseStreamingJSON(args)
}

func (b *Builder) valid(i int, typ string) bool {
	return i >= 0 && i < len(b.Msg.Content.Blocks) && b.Msg.Content.Blocks[i].Type == typ
}

// EndBlock emits the *_end event of block i unless it was already ended.
func (b *Builder) EndBlock(i int) {
	if i < 0 || i >= len(b.open) || !b.open[i] {
		return
	}
	b.open[i] = false
	c := &b.Msg.Content.Blocks[i]
	switch c.Type {
	case engine.ContentText:
		if b.text == i {
			b.text = -1
		}
		b.send(engine.AssistantEvent{Type: engine.AETextEnd, ContentIndex: i, Content: c.Text})
	case engine.ContentThinking:
		if b.think == i {
			b.think = -1
		}
		b.send(engine.AssistantEvent{Type: engine.AEThinkingEnd, ContentIndex: i, Content: c.Thinking})
	case engine.ContentToolCall:
		c.Arguments = ParseStreamingJSON(b.args[i].String())
		tc := *c
		b.send(engine.AssistantEvent{Type: engine.AEToolCallEnd, ContentIndex: i, ToolCall: &tc})
	}
}

// EndAll ends every open block in content order; the reference closes the
// blocks of an OpenAI response only when the stream ends.
func (b *Builder) EndAll() {
	for i := range b.open {
		b.EndBlock(i)
	}
}

// SetUsage replaces the cumulative usage and prices it with the model's
// rates. Reasoning is recorded (as 0 when absent) because the reference's
// final usage always carries it.
func (b *Builder) SetUsage(u engine.Usage) {
	if u.Reasoning == nil {
		z := 0
		u.Reasoning = &z
	}
	CalculateCost(b.model, &u)
	b.Msg.Usage = u
}

// HasToolCalls reports whether the message has a tool-call block.
func (b *Builder) HasToolCalls() bool {
	for _, c := range b.Msg.Content.Blocks {
		if c.Type == engine.ContentToolCall {
			return true
		}
	}
	return false
}

func (b *Builder) stamp() {
	d := time.Since(b.started).Milliseconds()
	b.Msg.DurationMs = &d
}

// Finish sets the stop reason and emits "done". It returns the message.
func (b *Builder) Finish(reason engine.StopReason) *engine.Message {
	if b.done {
		return b.Msg
	}
	b.done = true
	b.Msg.StopReason = reason
	b.stamp()
	b.send(engine.AssistantEvent{Type: engine.AEDone, Reason: reason})
	return b.Msg
}

// Fail ends the message with stopReason error or aborted and the given
// text, and emits "error". Open blocks are left as they are: the reference
// does not close them when a stream fails. It returns the message.
func (b *Builder) Fail(reason engine.StopReason, errorMessage string) *engine.Message {
	if b.done {
		return b.Msg
	}
	b.done = true
	b.Msg.StopReason = reason
	b.Msg.ErrorMessage = errorMessage
	b.stamp()
	b.send(engine.AssistantEvent{Type: engine.AEError, Reason: reason})
	return b.Msg
}

// Done reports whether Finish or Fail was called.
func (b *Builder) Done() bool { return b.done }
