// Command minimal is the smallest embedding of pi: one prompt, the reply
// printed as it streams. It uses your pi configuration (~/.pi/agent:
// settings, models.json, auth.json) and the current directory:
//
//	go run ./examples/sdk/minimal -model anthropic/claude-sonnet-4-5 "What is in this directory?"
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	pi "github.com/pi-go/pi"
	"github.com/pi-go/pi/engine"
)

func main() {
	model := flag.String("model", "", "provider/model (default: your configured default)")
	flag.Parse()
	opts := pi.Options{Model: *model, NoSession: true}
	if err := run(context.Background(), os.Stdout, opts, strings.Join(flag.Args(), " ")); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

// run sends prompt and writes the reply's text to out.
func run(ctx context.Context, out io.Writer, opts pi.Options, prompt string) error {
	agent, err := pi.New(ctx, opts)
	if err != nil {
		return err
	}
	defer agent.Close()
	for ev, err := range agent.Run(ctx, prompt) {
		if err != nil {
			return err
		}
		switch e := ev.(type) {
		case engine.MessageUpdate:
			if e.AssistantMessageEvent.Type == engine.AETextDelta {
				fmt.Fprint(out, e.AssistantMessageEvent.Delta)
			}
		case engine.MessageEnd:
			if e.Message.Role == engine.RoleAssistant && e.Message.StopReason == engine.StopError {
				return fmt.Errorf("the model failed: %s", e.Message.ErrorMessage)
			}
		}
	}
	fmt.Fprintln(out)
	return nil
}
