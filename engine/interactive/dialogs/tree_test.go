package dialogs

import (
	"fmt"
	"strings"
	"testing"

	"github.com/pi-go/pi/engine"
	"github.com/pi-go/pi/engine/session"
)

// testTree is a session that branched after the first reply:
//
//	u1 → a1 → u2 → a2 (leaf)
//	       ↘ u3 → a3 (calls bash) → t3 → a4
func testTree(t *testing.T) (*session.File, string) {
	t.Helper()
	n := 0
	var entries []*engine.Entry
	add := func(id, parent string, e *engine.Entry) {
		n++
		e.ID = id
		e.Timestamp = fmt.Sprintf("2026-12-01T10:00:%02d.000Z", n)
		if parent != "" {
			p := parent
			e.ParentID = &p
		}
		entries = append(entries, e)
	}
	msg := func(role, text string) *engine.Entry {
		return &engine.Entry{Type: engine.EntryMessage, Message: &engine.Message{Role: role, Content: engine.StringContents(text), StopReason: engine.StopStop}}
	}
	add("u1", "", msg(engine.RoleUser, "first question"))
	add("a1", "u1", msg(engine.RoleAssistant, "first answer"))
	add("mc", "a1", &engine.Entry{Type: engine.EntryModelChange, Provider: "mock", ModelID: "m2"})
	add("u2", "mc", msg(engine.RoleUser, "second question 中文"))
	add("a2", "u2", msg(engine.RoleAssistant, "second answer"))
	add("u3", "a1", msg(engine.RoleUser, "other direction"))
	call := &engine.Entry{Type: engine.EntryMessage, Message: &engine.Message{Role: engine.RoleAssistant, StopReason: engine.StopToolUse,
		Content: engine.Contents{Blocks: []engine.Content{{Type: engine.ContentToolCall, ID: "c1", Name: "bash", Arguments: []byte(`{"command":"ls -la && echo done"}`)}}}}}
	add("a3", "u3", call)
	add("t3", "a3", &engine.Entry{Type: engine.EntryMessage, Message: &engine.Message{Role: engine.RoleToolResult, ToolCallID: "c1", ToolName: "bash", Content: engine.StringContents("ok")}})
	add("a4", "t3", msg(engine.RoleAssistant, "done"))
	f, err := session.InMemoryWith("/p", "s1", entries)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.AppendLabel("u3", "idea"); err != nil {
		t.Fatal(err)
	}
	return f, "a2"
}

func TestTreeSelectorGolden(t *testing.T) {
	t.Parallel()
	f, leaf := testTree(t)
	ts := NewTreeSelector(Style{}, TreeSelectorOptions{Tree: f.Tree(), LeafID: leaf, OnLabel: func(string, string) error { return nil }})
	golden(t, "tree-default", ts)
	press(ts, "ctrl+a")
	golden(t, "tree-all", ts)
}

func TestTreeSelectorKeys(t *testing.T) {
	t.Parallel()
	f, leaf := testTree(t)
	var chosen string
	labels := map[string]string{}
	ts := NewTreeSelector(Style{}, TreeSelectorOptions{Tree: f.Tree(), LeafID: leaf,
		OnSelect: func(id string) { chosen = id },
		OnLabel:  func(id, l string) error { labels[id] = l; return nil }})
	cur := func() string { return ts.current().node.EntryValue().ID }
	if cur() != "a2" {
		t.Fatalf("opens on %s, want the leaf", cur())
	}
	steps := []struct {
		keys   []string
		typed  string
		want   string // selected entry
		filter string
		rows   int
	}{
		{keys: []string{"ctrl+u"}, want: "u2", filter: "user-only", rows: 3},
		{keys: []string{"ctrl+l"}, want: "u3", filter: "labeled-only", rows: 1},
		{keys: []string{"ctrl+o"}, want: "u3", filter: "all", rows: 9},
		{keys: []string{"ctrl+d"}, want: "u3", filter: "default", rows: 7},
		{keys: []string{"shift+ctrl+o"}, want: "u3", filter: "all", rows: 9},
		{keys: []string{"ctrl+t"}, want: "u3", filter: "no-tools", rows: 6},
		{keys: []string{"ctrl+t"}, want: "u3", filter: "default", rows: 7}, // toggles back
		{keys: []string{"ctrl+t"}, want: "u3", filter: "no-tools", rows: 6},
		{keys: []string{"ctrl+d", "up", "up"}, want: "u2", filter: "default", rows: 7},
		{typed: "other", want: "u3", filter: "default", rows: 1},
		{keys: []string{"escape"}, want: "u3", filter: "default", rows: 7},
	}
	for i, s := range steps {
		typeText(ts, s.typed)
		press(ts, s.keys...)
		if cur() != s.want || ts.FilterMode() != s.filter || len(ts.shown) != s.rows {
			t.Fatalf("step %d: at %s filter %s rows %d, want %s %s %d\n%s", i, cur(), ts.FilterMode(), len(ts.shown), s.want, s.filter, s.rows, rowsText(ts, 80))
		}
	}
	// Fold the branch point a1: its descendants go; unfold brings them back.
	press(ts, "up", "up", "up")
	if cur() != "a1" {
		t.Fatalf("at %s, want a1", cur())
	}
	press(ts, "ctrl+left")
	if len(ts.shown) != 2 || !strings.Contains(rowsText(ts, 80), "⊞") {
		t.Fatalf("fold: %d rows\n%s", len(ts.shown), rowsText(ts, 80))
	}
	press(ts, "ctrl+right")
	if len(ts.shown) != 7 {
		t.Fatalf("unfold: %d rows", len(ts.shown))
	}
	// Label a1, then select it.
	press(ts, "shift+l")
	typeText(ts, "here")
	press(ts, "enter")
	if labels["a1"] != "here" || !strings.Contains(rowsText(ts, 80), "[here]") {
		t.Fatalf("label: %v\n%s", labels, rowsText(ts, 80))
	}
	press(ts, "enter")
	if chosen != "a1" || !ts.Done() {
		t.Fatalf("chose %q", chosen)
	}
}

func TestTreeToolSummary(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("x", 60)
	for _, tc := range []struct {
		name, args, want string
	}{
		{"read", `{"path":"/home/u/a.go","offset":3,"limit":2}`, "[read: ~/a.go:3-4]"},
		{"edit", `{"path":"b.txt","edits":[]}`, "[edit: b.txt]"},
		{"bash", `{"command":"printf 'a\\nb'\nls"}`, `[bash: printf 'a\nb' ls]`},
		{"bash", `{"command":"` + long + `"}`, "[bash: " + long[:50] + "...]"},
		{"grep", `{"pattern":"TODO"}`, "[grep: /TODO/ in .]"},
		{"find", `{"pattern":"*.go","path":"/home/u/src"}`, "[find: *.go in ~/src]"},
		{"ls", `{}`, "[ls: .]"},
		{"custom", `{"query":"` + long + `"}`, `[custom: {"query":"` + long[:30] + `...]`},
	} {
		got := toolSummary(engine.Content{Name: tc.name, Arguments: []byte(tc.args)}, "/home/u")
		if got != tc.want {
			t.Errorf("%s %s: %q, want %q", tc.name, tc.args, got, tc.want)
		}
	}
}
