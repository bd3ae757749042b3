package builtins

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strings"
	"sync"
	"time"

	"github.com/pi-go/pi/engine"
)

// updateThrottle is the minimum gap between two streamed bash updates.
const updateThrottle = 100 * time.Millisecond

const bashSchema = `{"type":"object","required":["command"],"properties":{"command":{"type":"string","description":"The shell command to run"},"timeout":{"type":"number","description":"Seconds after which the command is killed (optional; by default there is no limit)"}}}`

// BashOptions configures the bash tool.
type BashOptions struct {
	Shell ShellConfig
	// SessionEnv returns the PI_* variables of the current session
	// (PI_SESSION_ID, PI_SESSION_FILE, PI_PROVIDER, PI_MODEL,
	// PI_REASONING_LEVEL), resolved at each spawn. Nil exposes none and
	// drops the prompt guideline that mentions them.
	SessionEnv func() map[string]string
}

// NewBash returns the bash tool with default options.
func NewBash(cwd string) engine.Tool {
	return NewBashWithOptions(cwd, BashOptions{SessionEnv: func() map[string]string { return nil }})
}

// NewBashWithOptions returns the bash tool.
func NewBashWithOptions(cwd string, opts BashOptions) engine.Tool {
	info := engine.ToolInfo{
		Name:          "bash",
		Label:         "bash",
		Description:   description("bash"),
		Parameters:    json.RawMessage(bashSchema),
		PromptSnippet: "Run shell commands (ls, grep, find and the like)",
	}
	if opts.SessionEnv != nil {
		info.PromptGuidelines = []string{"The PI_* environment variables tell you the current model and session."}
	}
	return &tool{info: info, run: func(ctx context.Context, call engine.ToolCall, onUpdate func(engine.ToolResult)) (engine.ToolResult, error) {
		var args struct {
			Command string   `json:"command"`
			Timeout *float64 `json:"timeout"`
		}
		if err := decodeArgs(call, &args); err != nil {
			return engine.ToolResult{}, err
		}
		return runBashTool(ctx, cwd, args.Command, args.Timeout, opts, onUpdate)
	}}
}

// sessionShellEnv is the environment of one spawn: the shell environment
// without inherited PI_* session variables, plus the current ones.
func sessionShellEnv(base []string, vars map[string]string) []string {
	if base == nil {
		base = shellEnv()
	}
	drop := map[string]bool{"PI_SESSION_ID": true, "PI_SESSION_FILE": true, "PI_PROVIDER": true, "PI_MODEL": true, "PI_REASONING_LEVEL": true}
	env := make([]string, 0, len(base)+len(vars))
	for _, kv := range base {
		k, _, _ := strings.Cut(kv, "=")
		if !drop[k] {
			env = append(env, kv)
		}
	}
	for _, k := range []string{"PI_SESSION_ID", "PI_SESSION_FILE", "PI_PROVIDER", "PI_MODEL", "PI_REASONING_LEVEL"} {
		if v, ok := vars[k]; ok && v != "" {
			env = append(env, k+"="+v)
		}
	}
	return env
}

func runBashTool(ctx context.Context, cwd, command string, timeout *float64, opts BashOptions, onUpdate func(engine.ToolResult)) (engine.ToolResult, error) {
	cfg := opts.Shell
	if opts.SessionEnv != nil {
		cfg.Env = sessionShellEnv(cfg.Env, opts.SessionEnv())
	}
	prefix := "pi-bash"
	if cfg.PowerShell {
		prefix = "pi-powershell"
	}
	acc := newOutputAccumulator(prefix)

	// Updates are cumulative snapshots, at most one per updateThrottle,
	// with a final flush. The throttle timer and the reader goroutine both
	// emit, so the accumulator is guarded.
	var mu sync.Mutex
	var lastUpdate time.Time
	var timer *time.Timer
	dirty, accepting := false, true
	emitLocked := func() {
		if !dirty || !accepting {
			return
		}
		dirty = false
		lastUpdate = time.Now()
		t, path := acc.snapshot(true)
		var trunc any = omit
		if t.Truncated {
			trunc = t
		}
		var fp any = omit
		if path != "" {
			fp = path
		}
		onUpdate(engine.ToolResult{Content: []engine.Content{engine.TextContent(t.Content)},
			Details: mustJSON("truncation", trunc, "fullOutputPath", fp)})
	}
	onUpdate(engine.ToolResult{Content: []engine.Content{}})
	onData := func(b []byte) {
		mu.Lock()
		defer mu.Unlock()
		acc.append(b)
		dirty = true
		delay := updateThrottle - time.Since(lastUpdate)
		if delay <= 0 {
			if timer != nil {
				timer.Stop()
				timer = nil
			}
			emitLocked()
			return
		}
		if timer == nil {
			timer = time.AfterFunc(delay, func() {
				mu.Lock()
				defer mu.Unlock()
				timer = nil
				emitLocked()
			})
		}
	}
	finish := func() (Truncation, string) {
		mu.Lock()
		defer mu.Unlock()
		acc.finish()
		if timer != nil {
			timer.Stop()
			timer = nil
		}
		emitLocked()
		accepting = false
		t, path := acc.snapshot(true)
		_ = acc.closeTempFile()
		return t, path
	}
	format := func(t Truncation, path, empty string) (string, json.RawMessage) {
		text := t.Content
		if text == "" {
			text = empty
		}
		if !t.Truncated {
			return text, nil
		}
		var fp any = omit
		if path != "" {
			fp = path
		}
		details := mustJSON("truncation", t, "fullOutputPath", fp)
		start := t.TotalLines - t.OutputLines + 1
		end := t.TotalLines
		switch {
		case t.LastLinePartial:
			text += fmt.Sprintf("\n\n[Showing last %s of line %d (line is %s). Full output: %s]", FormatSize(t.OutputBytes), end, FormatSize(acc.currentLineBytes), path)
		case t.TruncatedBy == "lines":
			text += fmt.Sprintf("\n\n[Showing lines %d-%d of %d. Full output: %s]", start, end, t.TotalLines, path)
		default:
			text += fmt.Sprintf("\n\n[Showing lines %d-%d of %d (%s limit). Full output: %s]", start, end, t.TotalLines, FormatSize(DefaultMaxBytes), path)
		}
		return text, details
	}
	appendStatus := func(text, status string) string {
		if text == "" {
			return status
		}
		return text + "\n\n" + status
	}

	started := time.Now()
	code, err := runShell(ctx, command, cwd, timeout, cfg, onData)
	if err != nil {
		t, path := finish()
		text, _ := format(t, path, "")
		var te *shellTimeout
		switch {
		case errors.Is(err, errShellAborted):
			return engine.ToolResult{}, toolError(appendStatus(text, "Command aborted"))
		case errors.As(err, &te):
			status := fmt.Sprintf("Command timed out after %s seconds", jsNumber(te.timeout))
			if te.exit != nil {
				status += fmt.Sprintf(". The shell exited with code %d after %s seconds, but background processes it started kept writing output until the timeout.", te.exit.code, jsNumber(te.exit.afterSeconds))
			}
			return engine.ToolResult{}, toolError(appendStatus(text, status))
		}
		return engine.ToolResult{}, err
	}
	t, path := finish()
	text, details := format(t, path, "(no output)")
	wall := math.Round(float64(time.Since(started)/time.Millisecond)/100) / 10
	full, fullTruncated, err := acc.fullOutput(structuredOutputMaxBytes)
	if err != nil {
		return engine.ToolResult{}, err
	}
	var fp any = omit
	if fullTruncated && path != "" {
		fp = path
	}
	structured := mustJSON("output", full, "truncated", fullTruncated, "full_output_path", fp,
		"exit_code", code, "wall_time_seconds", json.RawMessage(jsNumber(wall)))
	res := engine.ToolResult{Details: details, StructuredContent: structured}
	if code != 0 {
		res.Content = []engine.Content{engine.TextContent(appendStatus(text, fmt.Sprintf("Command exited with code %d", code)))}
		res.IsError = true
		return res, nil
	}
	res.Content = []engine.Content{engine.TextContent(text)}
	return res, nil
}
