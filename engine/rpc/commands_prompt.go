package rpc

import (
	"context"
	"errors"
	"strings"
	"sync"

	"github.com/pi-go/pi/engine"
	"github.com/pi-go/pi/engine/config"
)

// Errors whose text clients match on.
var (
	ErrCompacting = errors.New("Cannot submit a prompt while compaction is in progress. Wait for compaction to finish and retry.")
	// errNoMessage is what the reference answers for a prompt without a
	// message (its handler reads message.startsWith).
	errNoMessage = errors.New("Cannot read properties of undefined (reading 'startsWith')")
)

type promptFields struct {
	Message           *string          `json:"message"`
	Images            []engine.Content `json:"images"`
	StreamingBehavior string           `json:"streamingBehavior"`
}

type dispositionData struct {
	Disposition string `json:"disposition"`
}

func decodePrompt(cmd *Command) (promptFields, error) {
	var f promptFields
	if err := fields(cmd, &f); err != nil {
		return f, err
	}
	if f.Message == nil {
		return f, errNoMessage
	}
	return f, nil
}

// expand applies skill commands first, then prompt templates, as the
// reference does for prompt, steer and follow_up. A skill that cannot be
// read is reported as an extension error and the text goes out unchanged.
// extensionCommand returns the name of the extension command text
// invokes, if any.
func (s *Server) extensionCommand(text string) (string, bool) {
	if !strings.HasPrefix(text, "/") {
		return "", false
	}
	name := strings.TrimPrefix(strings.Fields(text + " ")[0], "/")
	for _, c := range s.ctl.Commands() {
		if c.Name == name {
			return name, true
		}
	}
	return "", false
}

func (s *Server) compacting(sess *engine.Session) bool {
	return s.IsCompacting != nil && s.IsCompacting(sess)
}

func handlePrompt(ctx context.Context, s *Server, cmd *Command) *Response {
	f, err := decodePrompt(cmd)
	if err != nil {
		return fail(cmd, err)
	}
	sess, _ := s.current()
	text := *f.Message
	_, isExt := s.extensionCommand(text)
	if !isExt && s.compacting(sess) {
		return fail(cmd, ErrCompacting)
	}
	idle := !sess.IsStreaming()
	if !isExt && idle && isPlaceholder(sess.Model()) {
		// Without any model the reference fails the credentials preflight.
		return fail(cmd, errors.New(config.NoAPIKeyMessage("")))
	}
	// Skills and templates expand after the extensions' input hook has
	// seen the text as typed, as in the reference.
	opts := engine.PromptOptions{StreamingBehavior: f.StreamingBehavior, Source: "rpc", Expand: s.ctl.Expand}
	if !idle {
		// A busy session cannot start a run for this prompt, so nothing
		// has to wait for the response: the current run keeps streaming
		// even while an extension command shows a dialog.
		disp, err := sess.Prompt(ctx, text, f.Images, opts)
		if err != nil {
			return fail(cmd, err)
		}
		return ok(cmd, dispositionData{disp})
	}
	// The response goes out where the reference writes it: for a started
	// run just before agent_start (after before_agent_start and what its
	// handlers sent), for a command once a run it started got that far,
	// and otherwise when Prompt returns. Events are written as they
	// happen, so what a command or the input hook sends (and notifies)
	// comes before the response, in the order it was done.
	var once sync.Once
	respond := func(r Response) { once.Do(func() { _ = s.out.WriteRecord(r) }) }
	opts.OnPreflight = func(disp string) { respond(OK(cmd, dispositionData{disp})) }
	disp, err := sess.Prompt(ctx, text, f.Images, opts)
	if err != nil {
		respond(Fail(cmd, err))
		return nil
	}
	respond(OK(cmd, dispositionData{disp}))
	return nil
}

func handleSteer(ctx context.Context, s *Server, cmd *Command) *Response {
	return queueMessage(s, cmd, false)
}

func handleFollowUp(ctx context.Context, s *Server, cmd *Command) *Response {
	return queueMessage(s, cmd, true)
}

func queueMessage(s *Server, cmd *Command, followUp bool) *Response {
	f, err := decodePrompt(cmd)
	if err != nil {
		return fail(cmd, err)
	}
	queue := s.ctl.Steer
	if followUp {
		queue = s.ctl.FollowUp
	}
	disp, err := queue(context.Background(), *f.Message, f.Images...)
	if err != nil {
		return fail(cmd, err)
	}
	return ok(cmd, dispositionData{disp})
}

func handleAbort(ctx context.Context, s *Server, cmd *Command) *Response {
	sess, _ := s.current()
	sess.AbortRetry()
	sess.Abort()
	return ok(cmd, nil)
}

type queueData struct {
	Steering []string `json:"steering"`
	FollowUp []string `json:"followUp"`
}

func handleClearQueue(ctx context.Context, s *Server, cmd *Command) *Response {
	sess, _ := s.current()
	steering, followUp := sess.ClearQueue()
	if steering == nil {
		steering = []string{}
	}
	if followUp == nil {
		followUp = []string{}
	}
	return ok(cmd, queueData{steering, followUp})
}
