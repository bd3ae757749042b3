package builtins

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestReadTexts(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "a.txt"), []byte("line1\nline2\nline3\n"), 0o644)
	var big strings.Builder
	for i := 1; i <= 2500; i++ {
		big.WriteString("x\n")
	}
	os.WriteFile(filepath.Join(dir, "big.txt"), []byte(big.String()), 0o644)
	tests := []struct{ args, want string }{
		{`{"path":"a.txt","offset":2,"limit":1}`, "line2\n\n[2 more lines in file. Use offset=3 to continue.]"},
		{`{"path":"@a.txt"}`, "line1\nline2\nline3\n"},
		{`{"path":"a.txt","offset":9}`, "Offset 9 is beyond end of file (4 lines total)"},
		{`{"path":"nope.txt"}`, "ENOENT: no such file or directory, access '" + filepath.Join(dir, "nope.txt") + "'"},
	}
	for _, tc := range tests {
		res, _ := call(t, NewRead(dir), tc.args)
		if res.Content[0].Text != tc.want {
			t.Errorf("%s: got %q want %q", tc.args, res.Content[0].Text, tc.want)
		}
	}
	res, _ := call(t, NewRead(dir), `{"path":"big.txt"}`)
	if !strings.HasSuffix(res.Content[0].Text, "\n\n[Showing lines 1-2000 of 2501. Use offset=2001 to continue.]") {
		t.Errorf("big: %q", res.Content[0].Text[len(res.Content[0].Text)-80:])
	}
}

func TestTruncateBoundaries(t *testing.T) {
	t.Parallel()
	exact := strings.Repeat("a\n", 2000)
	if tr := TruncateHead(exact, TruncateOptions{}); tr.Truncated || tr.TotalLines != 2000 {
		t.Errorf("2000 lines should fit: %+v", tr.TotalLines)
	}
	over := strings.Repeat("a\n", 2001)
	if tr := TruncateTail(over, TruncateOptions{}); !tr.Truncated || tr.TruncatedBy != "lines" || tr.OutputLines != 2000 {
		t.Errorf("tail: %+v", tr)
	}
	long := strings.Repeat("é", 30000)
	if tr := TruncateTail(long, TruncateOptions{}); !tr.LastLinePartial || tr.OutputBytes > DefaultMaxBytes {
		t.Errorf("partial: %v %d", tr.LastLinePartial, tr.OutputBytes)
	}
	if tr := TruncateHead(long, TruncateOptions{}); !tr.FirstLineExceedsLimit || tr.Content != "" {
		t.Errorf("first line")
	}
	for n, want := range map[int]string{512: "512B", 51200: "50.0KB", 1280: "1.3KB", 1536 * 1024: "1.5MB"} {
		if got := FormatSize(n); got != want {
			t.Errorf("FormatSize(%d)=%s want %s", n, got, want)
		}
	}
	if s, cut := TruncateLine(strings.Repeat("b", 501), 0); !cut || s != strings.Repeat("b", 500)+"... [truncated]" {
		t.Errorf("truncateLine")
	}
}

func TestEditCRLFBOMAndFuzzy(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	tests := []struct{ name, file, args, want, text string }{
		{"crlf", "a\r\nb\r\nc\r\n", `{"path":"f","edits":[{"oldText":"b\nc","newText":"B\nC"}]}`, "a\r\nB\r\nC\r\n", "Successfully replaced 1 block(s) in f."},
		{"bom", "\ufeffhello\n", `{"path":"f","edits":[{"oldText":"hello","newText":"bye"}]}`, "\ufeffbye\n", "Successfully replaced 1 block(s) in f."},
		{"fuzzy quotes", "say \u201chi\u201d  \nend\n", `{"path":"f","edits":[{"oldText":"say \"hi\"","newText":"say \"yo\""}]}`, "say \"yo\"\nend\n", "Successfully replaced 1 block(s) in f."},
		{"legacy", "x y\n", `{"path":"f","oldText":"y","newText":"z"}`, "x z\n", "Successfully replaced 1 block(s) in f."},
		{"duplicate", "a a\n", `{"path":"f","edits":[{"oldText":"a","newText":"b"}]}`, "a a\n", "Found 2 occurrences of the text in f. The text must be unique. Please provide more context to make it unique."},
		{"overlap", "abcdef\n", `{"path":"f","edits":[{"oldText":"abc","newText":"1"},{"oldText":"cde","newText":"2"}]}`, "abcdef\n", "edits[0] and edits[1] overlap in f. Merge them into one edit or target disjoint regions."},
		{"nochange", "abc\n", `{"path":"f","edits":[{"oldText":"abc","newText":"abc"}]}`, "abc\n", "No changes made to f. The replacement produced identical content. This might indicate an issue with special characters or the text not existing as expected."},
		{"empty", "abc\n", `{"path":"f","edits":[]}`, "abc\n", "Edit tool input is invalid. edits must contain at least one replacement."},
	}
	for _, tc := range tests {
		d := filepath.Join(dir, tc.name)
		os.MkdirAll(d, 0o755)
		os.WriteFile(filepath.Join(d, "f"), []byte(tc.file), 0o644)
		res, _ := call(t, NewEdit(d), tc.args)
		if res.Content[0].Text != tc.text {
			t.Errorf("%s: text %q", tc.name, res.Content[0].Text)
		}
		got, _ := os.ReadFile(filepath.Join(d, "f"))
		if string(got) != tc.want {
			t.Errorf("%s: file %q want %q", tc.name, got, tc.want)
		}
	}
}

func TestBashTruncationAndTimeout(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	res, _ := call(t, NewBash(dir), `{"command":"seq 1 3000"}`)
	text := res.Content[0].Text
	if !strings.HasPrefix(text, "1001\n") || !strings.Contains(text, "\n\n[Showing lines 1001-3000 of 3000. Full output: ") {
		t.Errorf("truncated: %q", text[len(text)-120:])
	}
	fp := text[strings.LastIndex(text, "Full output: ")+13 : len(text)-1]
	if st, err := os.Stat(fp); err != nil || st.Mode().Perm() != 0o600 {
		t.Errorf("full output file %s: %v", fp, err)
	}
	os.Remove(fp)
	res, _ = call(t, NewBash(dir), `{"command":"echo a; sleep 30 & echo $! > pid; wait","timeout":0.5}`)
	if res.Content[0].Text != "a\n\n\nCommand timed out after 0.5 seconds" {
		t.Errorf("timeout: %q", res.Content[0].Text)
	}
	waitDead(t, filepath.Join(dir, "pid"))
	res, _ = call(t, NewBash(dir), `{"command":"true"}`)
	if res.Content[0].Text != "(no output)" || res.IsError {
		t.Errorf("empty: %q", res.Content[0].Text)
	}
}

func TestLsFindGrep(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "src/sub"), 0o755)
	os.WriteFile(filepath.Join(dir, "src/x.ts"), []byte("hello\nworld\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "src/sub/y.ts"), []byte("hello again\n"), 0o644)
	os.WriteFile(filepath.Join(dir, ".gitignore"), []byte("ignored.txt\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "ignored.txt"), []byte("hello\n"), 0o644)
	tests := []struct {
		tool func(string) interface{}
		name string
		args string
		want string
	}{
		{nil, "ls", `{}`, ".gitignore\nignored.txt\nsrc/"},
		{nil, "find", `{"pattern":"src/**"}`, "src/sub/\nsrc/sub/y.ts\nsrc/x.ts"},
		{nil, "find", `{"pattern":"*.ts"}`, "src/sub/y.ts\nsrc/x.ts"},
		{nil, "find", `{"pattern":"*.md"}`, "No files found matching pattern"},
		{nil, "grep", `{"pattern":"hello"}`, "ignored.txt:1: hello\nsrc/sub/y.ts:1: hello again\nsrc/x.ts:1: hello"},
		{nil, "grep", `{"pattern":"hello","glob":"*.ts","limit":1}`, "src/sub/y.ts:1: hello again\n\n[1 matches limit reached. Use limit=2 for more, or refine pattern]"},
		{nil, "grep", `{"pattern":"hello","path":"src/x.ts","context":1}`, "x.ts:1: hello\nx.ts-2- world"},
		{nil, "grep", `{"pattern":"zzz"}`, "No matches found"},
	}
	for _, tc := range tests {
		tl, _ := New(tc.name, dir)
		res, _ := call(t, tl, tc.args)
		if res.Content[0].Text != tc.want {
			t.Errorf("%s %s: got %q want %q", tc.name, tc.args, res.Content[0].Text, tc.want)
		}
	}
}
