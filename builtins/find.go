package builtins

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path"
	"strings"

	"github.com/pi-go/pi/engine"
)

const findSchema = `{"type":"object","required":["pattern"],"properties":{"pattern":{"type":"string","description":"Glob relative to the search directory, such as 'src/**/*.ts'; a pattern without '/', such as '*.ts', matches file names in every subdirectory"},"path":{"type":"string","description":"Directory to search (the working directory when omitted)"},"limit":{"type":"number","description":"Most results to return (1000 when omitted)"}}}`

// NewFind returns the find tool. It walks the tree itself (hidden files
// included, .gitignore respected) instead of running fd.
func NewFind(cwd string) engine.Tool {
	return &tool{info: engine.ToolInfo{
		Name: "find", Label: "find", Description: description("find"),
		Parameters: json.RawMessage(findSchema), PromptSnippet: "Locate files by glob pattern (skips .gitignore'd files)",
	}, run: func(ctx context.Context, call engine.ToolCall, _ func(engine.ToolResult)) (engine.ToolResult, error) {
		var args struct {
			Pattern string   `json:"pattern"`
			Path    string   `json:"path"`
			Limit   *float64 `json:"limit"`
		}
		if err := decodeArgs(call, &args); err != nil {
			return engine.ToolResult{}, err
		}
		p := args.Path
		if p == "" {
			p = "."
		}
		root := ResolvePath(p, cwd)
		limit := intLimit(args.Limit, 1000)
		if st, err := os.Stat(root); err != nil || !st.IsDir() {
			return engine.ToolResult{}, failf("Path not found: %s", root)
		}
		pattern := args.Pattern
		for strings.HasPrefix(pattern, "./") {
			pattern = pattern[2:]
		}
		fullPath := strings.Contains(pattern, "/")
		// fd's smart case: an all-lowercase pattern ignores case.
		fold := pattern == strings.ToLower(pattern)
		if fold {
			pattern = strings.ToLower(pattern)
		}
		g := compileGlob(pattern)
		match := func(rel string) bool {
			if fold {
				rel = strings.ToLower(rel)
			}
			if fullPath {
				// fd's "dir/**" lists what is inside dir, not dir itself.
				if strings.HasSuffix(pattern, "/**") && rel == strings.TrimSuffix(pattern, "/**") {
					return false
				}
				return g.match(rel)
			}
			return g.match(path.Base(rel))
		}
		var results []string
		count, outBytes := 0, 0
		limitReached := false
		// The pattern is matched in the workers; only matching entries reach
		// the consumer, which counts them in walk order.
		pw := &parallelWalk{useIgnore: true, keep: func(rel string, _ bool) bool { return match(rel) }}
		err := pw.run(ctx, root, func(e walkEntry, _ any) bool {
			if count == limit {
				limitReached = true
				return false
			}
			r := e.rel
			if e.isDir {
				r += "/"
			}
			count++
			if outBytes-1 <= DefaultMaxBytes {
				results = append(results, r)
			}
			outBytes += len(r) + 1
			return true
		})
		if err != nil {
			return engine.ToolResult{}, errAborted
		}
		if ctx.Err() != nil {
			return engine.ToolResult{}, errAborted
		}
		if count == 0 {
			return textResult("No files found matching pattern", nil), nil
		}
		t := TruncateHead(strings.Join(results, "\n"), TruncateOptions{MaxLines: maxSafeInt})
		t.TotalLines, t.TotalBytes = count, outBytes-1
		var notices []string
		var lr, tr any = omit, omit
		if limitReached {
			notices = append(notices, fmt.Sprintf("%d results limit reached. Use limit=%d for more, or refine pattern", limit, limit*2))
			lr = limit
		}
		if t.Truncated {
			notices = append(notices, FormatSize(DefaultMaxBytes)+" limit reached")
			tr = t
		}
		return textResult(withNotices(t.Content, notices), detailsOf("resultLimitReached", lr, "truncation", tr)), nil
	}}
}
