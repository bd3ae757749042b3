package builtins

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/bmatcuk/doublestar/v4"
	"github.com/pi-go/pi/engine"
)

// searchCorpus writes a tree exercising what the fast paths must get
// right: nested .gitignore rules (negation, directory-only, anchored),
// hidden entries, a .git directory, CRLF and unterminated lines, empty
// files, long lines, case-folding traps (K, the Kelvin sign, long s),
// binary files with a NUL early and late, and a file large enough to be
// mapped.
func searchCorpus(t *testing.T, big bool) string {
	t.Helper()
	dir := t.TempDir()
	files := map[string]string{
		".git/HEAD":           "ref: refs/heads/main\n",
		".gitignore":          "*.log\nbuild/\n/top-only.txt\n!keep.log\n",
		"a.txt":               "hello world\nHello World\nHELLO\nsay hello, hello\n\nfoo bar\nfoo.bar\nfooXbar\nend",
		"b.go":                "package b\n\nfunc Foo() {}\nfunc foo() int { return 42 }\n// word words sword\n",
		"crlf.txt":            "hello\r\nworld\r\nhello again\r\n",
		"empty.txt":           "",
		"only-newline.txt":    "\n",
		"fold.txt":            "Kelvin \u212a here\nkelvin\nlong \u017f s\nLONG S\nstraße\n",
		"keep.log":            "hello from keep.log\n",
		"drop.log":            "hello from drop.log\n",
		"top-only.txt":        "hello top-only\n",
		"sub/top-only.txt":    "hello nested top-only\n",
		"build/out.txt":       "hello build\n",
		"sub/build":           "hello, a file named build\n",
		".hidden/h.txt":       "hello hidden\n",
		"sub/.gitignore":      "*.tmp\n!important.tmp\n",
		"sub/x.tmp":           "hello tmp\n",
		"sub/important.tmp":   "hello important\n",
		"sub/deep/d/e.txt":    "a b\na\tb\nab\nhello deep\n",
		"bin/early.bin":       "hello\x00binary\n",
		"long.txt":            strings.Repeat("x", 600) + " hello " + strings.Repeat("é", 600) + "\nshort hello\n",
		"many.txt":            strings.Repeat("hello line\nother line\n", 40),
		"Upper/Z.txt":         "hello upper\n",
		"upper/a.txt":         "hello lower\n",
		"sub/deep/\u00e9.txt": "hello accent\n",
	}
	// Text past the first 64 KiB, then a NUL: rg searches the first
	// read's complete lines and stops.
	files["bin/late.txt"] = strings.Repeat("hello late "+strings.Repeat("-", 53)+"\n", 1300) + "\x00hello after nul\n"
	if big {
		// Large enough to be mapped, with matches at both ends.
		files["big/large.txt"] = "hello first\n" + strings.Repeat("filler line of text"+strings.Repeat(".", 108)+"\n", 9000) + "hello last\n"
		files["big/large-bin.txt"] = strings.Repeat("hello big late"+strings.Repeat(".", 113)+"\n", 9000) + "\x00\n"
	}
	for name, body := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink("a.txt", filepath.Join(dir, "link.txt")); err != nil {
		t.Fatal(err)
	}
	return dir
}

// oracleGrep is the reference's grep, written the slow and obvious way:
// walkTree's sequential walk, each file cut where rg stops at a NUL, every
// line matched by the regular expression, rg's match and context events,
// and the reference's handling of those events (limit, trailing context,
// proof of one more match).
func oracleGrep(t *testing.T, root, pattern string, ignoreCase, literal bool, contextN, limit int) string {
	t.Helper()
	expr := pattern
	if literal {
		expr = regexp.QuoteMeta(pattern)
	}
	if ignoreCase {
		expr = "(?i)" + expr
	}
	re := regexp.MustCompile(expr)
	type event struct {
		file  string
		n     int
		text  string
		match bool
	}
	var events []event
	walkTree(root, insideGitRepo(root), func(e walkEntry) bool {
		if e.isDir {
			return true
		}
		// rg's walk leaves symlinks out (rg 13: a link to a file is not searched).
		if st, err := os.Lstat(filepath.Join(root, filepath.FromSlash(e.rel))); err != nil || st.Mode()&os.ModeSymlink != 0 {
			return true
		}
		data, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(e.rel)))
		if err != nil {
			return true
		}
		data = data[:rgTextEnd(data)]
		if bytes.IndexByte(data, 0) >= 0 {
			t.Fatalf("%s: rgTextEnd kept a NUL", e.rel)
		}
		lines := strings.SplitAfter(string(data), "\n")
		if lines[len(lines)-1] == "" {
			lines = lines[:len(lines)-1]
		}
		match := make([]bool, len(lines))
		for i, l := range lines {
			match[i] = re.MatchString(strings.TrimSuffix(l, "\n"))
		}
		for i, l := range lines {
			near := false
			for j := max(0, i-contextN); j <= min(len(lines)-1, i+contextN); j++ {
				near = near || match[j]
			}
			if near {
				events = append(events, event{e.rel, i + 1, l, match[i]})
			}
		}
		return true
	})
	var out []string
	matches, limitHit, limitReached, cut := 0, false, false, false
	trailingEnd, lastFile := 0, ""
	push := func(ev event, isMatch bool) {
		lastFile = ev.file
		text, c := TruncateLine(strings.TrimSuffix(strings.TrimSuffix(ev.text, "\n"), "\r"), GrepMaxLineLength)
		cut = cut || c
		sep := "-"
		if isMatch {
			sep = ":"
		}
		out = append(out, fmt.Sprintf("%s%s%d%s %s", ev.file, sep, ev.n, sep, text))
	}
	for _, ev := range events {
		if !limitHit {
			push(ev, ev.match)
			if ev.match {
				matches++
				if matches >= limit {
					limitHit, trailingEnd = true, ev.n+contextN
				}
			}
			continue
		}
		inWindow := ev.file == lastFile && ev.n <= trailingEnd
		if inWindow {
			push(ev, false)
		}
		if ev.match {
			limitReached = true
		}
		if limitReached && !(inWindow && ev.n < trailingEnd) {
			break
		}
	}
	if matches == 0 {
		return "No matches found"
	}
	var notices []string
	if limitReached {
		notices = append(notices, fmt.Sprintf("%d matches limit reached. Use limit=%d for more, or refine pattern", limit, limit*2))
	}
	tr := TruncateHead(strings.Join(out, "\n"), TruncateOptions{MaxLines: maxSafeInt})
	if tr.Truncated {
		notices = append(notices, FormatSize(DefaultMaxBytes)+" limit reached")
	}
	if cut {
		notices = append(notices, fmt.Sprintf("Some lines truncated to %d chars. Use read tool to see full lines", GrepMaxLineLength))
	}
	return withNotices(tr.Content, notices)
}

// TestGrepMatchesOracle runs every fast path (exact literal, required
// literal, ASCII case-folded literal, whole-buffer regex, line by line)
// against the oracle over the corpus, with and without case, context and
// limits. It proves the parallel walk, the prefilters, the binary cut and
// the limit handling together give the reference's output.
func TestGrepMatchesOracle(t *testing.T) {
	t.Parallel()
	root := searchCorpus(t, false)
	patterns := []struct {
		p       string
		literal bool
	}{
		{"hello", false}, {"hello", true}, {"Hello", false}, {"HELLO", true}, {"", false}, {"", true},
		{"foo.bar", false}, {"foo.bar", true}, {"^foo", false}, {"bar$", false}, {"fo+", false},
		{"hello|world", false}, {"[0-9]+", false}, {`\bword\b`, false}, {"kelvin", false}, {"long s", false},
		{`a\sb`, false}, {"^$", false}, {".", false}, {`\Ahello`, false}, {`hello\z`, false}, {"[^a]b", false},
		{"a\nb", true}, {`(?m)^hello`, false}, {"(hel)+lo", false}, {"x{3}", false}, {`\x{212a}`, false},
		{"STRASSE", false}, {"é", false}, {"line", false}, {"hello .* hello", false},
	}
	for _, pat := range patterns {
		for _, ic := range []bool{false, true} {
			for _, c := range []int{0, 2} {
				for _, limit := range []int{1, 3, 1000} {
					args := map[string]any{"pattern": pat.p, "literal": pat.literal, "ignoreCase": ic, "context": c, "limit": limit}
					raw, _ := json.Marshal(args)
					res, err := NewGrep(root).Execute(context.Background(), callOf("grep", raw), nil)
					if err != nil {
						t.Fatalf("%s: %v", raw, err)
					}
					want := oracleGrep(t, root, pat.p, ic, pat.literal, c, limit)
					if got := res.Content[0].Text; got != want {
						t.Errorf("%s:\n got %q\nwant %q", raw, got, want)
					}
				}
			}
		}
	}
}

// TestGrepLargeFiles runs the oracle on files large enough to be mapped,
// one of them cut by a NUL far from its start.
func TestGrepLargeFiles(t *testing.T) {
	t.Parallel()
	root := searchCorpus(t, true)
	for _, tc := range []struct {
		p  string
		ic bool
		c  int
	}{{"hello", false, 0}, {"hello (last|big)", false, 1}, {"HELLO", true, 0}} {
		for _, limit := range []int{3, 1000} {
			raw, _ := json.Marshal(map[string]any{"pattern": tc.p, "ignoreCase": tc.ic, "context": tc.c, "limit": limit, "path": "big"})
			res, err := NewGrep(root).Execute(context.Background(), callOf("grep", raw), nil)
			if err != nil {
				t.Fatal(err)
			}
			want := oracleGrep(t, filepath.Join(root, "big"), tc.p, tc.ic, false, tc.c, limit)
			if got := res.Content[0].Text; got != want {
				t.Errorf("%s: got %d bytes, want %d", raw, len(got), len(want))
			}
		}
	}
}

func callOf(name string, args []byte) engine.ToolCall {
	return engine.ToolCall{ID: "t", Name: name, Args: args}
}

// TestGrepFastPathsAgree checks each prefilter against the plain line
// loop on the same bytes, and that a literal search and its quoted regex
// find the same lines.
func TestGrepFastPathsAgree(t *testing.T) {
	t.Parallel()
	data := []byte("alpha beta\nAlpha\r\nALPHA beta gamma\n\nkelvin K \u212a\nfoo.bar foo-bar\nthe end")
	tests := []struct {
		expr string
		mode string // which fast path newGrepMatcher must choose
	}{
		{"alpha", "exact"}, {`foo\.bar`, "exact"}, {"beta gamma", "exact"},
		{"(?i)alpha", "fold"}, {"(?i)kelvin", "fold"}, {"(?i)[a-z]+ k", "fold"}, {"(?i)[a-z]+k", "whole"}, {"(?i)ſ", "whole"}, {"al+pha", "req"}, {"^ALPHA b", "req"},
		{"[a-z]+r", "req"}, {"[a-z]+", "whole"}, {"^$", "whole"}, {"x|y", "whole"}, {`\s`, "line"}, {"[^x]", "line"}, {"(?s).", "line"},
		{`\Aalpha`, "req"}, {`end\z`, "req"}, {`\z`, "line"},
	}
	for _, tc := range tests {
		re := regexp.MustCompile(tc.expr)
		m := newGrepMatcher(tc.expr, re)
		mode := "line"
		switch {
		case m.exact:
			mode = "exact"
		case m.fold:
			mode = "fold"
		case m.req != nil:
			mode = "req"
		case m.whole != nil:
			mode = "whole"
		}
		if mode != tc.mode {
			t.Errorf("%q: fast path %s, want %s", tc.expr, mode, tc.mode)
		}
		slow := &grepMatcher{re: re}
		for _, c := range []int{0, 1, 3} {
			for _, lim := range []int{1, 2, 100} {
				got, want := m.searchFile(data, c, lim), slow.searchFile(data, c, lim)
				if !slices.Equal(got, want) {
					t.Errorf("%q context %d limit %d:\n got %v\nwant %v", tc.expr, c, lim, got, want)
				}
			}
		}
	}
	lit := &grepMatcher{re: regexp.MustCompile(regexp.QuoteMeta("foo.bar"))}
	rx := newGrepMatcher(`foo\.bar`, regexp.MustCompile(`foo\.bar`))
	if a, b := lit.searchFile(data, 0, 10), rx.searchFile(data, 0, 10); !slices.Equal(a, b) || len(a) != 1 {
		t.Errorf("literal %v, regex %v", a, b)
	}
}

// TestSearchFileStopsAtCap proves a file yields at most the matches asked
// for (the walk's early stop rests on it), plus the last one's context.
func TestSearchFileStopsAtCap(t *testing.T) {
	t.Parallel()
	data := []byte(strings.Repeat("hit\n", 100000))
	m := newGrepMatcher("hit", regexp.MustCompile("hit"))
	for _, tc := range []struct{ c, cap, lines int }{{0, 5, 5}, {2, 5, 7}, {0, 1, 1}} {
		got := m.searchFile(data, tc.c, tc.cap)
		if len(got) != tc.lines || got[len(got)-1].n != tc.lines {
			t.Errorf("context %d cap %d: %d lines, last %v", tc.c, tc.cap, len(got), got[len(got)-1])
		}
	}
}

// TestRgTextEnd pins the binary cut to what ripgrep 13 reports: 120,000
// bytes of "hello\n" then a NUL gives 10,922 matches (the lines of the
// first 64 KiB read) when walking, none when the NUL is in that read.
func TestRgTextEnd(t *testing.T) {
	t.Parallel()
	lines := bytes.Repeat([]byte("hello\n"), 20000)
	tests := []struct {
		name string
		data []byte
		want int
	}{
		{"text", lines, len(lines)},
		{"empty", nil, 0},
		{"nul first", []byte("\x00hello\n"), 0},
		{"nul in first read", append(bytes.Repeat([]byte("hello\n"), 10000), 0), 0},
		{"nul after first read", append(slices.Clone(lines), 0), 10922 * 6},
		// The lines before the read that brings the NUL, measured with rg 13
		// as 15,701, 15,706 and 5 matches of "hello".
		{"long line grows the buffer", rgCase(0, 100<<10, 20000), 102401 + 15701*6},
		{"grown after a short first fill", rgCase(5, 100<<10, 40000), 30 + 102401 + 15701*6},
		{"grown twice, NUL in the growing read", rgCase(5, 300<<10, 40000), 30},
		// The first read is the 3 bytes rg's BOM sniffer peeked.
		{"line end in the peeked bytes", []byte("hi\n\x00hi\n"), 3},
		{"no line end in the peeked bytes", []byte("hih\nhi\n\x00hi\n"), 0},
		{"a line end in the peek, NUL next", []byte("h\nhi\nhi\x00hi\n"), 2},
	}
	for _, tc := range tests {
		if got := rgTextEnd(tc.data); got != tc.want {
			t.Errorf("%s: %d, want %d", tc.name, got, tc.want)
		}
	}
}

// rgCase is hello lines, one long line of x, more hello lines and a NUL.
func rgCase(before, long, after int) []byte {
	b := bytes.Repeat([]byte("hello\n"), before)
	b = append(b, bytes.Repeat([]byte("x"), long)...)
	b = append(b, '\n')
	b = append(b, bytes.Repeat([]byte("hello\n"), after)...)
	return append(b, 0)
}

// TestParallelWalkOrder checks, many times and under -race, that the
// parallel walk yields exactly walkTree's entries in walkTree's order, with
// and without ignore rules, and that grep and find output is the same on
// every run.
func TestParallelWalkOrder(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	os.MkdirAll(filepath.Join(root, ".git"), 0o755)
	os.WriteFile(filepath.Join(root, ".gitignore"), []byte("*.skip\nd3/\n"), 0o644)
	for d := 0; d < 12; d++ {
		for s := 0; s < 4; s++ {
			dir := filepath.Join(root, fmt.Sprintf("d%d", d), fmt.Sprintf("s%d", s))
			os.MkdirAll(dir, 0o755)
			for f := 0; f < 40; f++ {
				ext := ".txt"
				if f%9 == 0 {
					ext = ".skip"
				}
				os.WriteFile(filepath.Join(dir, fmt.Sprintf("f%02d%s", f, ext)), []byte(fmt.Sprintf("line\nneedle %d %d %d\n", d, s, f)), 0o644)
			}
		}
	}
	for _, useIgnore := range []bool{false, true} {
		var want []walkEntry
		walkTree(root, useIgnore, func(e walkEntry) bool { want = append(want, e); return true })
		for run := 0; run < 10; run++ {
			var got []walkEntry
			var files atomic.Int64
			pw := &parallelWalk{useIgnore: useIgnore, work: func(*walkWorker, string, string, string) any { return files.Add(1) }}
			if err := pw.run(context.Background(), root, func(e walkEntry, _ any) bool { got = append(got, e); return true }); err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(got, want) {
				t.Fatalf("ignore %v run %d: %d entries differ from walkTree's %d", useIgnore, run, len(got), len(want))
			}
		}
	}
	first := map[string]string{}
	for run := 0; run < 10; run++ {
		for _, tc := range []struct{ tool, args string }{
			{"grep", `{"pattern":"needle","limit":50}`}, {"grep", `{"pattern":"needle 1[01]","context":1,"limit":1000}`},
			{"find", `{"pattern":"*.txt","limit":300}`}, {"find", `{"pattern":"d1/**"}`},
		} {
			tl, _ := New(tc.tool, root)
			res, _ := call(t, tl, tc.args)
			text := res.Content[0].Text
			if prev, ok := first[tc.tool+tc.args]; ok && prev != text {
				t.Fatalf("%s %s changed between runs", tc.tool, tc.args)
			}
			first[tc.tool+tc.args] = text
		}
	}
	if !strings.HasPrefix(first[`grep{"pattern":"needle","limit":50}`], "d0/s0/f01.txt:2: needle 0 0 1\n") {
		t.Errorf("grep does not start with the first file in order: %.60q", first[`grep{"pattern":"needle","limit":50}`])
	}
}

// TestParallelWalkStops proves an early stop (the result limit) and a
// cancelled context end the walk without leaving goroutines behind.
func TestParallelWalkStops(t *testing.T) {
	root := t.TempDir()
	for d := 0; d < 30; d++ {
		dir := filepath.Join(root, fmt.Sprintf("d%02d", d))
		os.MkdirAll(dir, 0o755)
		for f := 0; f < 50; f++ {
			os.WriteFile(filepath.Join(dir, fmt.Sprintf("f%02d", f)), []byte("x\n"), 0o644)
		}
	}
	before := runtime.NumGoroutine()
	var worked atomic.Int64
	pw := &parallelWalk{work: func(*walkWorker, string, string, string) any { worked.Add(1); return nil }}
	seen := 0
	if err := pw.run(context.Background(), root, func(walkEntry, any) bool { seen++; return seen < 3 }); err != nil {
		t.Fatal(err)
	}
	if seen != 3 || worked.Load() > 30*50 {
		t.Errorf("seen %d, worked %d", seen, worked.Load())
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := pw.run(ctx, root, func(walkEntry, any) bool { return true }); err == nil {
		t.Error("a cancelled walk reported no error")
	}
	res, err := NewGrep(root).Execute(ctx, callOf("grep", []byte(`{"pattern":"x"}`)), nil)
	if err != nil || !res.IsError || res.Content[0].Text != "Operation aborted" {
		t.Errorf("cancelled grep: %v %v", res, err)
	}
	deadline := time.Now().Add(5 * time.Second)
	for runtime.NumGoroutine() > before && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if n := runtime.NumGoroutine(); n > before {
		t.Errorf("%d goroutines left behind", n-before)
	}
}

// TestGrepLimitStop: more matches than the limit, spread over files, give
// exactly the limit and the notice; exactly the limit gives no notice.
func TestGrepLimitStop(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	for i := 0; i < 20; i++ {
		os.WriteFile(filepath.Join(root, fmt.Sprintf("f%02d.txt", i)), []byte(strings.Repeat("hit\n", 10)), 0o644)
	}
	tests := []struct {
		limit   int
		matches int
		notice  bool
	}{{5, 5, true}, {10, 10, true}, {200, 200, false}, {150, 150, true}}
	for _, tc := range tests {
		res, _ := call(t, NewGrep(root), fmt.Sprintf(`{"pattern":"hit","limit":%d}`, tc.limit))
		text := res.Content[0].Text
		if n := strings.Count(text, ": hit"); n != tc.matches {
			t.Errorf("limit %d: %d matches", tc.limit, n)
		}
		if got := strings.Contains(text, "matches limit reached"); got != tc.notice {
			t.Errorf("limit %d: notice %v", tc.limit, got)
		}
	}
}

// TestGrepGivenFile: a file named as the path is searched whole, NUL
// bytes and all, as rg searches a file it is given.
func TestGrepGivenFile(t *testing.T) {
	t.Parallel()
	root := searchCorpus(t, false)
	res, _ := call(t, NewGrep(root), `{"pattern":"hello","path":"bin/early.bin"}`)
	if got := res.Content[0].Text; got != "early.bin:1: hello\x00binary" {
		t.Errorf("got %q", got)
	}
	res, _ = call(t, NewGrep(root), `{"pattern":"after nul","path":"bin/late.txt"}`)
	if got := res.Content[0].Text; got != "late.txt:1301: \x00hello after nul" {
		t.Errorf("got %q", got)
	}
}

// TestLsTypes: directories (and symlinks to them) get "/", files and
// symlinks to files do not, a dangling symlink is left out, and names sort
// ignoring case.
func TestLsTypes(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "Bdir"), 0o755)
	os.WriteFile(filepath.Join(dir, "a.txt"), nil, 0o644)
	os.WriteFile(filepath.Join(dir, "C.txt"), nil, 0o644)
	os.Symlink("Bdir", filepath.Join(dir, "linkdir"))
	os.Symlink("a.txt", filepath.Join(dir, "linkfile"))
	os.Symlink("missing", filepath.Join(dir, "dangling"))
	res, _ := call(t, NewLs(dir), `{}`)
	if got, want := res.Content[0].Text, "a.txt\nBdir/\nC.txt\nlinkdir/\nlinkfile"; got != want {
		t.Errorf("got %q want %q", got, want)
	}
	res, _ = call(t, NewLs(dir), `{"limit":2}`)
	if got, want := res.Content[0].Text, "a.txt\nBdir/\n\n[2 entries limit reached. Use limit=4 for more]"; got != want {
		t.Errorf("got %q want %q", got, want)
	}
}

// TestGlobMatchesDoublestar: the prepared glob answers as doublestar.Match
// does, for every shape it special-cases and for invalid patterns.
func TestGlobMatchesDoublestar(t *testing.T) {
	t.Parallel()
	patterns := []string{"*.go", "*", "a.txt", "src/x.ts", "gen_*", "*_test.go", "src/**", "**/*.ts", "*.{ts,js}",
		"[ab]*", "a?c", `\*lit`, "[", "a[", "*[", "src/*", ".*", "*.", "", "**", "a/*"}
	names := []string{"a.go", "x/a.go", ".go", "a.txt", "src/x.ts", "src/sub/y.ts", "gen_1", "x/gen_1", "gen_", "a_test.go",
		"b.js", "abc", "*lit", "[", "a[", ".hidden", "a.", "", "a/b", "src", "src/x"}
	for _, p := range patterns {
		g := compileGlob(p)
		for _, n := range names {
			want, _ := doublestar.Match(p, n)
			if got := g.match(n); got != want {
				t.Errorf("Match(%q, %q): %v, doublestar %v (kind %d)", p, n, got, want, g.kind)
			}
		}
	}
}

// BenchmarkSearchFile measures the matcher alone on 8 MB of code-like text
// with one hit near the end, per fast path (bytes/s in the output).
func BenchmarkSearchFile(b *testing.B) {
	var buf bytes.Buffer
	for i := 0; buf.Len() < 8<<20; i++ {
		fmt.Fprintf(&buf, "\tfunc handler%d(ctx context.Context, req *Request) (err error) { return nil }\n", i)
	}
	buf.WriteString("\tx := NEEDLE_pi_search(ctx)\n")
	data := buf.Bytes()
	for _, expr := range []string{"NEEDLE_pi_search", "(?i)needle_pi_search", `NEEDLE_\w+\(`, `[A-Z]{6}_pi`, `\sNEEDLE_pi`} {
		b.Run(expr, func(b *testing.B) {
			m := newGrepMatcher(expr, regexp.MustCompile(expr))
			b.SetBytes(int64(len(data)))
			for b.Loop() {
				if got := m.searchFile(data, 0, 101); len(got) != 1 {
					b.Fatalf("%d matches", len(got))
				}
			}
		})
	}
}

// TestFoldSafeRun: the case-insensitive prefilter searches only the
// longest run without k, s, "\n" or non-ASCII bytes, and finds it around
// its rarest byte in any ASCII case.
func TestFoldSafeRun(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ lit, want string }{
		{"hello", "hello"}, {"needle_pi_search", "needle_pi_"}, {"kelvin", "elvin"}, {"sks", ""}, {"straße", "tra"}, {"a\nbc", "bc"},
	} {
		if got := foldSafeRun(tc.lit); got != tc.want {
			t.Errorf("foldSafeRun(%q) = %q, want %q", tc.lit, got, tc.want)
		}
	}
	data := []byte("xx HeLLo_World hello_world")
	lower := []byte("hello_world")
	for anchor := range lower {
		if got := indexFoldASCII(data, 0, lower, anchor); got != 3 {
			t.Errorf("anchor %d: %d", anchor, got)
		}
		if got := indexFoldASCII(data, 4, lower, anchor); got != 15 {
			t.Errorf("anchor %d from 4: %d", anchor, got)
		}
		if got := indexFoldASCII(data, 16, lower, anchor); got != -1 {
			t.Errorf("anchor %d from 16: %d", anchor, got)
		}
	}
}
