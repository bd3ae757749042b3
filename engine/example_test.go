package engine_test

import (
	"context"
	"fmt"

	"github.com/pi-go/pi/engine"
)

// exampleStore is the smallest Store: entries in memory, no file.
type exampleStore struct{ entries []*engine.Entry }

func (s *exampleStore) Header() engine.Header { return engine.Header{Type: "session", ID: "example"} }
func (s *exampleStore) Path() string          { return "" }
func (s *exampleStore) Append(e *engine.Entry) error {
	e.ID = fmt.Sprintf("%08d", len(s.entries)+1)
	s.entries = append(s.entries, e)
	return nil
}
func (s *exampleStore) Entries() []*engine.Entry { return s.entries }
func (s *exampleStore) Branch() []*engine.Entry  { return s.entries }
func (s *exampleStore) LeafID() string {
	if len(s.entries) == 0 {
		return ""
	}
	return s.entries[len(s.entries)-1].ID
}
func (s *exampleStore) SetLeaf(string) error             { return nil }
func (s *exampleStore) Get(string) (*engine.Entry, bool) { return nil, false }
func (s *exampleStore) Close() error                     { return nil }

// Example creates a session (the Go counterpart of the SDK's
// createAgentSession), subscribes to its events and prompts it. The
// provider is a function that answers every request with one text block.
func Example() {
	provider := engine.ProviderFunc(func(ctx context.Context, req *engine.LLMRequest, emit func(engine.AssistantEvent)) *engine.Message {
		m := &engine.Message{Role: engine.RoleAssistant, Content: engine.Blocks(engine.TextContent("Hello from the model.")), StopReason: engine.StopStop}
		emit(engine.AssistantEvent{Type: engine.AEDone, Reason: engine.StopStop, Partial: m})
		return m
	})
	model := &engine.Model{ID: "demo", API: "demo-api", Provider: "demo", ContextWindow: 128000, MaxTokens: 4096}
	s, err := engine.NewSession(engine.SessionOptions{
		Store:       &exampleStore{},
		Model:       model,
		ProviderFor: func(string) (engine.Provider, error) { return provider, nil },
		Settings:    engine.DefaultRuntimeSettings(),
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	var replies []string
	s.Subscribe(func(e engine.Event) {
		if end, ok := e.(engine.MessageEnd); ok && end.Message.Role == engine.RoleAssistant {
			replies = append(replies, end.Message.Content.Text())
		}
	})
	disposition, err := s.Prompt(context.Background(), "Say hello.", nil, engine.PromptOptions{})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("prompt:", disposition)
	_ = s.WaitIdle(context.Background())
	fmt.Println("assistant:", replies[0])
	fmt.Println("messages:", len(s.Messages()))
	// Output:
	// prompt: started
	// assistant: Hello from the model.
	// messages: 2
}
