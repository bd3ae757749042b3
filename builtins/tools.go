package builtins

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/pi-go/pi/engine"
)

// DefaultNames are the tools enabled when the user picks none.
var DefaultNames = []string{"read", "bash", "edit", "write"}

// AllNames are every built-in tool, in the reference's order.
var AllNames = []string{"read", "bash", "powershell", "edit", "write", "grep", "find", "ls"}

// New returns the built-in tool called name, bound to cwd.
func New(name, cwd string) (engine.Tool, bool) {
	switch name {
	case "read":
		return NewRead(cwd), true
	case "bash":
		return NewBash(cwd), true
	case "powershell":
		return NewPowerShell(cwd), true
	case "edit":
		return NewEdit(cwd), true
	case "write":
		return NewWrite(cwd), true
	case "grep":
		return NewGrep(cwd), true
	case "find":
		return NewFind(cwd), true
	case "ls":
		return NewLs(cwd), true
	}
	return nil, false
}

// runFunc executes one call. A returned toolError becomes an error result
// the model sees; any other error means the host failed.
type runFunc func(ctx context.Context, call engine.ToolCall, onUpdate func(engine.ToolResult)) (engine.ToolResult, error)

// tool is the shared engine.Tool implementation: static info plus a run
// function.
type tool struct {
	info engine.ToolInfo
	run  runFunc
}

func (t *tool) Info() engine.ToolInfo { return t.info }

func (t *tool) Execute(ctx context.Context, call engine.ToolCall, onUpdate func(engine.ToolResult)) (engine.ToolResult, error) {
	if onUpdate == nil {
		onUpdate = func(engine.ToolResult) {}
	}
	res, err := t.run(ctx, call, onUpdate)
	if err != nil {
		if te, ok := err.(toolError); ok {
			return engine.ErrorResult(string(te)), nil
		}
		return engine.ToolResult{}, err
	}
	return res, nil
}

// toolError is a failure whose message is the tool-result text, the way
// the reference's tools throw Error(message).
type toolError string

func (e toolError) Error() string { return string(e) }

func failf(format string, args ...any) error { return toolError(fmt.Sprintf(format, args...)) }

// errAborted is the text of a tool stopped by the abort signal.
const errAborted = toolError("Operation aborted")

// decodeArgs unmarshals the call's arguments into v.
func decodeArgs(call engine.ToolCall, v any) error {
	if len(call.Args) == 0 {
		return nil
	}
	if err := json.Unmarshal(call.Args, v); err != nil {
		return failf("Invalid arguments for tool %q: %s", call.Name, err.Error())
	}
	return nil
}

// textResult is a successful result with one text block.
func textResult(text string, details json.RawMessage) engine.ToolResult {
	return engine.ToolResult{Content: []engine.Content{engine.TextContent(text)}, Details: details}
}

// notices appends "\n\n[a. b]" when there are notices.
func withNotices(text string, notices []string) string {
	if len(notices) == 0 {
		return text
	}
	return text + "\n\n[" + strings.Join(notices, ". ") + "]"
}

// detailsOf builds a details object from ordered pairs, or nil (no
// details key) when every value is omitted.
func detailsOf(kv ...any) json.RawMessage {
	any := false
	for i := 1; i < len(kv); i += 2 {
		if _, o := kv[i].(omitted); !o {
			any = true
		}
	}
	if !any {
		return nil
	}
	return mustJSON(kv...)
}

// intLimit applies Math.max(1, Math.floor(limit ?? def)).
func intLimit(limit *float64, def int) int {
	if limit == nil {
		return def
	}
	n := int(floor(*limit))
	if n < 1 {
		return 1
	}
	return n
}
