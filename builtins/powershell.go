package builtins

import (
	"context"
	"encoding/json"

	"github.com/pi-go/pi/engine"
)

// NewPowerShell returns the powershell tool with default options.
func NewPowerShell(cwd string) engine.Tool {
	return NewPowerShellWithOptions(cwd, BashOptions{SessionEnv: func() map[string]string { return nil }})
}

// NewPowerShellWithOptions returns the powershell tool: the bash tool's
// arguments, streaming and truncation, run by PowerShell (docs/windows.md).
// Like the reference's, it is listed on every platform and answers
// "only available on Windows" elsewhere; Shell.ShellPath and
// Shell.CommandPrefix are bash settings and do not apply.
func NewPowerShellWithOptions(cwd string, opts BashOptions) engine.Tool {
	opts.Shell.PowerShell = true
	opts.Shell.ShellPath, opts.Shell.CommandPrefix = "", ""
	info := engine.ToolInfo{
		Name:          "powershell",
		Label:         "powershell",
		Description:   description("powershell"),
		Parameters:    json.RawMessage(bashSchema),
		PromptSnippet: "Run PowerShell commands",
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
