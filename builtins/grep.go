package builtins

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"strings"
	"sync"

	"github.com/bmatcuk/doublestar/v4"
	"github.com/pi-go/pi/engine"
)

const grepSchema = `{"type":"object","required":["pattern"],"properties":{"pattern":{"type":"string","description":"What to look for: a regular expression, or plain text with literal"},"path":{"type":"string","description":"Directory or file to search (the working directory when omitted)"},"glob":{"type":"string","description":"Only search files matching this glob, relative to path, such as 'src/**/*.ts'; a glob without '/', such as '*.ts', matches file names in every subdirectory"},"ignoreCase":{"type":"boolean","description":"Ignore letter case (default false)"},"literal":{"type":"boolean","description":"Match the pattern as plain text, not as a regular expression (default false)"},"context":{"type":"number","description":"Lines of context to show around each match (default 0)"},"limit":{"type":"number","description":"Most matches to return (default 100)"}}}`

// NewGrep returns the grep tool, a native search with ripgrep's output
// conventions: hidden files searched, .gitignore respected inside git
// repositories, binary files skipped.
func NewGrep(cwd string) engine.Tool {
	return &tool{info: engine.ToolInfo{
		Name: "grep", Label: "grep", Description: description("grep"),
		Parameters: json.RawMessage(grepSchema), PromptSnippet: "Search inside files for a pattern (skips .gitignore'd files)",
	}, run: func(ctx context.Context, call engine.ToolCall, _ func(engine.ToolResult)) (engine.ToolResult, error) {
		var a struct {
			Pattern    string   `json:"pattern"`
			Path       string   `json:"path"`
			Glob       string   `json:"glob"`
			IgnoreCase bool     `json:"ignoreCase"`
			Literal    bool     `json:"literal"`
			Context    *float64 `json:"context"`
			Limit      *float64 `json:"limit"`
		}
		if err := decodeArgs(call, &a); err != nil {
			return engine.ToolResult{}, err
		}
		return runGrep(ctx, cwd, a.Pattern, a.Path, a.Glob, a.IgnoreCase, a.Literal, a.Context, a.Limit)
	}}
}

var globDotSlash = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^(!?)(?:\./)+`) })

func runGrep(ctx context.Context, cwd, pattern, p, glob string, ignoreCase, literal bool, ctxLines, limitArg *float64) (engine.ToolResult, error) {
	if p == "" {
		p = "."
	}
	root := ResolvePath(p, cwd)
	st, err := os.Stat(root)
	if err != nil {
		return engine.ToolResult{}, failf("Path not found: %s", root)
	}
	contextN := 0
	if ctxLines != nil && *ctxLines > 0 {
		contextN = int(floor(*ctxLines))
	}
	limit := intLimit(limitArg, 100)
	expr := pattern
	if literal {
		expr = regexp.QuoteMeta(pattern)
	}
	if ignoreCase {
		expr = "(?i)" + expr
	}
	re, err := regexp.Compile(expr)
	if err != nil {
		return engine.ToolResult{}, failf("regex parse error:\n    %s\nerror: %s", pattern, err.Error())
	}
	glob = globDotSlash().ReplaceAllString(glob, "$1")
	negGlob := strings.HasPrefix(glob, "!")
	globPat := strings.TrimPrefix(glob, "!")
	globOK := func(rel string) bool {
		if glob == "" {
			return true
		}
		target := rel
		if !strings.Contains(globPat, "/") {
			target = path.Base(rel)
		}
		ok, _ := doublestar.Match(globPat, target)
		return ok != negGlob
	}

	var files []string // slash paths relative to root, or the file itself
	if st.IsDir() {
		walkTree(root, insideGitRepo(root), func(e walkEntry) bool {
			if !e.isDir && globOK(e.rel) {
				files = append(files, e.rel)
			}
			return ctx.Err() == nil
		})
	} else {
		files = []string{filepath.Base(root)}
		root = filepath.Dir(root)
	}

	var out []string
	outBytes, lineCount, matchCount := 0, 0, 0
	limitHit, matchLimitReached, linesTruncated := false, false, false
	push := func(file string, n int, text string, isMatch bool) {
		text = strings.TrimSuffix(strings.TrimSuffix(text, "\n"), "\r")
		tl, cut := TruncateLine(text, GrepMaxLineLength)
		if cut {
			linesTruncated = true
		}
		var line string
		if isMatch {
			line = fmt.Sprintf("%s:%d: %s", file, n, tl)
		} else {
			line = fmt.Sprintf("%s-%d- %s", file, n, tl)
		}
		if outBytes-1 <= DefaultMaxBytes {
			out = append(out, line)
		}
		outBytes += len(line) + 1
		lineCount++
	}
search:
	for _, f := range files {
		if ctx.Err() != nil {
			return engine.ToolResult{}, errAborted
		}
		data, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(f)))
		if err != nil || bytes.IndexByte(data, 0) >= 0 {
			continue // unreadable or binary, as rg skips them
		}
		lines := strings.SplitAfter(string(data), "\n")
		if lines[len(lines)-1] == "" {
			lines = lines[:len(lines)-1]
		}
		isMatch := make([]bool, len(lines))
		for i, l := range lines {
			isMatch[i] = re.MatchString(strings.TrimSuffix(l, "\n"))
		}
		lastShown := -1
		for i := range lines {
			if !isMatch[i] {
				continue
			}
			if limitHit {
				matchLimitReached = true
				break search
			}
			for j := max(lastShown+1, i-contextN); j < i; j++ {
				push(f, j+1, lines[j], false)
			}
			push(f, i+1, lines[i], true)
			lastShown = i
			matchCount++
			// Context after this match, up to the next match.
			for j := i + 1; j < len(lines) && j <= i+contextN && !isMatch[j]; j++ {
				push(f, j+1, lines[j], false)
				lastShown = j
			}
			if matchCount >= limit {
				limitHit = true
				// Is there one more match anywhere? Only then say so.
				for k := i + 1; k < len(lines); k++ {
					if isMatch[k] {
						matchLimitReached = true
						break search
					}
				}
			}
		}
	}
	if matchCount == 0 {
		return textResult("No matches found", nil), nil
	}
	t := TruncateHead(strings.Join(out, "\n"), TruncateOptions{MaxLines: maxSafeInt})
	t.TotalLines, t.TotalBytes = lineCount, outBytes-1
	var notices []string
	var mr, tr, lt any = omit, omit, omit
	if matchLimitReached {
		notices = append(notices, fmt.Sprintf("%d matches limit reached. Use limit=%d for more, or refine pattern", limit, limit*2))
		mr = limit
	}
	if t.Truncated {
		notices = append(notices, FormatSize(DefaultMaxBytes)+" limit reached")
		tr = t
	}
	if linesTruncated {
		notices = append(notices, fmt.Sprintf("Some lines truncated to %d chars. Use read tool to see full lines", GrepMaxLineLength))
		lt = true
	}
	return textResult(withNotices(t.Content, notices), detailsOf("matchLimitReached", mr, "truncation", tr, "linesTruncated", lt)), nil
}
