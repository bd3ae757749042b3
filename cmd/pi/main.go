package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	pi "github.com/pi-go/pi"
	"github.com/pi-go/pi/engine/rpc"
	"github.com/pi-go/pi/engine/session"
	_ "github.com/pi-go/pi/internal/cpuprofile" // PI_CPUPROFILE
	"github.com/pi-go/pi/internal/startmem"
	"github.com/pi-go/pi/internal/starttrace"
	"github.com/pi-go/pi/jsruntime"
)

func main() {
	os.Exit(run(os.Args[1:]))
}

// isTerminal reports whether f is a character device (a terminal).
func isTerminal(f *os.File) bool {
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

// run is the whole program; it returns the exit code.
func run(argv []string) int {
	starttrace.Step("main")
	stderr := io.Writer(os.Stderr)
	if code, ok := runSubcommand(argv, os.Stdout, stderr); ok {
		return code
	}
	a := ParseArgs(argv)
	for _, d := range a.Diagnostics {
		fmt.Fprintln(stderr, d.String())
	}
	if a.HasErrors() {
		return 1
	}
	if a.Version {
		fmt.Println(Version)
		return 0
	}
	if a.Export != "" {
		return runExport(a, os.Stdout, stderr)
	}
	mode := ResolveMode(a, isTerminal(os.Stdin), isTerminal(os.Stdout))
	// Help and --list-models without an explicit mode print plain text.
	metadataOnly := !a.Print && a.Mode == "" && (a.Help || a.ListModels != nil)
	if a.Help {
		fmt.Print(helpText)
		return 0
	}
	if mode == ModeInteractive && !metadataOnly {
		return runInteractive(a, stderr)
	}
	stdout := os.Stdout
	if !metadataOnly {
		real, err := rpc.TakeOverStdout()
		if err != nil {
			fmt.Fprintln(stderr, "Error:", err)
			return 1
		}
		stdout = real
	}
	if mode == ModeRPC && len(a.FileArgs) > 0 {
		fmt.Fprintln(stderr, "Error: @file arguments are not supported in RPC mode")
		return 1
	}
	if a.Name != nil && strings.TrimSpace(*a.Name) == "" {
		fmt.Fprintln(stderr, "Error: --name requires a non-empty value")
		return 1
	}

	memDone := func() {}
	if a.ListModels == nil && extensionsLikely(a) {
		memDone = startmem.Start(true)
		jsruntime.Prewarm()
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	starttrace.Step("args")
	picked := false
	if a.Resume && (mode == ModePrint || mode == ModeJSON) && a.ListModels == nil {
		path, done, code := pickResumeSession(ctx, a, stdout, stderr)
		if done {
			return code
		}
		a.Resume, a.Session, picked = false, path, true
	}
	opts := optionsFromArgs(a, mode)
	opts.Stderr = stderr
	app, err := pi.New(ctx, opts)
	if err != nil {
		if errors.Is(err, pi.ErrExtensionLoad) {
			return 1
		}
		return reportStartupError(stderr, err)
	}
	defer app.Close()
	starttrace.Step("extensions")
	if a.ListModels != nil {
		fmt.Fprint(stdout, app.ListModels(*a.ListModels))
		return 0
	}
	memDone()
	if mode == ModeRPC {
		app.OnShutdownRequest(cancel)
		// Batched: a streamed reply goes out in one write per burst of
		// events instead of one per delta; flushed before the exit code.
		out := rpc.NewBatchedWriter(stdout)
		code := make(chan int, 1)
		go func() {
			c := 0
			if err := app.ServeRPC(ctx, os.Stdin, out); err != nil {
				fmt.Fprintln(stderr, "Error:", err)
				c = 1
			}
			// session_shutdown handlers may still write (ctx.ui calls);
			// they run before the last flush.
			app.Close()
			_ = out.Flush()
			code <- c
		}()
		return waitWithSignals(code, app, out.Flush)
	}

	stdin := ""
	// The picker read its keys from a piped stdin: nothing is left of it
	// for the prompt.
	if !isTerminal(os.Stdin) && !picked {
		s, err := pi.ReadPipedStdin(os.Stdin)
		if err != nil {
			fmt.Fprintln(stderr, "Error:", err)
			return 1
		}
		stdin = s
	}
	fileText, images, err := pi.ProcessFileArgs(app.Cwd(), a.FileArgs)
	if err != nil {
		fmt.Fprintln(stderr, err.Error())
		return 1
	}
	initial, rest := pi.BuildInitialMessage(stdin, fileText, images, a.Messages)
	code := make(chan int, 1)
	go func() {
		code <- pi.RunPrint(ctx, app, pi.PrintOptions{JSON: mode == ModeJSON, Initial: initial, Rest: rest}, rpc.NewWriter(stdout), stdout, stderr)
	}()
	return waitWithSignals(code, app, nil)
}

// waitWithSignals waits for the run to finish. SIGINT aborts the current
// run (the run then ends normally, with an aborted reply); SIGTERM and
// SIGHUP end the process with 143 and 129 after closing the session so
// that everything already completed is on disk.
//
// flush, when set, is given a moment to write queued records before a
// signal ends the process; a reader that stopped reading cannot hold the
// exit back beyond that.
func waitWithSignals(code <-chan int, app *pi.Agent, flush func() error) int {
	sigs := make(chan os.Signal, 4)
	signal.Notify(sigs, syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP)
	defer signal.Stop(sigs)
	for {
		select {
		case c := <-code:
			return c
		case s := <-sigs:
			switch s {
			case syscall.SIGINT:
				app.Abort()
			case syscall.SIGTERM:
				app.Shutdown()
				flushBriefly(flush)
				return 143
			case syscall.SIGHUP:
				app.Shutdown()
				flushBriefly(flush)
				return 129
			}
		}
	}
}

// flushBriefly waits up to a second for flush.
func flushBriefly(flush func() error) {
	if flush == nil {
		return
	}
	done := make(chan struct{})
	go func() {
		_ = flush()
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(time.Second):
	}
}

// runExport is `pi --export <session file> [output]`: the first message
// names the output file. It builds no agent.
func runExport(a *Args, stdout, stderr io.Writer) int {
	out := ""
	if len(a.Messages) > 0 {
		out = a.Messages[0]
	}
	path, err := pi.ExportSessionFile(a.Export, out)
	if err != nil {
		fmt.Fprintln(stderr, "Error:", err)
		return 1
	}
	fmt.Fprintln(stdout, "Exported to:", path)
	return 0
}

// reportStartupError prints a startup failure and returns its exit code.
func reportStartupError(stderr io.Writer, err error) int {
	var ee *session.ExitError
	if errors.As(err, &ee) {
		fmt.Fprintln(stderr, ee.Message)
		return ee.Code
	}
	if errors.Is(err, session.ErrAborted) {
		fmt.Fprintln(stderr, err.Error())
		return 0
	}
	fmt.Fprintln(stderr, err.Error())
	return 1
}
