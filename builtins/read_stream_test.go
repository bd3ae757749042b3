package builtins

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/pi-go/pi/engine"
)

// TestReadStreamMatchesWholeFile compares the streaming read with what
// read did before (the whole file decoded, split and truncated, kept
// below as oldReadText) on contents around every limit: the first line
// over the byte cap, exactly 2000 lines and 50 KB, trailing newlines,
// invalid UTF-8 and multi-byte characters cut by the read chunks, with
// offsets and limits inside, at and past the end.
func TestReadStreamMatchesWholeFile(t *testing.T) {
	t.Parallel()
	contents := map[string]string{
		"empty":                      "",
		"one newline":                "\n",
		"two newlines":               "\n\n",
		"small":                      "line1\nline2\nline3\n",
		"no final newline":           "a\nb\nc",
		"2000 lines":                 strings.Repeat("a\n", 2000),
		"2000 lines no nl":           strings.TrimSuffix(strings.Repeat("a\n", 2000), "\n"),
		"2001 lines":                 strings.Repeat("a\n", 2001),
		"2500 lines":                 strings.Repeat("x\n", 2500),
		"long first line":            strings.Repeat("é", 30000) + "\nrest\n",
		"first line at cap":          strings.Repeat("b", DefaultMaxBytes) + "\nnext\n",
		"first line over cap by one": strings.Repeat("b", DefaultMaxBytes+1) + "\nnext\n",
		"bytes cap mid":              strings.Repeat(strings.Repeat("c", 99)+"\n", 1000),
		"bytes cap at nl":            strings.Repeat(strings.Repeat("d", 1023)+"\n", 60),
		"exact cap":                  strings.Repeat("e", DefaultMaxBytes-1) + "\n",
		"exact cap joined":           strings.Repeat("f", 25599) + "\n" + strings.Repeat("f", 25600),
		"invalid utf8":               "ok\n\xff\xfe bad \xe2\x82\nend\xf0\x9f",
		"multibyte":                  strings.Repeat("😀é\n", 30000),
		"empty lines":                strings.Repeat("\n", 2100),
	}
	one, two, hundred, big, zero, minus := 1.0, 2.0, 100.0, 1e9, 0.0, -3.0
	offsets := []*float64{nil, &one, &two, &hundred, &zero, &minus, ptrf(2001), ptrf(2002), ptrf(30001), ptrf(1e6)}
	limits := []*float64{nil, &zero, &one, &two, &hundred, &big, ptrf(1999), ptrf(2000), ptrf(2001), &minus}
	for name, content := range contents {
		for _, off := range offsets {
			for _, lim := range limits {
				want, wantErr := oldReadText(decodeWhole([]byte(content)), "f.txt", off, lim)
				for _, chunk := range []int{1, 3, 7, 4096, 64 * 1024} {
					if chunk < 16 && len(content) > 8192 {
						continue // tiny chunks on the small contents only
					}
					got, gotErr := readTextChunked(content, off, lim, chunk)
					if fmt.Sprint(gotErr) != fmt.Sprint(wantErr) || !sameResult(got, want) {
						t.Fatalf("%s offset=%v limit=%v chunk=%d:\n got %s %v\nwant %s %v", name, deref(off), deref(lim), chunk, show(got), gotErr, show(want), wantErr)
					}
				}
			}
		}
	}
}

func readTextChunked(content string, offset, limit *float64, chunk int) (engine.ToolResult, error) {
	sel, err := scanLinesChunked(context.Background(), strings.NewReader(content), readStart(offset), limit, chunk)
	if err != nil {
		return engine.ToolResult{}, err
	}
	return sel.result("f.txt", offset, limit)
}

func ptrf(f float64) *float64 { return &f }

func deref(f *float64) any {
	if f == nil {
		return nil
	}
	return *f
}

func sameResult(a, b engine.ToolResult) bool { return show(a) == show(b) }

func show(r engine.ToolResult) string {
	b, _ := json.Marshal(r)
	return string(b)
}

// TestReadHugeFileBoundedMemory reads a 256 MiB sparse file (and one of
// short lines) through the tool and checks that the bytes allocated stay
// far below the file's size: the file is streamed through a fixed buffer,
// not read whole.
func TestReadHugeFileBoundedMemory(t *testing.T) {
	dir := t.TempDir()
	const size = 256 << 20
	sparse := filepath.Join(dir, "sparse.bin.txt")
	f, err := os.Create(sparse)
	if err != nil {
		t.Fatal(err)
	}
	// A text head so the sniffing sees no image, then a hole of zeros.
	if _, err := f.WriteString("first line\nsecond line\n"); err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(size); err != nil {
		t.Fatal(err)
	}
	f.Close()
	lines := filepath.Join(dir, "lines.txt")
	g, err := os.Create(lines)
	if err != nil {
		t.Fatal(err)
	}
	row := []byte(strings.Repeat("y", 63) + "\n")
	block := []byte(strings.Repeat(string(row), 1024))
	for written := 0; written < 64<<20; written += len(block) {
		if _, err := g.Write(block); err != nil {
			t.Fatal(err)
		}
	}
	g.Close()
	tool := NewRead(dir)
	for _, tc := range []struct{ args, wantSuffix string }{
		{`{"path":"sparse.bin.txt","limit":1}`, "first line\n\n[2 more lines in file. Use offset=2 to continue.]"},
		{`{"path":"sparse.bin.txt","offset":3}`, "[Line 3 is 256.0MB, exceeds 50.0KB limit. Use bash: sed -n '3p' sparse.bin.txt | head -c 51200]"},
		{`{"path":"lines.txt"}`, "[Showing lines 1-800 of 1048577 (50.0KB limit). Use offset=801 to continue.]"},
	} {
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		res, err := tool.Execute(context.Background(), engine.ToolCall{ID: "1", Name: "read", Args: json.RawMessage(tc.args)}, func(engine.ToolResult) {})
		runtime.ReadMemStats(&after)
		if err != nil {
			t.Fatalf("%s: %v", tc.args, err)
		}
		if got := res.Content[0].Text; !strings.HasSuffix(got, tc.wantSuffix) {
			t.Errorf("%s: text ends %q, want %q", tc.args, got[max(0, len(got)-120):], tc.wantSuffix)
		}
		if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 8<<20 {
			t.Errorf("%s: allocated %d bytes reading the file, want under 8 MiB", tc.args, alloc)
		}
	}
}

// readText selects lines [start, start+limit) of content and applies the
// head truncation and continuation notices.
func oldReadText(content, path string, offset, limit *float64) (engine.ToolResult, error) {
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
