package faux

import (
	"context"
	"testing"

	"github.com/pi-go/pi/engine"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func collect(ctx context.Context, p *Provider, onEv func(engine.AssistantEvent)) ([]string, *engine.Message) {
	var evs []string
	m := p.Stream(ctx, &engine.LLMRequest{Model: &engine.Model{ID: "m", Provider: "faux", API: "faux"}}, func(e engine.AssistantEvent) {
		evs = append(evs, e.Type)
		if onEv != nil {
			onEv(e)
		}
	})
	return evs, m
}

func TestTurns(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		turn   Turn
		events []string
		reason engine.StopReason
		errMsg string
	}{
		{"text", Turn{Text: "hello", ChunkSize: 3}, []string{"start", "text_start", "text_delta", "text_delta", "text_end", "done"}, engine.StopStop, ""},
		{"tool", Turn{Thinking: "t", ToolCalls: []ToolCall{{Name: "bash", Args: `{"command":"ls"}`}}},
			[]string{"start", "thinking_start", "thinking_delta", "toolcall_start", "toolcall_delta", "toolcall_delta", "thinking_end", "toolcall_end", "done"}, engine.StopToolUse, ""},
		{"http error", Turn{Error: "529: overloaded"}, []string{"error"}, engine.StopError, "529: overloaded"},
		{"length", Turn{Text: "x", StopReason: engine.StopLength}, []string{"start", "text_start", "text_delta", "text_end", "done"}, engine.StopLength, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			p := New(tt.turn)
			evs, m := collect(context.Background(), p, nil)
			assert.Equal(t, tt.events, evs)
			assert.Equal(t, tt.reason, m.StopReason)
			assert.Equal(t, tt.errMsg, m.ErrorMessage)
			assert.Len(t, p.Requests(), 1)
		})
	}
}

func TestBlockUntilCancelAndFallback(t *testing.T) {
	t.Parallel()
	p := New(Turn{Text: "partial", BlockUntilCancel: true})
	ctx, cancel := context.WithCancel(context.Background())
	evs, m := collect(ctx, p, func(e engine.AssistantEvent) {
		if e.Type == engine.AETextDelta {
			cancel()
		}
	})
	assert.Equal(t, []string{"start", "text_start", "text_delta", "text_end", "error"}, evs)
	assert.Equal(t, engine.StopAborted, m.StopReason)
	assert.Equal(t, "Request was aborted", m.ErrorMessage)

	_, m = collect(context.Background(), p, nil)
	require.Equal(t, FallbackText, m.Content.Text())
	tc := New(Turn{ToolCalls: []ToolCall{{Name: "read", Args: `{"path":"a"}`}}})
	_, m = collect(context.Background(), tc, nil)
	assert.Equal(t, "call_faux_0_0", m.ToolCalls()[0].ID)
	assert.JSONEq(t, `{"path":"a"}`, string(m.ToolCalls()[0].Arguments))
}
