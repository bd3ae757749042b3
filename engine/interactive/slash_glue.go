package interactive

import (
	"context"

	"github.com/pi-go/pi/engine/tui/editor"
)

// builtinCommands are the built-in slash commands "/" completes.
func builtinCommands() []editor.Command {
	return []editor.Command{
		{Name: "new", Description: "Start a new session"},
		{Name: "quit", Description: "Quit pi"},
	}
}

// runSlash runs a built-in slash command; it reports false for text that
// is not one (extension commands, templates and skills go out as a
// prompt, which expands them).
func (a *app) runSlash(name, args, text string) bool {
	switch name {
	case "quit":
		a.exit()
		return true
	case "new":
		a.newSession()
		return true
	}
	return false
}

// newSession starts a fresh session (/new).
func (a *app) newSession() {
	go func() {
		cancelled, err := a.c.NewSession(context.WithoutCancel(a.ctx), "")
		a.p.Post(func() {
			switch {
			case err != nil:
				a.showError("Error: " + err.Error())
			case cancelled:
				a.showStatus("New session cancelled")
			default:
				a.sess = a.c.Session()
				a.replay()
				a.refreshFooter()
				a.showStatus("New session started")
			}
		})
	}()
}

// openModelSelector is Ctrl+L and /model without arguments.
func (a *app) openModelSelector() {
	a.showError("Error: the model selector is not in this build yet")
}
