// Command sessions shows the session controller: it prompts, starts a
// new session, switches back to the first, forks it from its first
// message, and lists the project's sessions, printing the events it
// subscribed to on the way. Sessions are saved where pi saves them
// (~/.pi/agent/sessions/…), so `pi -r` sees them too:
//
//	go run ./examples/sdk/sessions
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"

	pi "github.com/pi-go/pi"
	"github.com/pi-go/pi/engine"
	"github.com/pi-go/pi/engine/config"
	"github.com/pi-go/pi/engine/session"
)

func main() {
	model := flag.String("model", "", "provider/model (default: your configured default)")
	flag.Parse()
	if err := run(context.Background(), os.Stdout, pi.Options{Model: *model}); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

func run(ctx context.Context, out io.Writer, opts pi.Options) error {
	agent, err := pi.New(ctx, opts)
	if err != nil {
		return err
	}
	defer agent.Close()
	// One subscription for the agent's whole life: it follows each
	// session that replaces the current one.
	unsubscribe := agent.Subscribe(func(ev engine.Event) {
		if e, ok := ev.(engine.MessageEnd); ok && e.Message.Role == engine.RoleAssistant {
			fmt.Fprintf(out, "  assistant: %s\n", e.Message.Content.Text())
		}
	})
	defer unsubscribe()
	step := func(name string) {
		_, store := agent.Current()
		fmt.Fprintf(out, "%s (%d entries)\n", name, len(store.Branch()))
	}

	if err := agent.Prompt(ctx, "Name a colour.", nil); err != nil {
		return err
	}
	_, first := agent.Current()
	firstPath := first.Path()
	step("first session")

	if _, err := agent.NewSession(ctx, ""); err != nil {
		return err
	}
	if err := agent.Prompt(ctx, "Name a fruit.", nil); err != nil {
		return err
	}
	step("new session")

	if _, err := agent.SwitchSession(ctx, firstPath); err != nil {
		return err
	}
	step("switched back")

	// Fork from the first user message: the new session holds what came
	// before it (nothing), and the message's text comes back for editing.
	var firstUser string
	_, store := agent.Current()
	for _, e := range store.Branch() {
		if e.Type == engine.EntryMessage && e.Message.Role == engine.RoleUser {
			firstUser = e.ID
			break
		}
	}
	_, text, err := agent.ForkUser(ctx, firstUser)
	if err != nil {
		return err
	}
	step("forked, editing " + fmt.Sprintf("%q", text))

	agentDir := opts.AgentDir
	if agentDir == "" {
		agentDir = config.AgentDir()
	}
	list, err := session.List(agentDir, agent.Cwd(), "")
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "%d saved sessions\n", len(list))
	return nil
}
