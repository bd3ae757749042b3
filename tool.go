package pi

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/pi-go/pi/engine"
)

// NewTool makes a Go function a tool the model can call. parameters is
// the JSON Schema of the arguments (its key order reaches the model as
// written); each call's validated arguments are decoded into a T. The
// text fn returns is the result the model sees; an error becomes an error
// result with the error's text, as a thrown error does for an extension
// tool.
func NewTool[T any](name, description string, parameters string, fn func(ctx context.Context, args T) (string, error)) engine.Tool {
	return &funcTool[T]{
		info: engine.ToolInfo{Name: name, Label: name, Description: description, Parameters: json.RawMessage(parameters),
			PromptSnippet: description},
		fn: fn,
	}
}

type funcTool[T any] struct {
	info engine.ToolInfo
	fn   func(ctx context.Context, args T) (string, error)
}

func (t *funcTool[T]) Info() engine.ToolInfo { return t.info }

func (t *funcTool[T]) Execute(ctx context.Context, call engine.ToolCall, _ func(engine.ToolResult)) (engine.ToolResult, error) {
	var args T
	if len(call.Args) > 0 {
		if err := json.Unmarshal(call.Args, &args); err != nil {
			return engine.ErrorResult(fmt.Sprintf("invalid arguments for %s: %v", t.info.Name, err)), nil
		}
	}
	text, err := t.fn(ctx, args)
	if err != nil {
		return engine.ErrorResult(err.Error()), nil
	}
	return engine.ToolResult{Content: []engine.Content{engine.TextContent(text)}}, nil
}
