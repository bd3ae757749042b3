package faux

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/pi-go/pi/engine"
	"github.com/pi-go/pi/engine/llm"
)

// FallbackText answers requests after the script is used up.
const FallbackText = "Mock script exhausted."

// ToolCall is a scripted call; Args is its JSON argument text.
type ToolCall struct {
	ID   string // default call_faux_<turn>_<i>
	Name string
	Args string
}

// Turn is one scripted response.
type Turn struct {
	Thinking  string
	Text      string
	ToolCalls []ToolCall
	// StopReason overrides the natural one (toolUse with calls, else stop).
	StopReason engine.StopReason
	// Error ends the response with stopReason "error" and this message.
	// With no content it fails before "start", like an HTTP error.
	Error string
	// Usage is reported at the end (priced with the model's rates).
	Usage *engine.Usage
	// ChunkSize splits text, thinking and arguments into deltas of this
	// many characters; 0 sends each whole.
	ChunkSize int
	// Delay pauses before each delta; ctx cancellation ends the wait.
	Delay time.Duration
	// BlockUntilCancel streams the content, then waits for ctx to be
	// cancelled and ends as aborted.
	BlockUntilCancel bool
	// Func, when set, computes the turn from the request.
	Func func(req *engine.LLMRequest) Turn
}

// Provider plays its turns in order. It is safe for concurrent use.
type Provider struct {
	mu       sync.Mutex
	turns    []Turn
	next     int
	requests []*engine.LLMRequest
}

// New returns a provider scripted with turns.
func New(turns ...Turn) *Provider { return &Provider{turns: turns} }

// Push appends turns to the script.
func (p *Provider) Push(turns ...Turn) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.turns = append(p.turns, turns...)
}

// Requests returns every request received so far.
func (p *Provider) Requests() []*engine.LLMRequest {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]*engine.LLMRequest(nil), p.requests...)
}

func (p *Provider) take(req *engine.LLMRequest) (int, Turn) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.requests = append(p.requests, req)
	if p.next >= len(p.turns) {
		return -1, Turn{Text: FallbackText}
	}
	i := p.next
	p.next++
	return i, p.turns[i]
}

func chunks(s string, size int) []string {
	if s == "" {
		return nil
	}
	if size <= 0 {
		return []string{s}
	}
	r := []rune(s)
	var out []string
	for i := 0; i < len(r); i += size {
		out = append(out, string(r[i:min(i+size, len(r))]))
	}
	return out
}

// Stream implements engine.Provider.
func (p *Provider) Stream(ctx context.Context, req *engine.LLMRequest, emit func(engine.AssistantEvent)) *engine.Message {
	idx, t := p.take(req)
	if t.Func != nil {
		t = t.Func(req)
	}
	b := llm.NewBuilder(req.Model, emit)
	aborted := func() *engine.Message {
		b.EndAll()
		return b.Fail(engine.StopAborted, llm.ErrAborted)
	}
	wait := func() bool {
		if t.Delay <= 0 {
			return ctx.Err() == nil
		}
		tm := time.NewTimer(t.Delay)
		defer tm.Stop()
		select {
		case <-tm.C:
			return true
		case <-ctx.Done():
			return false
		}
	}
	if ctx.Err() != nil {
		return b.Fail(engine.StopAborted, llm.ErrAborted)
	}
	empty := t.Thinking == "" && t.Text == "" && len(t.ToolCalls) == 0
	if t.Error != "" && empty {
		return b.Fail(engine.StopError, t.Error)
	}
	b.Start()
	for _, c := range chunks(t.Thinking, t.ChunkSize) {
		if !wait() {
			return aborted()
		}
		b.Thinking("", c)
	}
	for _, c := range chunks(t.Text, t.ChunkSize) {
		if !wait() {
			return aborted()
		}
		b.Text(c)
	}
	for i, tc := range t.ToolCalls {
		if !wait() {
			return aborted()
		}
		id := tc.ID
		if id == "" {
			id = fmt.Sprintf("call_faux_%d_%d", idx, i)
		}
		ci := b.StartToolCall(id, tc.Name)
		b.AppendToolArgs(ci, "")
		for _, c := range chunks(tc.Args, t.ChunkSize) {
			if !wait() {
				return aborted()
			}
			b.AppendToolArgs(ci, c)
		}
	}
	if t.BlockUntilCancel {
		<-ctx.Done()
		return aborted()
	}
	if ctx.Err() != nil {
		return aborted()
	}
	if t.Usage != nil {
		b.SetUsage(*t.Usage)
	} else {
		b.SetUsage(engine.Usage{})
	}
	b.EndAll()
	if t.Error != "" {
		return b.Fail(engine.StopError, t.Error)
	}
	reason := t.StopReason
	if reason == "" {
		reason = engine.StopStop
		if len(t.ToolCalls) > 0 {
			reason = engine.StopToolUse
		}
	}
	if reason == engine.StopError || reason == engine.StopAborted {
		return b.Fail(reason, "Provider returned an error stop reason")
	}
	return b.Finish(reason)
}
