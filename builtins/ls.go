package builtins

import (
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/pi-go/pi/engine"
)

const lsSchema = `{"type":"object","properties":{"path":{"type":"string","description":"Directory to list (the working directory when omitted)"},"limit":{"type":"number","description":"Most entries to return (500 when omitted)"}}}`

// NewLs returns the ls tool.
func NewLs(cwd string) engine.Tool {
	return &tool{info: engine.ToolInfo{
		Name: "ls", Label: "ls", Description: description("ls"),
		Parameters: json.RawMessage(lsSchema), PromptSnippet: "List what a directory contains",
	}, run: func(ctx context.Context, call engine.ToolCall, _ func(engine.ToolResult)) (engine.ToolResult, error) {
		var args struct {
			Path  string   `json:"path"`
			Limit *float64 `json:"limit"`
		}
		if err := decodeArgs(call, &args); err != nil {
			return engine.ToolResult{}, err
		}
		p := args.Path
		if p == "" {
			p = "."
		}
		dir := ResolvePath(p, cwd)
		limit := intLimit(args.Limit, 500)
		st, err := os.Stat(dir)
		if err != nil {
			return engine.ToolResult{}, failf("Path not found: %s", dir)
		}
		if !st.IsDir() {
			return engine.ToolResult{}, failf("Not a directory: %s", dir)
		}
		entries, err := os.ReadDir(dir)
		if err != nil {
			return engine.ToolResult{}, failf("Cannot read directory: %s", nodeError(err, "scandir", dir).Error())
		}
		// Sorted case-insensitively as the reference's ls does; the entries
		// travel with their names so that only symlinks (and entries whose
		// type the directory does not record) need a stat to say whether
		// they lead to a directory.
		keys := make([]string, len(entries))
		for i, e := range entries {
			keys[i] = strings.ToLower(e.Name())
		}
		sort.Stable(byKey{keys, entries})
		var results []string
		limitReached := false
		for _, e := range entries {
			if len(results) >= limit {
				limitReached = true
				break
			}
			n := e.Name()
			isDir := e.IsDir()
			if e.Type()&(fs.ModeSymlink|fs.ModeIrregular) != 0 {
				st, err := os.Stat(filepath.Join(dir, n))
				if err != nil {
					continue
				}
				isDir = st.IsDir()
			}
			if isDir {
				n += "/"
			}
			results = append(results, n)
		}
		if len(results) == 0 {
			return textResult("(empty directory)", nil), nil
		}
		var notices []string
		t := TruncateHead(strings.Join(results, "\n"), TruncateOptions{MaxLines: maxSafeInt})
		var lr, tr any = omit, omit
		if limitReached {
			notices = append(notices, fmt.Sprintf("%d entries limit reached. Use limit=%d for more", limit, limit*2))
			lr = limit
		}
		if t.Truncated {
			notices = append(notices, FormatSize(DefaultMaxBytes)+" limit reached")
			tr = t
		}
		return textResult(withNotices(t.Content, notices), detailsOf("entryLimitReached", lr, "truncation", tr)), nil
	}}
}

// maxSafeInt is Number.MAX_SAFE_INTEGER, the "no line limit" value.
const maxSafeInt = 1<<53 - 1

// byKey sorts directory entries by precomputed keys, so that each name is
// lowercased once rather than at every comparison.
type byKey struct {
	keys    []string
	entries []os.DirEntry
}

func (b byKey) Len() int           { return len(b.keys) }
func (b byKey) Less(i, j int) bool { return b.keys[i] < b.keys[j] }
func (b byKey) Swap(i, j int) {
	b.keys[i], b.keys[j] = b.keys[j], b.keys[i]
	b.entries[i], b.entries[j] = b.entries[j], b.entries[i]
}
