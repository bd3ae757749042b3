package engine_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/pi-go/pi/engine"
	"github.com/pi-go/pi/engine/llm/faux"
)

// orchestrator calls the echo tool once per entry of its "calls"
// argument (an entry "fail" names a tool that does not exist) through
// ExecuteNested, as codemode's scripts do.
type orchestrator struct{ started []string }

func (*orchestrator) Info() engine.ToolInfo {
	return engine.ToolInfo{Name: "orch", Description: "Calls other tools", Parameters: json.RawMessage(`{"type":"object","properties":{"calls":{"type":"array"}}}`)}
}

func (o *orchestrator) Execute(ctx context.Context, call engine.ToolCall, _ func(engine.ToolResult)) (engine.ToolResult, error) {
	var args struct {
		Calls []string `json:"calls"`
	}
	_ = json.Unmarshal(call.Args, &args)
	for i, text := range args.Calls {
		id := fmt.Sprintf("%s/%d", call.ID, i+1)
		var tool engine.Tool = echoTool{}
		if text == "fail" {
			tool = failTool{}
		}
		nctx := engine.WithNestedStarted(ctx, func() { o.started = append(o.started, id) })
		engine.ExecuteNested(nctx, tool, engine.ToolCall{ID: id, Name: tool.Info().Name, Args: json.RawMessage(fmt.Sprintf(`{ "text" : %q }`, text))})
	}
	return engine.ToolResult{Content: []engine.Content{engine.TextContent("done")}}, nil
}

type failTool struct{}

func (failTool) Info() engine.ToolInfo {
	return engine.ToolInfo{Name: "failing", Parameters: json.RawMessage(`{"type":"object"}`)}
}

func (failTool) Execute(context.Context, engine.ToolCall, func(engine.ToolResult)) (engine.ToolResult, error) {
	return engine.ErrorResult(strings.Repeat("é", 600)), nil
}

// TestNestedCallsRecord checks the nestedCalls record on the calling
// tool's result message: one entry per nested call in call order, with
// the compact arguments, status, duration and an error cut to 500
// characters; arguments past the 32 KiB total are replaced by their
// size and mark the record incomplete; a tool that calls nothing gets
// no record; WithNestedStarted runs after the nested start event.
func TestNestedCallsRecord(t *testing.T) {
	t.Parallel()
	big := strings.Repeat("x", 7000)
	cases := []struct {
		name     string
		calls    []string
		want     []string // status per call, "bytes" for omitted arguments
		complete bool
	}{
		{"none", nil, nil, true},
		{"ok and error", []string{"hi", "fail"}, []string{"ok", "error"}, true},
		{"total over 32 KiB", []string{big, big, big, big, big}, []string{"ok", "ok", "ok", "ok", "bytes"}, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			args, _ := json.Marshal(map[string]any{"calls": c.calls})
			model := &engine.Model{ID: "faux-1", API: "faux", Provider: "faux", ContextWindow: 100000, MaxTokens: 100}
			p := faux.New(faux.Turn{ToolCalls: []faux.ToolCall{{Name: "orch", Args: string(args)}}}, faux.Turn{Text: "ok"})
			o := &orchestrator{}
			cfg := engine.LoopConfig{Model: model, Provider: p, SystemPrompt: "s", Tools: []engine.Tool{o}}
			var order []string
			created, err := engine.RunLoop(context.Background(), cfg, nil, []*engine.Message{
				{Role: engine.RoleUser, Content: engine.Blocks(engine.TextContent("go"))},
			}, func(e engine.Event) {
				if s, ok := e.(engine.ToolExecutionStart); ok && s.ParentToolCallID != "" {
					order = append(order, "start "+s.ToolCallID)
				}
			})
			if err != nil {
				t.Fatal(err)
			}
			res := created[2]
			if len(c.calls) == 0 {
				if res.NestedCalls != nil {
					t.Fatalf("nestedCalls %s for a tool that called nothing", res.NestedCalls)
				}
				return
			}
			var rec struct {
				Calls []struct {
					ID, Name, Status, Error string
					Arguments               json.RawMessage
					ArgumentsBytes          *int
					DurationMs              *int64
				}
				Complete bool
			}
			if err := json.Unmarshal(res.NestedCalls, &rec); err != nil {
				t.Fatalf("nestedCalls %s: %v", res.NestedCalls, err)
			}
			if len(rec.Calls) != len(c.want) || rec.Complete != c.complete {
				t.Fatalf("nestedCalls %s", res.NestedCalls)
			}
			for i, want := range c.want {
				got := rec.Calls[i]
				if got.ID != fmt.Sprintf("%s/%d", created[1].Content.Blocks[0].ID, i+1) || got.DurationMs == nil {
					t.Errorf("call %d: %+v", i, got)
				}
				switch want {
				case "bytes":
					if got.Arguments != nil || got.ArgumentsBytes == nil || *got.ArgumentsBytes != len(big)+len(`{"text":""}`) {
						t.Errorf("call %d: want the size only, got %+v", i, got)
					}
				case "error":
					if got.Status != "error" || len([]rune(got.Error)) != 500 {
						t.Errorf("call %d: status %s, error of %d characters", i, got.Status, len([]rune(got.Error)))
					}
				default:
					if got.Status != want || !strings.HasPrefix(string(got.Arguments), `{"text":"`) {
						t.Errorf("call %d: %+v (arguments %s)", i, got, got.Arguments)
					}
				}
			}
			if !strings.HasSuffix(string(mustJSON(t, res)), `,"nestedCalls":`+string(res.NestedCalls)+`}`) {
				t.Errorf("nestedCalls is not the message's last key: %s", mustJSON(t, res))
			}
			if len(o.started) != len(c.calls) || len(order) != len(c.calls) {
				t.Errorf("started callbacks %v, start events %v", o.started, order)
			}
		})
	}
}

func mustJSON(t *testing.T, v any) []byte {
	t.Helper()
	b, err := engine.MarshalJSON(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
