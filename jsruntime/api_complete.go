package jsruntime

import (
	"context"
	"encoding/json"
	"sync"

	"github.com/dop251/goja"

	"github.com/pi-go/pi/engine"
)

// Completer runs one model request outside the session, for
// ctx.modelRegistry.complete, stream and streamSimple. It resolves the
// request's credentials itself when req.APIKey is empty, never fails with
// a Go error (a failure is a message with stopReason "error"), and calls
// emit for every event on its own goroutine.
type Completer interface {
	Complete(ctx context.Context, req *engine.LLMRequest, emit func(engine.AssistantEvent)) *engine.Message
}

// completions holds the cancel functions of requests in flight, so an
// extension's AbortSignal can stop them.
type completions struct {
	mu     sync.Mutex
	next   int
	cancel map[int]context.CancelFunc
}

func (c *completions) add(cancel context.CancelFunc) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.cancel == nil {
		c.cancel = map[int]context.CancelFunc{}
	}
	c.next++
	c.cancel[c.next] = cancel
	return c.next
}

func (c *completions) done(id int, abort bool) {
	c.mu.Lock()
	cancel := c.cancel[id]
	delete(c.cancel, id)
	c.mu.Unlock()
	if cancel != nil && abort {
		cancel()
	}
}

// completeRequest is what api.js sends: the model, the pi-ai context and
// the options the Go providers understand.
type completeRequest struct {
	Model engine.Model `json:"model"`
	// BuiltinAPI asks for that wire API's built-in implementation, never
	// an extension's streamSimple (pi-ai's openAICompletionsApi() and
	// its siblings): a registered streamSimple that wraps it must not
	// reach itself.
	BuiltinAPI string `json:"builtinApi"`
	Context    struct {
		SystemPrompt string            `json:"systemPrompt"`
		Messages     []json.RawMessage `json:"messages"`
		Tools        []struct {
			Name        string          `json:"name"`
			Description string          `json:"description"`
			Parameters  json.RawMessage `json:"parameters"`
		} `json:"tools"`
	} `json:"context"`
	Options struct {
		MaxTokens       int               `json:"maxTokens"`
		Temperature     *float64          `json:"temperature"`
		Reasoning       string            `json:"reasoning"`
		ReasoningEffort string            `json:"reasoningEffort"`
		APIKey          string            `json:"apiKey"`
		Headers         map[string]string `json:"headers"`
		SessionID       string            `json:"sessionId"`
		// CacheRetention and ThinkingBudgets are pi-ai's stream options of
		// the same names.
		CacheRetention  string             `json:"cacheRetention"`
		ThinkingBudgets map[string]float64 `json:"thinkingBudgets"`
	} `json:"options"`
}

// llmRequest turns the extension's request into the engine's. The model
// is the registry's when it knows it, so requests use its full definition.
func (a *API) llmRequest(p *completeRequest) (*engine.LLMRequest, error) {
	model := &p.Model
	if a.opts.Models != nil {
		if m := a.opts.Models.Find(p.Model.Provider, p.Model.ID); m != nil {
			model = m
		}
	}
	var msgs []*engine.Message
	for _, raw := range p.Context.Messages {
		var m engine.Message
		if err := json.Unmarshal(raw, &m); err != nil {
			return nil, err
		}
		msgs = append(msgs, &m)
	}
	req := &engine.LLMRequest{
		Model: model, SystemPrompt: p.Context.SystemPrompt, Messages: engine.ConvertToLLM(msgs),
		MaxTokens: p.Options.MaxTokens, Temperature: p.Options.Temperature,
		APIKey: p.Options.APIKey, Headers: p.Options.Headers, SessionID: p.Options.SessionID,
		ThinkingLevel: engine.ThinkingOff, CacheRetention: p.Options.CacheRetention,
	}
	for k, v := range p.Options.ThinkingBudgets {
		if req.ThinkingBudgets == nil {
			req.ThinkingBudgets = map[engine.ThinkingLevel]int{}
		}
		req.ThinkingBudgets[engine.ThinkingLevel(k)] = int(v)
	}
	for _, t := range p.Context.Tools {
		req.Tools = append(req.Tools, engine.ToolInfo{Name: t.Name, Description: t.Description, Parameters: t.Parameters})
	}
	effort := p.Options.Reasoning
	if effort == "" {
		effort = p.Options.ReasoningEffort
	}
	if lvl, ok := engine.ParseThinkingLevel(effort); ok {
		req.ThinkingLevel = engine.ClampThinkingLevel(model, lvl)
	}
	return req, nil
}

// complete is G.complete(request, onEvent, ok, fail): it runs the request
// on a goroutine, hands every event to onEvent (when it is a function) and
// settles with the final message. It returns the id G.cancelComplete
// takes.
func (a *API) complete(raw string, onEvent goja.Value, ok, fail goja.Callable) int {
	ctx, cancel := context.WithCancel(context.Background())
	id := a.completions.add(cancel)
	settle := a.rt.loop.Reserve()
	fail1 := func(msg string) {
		settle(func(vm *goja.Runtime) { _, _ = fail(goja.Undefined(), vm.ToValue(msg)) })
	}
	var p completeRequest
	if err := json.Unmarshal([]byte(raw), &p); err != nil {
		a.completions.done(id, true)
		fail1("modelRegistry: invalid request: " + err.Error())
		return id
	}
	req, err := a.llmRequest(&p)
	if err != nil {
		a.completions.done(id, true)
		fail1("modelRegistry: invalid context: " + err.Error())
		return id
	}
	c, isCompleter := a.opts.Models.(Completer)
	if p.BuiltinAPI != "" {
		m := *req.Model
		m.API = p.BuiltinAPI
		req.Model = &m
	} else if sp, ok := a.StreamProvider(req.Model.API); ok {
		// A model an extension streams itself goes to its streamSimple.
		c, isCompleter = streamCompleter{a, sp}, true
	}
	if !isCompleter {
		a.completions.done(id, true)
		fail1("modelRegistry.complete is not available here")
		return id
	}
	onEv, streaming := goja.AssertFunction(onEvent)
	go func() {
		defer a.completions.done(id, false)
		emit := func(engine.AssistantEvent) {}
		if streaming {
			emit = func(e engine.AssistantEvent) {
				b, err := streamEventJSON(e)
				if err != nil {
					return
				}
				// Events reach JS in order: each waits for the loop.
				_ = a.rt.loop.Do(context.WithoutCancel(ctx), func(vm *goja.Runtime) error {
					_, err := onEv(goja.Undefined(), vm.ToValue(string(b)))
					return err
				})
			}
		}
		msg := c.Complete(ctx, req, emit)
		out, err := engine.MarshalJSON(msg)
		settle(func(vm *goja.Runtime) {
			if err != nil {
				_, _ = fail(goja.Undefined(), vm.ToValue(err.Error()))
				return
			}
			_, _ = ok(goja.Undefined(), vm.ToValue(string(out)))
		})
	}()
	return id
}

// streamEventJSON is an event as pi-ai streams it: the wire fields, then
// the partial message.
func streamEventJSON(e engine.AssistantEvent) ([]byte, error) {
	b, err := engine.MarshalJSON(e)
	if err != nil || e.Partial == nil || len(b) < 2 {
		return b, err
	}
	p, err := engine.MarshalJSON(e.Partial)
	if err != nil {
		return nil, err
	}
	out := append(b[:len(b)-1:len(b)-1], `,"partial":`...)
	out = append(out, p...)
	return append(out, '}'), nil
}

// streamCompleter completes through an extension's streamSimple, with the
// registry's key when the request brings none.
type streamCompleter struct {
	a *API
	p engine.Provider
}

func (c streamCompleter) Complete(ctx context.Context, req *engine.LLMRequest, emit func(engine.AssistantEvent)) *engine.Message {
	if req.APIKey == "" {
		if reg := c.a.providers(); reg != nil {
			if k, ok := reg.APIKey(req.Model.Provider); ok {
				r := *req
				r.APIKey = k
				req = &r
			}
		}
	}
	return c.p.Stream(ctx, req, emit)
}
