package dialogs

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/pi-go/pi/engine/session"
)

var t0 = time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)

func testSessions() []session.Info {
	return []session.Info{
		{Path: "/s/a.jsonl", ID: "a", Cwd: "/home/u/proj", Name: "demo session", MessageCount: 12, Modified: t0, FirstMessage: "hello"},
		{Path: "/s/b.jsonl", ID: "b", Cwd: "/home/u/proj", MessageCount: 3, Modified: t0.Add(-2 * time.Hour), FirstMessage: "fix the parser bug"},
		{Path: "/s/c.jsonl", ID: "c", Cwd: "/home/u/proj", MessageCount: 5, Modified: t0.Add(-10 * 24 * time.Hour), FirstMessage: "fork of b: add tests", ParentSession: "/s/b.jsonl"},
		{Path: "/s/d.jsonl", ID: "d", Cwd: "/home/u/proj", MessageCount: 1, Modified: t0.Add(-400 * 24 * time.Hour), FirstMessage: "old\nmultiline 中文"},
	}
}

func newPicker(o SessionPickerOptions) *SessionPicker {
	if o.Current == nil {
		o.Current = testSessions()
	}
	o.Now = func() time.Time { return t0.Add(30 * time.Second) }
	o.Home = "/home/u"
	return NewSessionPicker(Style{}, o)
}

func TestSessionPickerGolden(t *testing.T) {
	t.Parallel()
	p := newPicker(SessionPickerOptions{CurrentPath: "/s/a.jsonl", OnRename: func(session.Info, string) error { return nil },
		OnDelete: func(session.Info) error { return nil }})
	golden(t, "sessions-threaded", p)
	press(p, "ctrl+s")
	golden(t, "sessions-recent", p)
}

func TestSessionPickerSearch(t *testing.T) {
	t.Parallel()
	cases := []struct {
		query string
		want  []string // ids in order
	}{
		{"", []string{"a", "b", "c", "d"}},
		{"parser", []string{"b"}},
		{"prsr", []string{"b"}},
		{`"add tests"`, []string{"c"}},
		{`"tests add"`, nil},
		{"re:^fix|^old", []string{"b", "d"}},
		{"re:[", nil},
		{"中文", []string{"d"}},
	}
	for _, c := range cases {
		p := newPicker(SessionPickerOptions{})
		press(p, "ctrl+s") // recent: a flat list, newest first
		p.search.SetText(c.query)
		p.rebuild()
		var got []string
		for _, r := range p.rows {
			got = append(got, r.info.ID)
		}
		if strings.Join(got, ",") != strings.Join(c.want, ",") {
			t.Errorf("%q: %v, want %v", c.query, got, c.want)
		}
	}
}

func TestSessionPickerKeys(t *testing.T) {
	t.Parallel()
	var resumed string
	var renamed, deleted []string
	p := newPicker(SessionPickerOptions{CurrentPath: "/s/a.jsonl",
		OnSelect: func(in session.Info) { resumed = in.ID },
		OnRename: func(in session.Info, name string) error { renamed = append(renamed, in.ID+"="+name); return nil },
		OnDelete: func(in session.Info) error { deleted = append(deleted, in.ID); return nil },
		LoadAll: func(deliver func([]session.Info, error)) {
			deliver(append(testSessions(), session.Info{Path: "/s/x.jsonl", ID: "x", Cwd: "/other", Modified: t0, FirstMessage: "elsewhere"}), nil)
		}})
	// The active session cannot be deleted.
	press(p, "ctrl+d")
	if !strings.Contains(rowsText(p, 80), "Cannot delete the currently active session") || len(deleted) != 0 {
		t.Fatalf("deleted the active session:\n%s", rowsText(p, 80))
	}
	// Delete b after confirming; a key other than Enter keeps it.
	press(p, "down", "ctrl+d", "escape")
	if len(deleted) != 0 || p.Done() {
		t.Fatal("escape at the confirmation deleted or closed")
	}
	p.search.SetText("x")
	press(p, "ctrl+backspace")
	if p.confirm != "" {
		t.Fatal("ctrl+backspace with a query asked to delete")
	}
	p.search.SetText("")
	press(p, "ctrl+backspace")
	if p.confirm == "" {
		t.Fatal("ctrl+backspace on an empty query did not ask to delete")
	}
	press(p, "escape", "ctrl+d")
	if !strings.Contains(rowsText(p, 80), "Delete session?") {
		t.Fatalf("no confirmation:\n%s", rowsText(p, 80))
	}
	press(p, "enter")
	if strings.Join(deleted, ",") != "b" || strings.Contains(rowsText(p, 80), "parser") {
		t.Fatalf("deleted %v:\n%s", deleted, rowsText(p, 80))
	}
	// Rename the selected session.
	press(p, "ctrl+r", "ctrl+u")
	typeText(p, "renamed")
	press(p, "enter")
	if len(renamed) != 1 || !strings.Contains(rowsText(p, 80), "renamed") {
		t.Fatalf("renamed %v:\n%s", renamed, rowsText(p, 80))
	}
	// Named filter keeps the two named sessions.
	press(p, "ctrl+n")
	if len(p.rows) != 2 {
		t.Fatalf("named: %d rows", len(p.rows))
	}
	press(p, "ctrl+n", "tab")
	if txt := rowsText(p, 100); !strings.Contains(txt, "Resume Session (All)") || !strings.Contains(txt, "elsewhere") || !strings.Contains(txt, "/other") {
		t.Fatalf("all scope:\n%s", txt)
	}
	press(p, "ctrl+p")
	if !strings.Contains(rowsText(p, 120), "/s/x.jsonl") {
		t.Fatalf("paths not shown:\n%s", rowsText(p, 120))
	}
	p.search.SetText("elsewhere")
	p.rebuild()
	press(p, "enter")
	if resumed != "x" {
		t.Fatalf("resumed %q", resumed)
	}
}

func TestSessionPickerErrors(t *testing.T) {
	t.Parallel()
	var pending func([]session.Info, error)
	p := newPicker(SessionPickerOptions{Current: []session.Info{}, OnDelete: func(session.Info) error { return errors.New("busy") },
		LoadAll: func(deliver func([]session.Info, error)) { pending = deliver }})
	if !strings.Contains(rowsText(p, 80), "No sessions in current folder. Press Tab to view all.") {
		t.Fatalf("empty:\n%s", rowsText(p, 80))
	}
	press(p, "tab")
	if txt := rowsText(p, 80); !strings.Contains(txt, "Loading sessions…") {
		t.Fatalf("no loading row:\n%s", txt)
	}
	pending(nil, errors.New("disk gone"))
	if txt := rowsText(p, 80); !strings.Contains(txt, "Failed to load sessions: disk gone") {
		t.Fatalf("load error:\n%s", txt)
	}
}

func TestAge(t *testing.T) {
	t.Parallel()
	for d, want := range map[time.Duration]string{0: "now", 5 * time.Minute: "5m", 3 * time.Hour: "3h", 50 * time.Hour: "2d",
		9 * 24 * time.Hour: "1w", 70 * 24 * time.Hour: "2mo", 800 * 24 * time.Hour: "2y"} {
		if got := Age(t0, t0.Add(-d)); got != want {
			t.Errorf("%v: %q, want %q", d, got, want)
		}
	}
}
