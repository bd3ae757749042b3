package builtins

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"

	"github.com/pi-go/pi/engine"
)

const writeSchema = `{"type":"object","required":["path","content"],"properties":{"path":{"type":"string","description":"File to write, absolute or relative to the working directory"},"content":{"type":"string","description":"The complete new contents of the file"}}}`

// NewWrite returns the write tool.
func NewWrite(cwd string) engine.Tool {
	return &tool{info: engine.ToolInfo{
		Name:             "write",
		Label:            "write",
		Description:      description("write"),
		Parameters:       json.RawMessage(writeSchema),
		PromptSnippet:    "Create files or replace them entirely",
		PromptGuidelines: []string{"Reserve write for new files or full rewrites."},
	}, run: func(ctx context.Context, call engine.ToolCall, _ func(engine.ToolResult)) (engine.ToolResult, error) {
		var args struct {
			Path    string `json:"path"`
			Content string `json:"content"`
		}
		if err := decodeArgs(call, &args); err != nil {
			return engine.ToolResult{}, err
		}
		abs := ResolvePath(args.Path, cwd)
		err := WithFileMutationQueue(abs, func() error {
			if ctx.Err() != nil {
				return errAborted
			}
			if err := os.MkdirAll(filepath.Dir(abs), 0o777); err != nil {
				return nodeError(err, "mkdir", filepath.Dir(abs))
			}
			if err := os.WriteFile(abs, []byte(args.Content), 0o666); err != nil {
				return nodeError(err, "open", abs)
			}
			return nil
		})
		if err != nil {
			return engine.ToolResult{}, err
		}
		return textResult("Successfully wrote to "+args.Path, nil), nil
	}}
}
