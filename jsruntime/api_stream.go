package jsruntime

import (
	"context"
	"encoding/json"
	"sync"

	"github.com/dop251/goja"

	"github.com/pi-go/pi/engine"
)

// A provider an extension registers with streamSimple streams in JS: the
// wire API it names (config.api) is served by the extension's function,
// whose pi-ai events come back to Go here.

// markStreamAPI records that api is served by an extension's streamSimple.
func (a *API) markStreamAPI(api string) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.streamAPIs == nil {
		a.streamAPIs = map[string]bool{}
	}
	a.streamAPIs[api] = true
}

// StreamProvider returns the provider for a wire API an extension serves
// with streamSimple; ok is false for every other API.
func (a *API) StreamProvider(api string) (engine.Provider, bool) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if !a.streamAPIs[api] || a.rt == nil {
		return nil, false
	}
	return jsStreamProvider{a: a, api: api}, true
}

type jsStreamProvider struct {
	a   *API
	api string
}

// streamItem is one message from the JS side: an event, or the end.
type streamItem struct {
	event string // JSON of a pi-ai event
	final string // JSON of the final message
	err   string
	end   bool
}

// streamQueue hands JS events to the goroutine that called Stream without
// ever blocking the loop: emitting may itself dispatch extension handlers
// on the loop.
type streamQueue struct {
	mu    sync.Mutex
	items []streamItem
	ready chan struct{}
}

func (q *streamQueue) push(it streamItem) {
	q.mu.Lock()
	q.items = append(q.items, it)
	q.mu.Unlock()
	select {
	case q.ready <- struct{}{}:
	default:
	}
}

func (q *streamQueue) take() []streamItem {
	q.mu.Lock()
	defer q.mu.Unlock()
	out := q.items
	q.items = nil
	return out
}

// Stream runs the extension's streamSimple(model, context, options) and
// translates its events. Failures end as an error message, as engine
// providers must.
func (p jsStreamProvider) Stream(ctx context.Context, req *engine.LLMRequest, emit func(engine.AssistantEvent)) *engine.Message {
	a := p.a
	fail := func(msg string) *engine.Message {
		m := &engine.Message{Role: engine.RoleAssistant, API: req.Model.API, Provider: req.Model.Provider, Model: req.Model.ID,
			StopReason: engine.StopError, ErrorMessage: msg, Content: engine.Contents{Blocks: []engine.Content{}}}
		emit(engine.AssistantEvent{Type: engine.AEError, Reason: engine.StopError, Partial: m})
		return m
	}
	reqJSON, err := streamRequestJSON(req)
	if err != nil {
		return fail(err.Error())
	}
	q := &streamQueue{ready: make(chan struct{}, 1)}
	var abort goja.Callable
	err = a.rt.loop.Do(context.WithoutCancel(ctx), func(vm *goja.Runtime) error {
		fn, ok := goja.AssertFunction(a.bridgeObj.Get("customStream"))
		if !ok {
			q.push(streamItem{err: "custom streams are not available", end: true})
			return nil
		}
		onEvent := func(s string) { q.push(streamItem{event: s}) }
		onDone := func(s string) { q.push(streamItem{final: s, end: true}) }
		onFail := func(m string) { q.push(streamItem{err: m, end: true}) }
		v, err := fn(goja.Undefined(), vm.ToValue(p.api), vm.ToValue(reqJSON), vm.ToValue(onEvent), vm.ToValue(onDone), vm.ToValue(onFail))
		if err != nil {
			return err
		}
		abort, _ = goja.AssertFunction(v)
		return nil
	})
	if err != nil {
		return fail(err.Error())
	}
	done := ctx.Done()
	for {
		select {
		case <-q.ready:
		case <-done:
			done = nil
			if abort != nil {
				_ = a.rt.loop.Do(context.WithoutCancel(ctx), func(*goja.Runtime) error {
					_, err := abort(goja.Undefined())
					return err
				})
			}
			continue
		}
		for _, it := range q.take() {
			switch {
			case it.event != "":
				if ev, ok := decodeStreamEvent(it.event); ok && ev.Type != engine.AEDone && ev.Type != engine.AEError {
					emit(ev)
				}
			case it.end && it.err != "":
				return fail(it.err)
			case it.end:
				var m engine.Message
				if err := json.Unmarshal([]byte(it.final), &m); err != nil {
					return fail("custom stream: invalid final message: " + err.Error())
				}
				if m.Role == "" {
					m.Role = engine.RoleAssistant
				}
				typ := engine.AEDone
				if m.StopReason == engine.StopError || m.StopReason == engine.StopAborted {
					typ = engine.AEError
				}
				emit(engine.AssistantEvent{Type: typ, Reason: m.StopReason, Partial: &m})
				return &m
			}
		}
	}
}

// streamRequestJSON is what the extension's streamSimple receives: the
// model, a pi-ai context and the options it can use.
func streamRequestJSON(req *engine.LLMRequest) (string, error) {
	tools := make([]ordered, 0, len(req.Tools))
	for _, t := range req.Tools {
		tools = append(tools, ordered{{"name", t.Name}, {"description", t.Description}, {"parameters", json.RawMessage(orEmptyObject(t.Parameters))}})
	}
	msgs := req.Messages
	if msgs == nil {
		msgs = []*engine.Message{}
	}
	ctxObj := ordered{{"systemPrompt", req.SystemPrompt}, {"messages", msgs}, {"tools", tools}}
	opts := ordered{{"apiKey", req.APIKey}, {"sessionId", req.SessionID}}
	if req.MaxTokens > 0 {
		opts = append(opts, Field{"maxTokens", req.MaxTokens})
	}
	if req.ThinkingLevel != "" && req.ThinkingLevel != engine.ThinkingOff {
		opts = append(opts, Field{"reasoning", string(req.ThinkingLevel)})
	}
	if len(req.Headers) > 0 {
		opts = append(opts, Field{"headers", req.Headers})
	}
	// pi-ai's cacheRetention and thinkingBudgets options, for a
	// streamSimple that hands them on (summaries send "none").
	if req.CacheRetention != "" {
		opts = append(opts, Field{"cacheRetention", req.CacheRetention})
	}
	var budgets ordered
	for _, l := range []engine.ThinkingLevel{engine.ThinkingMinimal, engine.ThinkingLow, engine.ThinkingMedium, engine.ThinkingHigh} {
		if b, ok := req.ThinkingBudgets[l]; ok {
			budgets = append(budgets, Field{string(l), b})
		}
	}
	if len(budgets) > 0 {
		opts = append(opts, Field{"thinkingBudgets", budgets})
	}
	b, err := engine.MarshalJSON(ordered{{"model", req.Model}, {"context", ctxObj}, {"options", opts}})
	return string(b), err
}

// decodeStreamEvent reads one pi-ai stream event.
func decodeStreamEvent(s string) (engine.AssistantEvent, bool) {
	var raw struct {
		Type         string          `json:"type"`
		ContentIndex int             `json:"contentIndex"`
		Delta        string          `json:"delta"`
		Content      json.RawMessage `json:"content"`
		ToolCall     *engine.Content `json:"toolCall"`
		Reason       string          `json:"reason"`
		Partial      *engine.Message `json:"partial"`
	}
	if err := json.Unmarshal([]byte(s), &raw); err != nil || raw.Type == "" {
		return engine.AssistantEvent{}, false
	}
	ev := engine.AssistantEvent{Type: raw.Type, ContentIndex: raw.ContentIndex, Delta: raw.Delta, ToolCall: raw.ToolCall,
		Reason: engine.StopReason(raw.Reason), Partial: raw.Partial}
	if len(raw.Content) > 0 && raw.Content[0] == '"' {
		_ = json.Unmarshal(raw.Content, &ev.Content)
	}
	if ev.Partial != nil && ev.Partial.Role == "" {
		ev.Partial.Role = engine.RoleAssistant
	}
	return ev, true
}
