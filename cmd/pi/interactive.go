package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"

	pi "github.com/pi-go/pi"
	"github.com/pi-go/pi/engine/config"
	"github.com/pi-go/pi/engine/interactive"
	"github.com/pi-go/pi/engine/session"
	"github.com/pi-go/pi/engine/tui"
	"github.com/pi-go/pi/engine/tui/theme"
)

// runInteractive is pi in a terminal: the interactive mode over an agent
// whose ctx.ui is the screen. Start-up warnings (settings, models.json,
// session selection) go into the header instead of over the screen.
func runInteractive(a *Args, stderr io.Writer) int {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var startup bytes.Buffer
	opts := optionsFromArgs(a, ModeInteractive)
	opts.Stderr = &startup
	if a.Approve == nil {
		// A project folder with gated resources and no saved decision is
		// asked about before anything of it loads.
		if cwd, err := os.Getwd(); err == nil && interactive.NeedsTrustPrompt(config.AgentDir(), cwd) {
			th, _ := theme.Load("", nil)
			trusted, err := interactive.AskTrust(ctx, interactive.TrustOptions{Cwd: cwd, AgentDir: config.AgentDir(), Theme: th})
			if err != nil {
				fmt.Fprintln(stderr, "Error:", err)
				return 1
			}
			opts.Approve = &trusted
		}
	}
	ui := interactive.NewUI()
	opts.UI = ui
	app, err := pi.New(ctx, opts)
	if err != nil {
		_, _ = stderr.Write(startup.Bytes())
		if errors.Is(err, pi.ErrExtensionLoad) {
			return 1
		}
		return reportStartupError(stderr, err)
	}
	defer app.Close()
	app.OnShutdownRequest(cancel)
	fileText, images, err := pi.ProcessFileArgs(app.Cwd(), a.FileArgs)
	if err != nil {
		fmt.Fprintln(stderr, err.Error())
		return 1
	}
	initial, rest := pi.BuildInitialMessage("", fileText, images, a.Messages)
	var fullscreen *bool
	switch a.TUIMode {
	case "regular":
		f := false
		fullscreen = &f
	case "fullscreen":
		t := true
		fullscreen = &t
	}
	var warnings []string
	for _, l := range strings.Split(strings.TrimRight(startup.String(), "\n"), "\n") {
		if l != "" {
			warnings = append(warnings, l)
		}
	}
	// In raw mode Ctrl+C is a key; a SIGINT sent from elsewhere aborts
	// the run, as it does in print mode, instead of killing pi with the
	// terminal still in raw mode.
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, syscall.SIGINT)
	defer signal.Stop(sigs)
	go func() {
		for range sigs {
			app.Abort()
		}
	}()
	err = interactive.Run(ctx, app, interactive.Options{
		Version: Version, Fullscreen: fullscreen, Input: os.Stdin, Stdout: os.Stdout, UI: ui,
		Initial: initial.Text, InitialImages: initial.Images, Messages: rest, Warnings: warnings, Resume: a.Resume,
		DefaultSessionDir: session.AgentSessionsDir(app.AgentDir(), app.Cwd()),
	})
	var sig *tui.SignalError
	if errors.As(err, &sig) {
		// The terminal is restored; end as print mode does on these.
		app.Shutdown()
		if sig.Signal == syscall.SIGHUP {
			return 129
		}
		return 143
	}
	if err != nil {
		fmt.Fprintln(stderr, "Error:", err)
		return 1
	}
	return 0
}
