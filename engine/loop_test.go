package engine_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/pi-go/pi/engine"
	"github.com/pi-go/pi/engine/llm/faux"
)

// echoTool answers every call with its arguments.
type echoTool struct{}

func (echoTool) Info() engine.ToolInfo {
	return engine.ToolInfo{Name: "echo", Description: "Echo", Parameters: json.RawMessage(`{"type":"object","properties":{"text":{"type":"string"}}}`)}
}

func (echoTool) Execute(_ context.Context, call engine.ToolCall, _ func(engine.ToolResult)) (engine.ToolResult, error) {
	return engine.ToolResult{Content: []engine.Content{engine.TextContent("echo:" + string(call.Args))}}, nil
}

// TestRunLoopStateless runs a tool round trip over a caller-owned history
// and checks the created messages, the events and that history is left
// alone; ContinueLoop answers a trailing user message and refuses an
// assistant one with the reference's wording.
func TestRunLoopStateless(t *testing.T) {
	t.Parallel()
	model := &engine.Model{ID: "faux-1", API: "faux", Provider: "faux", ContextWindow: 1000, MaxTokens: 100}
	p := faux.New(
		faux.Turn{ToolCalls: []faux.ToolCall{{Name: "echo", Args: `{"text":"hi"}`}}},
		faux.Turn{Text: "done"},
		faux.Turn{Text: "continued"},
	)
	cfg := engine.LoopConfig{Model: model, Provider: p, SystemPrompt: "You test.", Tools: []engine.Tool{echoTool{}}}
	history := []*engine.Message{}
	var types []string
	created, err := engine.RunLoop(context.Background(), cfg, history, []*engine.Message{
		{Role: engine.RoleUser, Content: engine.Blocks(engine.TextContent("go"))},
	}, func(e engine.Event) { types = append(types, string(e.EventType())) })
	if err != nil {
		t.Fatal(err)
	}
	var roles []string
	for _, m := range created {
		roles = append(roles, m.Role)
	}
	if got := strings.Join(roles, ","); got != "user,assistant,toolResult,assistant" {
		t.Errorf("created roles %s", got)
	}
	if last := created[len(created)-1].Content.Text(); last != "done" {
		t.Errorf("last reply %q", last)
	}
	if !strings.Contains(created[2].Content.Text(), `echo:{"text":"hi"}`) {
		t.Errorf("tool result %q", created[2].Content.Text())
	}
	if len(history) != 0 {
		t.Errorf("history changed: %d", len(history))
	}
	if types[0] != "agent_start" || types[len(types)-1] != "agent_end" || !strings.Contains(strings.Join(types, " "), "tool_execution_end") {
		t.Errorf("events %v", types)
	}

	if _, err := engine.ContinueLoop(context.Background(), cfg, created, nil); err == nil || err.Error() != "Cannot continue from message role: assistant" {
		t.Errorf("continue after assistant: %v", err)
	}
	if _, err := engine.ContinueLoop(context.Background(), cfg, nil, nil); err == nil || err.Error() != "Cannot continue: no messages in context" {
		t.Errorf("continue empty: %v", err)
	}
	more, err := engine.ContinueLoop(context.Background(), cfg, created[:1], nil)
	if err != nil || len(more) != 1 || more[0].Content.Text() != "continued" {
		t.Fatalf("continue: %v %v", more, err)
	}
}
