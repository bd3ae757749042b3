package pi

import (
	"context"
	"encoding/json"

	"github.com/pi-go/pi/engine"
	"github.com/pi-go/pi/jsruntime"
)

// lifecycleHooks is the Hooks value every session is built with when
// extensions are loaded. It forwards each call to the current generation
// (lifecycle.go), so that a reload, which keeps the session, reaches it.
//
// It implements each optional hooks interface the jsruntime hooks do; a
// new one there needs a method here (TestLifecycleHooksInterfaces).
type lifecycleHooks struct{ h *extHost }

var (
	_ engine.Hooks               = lifecycleHooks{}
	_ engine.SessionHooks        = lifecycleHooks{}
	_ engine.TreeHooks           = lifecycleHooks{}
	_ engine.SettleHooks         = lifecycleHooks{}
	_ engine.ProviderHooks       = lifecycleHooks{}
	_ engine.ProviderHeaderHooks = lifecycleHooks{}
	_ engine.ProviderStreamHooks = lifecycleHooks{}
	_ engine.ModelSelectHooks    = lifecycleHooks{}
	_ engine.SystemContextHooks  = lifecycleHooks{}
)

func (l lifecycleHooks) api() *jsruntime.API {
	api, _ := l.h.cur()
	return api
}

func (l lifecycleHooks) hooks() engine.Hooks { return l.api().Hooks() }

func (l lifecycleHooks) session() engine.SessionHooks { return engine.SessionHooksOf(l.hooks()) }

// Input runs the input handlers and extension commands; a command may
// replace the session or reload the extensions and keeps running in its
// retired generation (lifecycle.go).
func (l lifecycleHooks) Input(ctx context.Context, text string, images []engine.Content, source, streamingBehavior string) (engine.InputResult, error) {
	return l.hooks().Input(ctx, text, images, source, streamingBehavior)
}

func (l lifecycleHooks) BeforeAgentStart(ctx context.Context, prompt string, images []engine.Content, systemPrompt string) (*engine.BeforeAgentStartResult, error) {
	return l.hooks().BeforeAgentStart(ctx, prompt, images, systemPrompt)
}

func (l lifecycleHooks) Context(ctx context.Context, msgs []*engine.Message) ([]*engine.Message, error) {
	return l.hooks().Context(ctx, msgs)
}

func (l lifecycleHooks) ToolCall(ctx context.Context, call engine.ToolCall) (*engine.ToolCallDecision, error) {
	return l.hooks().ToolCall(ctx, call)
}

func (l lifecycleHooks) ToolResult(ctx context.Context, call engine.ToolCall, result engine.ToolResult) (*engine.ToolResult, error) {
	return l.hooks().ToolResult(ctx, call, result)
}

func (l lifecycleHooks) Event(ctx context.Context, e engine.Event) { l.hooks().Event(ctx, e) }

func (l lifecycleHooks) BeforeSwitch(ctx context.Context, reason, target string) bool {
	return l.session().BeforeSwitch(ctx, reason, target)
}

func (l lifecycleHooks) BeforeFork(ctx context.Context, entryID, position string) bool {
	return l.session().BeforeFork(ctx, entryID, position)
}

func (l lifecycleHooks) BeforeCompact(ctx context.Context, ev engine.BeforeCompactEvent) *engine.BeforeCompactResult {
	return l.session().BeforeCompact(ctx, ev)
}

func (l lifecycleHooks) Compacted(ctx context.Context, entry *engine.Entry, fromExtension bool, reason string, willRetry bool) {
	l.session().Compacted(ctx, entry, fromExtension, reason, willRetry)
}

func (l lifecycleHooks) CompactFailed(ctx context.Context, ev engine.CompactFailedEvent) {
	l.session().CompactFailed(ctx, ev)
}

func (l lifecycleHooks) BeforeTree(ctx context.Context, prep engine.TreePreparation) *engine.BeforeTreeResult {
	return l.session().BeforeTree(ctx, prep)
}

func (l lifecycleHooks) Tree(ctx context.Context, newLeafID, oldLeafID string) {
	l.session().Tree(ctx, newLeafID, oldLeafID)
}

// BeforeAgentStartCustom runs before_agent_start for a run a custom
// message started (engine.CustomStartHooks).
func (l lifecycleHooks) BeforeAgentStartCustom(ctx context.Context, m *engine.Message, systemPrompt string) (*engine.BeforeAgentStartResult, error) {
	if ch, ok := l.hooks().(engine.CustomStartHooks); ok {
		return ch.BeforeAgentStartCustom(ctx, m, systemPrompt)
	}
	return nil, nil
}

// BeforeTreeFull and TreeSummarized pass tree navigations whole
// (engine.TreeHooks): summaries and instruction overrides.
func (l lifecycleHooks) BeforeTreeFull(ctx context.Context, prep engine.TreePreparation) *engine.BeforeTreeOutcome {
	if th, ok := l.session().(engine.TreeHooks); ok {
		return th.BeforeTreeFull(ctx, prep)
	}
	if r := l.session().BeforeTree(ctx, prep); r != nil {
		return &engine.BeforeTreeOutcome{Cancel: r.Cancel, Label: r.Label}
	}
	return nil
}

func (l lifecycleHooks) TreeSummarized(ctx context.Context, newLeafID, oldLeafID string, summary *engine.Entry, fromExtension bool) {
	if th, ok := l.session().(engine.TreeHooks); ok {
		th.TreeSummarized(ctx, newLeafID, oldLeafID, summary, fromExtension)
		return
	}
	l.session().Tree(ctx, newLeafID, oldLeafID)
}

func (l lifecycleHooks) Shutdown(ctx context.Context, reason, target string) {
	l.session().Shutdown(ctx, reason, target)
}

func (l lifecycleHooks) Started(ctx context.Context, reason, previous string) {
	l.session().Started(ctx, reason, previous)
}

func (l lifecycleHooks) BeforeSettle(ctx context.Context, outcome string) bool {
	if sh, ok := l.hooks().(engine.SettleHooks); ok {
		return sh.BeforeSettle(ctx, outcome)
	}
	return false
}

func (l lifecycleHooks) BeforeProviderRequest(ctx context.Context, body json.RawMessage) json.RawMessage {
	if ph, ok := l.hooks().(engine.ProviderHooks); ok {
		return ph.BeforeProviderRequest(ctx, body)
	}
	return nil
}

func (l lifecycleHooks) AfterProviderResponse(ctx context.Context, status int, headers map[string]string) {
	if ph, ok := l.hooks().(engine.ProviderHooks); ok {
		ph.AfterProviderResponse(ctx, status, headers)
	}
}

func (l lifecycleHooks) BeforeProviderHeaders(ctx context.Context, headers map[string]string) (map[string]*string, bool) {
	if hh, ok := l.hooks().(engine.ProviderHeaderHooks); ok {
		return hh.BeforeProviderHeaders(ctx, headers)
	}
	return nil, false
}

func (l lifecycleHooks) WantsProviderStreamEvents() bool {
	sh, ok := l.hooks().(engine.ProviderStreamHooks)
	return ok && sh.WantsProviderStreamEvents()
}

func (l lifecycleHooks) ProviderStreamEvent(ctx context.Context, model *engine.Model, data json.RawMessage) {
	if sh, ok := l.hooks().(engine.ProviderStreamHooks); ok {
		sh.ProviderStreamEvent(ctx, model, data)
	}
}

func (l lifecycleHooks) ModelSelect(ctx context.Context, model, previous *engine.Model, source string) {
	if mh, ok := l.hooks().(engine.ModelSelectHooks); ok {
		mh.ModelSelect(ctx, model, previous, source)
	}
}

func (l lifecycleHooks) ContextWithSystem(ctx context.Context, msgs []*engine.Message) ([]*engine.Message, error) {
	if sh, ok := l.hooks().(engine.SystemContextHooks); ok {
		return sh.ContextWithSystem(ctx, msgs)
	}
	return nil, nil
}
