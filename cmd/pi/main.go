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

	"github.com/pi-go/pi/engine/rpc"
	"github.com/pi-go/pi/engine/session"
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
	startTrace.step("main")
	stderr := io.Writer(os.Stderr)
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
		fmt.Fprintln(stderr, "Error: --export is not supported by this build")
		return 1
	}
	mode := ResolveMode(a, isTerminal(os.Stdin), isTerminal(os.Stdout))
	// Help and --list-models without an explicit mode print plain text.
	metadataOnly := !a.Print && a.Mode == "" && (a.Help || a.ListModels != nil)
	if a.Help {
		fmt.Print(helpText)
		return 0
	}
	if mode == ModeInteractive && !metadataOnly {
		fmt.Fprintln(stderr, "Error: interactive mode is not available in this build; use -p, --mode json or --mode rpc (or pipe input)")
		return 1
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
		memDone = startMemory(true)
		jsruntime.Prewarm()
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	startTrace.step("args")
	app, err := Wire(ctx, a, mode, stderr)
	if err != nil {
		return reportStartupError(stderr, err)
	}
	defer app.Close()
	// Extensions load before the model list and the model choice: the
	// providers they register take part in both.
	if err := app.loadExtensions(ctx); err != nil {
		if errors.Is(err, errLoadFailed) {
			return 1
		}
		return reportStartupError(stderr, err)
	}
	startTrace.step("extensions")
	if a.ListModels != nil {
		if err := app.flushProviders(); err != nil {
			return reportStartupError(stderr, err)
		}
		fmt.Fprint(stdout, app.ListModels(*a.ListModels))
		return 0
	}
	// Flags given wrongly or claimed by no extension end the run before
	// any session starts, so no session_shutdown follows, as in the
	// reference, where they are startup diagnostics.
	if len(a.FlagErrors) > 0 || len(a.UnknownFlags) > 0 {
		for _, m := range a.FlagErrors {
			fmt.Fprintln(stderr, "Error: "+m)
		}
		if n := len(a.UnknownFlags); n > 0 {
			names := make([]string, n)
			for i, f := range a.UnknownFlags {
				names[i] = "--" + f.Name
			}
			plural := ""
			if n > 1 {
				plural = "s"
			}
			fmt.Fprintf(stderr, "Error: Unknown option%s: %s\n", plural, strings.Join(names, ", "))
		}
		return 1
	}
	defer app.ext.shutdown()
	if err := app.resolveModel(); err != nil {
		return reportStartupError(stderr, err)
	}
	memDone()
	if mode == ModeRPC {
		app.ext.onStop(cancel)
		// Batched: a streamed reply goes out in one write per burst of
		// events instead of one per delta; flushed before the exit code.
		out := rpc.NewBatchedWriter(stdout)
		code := make(chan int, 1)
		go func() {
			c := runRPC(ctx, app, os.Stdin, out)
			// session_shutdown handlers may still write (ctx.ui calls);
			// they run before the last flush.
			app.ext.shutdown()
			_ = out.Flush()
			code <- c
		}()
		return waitWithSignals(code, app, out.Flush)
	}

	stdin := ""
	if !isTerminal(os.Stdin) {
		s, err := ReadPipedStdin(os.Stdin)
		if err != nil {
			fmt.Fprintln(stderr, "Error:", err)
			return 1
		}
		stdin = s
	}
	fileText, images, err := ProcessFileArgs(app.Cwd(), a.FileArgs)
	if err != nil {
		fmt.Fprintln(stderr, err.Error())
		return 1
	}
	initial, rest := BuildInitialMessage(stdin, fileText, images, a.Messages)

	runner, err := app.Runner()
	if err != nil {
		return reportStartupError(stderr, err)
	}
	code := make(chan int, 1)
	go func() {
		code <- RunPrint(ctx, runner, PrintOptions{JSON: mode == ModeJSON, Initial: initial, Rest: rest}, rpc.NewWriter(stdout), stdout, stderr)
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
func waitWithSignals(code <-chan int, app *App, flush func() error) int {
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
