package builtins

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"strings"
	"syscall"

	"github.com/pi-go/pi/engine"
)

const readSchema = `{"type":"object","required":["path"],"properties":{"path":{"type":"string","description":"File to read, absolute or relative to the working directory"},"offset":{"type":"number","description":"First line to return, counting from 1"},"limit":{"type":"number","description":"How many lines to return at most"}}}`

// ReadOptions configures the read tool.
type ReadOptions struct {
	// NoAutoResize turns off shrinking large images (images.autoResize).
	NoAutoResize bool
	// ModelSupportsImages, when set, reports whether the current model
	// accepts images and its id; results for models without image input
	// carry details.imageUnsupportedByModel.
	ModelSupportsImages func() (id string, ok bool)
}

// NewRead returns the read tool.
func NewRead(cwd string) engine.Tool { return NewReadWithOptions(cwd, ReadOptions{}) }

// NewReadWithOptions returns the read tool with options.
func NewReadWithOptions(cwd string, opts ReadOptions) engine.Tool {
	return &tool{info: engine.ToolInfo{
		Name:             "read",
		Label:            "read",
		Description:      description("read"),
		Parameters:       json.RawMessage(readSchema),
		PromptSnippet:    "Show what a file contains",
		PromptGuidelines: []string{"Look at files with read, not with cat or sed."},
	}, run: func(ctx context.Context, call engine.ToolCall, _ func(engine.ToolResult)) (engine.ToolResult, error) {
		var args struct {
			Path   string   `json:"path"`
			Offset *float64 `json:"offset"`
			Limit  *float64 `json:"limit"`
		}
		if err := decodeArgs(call, &args); err != nil {
			return engine.ToolResult{}, err
		}
		if ctx.Err() != nil {
			return engine.ToolResult{}, errAborted
		}
		res, err := readFile(ctx, cwd, args.Path, args.Offset, args.Limit, opts)
		if err != nil {
			return res, err
		}
		res.StructuredContent = readStructured(res.Content)
		return res, nil
	}}
}

// readStructured is the result for programmatic callers: the text, or the
// image with its note.
func readStructured(content []engine.Content) json.RawMessage {
	text := ""
	var img *engine.Content
	for i := range content {
		if content[i].Type == engine.ContentText && text == "" {
			text = content[i].Text
		}
		if content[i].Type == engine.ContentImage && img == nil {
			img = &content[i]
		}
	}
	if img != nil {
		return mustJSON("type", "image", "data", img.Data, "mimeType", img.MimeType, "note", text)
	}
	b, _ := engine.MarshalJSON(text)
	return b
}

// nodeError renders an OS error the way Node's fs does:
// "ENOENT: no such file or directory, access '/abs/path'".
func nodeError(err error, syscallName, path string) error {
	var errno syscall.Errno
	if !errors.As(err, &errno) {
		return toolError(err.Error())
	}
	code, msg := errnoName(errno)
	if path == "" {
		return failf("%s: %s, %s", code, msg, syscallName)
	}
	return failf("%s: %s, %s '%s'", code, msg, syscallName, path)
}

func errnoName(e syscall.Errno) (string, string) {
	switch e {
	case syscall.ENOENT:
		return "ENOENT", "no such file or directory"
	case syscall.EACCES:
		return "EACCES", "permission denied"
	case syscall.EISDIR:
		return "EISDIR", "illegal operation on a directory"
	case syscall.ENOTDIR:
		return "ENOTDIR", "not a directory"
	case syscall.EPERM:
		return "EPERM", "operation not permitted"
	case syscall.ELOOP:
		return "ELOOP", "too many symbolic links encountered"
	case syscall.ENAMETOOLONG:
		return "ENAMETOOLONG", "name too long"
	}
	return "E" + strings.ToUpper(strings.ReplaceAll(e.Error(), " ", "")), e.Error()
}

func readFile(ctx context.Context, cwd, path string, offset, limit *float64, opts ReadOptions) (engine.ToolResult, error) {
	abs := resolveReadPath(path, cwd)
	if err := syscall.Access(abs, 4 /* R_OK */); err != nil {
		return engine.ToolResult{}, nodeError(err, "access", abs)
	}
	f, err := os.Open(abs)
	if err != nil {
		return engine.ToolResult{}, nodeError(err, "open", abs)
	}
	defer f.Close()
	head := make([]byte, 4100)
	n, err := io.ReadFull(f, head)
	if err != nil && !errors.Is(err, io.ErrUnexpectedEOF) && !errors.Is(err, io.EOF) {
		return engine.ToolResult{}, nodeError(err, "read", "")
	}
	if mime := sniffImage(head[:n]); mime != "" {
		data, err := os.ReadFile(abs)
		if err != nil {
			return engine.ToolResult{}, nodeError(err, "read", "")
		}
		return readImage(data, mime, opts), nil
	}
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return engine.ToolResult{}, fmt.Errorf("read: %w", err)
	}
	data, err := io.ReadAll(f)
	if err != nil {
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		return engine.ToolResult{}, nodeError(err, "read", "")
	}
	if ctx.Err() != nil {
		return engine.ToolResult{}, errAborted
	}
	return readText(decodeWhole(data), path, offset, limit)
}

// readText selects lines [start, start+limit) of content and applies the
// head truncation and continuation notices.
func readText(content, path string, offset, limit *float64) (engine.ToolResult, error) {
	start := 0
	if offset != nil && *offset != 0 {
		start = max(0, int(*offset)-1)
	}
	lines := strings.Split(content, "\n")
	total := len(lines)
	if start >= total {
		return engine.ToolResult{}, failf("Offset %s is beyond end of file (%d lines total)", jsNumber(*offset), total)
	}
	end := total
	if limit != nil {
		end = min(start+max(0, int(*limit)), total)
	}
	selected := lines[start:end]
	t := TruncateHead(strings.Join(selected, "\n"), TruncateOptions{})
	// The reference streams the file and describes the selected region
	// itself in the record: its bytes up to (not including) the newline
	// that ends the selection, and its line count without an empty last
	// line.
	selBytes := 0
	for i, l := range selected {
		selBytes += len(l)
		if i > 0 {
			selBytes++
		}
	}
	t.TotalBytes = selBytes
	if selBytes == 0 {
		t.TotalLines = 0
	} else {
		t.TotalLines = len(selected)
		if selected[len(selected)-1] == "" {
			t.TotalLines--
		}
	}
	startDisplay := start + 1
	var text string
	var details json.RawMessage
	switch {
	case t.FirstLineExceedsLimit:
		text = fmt.Sprintf("[Line %d is %s, exceeds %s limit. Use bash: sed -n '%dp' %s | head -c %d]",
			startDisplay, FormatSize(len(selected[0])), FormatSize(DefaultMaxBytes), startDisplay, path, DefaultMaxBytes)
		details = mustJSON("truncation", t)
	case t.Truncated:
		endDisplay := startDisplay + t.OutputLines - 1
		text = t.Content
		if t.TruncatedBy == "lines" {
			text += fmt.Sprintf("\n\n[Showing lines %d-%d of %d. Use offset=%d to continue.]", startDisplay, endDisplay, total, endDisplay+1)
		} else {
			text += fmt.Sprintf("\n\n[Showing lines %d-%d of %d (%s limit). Use offset=%d to continue.]", startDisplay, endDisplay, total, FormatSize(DefaultMaxBytes), endDisplay+1)
		}
		details = mustJSON("truncation", t)
	case limit != nil && end < total:
		text = fmt.Sprintf("%s\n\n[%d more lines in file. Use offset=%d to continue.]", t.Content, total-end, end+1)
	default:
		text = t.Content
	}
	return textResult(text, details), nil
}
