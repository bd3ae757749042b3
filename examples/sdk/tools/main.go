// Command tools embeds pi with a tool written in Go (word_count) and a
// TypeScript extension (shout.ts: a shout tool and a system prompt
// hook), and prints each tool call and the final answer:
//
//	go run ./examples/sdk/tools "Count the words of 'to be or not to be', then shout the count."
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
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

// wordCount is the Go tool.
var wordCount = pi.NewTool("word_count", "Count the words of a text",
	`{"type":"object","properties":{"text":{"type":"string","description":"The text"}},"required":["text"]}`,
	func(_ context.Context, args struct {
		Text string `json:"text"`
	}) (string, error) {
		return fmt.Sprint(len(strings.Fields(args.Text))), nil
	})

// extensionPath is shout.ts beside this file.
func extensionPath() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "shout.ts")
}

// run adds both tools to the built-in ones, sends prompt, and writes each
// tool call with its result, then the answer, to out.
func run(ctx context.Context, out io.Writer, opts pi.Options, prompt string) error {
	opts.ExtraTools = append(opts.ExtraTools, wordCount)
	opts.Extensions = append(opts.Extensions, extensionPath())
	agent, err := pi.New(ctx, opts)
	if err != nil {
		return err
	}
	defer agent.Close()
	for ev, err := range agent.Run(ctx, prompt) {
		if err != nil {
			return err
		}
		// Tool calls of one reply run in parallel, so their
		// tool_execution_end events come in the order they finish; the
		// tool result messages come in the order the model called them.
		if e, ok := ev.(engine.MessageEnd); ok {
			switch m := e.Message; {
			case m.Role == engine.RoleToolResult:
				fmt.Fprintf(out, "[%s] %s\n", m.ToolName, m.Content.Text())
			case m.Role == engine.RoleAssistant && len(m.ToolCalls()) == 0:
				fmt.Fprintln(out, m.Content.Text())
			}
		}
	}
	return nil
}
