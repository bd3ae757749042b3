package jsruntime

import (
	"context"
	"encoding/json"

	"github.com/pi-go/pi/engine"
)

// The ctx a withSession callback gets (after ctx.newSession, ctx.fork or
// ctx.switchSession) sends through the new session itself, as the
// reference's replaced-session context does: its sendUserMessage and
// sendMessage promises settle when the prompt they start is over, so a
// command that awaits them ends after the reply (print mode prints it).
// pi.sendUserMessage and pi.sendMessage stay fire-and-forget.

// sendWaitCall answers the async host calls "sendUserMessageWait" and
// "sendMessageWait" (raw is [content, options]); ok is false for other
// names.
func (a *API) sendWaitCall(ctx context.Context, name string, raw json.RawMessage) (any, bool, error) {
	if name != "sendUserMessageWait" && name != "sendMessageWait" {
		return nil, false, nil
	}
	s := a.session()
	if s == nil {
		return nil, true, nil
	}
	var av []json.RawMessage
	_ = json.Unmarshal(raw, &av)
	if name == "sendMessageWait" {
		if err := a.sendMessage(s, av); err != nil {
			return nil, true, err
		}
		var opts struct {
			TriggerTurn bool `json:"triggerTurn"`
		}
		if len(av) > 1 {
			_ = json.Unmarshal(av[1], &opts)
		}
		if opts.TriggerTurn {
			_ = s.WaitIdle(ctx)
		}
		return nil, true, nil
	}
	text, images, deliverAs, err := userMessageArgs(av)
	if err != nil {
		return nil, true, err
	}
	disp, err := s.Prompt(ctx, text, images, engine.PromptOptions{StreamingBehavior: deliverAs, Source: "extension"})
	if err != nil {
		// As for pi.sendUserMessage, the failure is the runtime's.
		a.reportError("<runtime>", "send_user_message", err.Error())
		return nil, true, nil
	}
	if disp == engine.DispositionStarted {
		_ = s.WaitIdle(ctx)
	}
	return nil, true, nil
}

// userMessageArgs decodes sendUserMessage's arguments: a string or
// content blocks (texts joined by newlines, the rest images), and the
// options' deliverAs.
func userMessageArgs(av []json.RawMessage) (string, []engine.Content, string, error) {
	var opts struct {
		DeliverAs string `json:"deliverAs"`
	}
	if len(av) > 1 {
		_ = json.Unmarshal(av[1], &opts)
	}
	text, images := "", []engine.Content(nil)
	if len(av) > 0 {
		if err := json.Unmarshal(av[0], &text); err != nil {
			var blocks []engine.Content
			if err := json.Unmarshal(av[0], &blocks); err != nil {
				return "", nil, "", err
			}
			for _, b := range blocks {
				if b.Type == "text" {
					if text != "" {
						text += "\n"
					}
					text += b.Text
				} else {
					images = append(images, b)
				}
			}
		}
	}
	return text, images, opts.DeliverAs, nil
}
