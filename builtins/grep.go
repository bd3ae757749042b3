package builtins

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"strconv"
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

	m := newGrepMatcher(expr, re)
	// A file never needs more than limit+1 matches: the limit, and one more
	// to tell "exactly limit" from "more".
	perFile := limit + 1

	var out []string
	outBytes, lineCount, matchCount := 0, 0, 0
	limitHit, matchLimitReached, linesTruncated := false, false, false
	push := func(file string, gl grepLine, isMatch bool) {
		if gl.cut {
			linesTruncated = true
		}
		var line string
		if isMatch {
			line = file + ":" + strconv.Itoa(gl.n) + ": " + gl.text
		} else {
			line = file + "-" + strconv.Itoa(gl.n) + "- " + gl.text
		}
		if outBytes-1 <= DefaultMaxBytes {
			out = append(out, line)
		}
		outBytes += len(line) + 1
		lineCount++
	}
	// take adds one file's lines to the output as ripgrep's event stream
	// reaches the reference: context merged between matches and, once the
	// limit is hit, the last match's trailing context shown whole (matches
	// in it as context) before one more match proves the limit cut results
	// off. It reports whether the search goes on.
	take := func(f string, lines []grepLine) bool {
		lastShown := 0
		for i := 0; i < len(lines); i++ {
			gl := lines[i]
			if !gl.match {
				continue
			}
			if limitHit {
				matchLimitReached = true
				return false
			}
			j := i
			for j > 0 && lines[j-1].n >= max(lastShown+1, gl.n-contextN) {
				j--
			}
			for ; j < i; j++ {
				push(f, lines[j], false)
			}
			push(f, gl, true)
			lastShown = gl.n
			matchCount++
			if matchCount >= limit {
				limitHit = true
				for j = i + 1; j < len(lines) && lines[j].n <= gl.n+contextN; j++ {
					push(f, lines[j], false)
					if lines[j].match {
						matchLimitReached = true
					}
				}
				if matchLimitReached {
					return false
				}
				i = j - 1
				continue
			}
			for j = i + 1; j < len(lines) && lines[j].n <= gl.n+contextN && !lines[j].match; j++ {
				push(f, lines[j], false)
				lastShown = lines[j].n
			}
		}
		return true
	}

	if st.IsDir() {
		pw := &parallelWalk{
			useIgnore: insideGitRepo(root),
			skipLinks: true,
			keep:      func(rel string, isDir bool) bool { return !isDir && globOK(rel) },
			work: func(w *walkWorker, _, abs, name string) (res any) {
				defer w.release()
				defer func() {
					if r := recover(); r != nil {
						if !isFault(r) {
							panic(r)
						}
						res = []grepLine(nil) // the file shrank while mapped
					}
				}()
				data, err := w.readForGrep(abs, name)
				if err != nil || len(data) == 0 {
					return []grepLine(nil) // unreadable or binary, as rg skips them
				}
				return m.searchFile(data, contextN, perFile)
			},
		}
		err := pw.run(ctx, root, func(e walkEntry, res any) bool {
			return take(e.rel, res.([]grepLine))
		})
		if err != nil || ctx.Err() != nil {
			return engine.ToolResult{}, errAborted
		}
	} else {
		// rg searches a file it is given by name whole, NUL bytes and all.
		data, err := os.ReadFile(root)
		if ctx.Err() != nil {
			return engine.ToolResult{}, errAborted
		}
		if err == nil {
			take(filepath.Base(root), m.searchFile(data, contextN, perFile))
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
