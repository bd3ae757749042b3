package builtins

import (
	"context"
	"errors"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// exitGrace is how long output may keep arriving after the shell exited
// before the pipes are given up: background processes that inherited them
// must not hang the tool for ever. Each chunk re-arms it.
const exitGrace = 100 * time.Millisecond

// maxTimeoutSeconds is the largest timeout a JavaScript timer accepts.
const maxTimeoutSeconds = 2147483.647

// ShellConfig chooses the shell and its environment.
type ShellConfig struct {
	// ShellPath overrides the shell; it must exist.
	ShellPath string
	// CommandPrefix is run before the command, on its own line.
	CommandPrefix string
	// Env is the whole environment; nil means the process environment.
	Env []string
	// PowerShell runs the command with PowerShell instead of bash (the
	// powershell tool); ShellPath and CommandPrefix do not apply then.
	PowerShell bool
}

// shellCmd is a resolved shell: the executable, the arguments before the
// command, and whether the command goes on stdin instead (the legacy WSL
// bash.exe launcher mangles quoting on its command line).
type shellCmd struct {
	path  string
	args  []string
	stdin bool
}

// command builds the process that runs command.
func (c shellCmd) command(command string) *exec.Cmd {
	if c.stdin {
		cmd := exec.Command(c.path, c.args...)
		cmd.Stdin = strings.NewReader(command)
		return cmd
	}
	return exec.Command(c.path, append(append([]string(nil), c.args...), command)...)
}

// resolve picks the shell for cfg.
func (cfg ShellConfig) resolve() (shellCmd, error) {
	if cfg.PowerShell {
		return resolvePowerShell()
	}
	return resolveShell(cfg.ShellPath)
}

// shellName is how error messages name the shell.
func (cfg ShellConfig) shellName() string {
	if cfg.PowerShell {
		return "PowerShell"
	}
	return "bash"
}

// shellExit records that the shell itself exited before a timeout fired.
type shellExit struct {
	code         int
	afterSeconds float64
}

// errShellAborted and shellTimeout are the two ways runShell stops early.
var errShellAborted = errors.New("aborted")

type shellTimeout struct {
	timeout float64
	exit    *shellExit
}

func (e *shellTimeout) Error() string { return fmt.Sprintf("timeout:%s", jsNumber(e.timeout)) }

// validateTimeout checks the timeout argument (seconds).
func validateTimeout(t *float64) error {
	if t == nil {
		return nil
	}
	if math.IsNaN(*t) || math.IsInf(*t, 0) || *t <= 0 {
		return toolError("Invalid timeout: must be a finite number of seconds")
	}
	if *t > maxTimeoutSeconds {
		return toolError("Invalid timeout: maximum is 2147483.647 seconds")
	}
	return nil
}

// runShell runs command with `<shell> -c` in cwd, in its own process group,
// stdin from /dev/null and stdout and stderr merged into one pipe in
// arrival order. onData receives every chunk from a single goroutine. The
// whole group is killed on ctx cancellation or timeout.
func runShell(ctx context.Context, command, cwd string, timeout *float64, cfg ShellConfig, onData func([]byte)) (int, error) {
	if err := validateTimeout(timeout); err != nil {
		return 0, err
	}
	if ctx.Err() != nil {
		return 0, errShellAborted
	}
	shell, err := cfg.resolve()
	if err != nil {
		return 0, toolError(err.Error())
	}
	if _, err := os.Stat(cwd); err != nil {
		return 0, failf("Working directory does not exist: %s\nCannot execute %s commands.", cwd, cfg.shellName())
	}
	if cfg.CommandPrefix != "" && !cfg.PowerShell {
		command = cfg.CommandPrefix + "\n" + command
	}
	if cfg.PowerShell {
		command = powerShellCommand(shell, command)
	}
	r, w, err := os.Pipe()
	if err != nil {
		return 0, fmt.Errorf("bash: pipe: %w", err)
	}
	cmd := shell.command(command)
	cmd.Dir = cwd
	cmd.Env = cfg.Env
	if cmd.Env == nil {
		cmd.Env = shellEnv()
	}
	cmd.Stdout, cmd.Stderr = w, w
	cmd.SysProcAttr = newGroupAttr()
	started := time.Now()
	if err := cmd.Start(); err != nil {
		r.Close()
		w.Close()
		return 0, toolError(err.Error())
	}
	w.Close()
	pid := cmd.Process.Pid

	chunks := make(chan []byte, 16)
	go func() {
		defer close(chunks)
		buf := make([]byte, 64*1024)
		for {
			n, err := r.Read(buf)
			if n > 0 {
				chunks <- append([]byte(nil), buf[:n]...)
			}
			if err != nil {
				return
			}
		}
	}()
	exited := make(chan struct{})
	go func() {
		_ = cmd.Wait()
		close(exited)
	}()

	var deadline <-chan time.Time
	if timeout != nil {
		t := time.NewTimer(time.Duration(*timeout * float64(time.Second)))
		defer t.Stop()
		deadline = t.C
	}
	var grace *time.Timer
	var graceC <-chan time.Time
	var exitAfter time.Duration
	shellDone, pipesDone, timedOut, aborted := false, false, false, false
	var exitBeforeDeadline *time.Duration
	done := ctx.Done()
	for !(shellDone && pipesDone) {
		select {
		case b, ok := <-chunks:
			if !ok {
				pipesDone = true
				chunks = nil
				continue
			}
			onData(b)
			if grace != nil {
				grace.Reset(exitGrace)
			}
		case <-exited:
			shellDone = true
			exited = nil
			exitAfter = time.Since(started)
			if !pipesDone {
				grace = time.NewTimer(exitGrace)
				graceC = grace.C
			}
		case <-graceC:
			// Background processes still hold the pipe: stop waiting.
			r.Close()
			graceC = nil
		case <-deadline:
			timedOut = true
			deadline = nil
			if shellDone {
				d := exitAfter
				exitBeforeDeadline = &d
			}
			killGroup(pid)
		case <-done:
			aborted = true
			done = nil
			killGroup(pid)
		}
	}
	if grace != nil {
		grace.Stop()
	}
	r.Close()
	if aborted || ctx.Err() != nil {
		return 0, errShellAborted
	}
	code := exitCodeOf(cmd.ProcessState)
	if timedOut {
		te := &shellTimeout{timeout: *timeout}
		if exitBeforeDeadline != nil {
			te.exit = &shellExit{code: code, afterSeconds: math.Round(float64(*exitBeforeDeadline/time.Millisecond)/100) / 10}
		}
		return 0, te
	}
	return code, nil
}

// exitCodeOf maps a signal death to 128+signo, as shells report it.
func exitCodeOf(ps *os.ProcessState) int {
	if ps == nil {
		return 1
	}
	if ws, ok := ps.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		return 128 + int(ws.Signal())
	}
	return ps.ExitCode()
}

// BinDir is prepended to PATH for spawned shells (the reference puts
// <agentDir>/bin there). Set it once at start-up.
var BinDir string

// shellEnv is the process environment with BinDir first on PATH.
func shellEnv() []string {
	env := os.Environ()
	if BinDir == "" {
		return env
	}
	for i, kv := range env {
		if k, v, ok := strings.Cut(kv, "="); ok && strings.EqualFold(k, "PATH") {
			for _, p := range filepath.SplitList(v) {
				if p == BinDir {
					return env
				}
			}
			if v == "" {
				env[i] = k + "=" + BinDir
			} else {
				env[i] = k + "=" + BinDir + string(os.PathListSeparator) + v
			}
			return env
		}
	}
	return append(env, "PATH="+BinDir)
}

// jsNumber formats a float the way JavaScript's String(number) does for
// ordinary values: integers without a fraction.
func jsNumber(f float64) string {
	if f == math.Trunc(f) && math.Abs(f) < 1e21 {
		return fmt.Sprintf("%d", int64(f))
	}
	return strconv.FormatFloat(f, 'f', -1, 64)
}

// powerShellCommand makes Windows PowerShell 5 exit with the command's
// status: its -Command exits 1 after a native command that wrote to stderr
// even when that command succeeded. pwsh does not need it, and a command
// ending in a backtick (a line continuation) must not get it.
func powerShellCommand(sh shellCmd, command string) string {
	if !strings.EqualFold(baseName(sh.path), "powershell.exe") || strings.HasSuffix(command, "`") {
		return command
	}
	return command + "\n;\n" +
		"if ($?) { exit 0 }\n" +
		`if ($LASTEXITCODE -eq 0 -and "$($Error[0].FullyQualifiedErrorId)" -like "NativeCommandError*") { exit 0 }` + "\n" +
		"exit 1"
}

// baseName is the last element of a path with either separator, so a
// Windows path reads the same on every platform.
func baseName(p string) string {
	if i := strings.LastIndexAny(p, `\/`); i >= 0 {
		return p[i+1:]
	}
	return p
}
