package builtins

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"strings"
	"syscall"
	"unicode/utf8"

	"github.com/pi-go/pi/engine"
	"github.com/pi-go/pi/internal/imagetype"
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
	if err := access(abs, 4 /* R_OK */); err != nil {
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
	if mime := imagetype.Sniff(head[:n]); mime != "" {
		data, err := os.ReadFile(abs)
		if err != nil {
			return engine.ToolResult{}, nodeError(err, "read", "")
		}
		return readImage(data, mime, opts), nil
	}
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return engine.ToolResult{}, fmt.Errorf("read: %w", err)
	}
	sel, err := scanLines(ctx, f, readStart(offset), limit)
	if err != nil {
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
			return engine.ToolResult{}, errAborted
		}
		return engine.ToolResult{}, nodeError(err, "read", "")
	}
	if ctx.Err() != nil {
		return engine.ToolResult{}, errAborted
	}
	return sel.result(path, offset, limit)
}

// readChunk is how much of a file read holds at a time.
const readChunk = 64 * 1024

func readStart(offset *float64) int {
	if offset != nil && *offset != 0 {
		return max(0, int(*offset)-1)
	}
	return 0
}

// selection is what read needs of a file, gathered in one streaming pass
// whatever the file's size: the line count, the selected lines' sizes,
// and only the first DefaultMaxBytes+1 bytes of the selected text, which
// is all that the head truncation can show.
type selection struct {
	start, limit int // limit < 0: to the end
	total        int // lines in the file (newlines + 1)
	selected     int // lines selected
	selBytes     int // bytes of the selected lines joined with newlines
	firstLen     int // bytes of the first selected line
	lastEmpty    bool
	prefix       []byte // the selected text's first DefaultMaxBytes+1 bytes
	cur          int    // bytes of the line being read
	open         bool   // the line being read is started in the prefix
}

// scanLines reads r to the end, decoding it as decodeWhole does (each
// invalid byte becomes U+FFFD), and gathers the selection of lines
// [start, start+limit).
func scanLines(ctx context.Context, r io.Reader, start int, limit *float64) (*selection, error) {
	return scanLinesChunked(ctx, r, start, limit, readChunk)
}

func scanLinesChunked(ctx context.Context, r io.Reader, start int, limit *float64, chunkSize int) (*selection, error) {
	sel := &selection{start: start, limit: -1, total: 1}
	if limit != nil {
		sel.limit = max(0, int(*limit))
	}
	buf := make([]byte, chunkSize)
	dec := &outputAccumulator{}
	for {
		n, err := r.Read(buf)
		if n > 0 {
			chunk := buf[:n]
			// Valid chunks (nearly all) are used in place; a chunk with
			// invalid bytes or a character cut at its edge goes through
			// the same decoder as decodeWhole, carrying the cut bytes over.
			if dec.pending != nil || !utf8.Valid(chunk) {
				chunk = []byte(dec.decode(chunk, false))
			}
			sel.add(chunk)
		}
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
	}
	if dec.pending != nil {
		sel.add([]byte(dec.decode(nil, true)))
	}
	sel.endLine()
	return sel, nil
}

// inSelection reports whether line i (0-based) is selected.
func (s *selection) inSelection(i int) bool {
	return i >= s.start && (s.limit < 0 || i < s.start+s.limit)
}

// add feeds decoded text.
func (s *selection) add(text []byte) {
	for len(text) > 0 {
		i := bytes.IndexByte(text, '\n')
		part := text
		if i >= 0 {
			part = text[:i]
		}
		if s.inSelection(s.total - 1) {
			s.openLine()
			s.keep(part)
		}
		s.cur += len(part)
		if i < 0 {
			return
		}
		s.endLine()
		s.total++
		text = text[i+1:]
	}
}

// keep appends selected text to the bounded prefix.
func (s *selection) keep(b []byte) {
	if room := DefaultMaxBytes + 1 - len(s.prefix); room > 0 {
		s.prefix = append(s.prefix, b[:min(len(b), room)]...)
	}
}

// openLine starts a selected line in the prefix: after the first one,
// with the newline that joins it to the previous one.
func (s *selection) openLine() {
	if !s.open {
		if s.selected > 0 {
			s.keep([]byte{'\n'})
		}
		s.open = true
	}
}

// endLine closes the current line (called for each newline and at the end).
func (s *selection) endLine() {
	if s.inSelection(s.total - 1) {
		s.openLine()
		if s.selected == 0 {
			s.firstLen = s.cur
		} else {
			s.selBytes++ // the joining newline
		}
		s.selBytes += s.cur
		s.selected++
		s.lastEmpty = s.cur == 0
	}
	s.cur, s.open = 0, false
}

// truncation is TruncateHead of the selected text, computed from the
// bounded prefix and the real sizes.
func (s *selection) truncation() Truncation {
	maxLines, maxBytes := TruncateOptions{}.limits()
	count := s.selected
	if count > 0 && s.lastEmpty {
		count-- // splitLinesForCounting drops a trailing empty line
	}
	prefix := s.prefix
	if count <= maxLines && s.selBytes <= maxBytes {
		return untruncated(string(prefix), count, maxLines, maxBytes)
	}
	t := Truncation{Truncated: true, TotalLines: count, TotalBytes: s.selBytes, MaxLines: maxLines, MaxBytes: maxBytes}
	if s.firstLen > maxBytes {
		t.TruncatedBy = "bytes"
		t.FirstLineExceedsLimit = true
		return t
	}
	// Every line the loop below can take is whole in the prefix: it holds
	// one byte more than the limit, so a line cut at its end never fits.
	lines := strings.Split(string(prefix), "\n")
	if len(prefix) == s.selBytes && s.lastEmpty && len(lines) > 1 {
		lines = lines[:len(lines)-1]
	}
	return keepHead(t, lines, maxLines, maxBytes)
}

// readText selects lines of already decoded content; read itself streams
// the file through scanLines.
func readText(content, path string, offset, limit *float64) (engine.ToolResult, error) {
	sel, err := scanLines(context.Background(), strings.NewReader(content), readStart(offset), limit)
	if err != nil {
		return engine.ToolResult{}, err
	}
	return sel.result(path, offset, limit)
}

// result renders the selection with the head truncation and the
// continuation notices.
func (s *selection) result(path string, offset, limit *float64) (engine.ToolResult, error) {
	start, total := s.start, s.total
	if start >= total {
		return engine.ToolResult{}, failf("Offset %s is beyond end of file (%d lines total)", jsNumber(*offset), total)
	}
	end := total
	if limit != nil {
		end = min(start+max(0, int(*limit)), total)
	}
	t := s.truncation()
	// The reference streams the file and describes the selected region
	// itself in the record: its bytes up to (not including) the newline
	// that ends the selection, and its line count without an empty last
	// line.
	t.TotalBytes = s.selBytes
	if s.selBytes == 0 {
		t.TotalLines = 0
	} else {
		t.TotalLines = s.selected
		if s.lastEmpty {
			t.TotalLines--
		}
	}
	startDisplay := start + 1
	var text string
	var details json.RawMessage
	switch {
	case t.FirstLineExceedsLimit:
		text = fmt.Sprintf("[Line %d is %s, exceeds %s limit. Use bash: sed -n '%dp' %s | head -c %d]",
			startDisplay, FormatSize(s.firstLen), FormatSize(DefaultMaxBytes), startDisplay, path, DefaultMaxBytes)
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
