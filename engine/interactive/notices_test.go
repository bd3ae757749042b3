package interactive

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/pi-go/pi/engine"
)

func assistantEntry(id, parent string, ts int64, u engine.Usage, text string) *engine.Entry {
	m := &engine.Message{Role: engine.RoleAssistant, Provider: "p", Model: "m", Timestamp: ts, Usage: u, StopReason: engine.StopStop}
	m.Content.Blocks = []engine.Content{engine.TextContent(text)}
	return &engine.Entry{Type: engine.EntryMessage, ID: id, ParentID: ptr(parent), Message: m}
}

func usageJSON(t *testing.T, u engine.Usage) json.RawMessage {
	t.Helper()
	b, err := engine.MarshalJSON(u)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// With showCacheMissNotices on, a replayed session shows the cache miss
// after the reply that paid for it, the warming refreshes (two with the
// same note as one line, their costs added) and a branch summary's
// billed tokens; with it off, none of them.
func TestCostNoticesReplay(t *testing.T) {
	t.Parallel()
	cached := engine.Usage{Input: 100, CacheRead: 50_000, Output: 10}
	missed := engine.Usage{Input: 50_200, CacheRead: 0, CacheWrite: 0, Output: 10,
		Cost: engine.Cost{Input: 0.15}}
	warm := engine.Usage{CacheRead: 50_000, Output: 1, Cost: engine.Cost{Total: 0.0125}}
	sum := engine.Usage{Input: 30_000, Output: 1200, Cost: engine.Cost{Total: 0.5}}
	entries := []*engine.Entry{
		assistantEntry("a1", "", 1_000, cached, "first reply"),
		{Type: engine.EntryUsage, Kind: "cache_warm", ID: "w1", ParentID: ptr("a1"), Usage: usageJSON(t, warm), Note: "idle", Provider: "p", Model: "m", Timestamp: "1970-01-01T00:00:01.500Z"},
		{Type: engine.EntryUsage, Kind: "cache_warm", ID: "w2", ParentID: ptr("w1"), Usage: usageJSON(t, warm), Note: "idle", Provider: "p", Model: "m", Timestamp: "1970-01-01T00:00:01.500Z"},
		assistantEntry("a2", "w2", 2_000, missed, "second reply"),
		{Type: engine.EntryBranchSummary, ID: "b1", ParentID: ptr("a2"), Summary: "what happened", Usage: usageJSON(t, sum)},
	}
	for _, on := range []bool{true, false} {
		tr := newTranscript(testView())
		tr.costs = &costNotices{on: func() bool { return on }, entries: func() []*engine.Entry { return entries },
			branch: func() []*engine.Entry { return entries }}
		tr.Replay(entries)
		text := strings.Join(tr.Render(100), "\n")
		for _, want := range []string{"Cache warmed (idle): $0.025", "Cache miss: 50k tokens re-billed (~$0.15)", "Branch summary: 31k tokens billed (~$0.50)"} {
			if got := strings.Contains(text, want); got != on {
				t.Errorf("on=%v: %q shown %v:\n%s", on, want, got, text)
			}
		}
		if on && (strings.Index(text, "second reply") > strings.Index(text, "Cache miss") || strings.Count(text, "Cache warmed") != 1) {
			t.Errorf("notices misplaced:\n%s", text)
		}
	}
}

// Live, a reply's end adds the dropped-reasoning notice, and a refresh
// appended to the session adds the warming line.
func TestCostNoticesLive(t *testing.T) {
	t.Parallel()
	tr := newTranscript(testView())
	var entries []*engine.Entry
	tr.costs = &costNotices{on: func() bool { return true }, entries: func() []*engine.Entry { return entries },
		branch: func() []*engine.Entry { return entries }}
	m := &engine.Message{Role: engine.RoleAssistant, StopReason: engine.StopStop,
		Diagnostics: json.RawMessage(`[{"type":"anthropic_input_transformations","details":{"transformations":[{"type":"thinking_dropped","reason":"signature mismatch"}]}}]`)}
	tr.Handle(engine.MessageStart{Message: m})
	tr.Handle(engine.MessageEnd{Message: m})
	// Saved before the UI saw the end: the previous response is not itself.
	entries = append(entries, &engine.Entry{Type: engine.EntryMessage, ID: "x", Message: m})
	tr.Handle(engine.EntryAppended{Entry: &engine.Entry{Type: engine.EntryUsage, Kind: "cache_warm", Usage: usageJSON(t, engine.Usage{Cost: engine.Cost{Total: 0.002}})}})
	text := strings.Join(tr.Render(100), "\n")
	for _, want := range []string{"Anthropic dropped 1 thinking block: signature mismatch (details in session)", "Cache warmed: $0.002"} {
		if !strings.Contains(text, want) {
			t.Errorf("lacks %q:\n%s", want, text)
		}
	}
}

func ptr(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

// The prompt jumps land on the first row of each user message and reply,
// below its separator; notices and tool rows are not marks.
func TestTranscriptMarkRows(t *testing.T) {
	t.Parallel()
	tr := newTranscript(testView())
	u := &engine.Message{Role: engine.RoleUser}
	u.Content.Blocks = []engine.Content{engine.TextContent("question")}
	tr.addMessage(u, false)
	tr.notice("dim", "a notice")
	tr.addMessage(assistantEntry("a", "", 1, engine.Usage{}, "answer").Message, false)
	rows := tr.Render(60)
	marks := tr.MarkRows(60)
	if len(marks) != 2 {
		t.Fatalf("marks %v", marks)
	}
	if !strings.Contains(rows[marks[0]]+rows[marks[0]+1], "question") || !strings.Contains(rows[marks[1]], "answer") {
		t.Fatalf("marks %v on %q", marks, rows)
	}
}
