package session

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestParseStreamMatchesParseFile checks that streaming a current session
// file gives what reading it whole gave: the same header, entries, line
// places (the exact bytes of each line), torn tail and missing final
// newline, whatever the blank, malformed, CRLF or undecodable lines.
func TestParseStreamMatchesParseFile(t *testing.T) {
	t.Parallel()
	h := `{"type":"session","version":3,"id":"s1","timestamp":"2026-01-01T00:00:00.000Z","cwd":"/tmp"}`
	e1 := `{"type":"message","id":"a","parentId":null,"timestamp":"2026-01-01T00:00:01.000Z","message":{"role":"user","content":[{"type":"text","text":"hi \u00e9"}],"timestamp":1}}`
	e2 := `{"type":"model_change","id":"b","parentId":"a","timestamp":"2026-01-01T00:00:02.000Z","provider":"p","modelId":"m","extra":{"kept":true}}`
	bad := `{"type":"message","id":"c","parentId":"b","timestamp":"x","message":{"role":5}}`
	cases := map[string]string{
		"plain":             h + "\n" + e1 + "\n" + e2 + "\n",
		"no final newline":  h + "\n" + e1 + "\n" + e2,
		"torn tail":         h + "\n" + e1 + "\n" + `{"type":"message","id":"x`,
		"crlf":              h + "\r\n" + e1 + "\r\n" + e2 + "\r\n",
		"blank and garbage": "\n  \n" + h + "\nnot json\n\n" + e1 + "\n[1,2]\n" + e2 + "\n",
		"undecodable entry": h + "\n" + bad + "\n" + e1 + "\n",
		"undecodable last":  h + "\n" + e1 + "\n" + bad,
		"second header":     h + "\n" + e1 + "\n" + h + "\n" + e2 + "\n",
		"trailing garbage":  h + "\n" + e1 + "\n" + `{"a":1} tail`,
		"not a session":     `{"type":"message","id":"a"}` + "\n" + e1 + "\n",
		"header without id": `{"type":"session","version":3}` + "\n" + e1 + "\n",
		"garbage only":      "nope\n",
		"empty":             "",
		"header only no nl": h,
		"torn header":       `{"type":"sess`,
		"long line":         h + "\n" + `{"type":"message","id":"l","parentId":null,"timestamp":"t","message":{"role":"user","content":"` + string(bytes.Repeat([]byte("x"), 600000)) + `","timestamp":1}}` + "\n" + e2 + "\n",
	}
	for name, content := range cases {
		for _, eager := range []bool{true, false} {
			for _, size := range []int{batchBytes, 1, 100} {
				t.Run(fmt.Sprintf("%s/eager=%v/buf=%d", name, eager, size), func(t *testing.T) {
					t.Parallel()
					checkStream(t, content, eager, size)
				})
			}
		}
	}
}

// checkStream compares readSession (eager, or leaving message bodies on
// disk, reading size bytes at a time) with parseFile on one file content.
func checkStream(t *testing.T, content string, eager bool, size int) {
	want, werr := parseFile([]byte(content))
	path := filepath.Join(t.TempDir(), "s.jsonl")
	require.NoError(t, os.WriteFile(path, []byte(content), 0o644))
	fd, err := os.Open(path)
	require.NoError(t, err)
	defer fd.Close()
	got, gerr := readSession(fd, eager)
	if size != batchBytes {
		if alt, aerr := parseStreamBuf(io.NewSectionReader(fd, 0, 1<<62), eager, size); aerr != nil || !alt.legacy {
			got, gerr = alt, aerr
		}
	}
	require.Equal(t, werr, gerr)
	if werr != nil {
		return
	}
	require.Equal(t, want.headerRaw, got.headerRaw)
	require.Equal(t, want.header, got.header)
	require.Equal(t, want.tornAt, got.tornAt)
	require.Equal(t, want.needLF, got.needLF)
	require.Equal(t, len(content) > 0, got.size > 0) // size decides empty vs not a session
	require.Len(t, got.recs, len(want.recs))
	f := &File{path: path}
	for i := range want.recs {
		if eager {
			require.NotNil(t, got.recs[i].e)
		}
		require.Equal(t, want.recs[i].e, f.entryLocked(got.recs[i]))
		require.Equal(t, string(want.recs[i].raw), string(f.rawLocked(got.recs[i])))
	}
}

// TestOpenKeepsLinesOnDisk checks that a resumed session holds no line in
// memory and still answers EntryJSON with the exact stored line, before
// and after Close, and after appending.
func TestOpenKeepsLinesOnDisk(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "s.jsonl")
	h := `{"type":"session","version":3,"id":"s1","timestamp":"2026-01-01T00:00:00.000Z","cwd":"/tmp"}`
	e := `{"type":"model_change","id":"b","parentId":null,"timestamp":"2026-01-01T00:00:02.000Z","provider":"p","modelId":"m","unknown":[1, 2]}`
	require.NoError(t, os.WriteFile(path, []byte(h+"\n"+e+"\n"), 0o644))
	f, err := Open(path)
	require.NoError(t, err)
	for _, r := range f.recs {
		require.Nil(t, r.raw)
	}
	require.Equal(t, e, string(f.EntryJSON("b")))
	require.NoError(t, f.AppendSessionInfo("named"))
	require.Equal(t, e, string(f.EntryJSON("b")))
	require.NoError(t, f.Close())
	require.Equal(t, e, string(f.EntryJSON("b")))
}
