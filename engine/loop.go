package engine

import (
	"context"
	"errors"
	"fmt"
	"time"
)

// LoopConfig is what a stateless run needs: the model and its provider,
// the system prompt and tools, and optional hooks and queues. It is the
// Go form of the reference's agentLoop config, for hosts that keep their
// own history instead of a Session.
type LoopConfig struct {
	Model    *Model
	Thinking ThinkingLevel
	Provider Provider
	APIKey   string
	// SystemPrompt is the prompt text sent with every request.
	SystemPrompt string
	Tools        []Tool
	// Hooks may be nil (no extensions).
	Hooks Hooks
	// SessionID is sent as the provider's cache and affinity key.
	SessionID string
	// Steering and FollowUp, when set, are polled for queued messages:
	// steering after each turn's tool calls, follow-ups when the run
	// would stop.
	Steering func() []*Message
	FollowUp func() []*Message
	// ThinkingBudgets override the default token budget per level.
	ThinkingBudgets map[ThinkingLevel]int
}

// ErrEmptyLoop is returned by ContinueLoop for an empty history, with the
// reference's wording.
var ErrEmptyLoop = errors.New("Cannot continue: no messages in context")

// RunLoop runs the agent loop statelessly: history is the conversation so
// far (not changed), prompts are the new messages. Every event goes to
// emit on the calling goroutine — agent_start, turn and message events,
// tool execution, and a closing agent_end — and the messages the run
// created are returned, prompts first. Cancelling ctx aborts the run (the
// last reply then has stop reason "aborted").
func RunLoop(ctx context.Context, cfg LoopConfig, history []*Message, prompts []*Message, emit func(Event)) ([]*Message, error) {
	if cfg.Model == nil || cfg.Provider == nil {
		return nil, errors.New("RunLoop: a model and a provider are required")
	}
	if emit == nil {
		emit = func(Event) {}
	}
	hooks := cfg.Hooks
	if hooks == nil {
		hooks = NopHooks{}
	}
	loop := &agentLoop{
		model: cfg.Model, thinking: cfg.Thinking, tools: cfg.Tools, provider: cfg.Provider, apiKey: cfg.APIKey,
		systemPrompt: cfg.SystemPrompt, sessionID: cfg.SessionID, hooks: hooks, emit: emit,
		steering: cfg.Steering, followUp: cfg.FollowUp, now: time.Now, thinkingBudgets: cfg.ThinkingBudgets,
	}
	created := loop.run(ctx, history, prompts)
	emit(AgentEnd{Messages: created})
	return created, nil
}

// ContinueLoop is RunLoop without new prompts: the model answers the end
// of history, which must not be an assistant message (a host appended
// tool results itself, or retries a failed reply).
func ContinueLoop(ctx context.Context, cfg LoopConfig, history []*Message, emit func(Event)) ([]*Message, error) {
	if len(history) == 0 {
		return nil, ErrEmptyLoop
	}
	if last := history[len(history)-1]; last.Role == RoleAssistant {
		return nil, fmt.Errorf("Cannot continue from message role: %s", last.Role)
	}
	return RunLoop(ctx, cfg, history, nil, emit)
}
