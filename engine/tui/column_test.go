package tui

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

func TestColumnRendersRanges(t *testing.T) {
	t.Parallel()
	c := NewColumn()
	for i := range 5 {
		c.Add(Lines{fmt.Sprintf("a%d", i), fmt.Sprintf("b%d", i)})
	}
	if h := c.Height(10); h != 10 {
		t.Fatalf("height %d", h)
	}
	cases := []struct {
		from, to int
		want     string
	}{
		{0, 3, "a0 b0 a1"}, {3, 6, "b1 a2 b2"}, {9, 20, "b4"}, {4, 4, ""},
	}
	for _, tc := range cases {
		if got := strings.Join(c.RenderRange(10, tc.from, tc.to), " "); got != tc.want {
			t.Errorf("RenderRange(%d,%d) = %q, want %q", tc.from, tc.to, got, tc.want)
		}
	}
	// A child that grows is measured again once reported.
	last := NewText("x", 0, 0, nil)
	c.Add(last)
	last.SetText("one two three four")
	c.Changed(c.Len() - 1)
	if h := c.Height(5); h != 14 {
		t.Fatalf("height after growth at width 5: %d (%q)", h, c.Render(5))
	}
	c.Remove(0)
	if got := c.RenderRange(5, 0, 1); got[0] != "a1" {
		t.Fatalf("after Remove: %q", got)
	}
	c.Insert(0, Lines{"new"})
	if got := c.RenderRange(5, 0, 2); strings.Join(got, " ") != "new a1" {
		t.Fatalf("after Insert: %q", got)
	}
}

// manualScheduler ticks only when told.
type manualScheduler struct {
	fn       func()
	interval time.Duration
	renders  int
	stopped  bool
}

func (m *manualScheduler) Every(d time.Duration, fn func()) func() {
	m.fn, m.interval = fn, d
	return func() { m.stopped = true }
}
func (m *manualScheduler) RequestRender() { m.renders++ }

func TestLoaderTurnsOnTicks(t *testing.T) {
	t.Parallel()
	s := &manualScheduler{}
	l := NewLoader(s, "Working...", nil, nil)
	l.Start()
	if s.interval != 80*time.Millisecond {
		t.Fatalf("interval %v", s.interval)
	}
	var frames []string
	for range 11 {
		frames = append(frames, strings.Fields(l.Render(40)[1])[0])
		s.fn()
	}
	if got := strings.Join(frames, ""); got != "⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏⠋" {
		t.Fatalf("frames %q", got)
	}
	if rows := l.Render(40); rows[0] != "" || rows[1] != " ⠙ Working..." || s.renders != 11 {
		t.Fatalf("rows %q renders %d", rows, s.renders)
	}
	l.Stop()
	if !s.stopped {
		t.Fatal("Stop did not stop the ticks")
	}
}

func TestInputEditing(t *testing.T) {
	t.Parallel()
	km := testKeymap(t)
	type step struct {
		key  Key
		want string // value with | at the cursor
	}
	k := func(code string, mod Mod) Key { return Key{Code: code, Mod: mod} }
	typed := func(s string) Key { return Key{Code: s, Text: s} }
	steps := []step{
		{typed("h"), "h|"}, {typed("é"), "hé|"}, {Key{Code: "space", Text: " "}, "hé |"},
		{typed("w"), "hé w|"}, {k("a", ModCtrl), "|hé w"}, {k("right", 0), "h|é w"},
		{k("delete", 0), "h| w"}, {k("e", ModCtrl), "h w|"}, {k("w", ModCtrl), "h |"},
		{typed("x"), "h x|"}, {k("b", ModAlt), "h |x"}, {k("k", ModCtrl), "h |"},
		{k("u", ModCtrl), "|"}, {k("backspace", 0), "|"},
	}
	in := NewInput(km)
	for i, s := range steps {
		if !in.HandleKey(s.key) {
			t.Fatalf("step %d: key %v not consumed", i, s.key)
		}
		r := []rune(in.Value())
		got := string(r[:in.cur]) + "|" + string(r[in.cur:])
		if got != s.want {
			t.Fatalf("step %d (%v): %q, want %q", i, s.key, got, s.want)
		}
	}
	var submitted string
	in.OnSubmit = func(s string) { submitted = s }
	in.HandlePaste("multi\nline")
	in.HandleKey(k("enter", 0))
	if submitted != "multi line" {
		t.Fatalf("submitted %q", submitted)
	}
	if in.HandleKey(k("x", ModCtrl)) {
		t.Fatal("unbound ctrl key consumed")
	}
}

func TestSelectListKeys(t *testing.T) {
	t.Parallel()
	km := testKeymap(t)
	var items []SelectItem
	for i := range 12 {
		items = append(items, SelectItem{Value: fmt.Sprintf("item%02d", i)})
	}
	l := NewSelectList(items, 5, km, SelectListStyle{})
	var chosen string
	cancelled := false
	l.OnSelect = func(it SelectItem) { chosen = it.Value }
	l.OnCancel = func() { cancelled = true }
	for _, tc := range []struct {
		key  string
		want string
	}{{"up", "item11"}, {"down", "item00"}, {"pageDown", "item05"}, {"pageDown", "item10"}, {"pageDown", "item11"}, {"pageUp", "item06"}} {
		l.HandleKey(Key{Code: tc.key})
		if it, _ := l.Selected(); it.Value != tc.want {
			t.Fatalf("after %s: %s, want %s", tc.key, it.Value, tc.want)
		}
	}
	rows := l.Render(30)
	if len(rows) != 6 || rows[2] != "→ item06" || rows[5] != "  (7/12)" {
		t.Fatalf("rows %q", rows)
	}
	l.HandleKey(Key{Code: "enter"})
	l.HandleKey(Key{Code: "escape"})
	if chosen != "item06" || !cancelled {
		t.Fatalf("chosen %q cancelled %v", chosen, cancelled)
	}
}
