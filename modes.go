package pi

import (
	"context"
	"fmt"
	"io"

	"github.com/pi-go/pi/engine"
	"github.com/pi-go/pi/engine/rpc"
)

// Runner is what print and JSON modes need from a session. The engine
// runtime satisfies it through a thin adapter in wire.go, and tests use a
// fake.
type Runner interface {
	// Header is the session header, printed first in JSON mode.
	Header() engine.Header
	// Subscribe registers fn for every session event until the returned
	// function is called.
	Subscribe(fn func(engine.Event)) (unsubscribe func())
	// Prompt sends one user prompt and waits until the session settles.
	// An error means the prompt could not start (no model, no key, …).
	Prompt(ctx context.Context, text string, images []engine.Content) error
	// Messages returns the current transcript.
	Messages() []*engine.Message
}

// truncatedNotice is printed when the last reply hit the output limit.
const truncatedNotice = "Response was truncated: the model reached its output token limit."

// PrintOptions are the prompts of one print/json run.
type PrintOptions struct {
	JSON    bool
	Initial InitialMessage
	Rest    []string
}

// RunPrint runs the prompts on r and returns the exit code. In JSON mode
// the header and every event go to out; in text mode only the last
// assistant message's text is written there once everything is done.
// Human-readable problems go to errOut.
func RunPrint(ctx context.Context, r Runner, opts PrintOptions, out *rpc.Writer, rawOut, errOut io.Writer) int {
	if opts.JSON {
		jm := rpc.NewJSONMode(out)
		if err := jm.Header(r.Header()); err != nil {
			fmt.Fprintln(errOut, err)
			return 1
		}
		unsub := r.Subscribe(jm.Event)
		// The stream ends before the run is stopped: the reference
		// unsubscribes before it disposes, so an aborted leftover turn
		// is recorded in the session but not printed.
		defer func() {
			unsub()
			stopRun(ctx, r)
		}()
	} else {
		defer stopRun(ctx, r)
	}
	type prompt struct {
		text   string
		images []engine.Content
	}
	var prompts []prompt
	if opts.Initial.Text != "" || len(opts.Initial.Images) > 0 {
		prompts = append(prompts, prompt{opts.Initial.Text, opts.Initial.Images})
	}
	for _, m := range opts.Rest {
		prompts = append(prompts, prompt{m, nil})
	}
	for i, p := range prompts {
		send := r.Prompt
		if fp, ok := r.(finalPrompter); ok && i == len(prompts)-1 {
			send = fp.PromptFinal
		}
		if err := send(ctx, p.text, p.images); err != nil {
			fmt.Fprintln(errOut, err.Error())
			return 1
		}
	}
	if opts.JSON {
		// JSON mode succeeds even when the reply failed: the event stream
		// already tells the client.
		return 0
	}
	return printLastAssistant(r.Messages(), rawOut, errOut)
}

// finalPrompter is implemented by runners that close the session after
// the last prompt: print mode is over once that prompt is, so what an
// extension command sent without awaiting it is dropped after its input
// handlers, as in the reference.
type finalPrompter interface {
	PromptFinal(ctx context.Context, text string, images []engine.Content) error
}

// runStopper is implemented by runners that can abort the work left
// running when the prompts are done (a turn a command triggered).
type runStopper interface {
	StopRun(ctx context.Context)
}

func stopRun(ctx context.Context, r Runner) {
	if s, ok := r.(runStopper); ok {
		s.StopRun(context.WithoutCancel(ctx))
	}
}

// printLastAssistant writes the text of the final assistant message and
// maps its stop reason to the exit code.
func printLastAssistant(msgs []*engine.Message, out, errOut io.Writer) int {
	if len(msgs) == 0 {
		return 0
	}
	last := msgs[len(msgs)-1]
	if last.Role != engine.RoleAssistant {
		return 0
	}
	if last.StopReason == engine.StopError || last.StopReason == engine.StopAborted {
		msg := last.ErrorMessage
		if msg == "" {
			msg = "Request " + string(last.StopReason)
		}
		fmt.Fprintln(errOut, msg)
		return 1
	}
	for _, c := range last.Content.Blocks {
		if c.Type == engine.ContentText {
			fmt.Fprintf(out, "%s\n", c.Text)
		}
	}
	if last.StopReason == engine.StopLength {
		fmt.Fprintln(errOut, truncatedNotice)
		return 1
	}
	return 0
}
