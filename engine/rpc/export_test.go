package rpc

import (
	"bufio"
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/pi-go/pi/engine"
)

var updateGolden = flag.Bool("update", false, "rewrite golden files under testdata/")

// loadSession reads a session file: the header line, then entries.
func loadSession(t *testing.T, path string) (engine.Header, []*engine.Entry) {
	t.Helper()
	f, err := os.Open(path)
	require.NoError(t, err)
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<24)
	var h engine.Header
	var entries []*engine.Entry
	for first := true; sc.Scan(); first = false {
		if first {
			require.NoError(t, json.Unmarshal(sc.Bytes(), &h))
			continue
		}
		e := new(engine.Entry)
		require.NoError(t, json.Unmarshal(sc.Bytes(), e))
		entries = append(entries, e)
	}
	require.NoError(t, sc.Err())
	return h, entries
}

func TestExportGolden(t *testing.T) {
	t.Parallel()
	h, entries := loadSession(t, "testdata/export/session.jsonl")
	page, err := RenderHTML(h, entries, ExportOptions{
		SystemPrompt: "You are a test agent.\nBe <brief>.",
		Tools:        []ExportTool{{Name: "bash", Description: "Run a command"}, {Name: "read", Description: "Read a file"}},
	})
	require.NoError(t, err)
	golden := "testdata/export/session.html"
	if *updateGolden {
		require.NoError(t, os.WriteFile(golden, page, 0o644))
	}
	want, err := os.ReadFile(golden)
	require.NoError(t, err)
	require.Equal(t, string(want), string(page), "run go test ./engine/rpc -run TestExportGolden -update")
}

// TestExportCarriesEverything checks the information content the brief
// asks of the page, independently of the golden's layout.
func TestExportCarriesEverything(t *testing.T) {
	t.Parallel()
	h, entries := loadSession(t, "testdata/export/session.jsonl")
	page, err := RenderHTML(h, entries, ExportOptions{})
	require.NoError(t, err)
	s := string(page)
	for _, want := range []string{
		"<title>demo session</title>",                        // session name
		"2026-11-29T20:33:18.255Z",                           // header timestamp
		"Please run a tool",                                  // user text
		"data:image/png;base64,iVBORw0KGgo",                  // inline image
		"Let me think about the request.",                    // thinking
		`<span class="name">bash</span>`,                     // tool call
		"&#34;command&#34;: &#34;echo hi &lt;there&gt;&#34;", // tool arguments, escaped
		"Tool error: bash",                                   // failed tool result
		"$ echo from-bash",                                   // bash execution
		"exit code 0",                                        //
		"Run a tool &amp; report &lt;results&gt;.",           // compaction summary
		"1234 tokens before",                                 //
		"Tried the main line; came back.",                    // branch summary
		"Alternative answer",                                 // other branch
		"Connection error.",                                  // assistant error
		"mock/mock-large",                                    // model change
		"A note from an extension",                           // custom message
		"ext-state",                                          // custom entry
		"String content &lt;b&gt;not bold&lt;/b&gt;",         // string content, escaped
		`id="e-aa000006"`,                                    // anchors per entry
		`leaf"`,                                              //
	} {
		require.Contains(t, s, want)
	}
	// Self-contained: no external scripts, styles, images or fonts.
	require.NotRegexp(t, regexp.MustCompile(`(?i)<(script|img|link|iframe)[^>]+(src|href)="(https?:)?//`), s)
	require.NotContains(t, s, "<link")
	require.NotContains(t, s, "@import")
	// The current branch comes before the other branch.
	s = s[strings.Index(s, "<main>"):]
	require.Less(t, strings.Index(s, "Current branch"), strings.Index(s, "Alternative answer"))
	require.Less(t, strings.Index(s, "And now?"), strings.Index(s, "Other branches"))
}

func TestExportLeafSelectsBranch(t *testing.T) {
	t.Parallel()
	h, entries := loadSession(t, "testdata/export/session.jsonl")
	page, err := RenderHTML(h, entries, ExportOptions{LeafID: "bb000003"})
	require.NoError(t, err)
	s := string(page)
	s = s[strings.Index(s, "<main>"):]
	cur := s[strings.Index(s, "Current branch"):strings.Index(s, "Other branches")]
	require.Contains(t, cur, "Alternative answer")
	require.NotContains(t, cur, "And now?")
}

func TestExportPaths(t *testing.T) {
	t.Parallel()
	h := engine.Header{Type: "session", ID: "01a22903-17af-72ca-b2bf-04842ba4c644", Timestamp: "2026-11-29T20:33:18.255Z"}
	cases := []struct {
		name, out, file, want string
	}{
		{"default from header", "", "", "pi-session-2026-11-29T20-33-18-255Z_01a22903-17af-72ca-b2bf-04842ba4c644.html"},
		{"default from file", "", "/s/--x--/custom-name.jsonl", "pi-session-custom-name.html"},
		{"relative kept", "sub/../rel.html", "", "sub/../rel.html"},
		{"absolute kept", "/tmp/a/../b.html", "", "/tmp/a/../b.html"},
		{"tilde", "~/x/../out.html", "", "/home/u/out.html"},
		{"tilde alone", "~", "", "/home/u"},
		{"file url", "file:///tmp/o%20x.html", "", "/tmp/o x.html"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			got, err := exportPath(h, c.out, ExportOptions{SessionFile: c.file, HomeDir: "/home/u"})
			require.NoError(t, err)
			require.Equal(t, c.want, got)
		})
	}
}

func TestExportWrites(t *testing.T) {
	t.Parallel()
	h, entries := loadSession(t, "testdata/export/session.jsonl")
	dir := t.TempDir()
	out := filepath.Join(dir, "out.html")
	got, err := ExportHTML(h, entries, out)
	require.NoError(t, err)
	require.Equal(t, out, got)
	b, err := os.ReadFile(out)
	require.NoError(t, err)
	require.True(t, bytes.HasPrefix(b, []byte("<!DOCTYPE html>")))

	missing := filepath.Join(dir, "nope", "a.html")
	_, err = ExportHTML(h, entries, missing)
	require.EqualError(t, err, "ENOENT: no such file or directory, open '"+missing+"'")
	require.ErrorIs(t, err, os.ErrNotExist)

	_, err = ExportHTML(h, entries, dir)
	require.EqualError(t, err, "EISDIR: illegal operation on a directory, open '"+dir+"'")
}

func TestCheckExportable(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	written := filepath.Join(dir, "s.jsonl")
	require.NoError(t, os.WriteFile(written, []byte("{}\n"), 0o644))
	require.EqualError(t, CheckExportable(""), "Cannot export in-memory session to HTML")
	require.EqualError(t, CheckExportable(filepath.Join(dir, "later.jsonl")), "Nothing to export yet - start a conversation first")
	require.NoError(t, CheckExportable(written))
}

func TestExportEmptyAndOddEntries(t *testing.T) {
	t.Parallel()
	self := "x1"
	entries := []*engine.Entry{
		nil,
		{Type: "future_type", ID: "x1", ParentID: &self, Timestamp: "t"}, // self-parented root
		{Type: engine.EntryMessage, ID: "x2", ParentID: strPtr("gone"), Timestamp: "t",
			Message: &engine.Message{Role: engine.RoleUser, Content: engine.Blocks(engine.ImageContent("AAAA", `image/png"onerror="x`))}},
	}
	page, err := RenderHTML(engine.Header{ID: "h"}, entries, ExportOptions{})
	require.NoError(t, err)
	s := string(page)
	require.Contains(t, s, "future_type")
	require.Contains(t, s, "data:application/octet-stream;base64,AAAA")
	require.NotContains(t, s, `onerror="x`)
	_, err = RenderHTML(engine.Header{ID: "h"}, nil, ExportOptions{})
	require.NoError(t, err)
}

func strPtr(s string) *string { return &s }
