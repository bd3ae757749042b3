package pi_test

import (
	"context"
	"fmt"

	pi "github.com/pi-go/pi"
	"github.com/pi-go/pi/engine"
	"github.com/pi-go/pi/internal/mockllm"
	"github.com/pi-go/pi/internal/sdktest"
)

// Example sends one prompt and prints the reply as it streams. A real
// program leaves AgentDir empty (the user's ~/.pi/agent) and names one of
// its models, or none for the configured default.
func Example() {
	// agentDir stands in for ~/.pi/agent: its models.json points at a
	// scripted mock model, so the example runs offline.
	agentDir, project, _, stop, err := sdktest.Start(mockllm.Script{Turns: []mockllm.Turn{{Text: "Hello from pi."}}})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer stop()
	ctx := context.Background()
	agent, err := pi.New(ctx, pi.Options{AgentDir: agentDir, Cwd: project, Model: sdktest.Model, NoSession: true})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer agent.Close()
	for ev, err := range agent.Run(ctx, "Say hello.") {
		if err != nil {
			fmt.Println(err)
			return
		}
		if u, ok := ev.(engine.MessageUpdate); ok && u.AssistantMessageEvent.Type == engine.AETextDelta {
			fmt.Print(u.AssistantMessageEvent.Delta)
		}
	}
	fmt.Println()
	// Output: Hello from pi.
}
