package session

import (
	"path/filepath"
	"testing"

	"github.com/pi-go/pi/engine"
)

// TestListAndListAll creates sessions for two projects and checks that
// List returns only the project's, newest first, with name, count and
// first message, and that ListAll returns both.
func TestListAndListAll(t *testing.T) {
	t.Parallel()
	agentDir := t.TempDir()
	projA, projB := t.TempDir(), t.TempDir()
	mk := func(cwd, text string, name string) string {
		f, err := Create(AgentSessionsDir(agentDir, cwd), cwd, CreateOptions{})
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		for _, role := range []string{engine.RoleUser, engine.RoleAssistant} {
			m := &engine.Message{Role: role, Content: engine.Blocks(engine.TextContent(text))}
			if err := f.Append(&engine.Entry{Type: engine.EntryMessage, Message: m}); err != nil {
				t.Fatal(err)
			}
		}
		if name != "" {
			if err := f.AppendSessionInfo(name); err != nil {
				t.Fatal(err)
			}
		}
		return f.Path()
	}
	a1 := mk(projA, "first in A", "")
	a2 := mk(projA, "second in A", "named")
	b1 := mk(projB, "only in B", "")
	list, err := List(agentDir, projA, "")
	if err != nil {
		t.Fatal(err)
	}
	if len(list) != 2 {
		t.Fatalf("List: %d sessions", len(list))
	}
	byPath := map[string]Info{}
	for _, in := range list {
		byPath[in.Path] = in
	}
	if in := byPath[a2]; in.Name != "named" || in.MessageCount != 2 || in.FirstMessage != "second in A" || in.Cwd != projA {
		t.Errorf("a2 info %+v", in)
	}
	if _, ok := byPath[a1]; !ok {
		t.Errorf("a1 missing")
	}
	all, err := ListAll(agentDir, "")
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, in := range all {
		if filepath.Clean(in.Path) == filepath.Clean(b1) {
			found = true
		}
	}
	if len(all) != 3 || !found {
		t.Errorf("ListAll: %d sessions, b1 found %v", len(all), found)
	}
}

// TestInMemoryWith seeds a branched tree and checks ids, parents and the
// leaf are kept, and that a broken seed is refused.
func TestInMemoryWith(t *testing.T) {
	t.Parallel()
	p := func(s string) *string { return &s }
	msg := func(id string, parent *string, text string) *engine.Entry {
		return &engine.Entry{Type: engine.EntryMessage, ID: id, ParentID: parent, Timestamp: "2026-01-01T00:00:00.000Z",
			Message: &engine.Message{Role: engine.RoleUser, Content: engine.Blocks(engine.TextContent(text))}}
	}
	f, err := InMemoryWith(t.TempDir(), "", []*engine.Entry{msg("a", nil, "root"), msg("b", p("a"), "one"), msg("c", p("a"), "two")})
	if err != nil {
		t.Fatal(err)
	}
	if f.LeafID() != "c" || len(f.Branch()) != 2 || f.Persisted() {
		t.Errorf("leaf %s, branch %d, persisted %v", f.LeafID(), len(f.Branch()), f.Persisted())
	}
	if err := f.Append(&engine.Entry{Type: engine.EntryMessage, Message: &engine.Message{Role: engine.RoleUser}}); err != nil {
		t.Fatal(err)
	}
	if _, err := InMemoryWith(t.TempDir(), "", []*engine.Entry{msg("x", p("missing"), "orphan")}); err == nil {
		t.Error("an orphan seed was accepted")
	}
	if _, err := InMemoryWith(t.TempDir(), "", []*engine.Entry{msg("x", nil, "a"), msg("x", nil, "b")}); err == nil {
		t.Error("a duplicate id was accepted")
	}
}
