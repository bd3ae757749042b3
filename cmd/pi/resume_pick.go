package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"

	"golang.org/x/term"

	"github.com/pi-go/pi/engine/config"
	"github.com/pi-go/pi/engine/interactive"
	"github.com/pi-go/pi/engine/session"
	"github.com/pi-go/pi/engine/tui"
	"github.com/pi-go/pi/engine/tui/theme"
)

// stderrTerminal draws on stderr whatever it is: the reference's
// start-up picker draws there in print mode (stdout carries the answer),
// and reads its keys from stdin even when that is a pipe.
type stderrTerminal struct{ f *os.File }

func (t stderrTerminal) Write(p []byte) (int, error) { return t.f.Write(p) }

func (t stderrTerminal) Size() (int, int, error) {
	if w, h, err := term.GetSize(int(t.f.Fd())); err == nil {
		return w, h, nil
	}
	return 80, 24, nil
}

// pickResumeSession is `-r` in print and JSON mode, as the reference
// runs it: the session picker comes first, then the prompt runs in the
// chosen session. It returns the chosen file, or done with the exit code
// when there is nothing to run: cancelled ("No session selected", 0), or
// the input ended before a choice (0, silently, as the reference exits
// when its stdin ends).
func pickResumeSession(ctx context.Context, a *Args, stdout, stderr io.Writer) (path string, done bool, code int) {
	cwd, err := os.Getwd()
	if err != nil {
		fmt.Fprintln(stderr, "Error:", err)
		return "", true, 1
	}
	agentDir := config.AgentDir()
	settingsDir := ""
	if s, err := config.Load(agentDir, cwd, false); err == nil {
		settingsDir = s.SessionDir()
	}
	dir := session.SelectOptions{SessionDir: a.SessionDir, EnvSessionDir: os.Getenv("PI_CODING_AGENT_SESSION_DIR"),
		SettingsSessionDir: settingsDir}.ResolveSessionDir()
	th, _ := theme.Load("", nil)
	var termOut tui.Terminal = stderrTerminal{os.Stderr}
	var in io.Reader = os.Stdin
	if isTerminal(os.Stdin) && isTerminal(os.Stderr) {
		if pt, err := tui.NewProcessTerminal(os.Stdin, os.Stderr); err == nil {
			termOut, in = pt, pt.Input()
		}
	}
	path, err = interactive.PickSession(ctx, interactive.PickOptions{AgentDir: agentDir, Cwd: cwd, SessionDir: dir,
		Theme: th, Terminal: termOut, Input: in})
	switch {
	case errors.Is(err, tui.ErrInputClosed):
		return "", true, 0
	case err != nil:
		fmt.Fprintln(stderr, "Error:", err)
		return "", true, 1
	case path == "":
		fmt.Fprintln(stdout, "No session selected")
		return "", true, 0
	}
	return path, false, 0
}
