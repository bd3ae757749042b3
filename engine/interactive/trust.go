package interactive

import (
	"context"
	"fmt"
	"io"
	"os"

	"github.com/pi-go/pi/engine/config"
	"github.com/pi-go/pi/engine/interactive/dialogs"
	"github.com/pi-go/pi/engine/tui"
	"github.com/pi-go/pi/engine/tui/theme"
)

// TrustOptions configure AskTrust.
type TrustOptions struct {
	Cwd, AgentDir string
	Theme         *theme.Theme
	// Terminal and Input default to the process's terminal.
	Terminal tui.Terminal
	Input    io.Reader
}

// AskTrust is the start-up question for a project folder with trust-gated
// resources and no saved decision: it runs before the agent is built, on
// a screen of its own, saves the answer's decisions in trust.json and
// reports whether the folder is trusted for this run. Escape and Ctrl+C
// leave it untrusted for this run without saving anything.
func AskTrust(ctx context.Context, o TrustOptions) (bool, error) {
	term, in := o.Terminal, o.Input
	if term == nil {
		pt, err := tui.NewProcessTerminal(os.Stdin, os.Stdout)
		if err != nil {
			return false, err
		}
		term, in = pt, pt.Input()
	}
	km, _ := buildKeymap(o.AgentDir)
	p := tui.NewProgram(term, in, tui.ProgramOptions{Keymap: km})
	trusted := false
	var saveErr error
	prompt := dialogs.NewTrustPrompt(dialogs.Style{Theme: o.Theme, Keymap: km}, dialogs.TrustPromptOptions{
		Cwd: o.Cwd,
		OnDone: func(opt dialogs.TrustOption) {
			trusted = opt.Trusted
			store := config.NewTrust(o.AgentDir)
			for _, u := range opt.Updates {
				if err := store.Set(u.Path, u.Decision); err != nil && saveErr == nil {
					saveErr = fmt.Errorf("save trust decision: %w", err)
				}
			}
			p.Quit()
		},
		OnCancel: p.Quit,
	})
	body := &tui.Container{}
	p.SetBody(body)
	p.SetDock(prompt)
	p.SetFocus(prompt)
	if err := p.Run(ctx, nil); err != nil {
		return false, err
	}
	return trusted, saveErr
}

// NeedsTrustPrompt reports whether pi in a terminal must ask about cwd
// before it starts: the folder has trust-gated resources, no decision is
// saved for it, and the defaultProjectTrust setting is "ask".
func NeedsTrustPrompt(agentDir, cwd string) bool {
	if !config.NeedsTrust(cwd) {
		return false
	}
	if _, ok, err := config.NewTrust(agentDir).Get(cwd); err != nil || ok {
		return false
	}
	s, err := config.Load(agentDir, cwd, false)
	if err != nil {
		return false
	}
	return s.DefaultProjectTrust() == config.DefaultProjectTrustSetting
}
