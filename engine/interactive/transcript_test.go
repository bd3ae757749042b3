package interactive

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pi-go/pi/engine"
	"github.com/pi-go/pi/engine/tui"
)

var update = flag.Bool("update", false, "rewrite golden files")

// golden compares got with testdata/name, or rewrites it with -update.
func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update)", err)
	}
	if string(want) != got {
		t.Errorf("%s differs:\n--- got\n%s\n--- want\n%s", name, got, want)
	}
}

func testView() *view {
	return &view{thinkingLabel: "Thinking...", expandKey: "ctrl+o", home: "/home/u"}
}

func assistant(blocks ...engine.Content) *engine.Message {
	return &engine.Message{Role: engine.RoleAssistant, Content: engine.Blocks(blocks...), StopReason: engine.StopStop}
}

func toolCall(id, name string, args any) engine.Content {
	b, _ := json.Marshal(args)
	return engine.Content{Type: engine.ContentToolCall, ID: id, Name: name, Arguments: b}
}

func ms(n int64) *int64 { return &n }

// scriptedTurn feeds the events of one prompt with a bash call, an edit
// and a failed read.
func scriptedTurn(tr *Transcript) {
	user := &engine.Message{Role: engine.RoleUser, Content: engine.StringContents("Change the greeting")}
	tr.Handle(engine.MessageStart{Message: user})
	tr.Handle(engine.MessageEnd{Message: user})
	partial := assistant(engine.Content{Type: engine.ContentThinking, Thinking: "Short plan: run a command, then edit."})
	partial.StopReason = engine.StopPending
	tr.Handle(engine.MessageStart{Message: partial})
	final := assistant(
		engine.Content{Type: engine.ContentThinking, Thinking: "Short plan: run a command, then edit."},
		engine.TextContent("I will check the folder."),
		toolCall("t1", "bash", map[string]any{"command": "printf 'a\\nb'"}),
		toolCall("t2", "edit", map[string]any{"path": "greeting.txt"}),
		toolCall("t3", "read", map[string]any{"path": "missing.txt"}),
	)
	final.StopReason = engine.StopToolUse
	tr.Handle(engine.MessageUpdate{Message: final})
	tr.Handle(engine.MessageEnd{Message: final})
	tr.Handle(engine.ToolExecutionStart{ToolCallID: "t1", ToolName: "bash", Args: final.Content.Blocks[2].Arguments})
	tr.Handle(engine.ToolExecutionEnd{ToolCallID: "t1", ToolName: "bash", DurationMs: ms(12),
		Result: engine.ToolResult{Content: []engine.Content{engine.TextContent("a\nb\nc\nd\ne\nf\ng\nh\ni\nj\nk\nl\n")}}})
	tr.Handle(engine.ToolExecutionStart{ToolCallID: "t2", ToolName: "edit", Args: final.Content.Blocks[3].Arguments})
	tr.Handle(engine.ToolExecutionEnd{ToolCallID: "t2", ToolName: "edit",
		Result: engine.ToolResult{Content: []engine.Content{engine.TextContent("ok")},
			Details: json.RawMessage(`{"diff":"-1 hello world\n+1 hello conformance\n 2 line two"}`)}})
	tr.Handle(engine.ToolExecutionStart{ToolCallID: "t3", ToolName: "read", Args: final.Content.Blocks[4].Arguments})
	tr.Handle(engine.ToolExecutionEnd{ToolCallID: "t3", ToolName: "read", IsError: true,
		Result: engine.ToolResult{Content: []engine.Content{engine.TextContent("ENOENT: no such file or directory, access 'missing.txt'")}}})
}

func TestTranscriptGolden(t *testing.T) {
	t.Parallel()
	for _, w := range []int{20, 40, 80, 120} {
		t.Run(fmt.Sprint(w), func(t *testing.T) {
			t.Parallel()
			v := testView()
			tr := newTranscript(v)
			scriptedTurn(tr)
			got := strings.Join(tr.Render(w), "\n") + "\n"
			for i, r := range tr.Render(w) {
				if tui.Width(r) > w {
					t.Errorf("row %d is %d cells wide at width %d: %q", i, tui.Width(r), w, r)
				}
			}
			golden(t, fmt.Sprintf("transcript_%d.golden", w), got)
			// Ctrl+O: the bash row shows all its output.
			v.toolsExpanded = true
			v.changed()
			tr.invalidateAll()
			if exp := strings.Join(tr.Render(w), "\n"); !strings.Contains(exp, " a") || strings.Contains(exp, "earlier lines") {
				t.Errorf("expanded transcript still collapsed:\n%s", exp)
			}
		})
	}
}

// TestTranscriptReplay checks that history replay draws what the live
// events drew.
func TestTranscriptReplay(t *testing.T) {
	t.Parallel()
	live := newTranscript(testView())
	scriptedTurn(live)
	user := &engine.Message{Role: engine.RoleUser, Content: engine.StringContents("Change the greeting")}
	final := assistant(
		engine.Content{Type: engine.ContentThinking, Thinking: "Short plan: run a command, then edit."},
		engine.TextContent("I will check the folder."),
		toolCall("t1", "bash", map[string]any{"command": "printf 'a\\nb'"}),
		toolCall("t2", "edit", map[string]any{"path": "greeting.txt"}),
		toolCall("t3", "read", map[string]any{"path": "missing.txt"}),
	)
	final.StopReason = engine.StopToolUse
	res := func(id, text string, isErr bool, details string, d *int64) *engine.Message {
		m := &engine.Message{Role: engine.RoleToolResult, ToolCallID: id, Content: engine.Blocks(engine.TextContent(text)), IsError: isErr, DurationMs: d}
		if details != "" {
			m.Details = json.RawMessage(details)
		}
		return m
	}
	msgs := []*engine.Message{user, final,
		res("t1", "a\nb\nc\nd\ne\nf\ng\nh\ni\nj\nk\nl\n", false, "", ms(12)),
		res("t2", "ok", false, `{"diff":"-1 hello world\n+1 hello conformance\n 2 line two"}`, nil),
		res("t3", "ENOENT: no such file or directory, access 'missing.txt'", true, "", nil),
	}
	var branch []*engine.Entry
	for i, m := range msgs {
		branch = append(branch, &engine.Entry{Type: engine.EntryMessage, ID: fmt.Sprint(i), Message: m})
	}
	replayed := newTranscript(testView())
	replayed.Replay(branch)
	a, b := strings.Join(live.Render(80), "\n"), strings.Join(replayed.Render(80), "\n")
	if a != b {
		t.Errorf("replay differs from live:\n--- live\n%s\n--- replay\n%s", a, b)
	}
}

// TestRenderRows checks the windowed render against the full one.
func TestRenderRows(t *testing.T) {
	t.Parallel()
	tr := newTranscript(testView())
	for range 5 {
		scriptedTurn(tr)
	}
	all := tr.Render(50)
	if tr.Height(50) != len(all) {
		t.Fatalf("Height %d, Render %d rows", tr.Height(50), len(all))
	}
	for _, c := range [][2]int{{0, 10}, {7, 33}, {len(all) - 5, len(all) + 5}, {40, 41}} {
		got := tr.RenderRange(50, c[0], c[1])
		want := all[c[0]:min(c[1], len(all))]
		if strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Errorf("RenderRange(%d, %d) differs", c[0], c[1])
		}
	}
	// A change to the last item re-lays out only from it.
	h := tr.Height(50)
	tr.notice("error", "Error: boom")
	if tr.Height(50) != h+2 {
		t.Errorf("height after a notice = %d, want %d", tr.Height(50), h+2)
	}
}

func TestWordDiff(t *testing.T) {
	t.Parallel()
	cases := []struct{ old, new, wantOld, wantNew string }{
		{"hello world", "hello conformance", "hello \x1b[7mworld\x1b[27m", "hello \x1b[7mconformance\x1b[27m"},
		{"  a := 1", "  a := 2", "  a := \x1b[7m1\x1b[27m", "  a := \x1b[7m2\x1b[27m"},
		{"same", "same", "same", "same"},
		{"", "new text", "", "\x1b[7mnew text\x1b[27m"},
	}
	for _, c := range cases {
		o, n := wordDiff(c.old, c.new)
		if o != c.wantOld || n != c.wantNew {
			t.Errorf("wordDiff(%q, %q) = %q, %q; want %q, %q", c.old, c.new, o, n, c.wantOld, c.wantNew)
		}
	}
}

func TestFormatDuration(t *testing.T) {
	t.Parallel()
	for ms, want := range map[int64]string{0: "0.0s", 1234: "1.2s", 125000: "2m 5s", 3725000: "1h 2m 5s"} {
		if got := formatDuration(ms); got != want {
			t.Errorf("formatDuration(%d) = %q, want %q", ms, got, want)
		}
	}
}
