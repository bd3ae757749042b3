package compaction

import (
	"context"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pi-go/pi/engine"
	"github.com/pi-go/pi/engine/llm/faux"
)

var update = flag.Bool("update", false, "rewrite golden files")

func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name+".golden")
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
		t.Errorf("%s differs\n--- want\n%s\n--- got\n%s", name, want, got)
	}
}

func user(s string) *engine.Message {
	return &engine.Message{Role: engine.RoleUser, Content: engine.Blocks(engine.TextContent(s))}
}

func assistant(text string, calls ...engine.Content) *engine.Message {
	var blocks []engine.Content
	if text != "" {
		blocks = append(blocks, engine.TextContent(text))
	}
	blocks = append(blocks, calls...)
	return &engine.Message{Role: engine.RoleAssistant, Content: engine.Blocks(blocks...), StopReason: engine.StopStop}
}

func toolCall(id, name, args string) engine.Content {
	return engine.Content{Type: engine.ContentToolCall, ID: id, Name: name, Arguments: json.RawMessage(args)}
}

func result(id, text string) *engine.Message {
	return &engine.Message{Role: engine.RoleToolResult, ToolCallID: id, ToolName: "read", Content: engine.Blocks(engine.TextContent(text))}
}

// branch wraps messages into message entries e1, e2, ….
func branch(msgs ...*engine.Message) []*engine.Entry {
	out := make([]*engine.Entry, len(msgs))
	for i, m := range msgs {
		id := "e" + string(rune('1'+i))
		out[i] = &engine.Entry{Type: engine.EntryMessage, ID: id, Message: m, Timestamp: "2026-01-01T00:00:00.000Z"}
	}
	return out
}

func TestFindCutPoint(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("x", 80) // 20 tokens
	cases := []struct {
		name  string
		msgs  []*engine.Message
		keep  int
		first string
		split bool
	}{
		{"keep everything when under budget", []*engine.Message{user("a"), assistant("b")}, 1000, "e1", false},
		{"cut at the last user message", []*engine.Message{user(long), assistant(long), user(long), assistant("ok")}, 20, "e3", false},
		{"never cut at a tool result", []*engine.Message{user(long), assistant("", toolCall("c1", "read", `{"path":"a"}`)), result("c1", long+long)}, 30, "e2", true},
		{"split turn inside one long span", []*engine.Message{user(long), assistant(long), assistant(long), assistant(long)}, 40, "e3", true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			b := branch(c.msgs...)
			proj := engine.ProjectContext(b)
			cut := FindCutPoint(proj, 0, len(proj), c.keep)
			if got := proj[cut.FirstKeptIndex].Entry.ID; got != c.first || cut.SplitTurn != c.split {
				t.Errorf("cut at %s split=%v, want %s split=%v", got, cut.SplitTurn, c.first, c.split)
			}
			if proj[cut.FirstKeptIndex].Entry.Message.Role == engine.RoleToolResult {
				t.Error("cut at a tool result")
			}
		})
	}
}

func TestPrepareCompaction(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("y", 80)
	b := branch(user("read it"), assistant("", toolCall("c1", "read", `{"path":"src/a.go"}`), toolCall("c2", "edit", `{"path":"src/b.go"}`)),
		result("c1", "body"), result("c2", "ok"), assistant("done"), user(long), assistant(long))
	prep, err := PrepareCompaction(b, engine.CompactionSettings{Enabled: true, KeepRecentTokens: 30})
	if err != nil {
		t.Fatal(err)
	}
	if prep.FirstKeptEntryID != "e6" || prep.IsSplitTurn || len(prep.MessagesToSummarize) != 5 {
		t.Fatalf("prep %+v", prep)
	}
	r, m := FileLists(prep.FileOps)
	if strings.Join(r, ",") != "src/a.go" || strings.Join(m, ",") != "src/b.go" {
		t.Errorf("files %v %v", r, m)
	}
	if _, err := PrepareCompaction(append(b, &engine.Entry{Type: engine.EntryCompaction, ID: "c"}), engine.CompactionSettings{}); err != ErrAlreadyCompacted {
		t.Errorf("after compaction: %v", err)
	}
	if _, err := PrepareCompaction(branch(user("hi")), engine.CompactionSettings{KeepRecentTokens: 10}); err != ErrNothingToCompact {
		t.Errorf("tiny session: %v", err)
	}
}

func TestSerializeConversation(t *testing.T) {
	t.Parallel()
	msgs := []*engine.Message{
		user("Fix the bug <in> a & b"),
		{Role: engine.RoleAssistant, Content: engine.Blocks(
			engine.Content{Type: engine.ContentThinking, Thinking: "hidden"},
			engine.TextContent("Looking."),
			toolCall("c1", "read", `{"path": "a.go", "offset": 3, "opts": {"z": 1, "a": [true]}}`),
			toolCall("c2", "bash", `{"command":"go test ./..."}`),
		)},
		result("c1", strings.Repeat("é", 2005)),
		{Role: engine.RoleCompactionSummary, Summary: "old summary"},
	}
	golden(t, "serialize", SerializeConversation(engine.ConvertToLLM(msgs)))
}

func TestSummarizeSplitTurnAndRetry(t *testing.T) {
	t.Parallel()
	p := faux.New(faux.Turn{Error: "503: overloaded"}, faux.Turn{Text: "history"}, faux.Turn{Text: "prefix"})
	prep := &engine.CompactionPreparation{
		FirstKeptEntryID: "e3", MessagesToSummarize: []*engine.Message{user("a"), assistant("b")},
		TurnPrefixMessages: []*engine.Message{user("c")}, IsSplitTurn: true, FileOps: engine.NewFileOps(),
	}
	prep.FileOps.Written["w.txt"] = true
	var events []string
	req := engine.SummaryRequest{
		Provider: p, Model: &engine.Model{ID: "m", API: "faux", Provider: "faux", ContextWindow: 100000, MaxTokens: 8000},
		Retry:  engine.RetrySettings{Enabled: true, MaxRetries: 2, BaseDelayMs: 1},
		Source: "compaction", Reason: "manual",
		Emit: func(e engine.Event) { events = append(events, e.EventType()) },
	}
	sum, err := Summarize(context.Background(), prep, req)
	if err != nil {
		t.Fatal(err)
	}
	want := "history\n\n---\n\n**Turn Context (split turn):**\n\nprefix\n\n<modified-files>\nw.txt\n</modified-files>"
	if sum.Text != want || string(sum.Details) != `{"readFiles":[],"modifiedFiles":["w.txt"]}` {
		t.Errorf("summary %q details %s", sum.Text, sum.Details)
	}
	if got := strings.Join(events, " "); got != "summarization_retry_scheduled summarization_retry_attempt_start summarization_retry_finished" {
		t.Errorf("events %s", got)
	}
	reqs := p.Requests()
	for i, r := range reqs {
		// Summaries write no prompt cache and have their own routing id.
		if r.CacheRetention != "none" || r.SessionID == "" {
			t.Errorf("request %d: cacheRetention %q sessionId %q", i, r.CacheRetention, r.SessionID)
		}
	}
	if len(reqs) != 3 || !strings.HasPrefix(reqs[2].Messages[0].Content.Text(), "# Conversation\n[User]: c\n\n# Instructions\n") {
		t.Errorf("prefix request %q", reqs[2].Messages[0].Content.Text())
	}
}

func TestSummarizeLengthFails(t *testing.T) {
	t.Parallel()
	p := faux.New(faux.Turn{Text: "cut", StopReason: engine.StopLength})
	prep := &engine.CompactionPreparation{MessagesToSummarize: []*engine.Message{user("a")}, FileOps: engine.NewFileOps()}
	_, err := Summarize(context.Background(), prep, engine.SummaryRequest{Provider: p, Model: &engine.Model{ID: "m", MaxTokens: 100}})
	if err == nil || err.Error() != "Summarization failed: generation hit the token cap and the summary is incomplete" {
		t.Fatalf("err %v", err)
	}
}

func TestBranchSummary(t *testing.T) {
	t.Parallel()
	p := faux.New(faux.Turn{Text: "## Goal\nx"})
	entries := branch(user("try it"), assistant("", toolCall("c1", "read", `{"path":"r.md"}`)), result("c1", "text"))
	res, err := BranchSummary(context.Background(), entries, engine.SummaryRequest{Provider: p, Model: &engine.Model{ID: "m", MaxTokens: 100}}, BranchOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(res.Summary, branchPreamble+"## Goal\nx") || !strings.HasSuffix(res.Summary, "<read-files>\nr.md\n</read-files>") {
		t.Errorf("summary %q", res.Summary)
	}
	if string(res.Details()) != `{"readFiles":["r.md"],"modifiedFiles":[]}` {
		t.Errorf("details %s", res.Details())
	}
	if r := p.Requests()[0]; r.CacheRetention != "none" || r.SessionID == "" {
		t.Errorf("cacheRetention %q sessionId %q", r.CacheRetention, r.SessionID)
	}
	text := p.Requests()[0].Messages[0].Content.Text()
	if strings.Contains(text, "[Tool result]") {
		t.Error("branch summaries leave tool results out")
	}
}

func TestEstimateTokens(t *testing.T) {
	t.Parallel()
	cases := []struct {
		m    *engine.Message
		want int
	}{
		{user("abcd"), 1},
		{user("abcde"), 2},
		{assistant("", toolCall("c", "read", `{"path": "a"}`)), 4}, // "read" + {"path":"a"} = 4+12
		{&engine.Message{Role: engine.RoleCompactionSummary, Summary: "12345678"}, 2},
		{&engine.Message{Role: engine.RoleUser, Content: engine.Blocks(engine.ImageContent("x", "image/png"))}, 1200},
	}
	for _, c := range cases {
		if got := EstimateTokens(c.m); got != c.want {
			t.Errorf("%s: %d, want %d", c.m.Role, got, c.want)
		}
	}
}
