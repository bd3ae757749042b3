package dialogs

import (
	"path/filepath"
	"strings"
	"testing"
)

func TestForkSelector(t *testing.T) {
	t.Parallel()
	msgs := []ForkItem{{"u1", "first question"}, {"u2", "second\nquestion"}, {"u3", "third 🚀"}}
	var got string
	fs := NewForkSelector(Style{}, ForkSelectorOptions{Messages: msgs, OnSelect: func(it ForkItem) { got = it.EntryID }})
	golden(t, "fork", fs)
	press(fs, "up", "enter")
	if got != "u2" {
		t.Fatalf("forked at %q", got)
	}
	empty := NewForkSelector(Style{}, ForkSelectorOptions{})
	if !strings.Contains(rowsText(empty, 80), "No user messages found") {
		t.Fatal("no empty notice")
	}
	press(empty, "enter") // nothing to select: stays open
	if empty.Done() {
		t.Fatal("enter on an empty list resolved")
	}
}

func TestTrustOptions(t *testing.T) {
	t.Parallel()
	dir := canonicalDir(t.TempDir())
	parent := filepath.Dir(dir)
	got := TrustOptions(dir, true)
	var labels []string
	for _, o := range got {
		labels = append(labels, o.Label)
	}
	want := []string{"Trust", "Trust parent folder (" + parent + ")", "Trust (this session only)", "Do not trust", "Do not trust (this session only)"}
	if strings.Join(labels, "|") != strings.Join(want, "|") {
		t.Fatalf("labels %q", labels)
	}
	if u := got[1].Updates; len(u) != 2 || u[0].Path != parent || !*u[0].Decision || u[1].Path != dir || u[1].Decision != nil {
		t.Fatalf("parent updates %+v", u)
	}
	if len(got[2].Updates) != 0 || len(got[4].Updates) != 0 || got[3].Trusted || *got[3].Updates[0].Decision {
		t.Fatalf("session-only or distrust options wrong: %+v", got)
	}
	if n := len(TrustOptions("/", false)); n != 2 {
		t.Fatalf("root has %d options, want Trust and Do not trust", n)
	}
}

func TestTrustPromptAndSelector(t *testing.T) {
	t.Parallel()
	dir := canonicalDir(t.TempDir())
	var chosen TrustOption
	p := NewTrustPrompt(Style{}, TrustPromptOptions{Cwd: dir, OnDone: func(o TrustOption) { chosen = o }})
	if txt := rowsText(p, 200); !strings.Contains(txt, "Trust project folder?") || !strings.Contains(txt, dir) {
		t.Fatalf("prompt:\n%s", txt)
	}
	press(p, "down", "down", "enter")
	if chosen.Label != "Trust (this session only)" || !chosen.Trusted {
		t.Fatalf("chose %+v", chosen)
	}
	s := NewTrustSelector(Style{}, TrustSelectorOptions{Cwd: dir, Saved: &SavedTrust{Path: dir, Trusted: false}, SessionTrusted: false,
		OnSelect: func(o TrustOption) { chosen = o }})
	txt := rowsText(s, 200)
	if !strings.Contains(txt, "Saved decision: untrusted ("+dir+")") || !strings.Contains(txt, "→ ✓ Do not trust") {
		t.Fatalf("selector:\n%s", txt)
	}
	press(s, "up", "up", "enter")
	if chosen.Label != "Trust" {
		t.Fatalf("chose %+v", chosen)
	}
}

func TestTrustGolden(t *testing.T) {
	t.Parallel()
	// A folder that does not exist keeps its path as given on every
	// machine.
	const dir = "/nonexistent/work/project"
	golden(t, "trust-prompt", NewTrustPrompt(Style{}, TrustPromptOptions{Cwd: dir}))
	golden(t, "trust-selector", NewTrustSelector(Style{}, TrustSelectorOptions{Cwd: dir,
		Saved: &SavedTrust{Path: "/nonexistent/work", Trusted: true}, SessionTrusted: true}))
}
