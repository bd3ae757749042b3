package interactive

import (
	"context"
	"io"
	"os"

	"github.com/pi-go/pi/engine/interactive/dialogs"
	"github.com/pi-go/pi/engine/session"
	"github.com/pi-go/pi/engine/tui"
	"github.com/pi-go/pi/engine/tui/theme"
)

// PickOptions configure PickSession.
type PickOptions struct {
	AgentDir, Cwd string
	// SessionDir is the custom session folder ("" for the default one
	// per project).
	SessionDir string
	Theme      *theme.Theme
	// Terminal and Input: where the picker draws and what it reads keys
	// from (a pipe works too: its bytes are keys).
	Terminal tui.Terminal
	Input    io.Reader
}

// PickSession is the session picker of `pi -r` outside the interactive
// mode: it runs before the agent is built, on a screen of its own, as the
// reference's start-up picker does, and returns the chosen session file,
// or "" when the user cancelled. Input that ends before a choice returns
// tui.ErrInputClosed.
func PickSession(ctx context.Context, o PickOptions) (string, error) {
	km, _ := buildKeymap(o.AgentDir)
	p := tui.NewProgram(o.Terminal, o.Input, tui.ProgramOptions{Keymap: km})
	current, _ := session.List(o.AgentDir, o.Cwd, o.SessionDir)
	chosen := ""
	picker := dialogs.NewSessionPicker(dialogs.Style{Theme: o.Theme, Keymap: km}, dialogs.SessionPickerOptions{
		Current: current,
		LoadAll: func(deliver func([]session.Info, error)) {
			go func() {
				all, err := session.ListAll(o.AgentDir, o.SessionDir)
				p.Post(func() { deliver(all, err) })
			}()
		},
		OnSelect: func(info session.Info) {
			chosen = info.Path
			p.Quit()
		},
		OnCancel: p.Quit,
		// The reference's start-up picker renames nothing (no Ctrl+R).
		OnDelete: func(info session.Info) error { return os.Remove(info.Path) },
	})
	p.SetBody(&tui.Container{})
	p.SetDock(picker)
	p.SetFocus(picker)
	if err := p.Run(ctx, nil); err != nil {
		return "", err
	}
	return chosen, nil
}
