package builtins_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/pi-go/pi/builtins"
	"github.com/pi-go/pi/engine"
	"github.com/pi-go/pi/engine/llm/faux"
	"github.com/pi-go/pi/engine/session"
)

// TestEditLegacyArgumentsInLoop checks that a model's legacy edit call
// ({path, oldText, newText}, which the schema no longer describes) is
// repaired before validation, as the reference's prepareArguments is,
// so the agent loop runs it instead of rejecting it.
func TestEditLegacyArgumentsInLoop(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	file := filepath.Join(dir, "a.txt")
	if err := os.WriteFile(file, []byte("hello world\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	edit, ok := builtins.New("edit", dir)
	if !ok {
		t.Fatal("no edit tool")
	}
	p := faux.New(
		faux.Turn{ToolCalls: []faux.ToolCall{{Name: "edit", Args: `{"path":"a.txt","oldText":"world","newText":"there"}`}}},
		faux.Turn{Text: "done"},
	)
	s, err := engine.NewSession(engine.SessionOptions{
		Store: session.InMemory(dir, ""), Cwd: dir, Model: &engine.Model{Provider: "faux", ID: "m", API: "faux"},
		ThinkingLevel: engine.ThinkingOff, Tools: []engine.Tool{edit},
		ProviderFor: func(string) (engine.Provider, error) { return p, nil },
		Settings:    engine.DefaultRuntimeSettings(),
	})
	if err != nil {
		t.Fatal(err)
	}
	var end *engine.ToolExecutionEnd
	s.Subscribe(func(e engine.Event) {
		if te, ok := e.(engine.ToolExecutionEnd); ok {
			end = &te
		}
	})
	ctx := context.Background()
	if _, err := s.Prompt(ctx, "edit it", nil, engine.PromptOptions{}); err != nil {
		t.Fatal(err)
	}
	if err := s.WaitIdle(ctx); err != nil {
		t.Fatal(err)
	}
	if end == nil || end.IsError {
		t.Fatalf("legacy edit call failed: %+v", end)
	}
	got, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != "hello there\n" {
		t.Errorf("file is %q, want the legacy edit applied", got)
	}
}
