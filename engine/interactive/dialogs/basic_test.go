package dialogs

import (
	"strings"
	"testing"
	"time"

	"github.com/pi-go/pi/engine/tui"
)

type clock struct{ t time.Time }

func (c *clock) now() time.Time { return c.t }

func TestSelectKeys(t *testing.T) {
	t.Parallel()
	opts := []string{"Option A", "Option B", "Option C"}
	cases := []struct {
		name   string
		keys   []string
		chosen int // -1: cancelled
	}{
		{"enter first", []string{"enter"}, 0},
		{"down enter", []string{"down", "enter"}, 1},
		{"j j", []string{"j", "j", "enter"}, 2},
		{"clamped at end", []string{"down", "down", "down", "down", "enter"}, 2},
		{"up clamps", []string{"up", "k", "enter"}, 0},
		{"escape", []string{"down", "escape"}, -1},
		{"ctrl+c", []string{"ctrl+c"}, -1},
		{"keys after done ignored", []string{"enter", "down", "enter"}, 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			got, calls := -2, 0
			s := NewSelect(Style{}, SelectOptions{Title: "Pick", Options: opts,
				OnSelect: func(i int, o string) {
					calls++
					got = i
					if o != opts[i] {
						t.Errorf("option %q for index %d", o, i)
					}
				},
				OnCancel: func() { calls++; got = -1 }})
			press(s, c.keys...)
			if got != c.chosen || calls != 1 {
				t.Fatalf("got %d after %d calls, want %d once", got, calls, c.chosen)
			}
		})
	}
}

func TestSelectCountdown(t *testing.T) {
	t.Parallel()
	clk := &clock{t: time.Unix(1000, 0)}
	cancelled := 0
	s := NewSelect(Style{}, SelectOptions{Title: "Pick an option", Options: []string{"A"}, Timeout: 10 * time.Second,
		Now: clk.now, OnCancel: func() { cancelled++ }})
	if !strings.Contains(rowsText(s, 80), "Pick an option (10s)") {
		t.Fatalf("no countdown:\n%s", rowsText(s, 80))
	}
	clk.t = clk.t.Add(1500 * time.Millisecond)
	if !s.Tick() {
		t.Fatal("tick stopped early")
	}
	if !strings.Contains(rowsText(s, 80), "Pick an option (9s)") {
		t.Fatalf("countdown not updated:\n%s", rowsText(s, 80))
	}
	clk.t = clk.t.Add(9 * time.Second)
	if s.Tick() || cancelled != 1 || !s.Done() {
		t.Fatalf("timeout: tick=%v cancelled=%d", s.Tick(), cancelled)
	}
	s.Tick()
	s.HandleKey(key("enter"))
	if cancelled != 1 {
		t.Fatal("resolved twice")
	}
}

func TestSelectGolden(t *testing.T) {
	t.Parallel()
	var many []string
	for i := 1; i <= 15; i++ {
		many = append(many, "Option "+itoa(i))
	}
	s := NewSelect(Style{}, SelectOptions{Title: "Pick one", Message: "Choose carefully: 中文 and 🚀 are wide.", Options: many})
	press(s, "down", "down", "down", "down", "down", "down", "down")
	golden(t, "select", s)
}

func TestConfirm(t *testing.T) {
	t.Parallel()
	cases := []struct {
		keys []string
		want bool
	}{{[]string{"enter"}, true}, {[]string{"down", "enter"}, false}, {[]string{"escape"}, false}}
	for _, c := range cases {
		var got *bool
		d := NewConfirm(Style{}, ConfirmOptions{Title: "Delete?", Message: "This cannot be undone.", OnDone: func(v bool) { got = &v }})
		press(d, c.keys...)
		if got == nil || *got != c.want {
			t.Errorf("%v: got %v, want %v", c.keys, got, c.want)
		}
	}
	golden(t, "confirm", NewConfirm(Style{}, ConfirmOptions{Title: "Delete session?", Message: "The file is removed."}))
}

func TestInput(t *testing.T) {
	t.Parallel()
	var got string
	in := NewInput(Style{}, InputOptions{Title: "Session name", Placeholder: "my session", OnSubmit: func(s string) { got = s }})
	golden(t, "input-empty", in)
	typeText(in, "hello wrld")
	press(in, "left", "left", "left")
	typeText(in, "o")
	press(in, "end")
	in.HandlePaste("\nthere")
	golden(t, "input-typed", in)
	press(in, "ctrl+w", "backspace", "enter")
	if got != "hello world" {
		t.Fatalf("submitted %q", got)
	}
	cancelled := false
	sec := NewInput(Style{}, InputOptions{Title: "Enter API key", Secret: true, OnCancel: func() { cancelled = true }})
	typeText(sec, "sk-secret")
	if txt := rowsText(sec, 40); strings.Contains(txt, "secret") || !strings.Contains(txt, "*********") {
		t.Fatalf("secret shown:\n%s", txt)
	}
	press(sec, "ctrl+c")
	if !cancelled {
		t.Fatal("ctrl+c did not cancel")
	}
}

func TestLineScrollsToCursor(t *testing.T) {
	t.Parallel()
	l := &Line{Prompt: "> "}
	l.SetText(strings.Repeat("abcdefghij", 5) + "XYZ")
	row := l.Render(20)[0]
	if w := tui.Width(row); w > 20 {
		t.Fatalf("row %d wide", w)
	}
	if !strings.Contains(tui.Strip(row), "XYZ") {
		t.Fatalf("cursor end not visible: %q", tui.Strip(row))
	}
}

func TestEditorDialog(t *testing.T) {
	t.Parallel()
	var got string
	ext := ""
	e := NewEditorDialog(Style{}, EditorOptions{Title: "Edit message", Value: "first", OnSubmit: func(s string) { got = s },
		OnExternal: func(s string) { ext = s }})
	press(e, "shift+enter")
	typeText(e, "second")
	e.HandlePaste("\nthird 日本")
	golden(t, "editor", e)
	press(e, "ctrl+g")
	if ext != "first\nsecond\nthird 日本" {
		t.Fatalf("external got %q", ext)
	}
	e.SetText("from editor")
	press(e, "backspace", "enter")
	if got != "from edito" {
		t.Fatalf("submitted %q", got)
	}
}

func TestSelectSearch(t *testing.T) {
	t.Parallel()
	got := ""
	s := NewSelect(Style{}, SelectOptions{Title: "Select provider to configure:", Search: true,
		Options:  []string{"Anthropic • not configured", "OpenAI • configured", "OpenRouter • not configured"},
		OnSelect: func(_ int, o string) { got = o }})
	typeText(s, "openr")
	if txt := rowsText(s, 80); strings.Contains(txt, "Anthropic") || !strings.Contains(txt, "→ OpenRouter") {
		t.Fatalf("filtered:\n%s", txt)
	}
	press(s, "enter")
	if got != "OpenRouter • not configured" {
		t.Fatalf("chose %q", got)
	}
	typeText(NewSelect(Style{}, SelectOptions{Options: []string{"a"}, Search: true}), "jk") // j/k type, no panic
}

func TestAppKeys(t *testing.T) {
	t.Parallel()
	env := func(vals map[string]string) func(string) string { return func(k string) string { return vals[k] } }
	linux := AppKeysFor("linux", env(nil))
	win := AppKeysFor("windows", env(nil))
	wsl := AppKeysFor("linux", env(map[string]string{"WSL_DISTRO_NAME": "Ubuntu"}))
	checks := []struct {
		m      map[string][]string
		action string
		want   string
	}{
		{linux, "app.suspend", "ctrl+z"}, {win, "app.suspend", ""}, {wsl, "app.suspend", "ctrl+z"},
		{linux, "app.message.followUp", "alt+enter"}, {wsl, "app.message.followUp", "ctrl+q"},
		{win, "app.model.cycleBackward", "alt+p"}, {linux, "app.model.cycleBackward", "shift+ctrl+p"},
		{linux, "app.session.new", ""}, {linux, "app.tree.foldOrUp", "ctrl+left alt+left"},
	}
	for _, c := range checks {
		if got := strings.Join(c.m[c.action], " "); got != c.want {
			t.Errorf("%s = %q, want %q", c.action, got, c.want)
		}
	}
	km, errs := tui.NewKeymap(linux)
	if len(errs) != 0 {
		t.Fatalf("defaults do not parse: %v", errs)
	}
	// A Style with a keymap that disables an action does not fall back.
	km.Set("app.models.save", nil)
	if (Style{Keymap: km}).Is(key("ctrl+s"), "app.models.save") || !(Style{}).Is(key("ctrl+s"), "app.models.save") {
		t.Fatal("disabled action matched, or the default did not")
	}
}

func TestRenderCache(t *testing.T) {
	t.Parallel()
	s := NewSelect(Style{}, SelectOptions{Title: "Pick", Options: []string{"A", "B"}})
	a := s.Render(80)
	if b := s.Render(80); &a[0] != &b[0] {
		t.Fatal("an unchanged dialog rendered again")
	}
	press(s, "down")
	if txt := rowsText(s, 80); !strings.Contains(txt, "→ B") {
		t.Fatalf("stale rows after a key:\n%s", txt)
	}
	if len(s.Render(40)[0]) == len(s.Render(80)[0]) {
		t.Fatal("width change reused the rows")
	}
	s.Invalidate()
	if c := s.Render(80); &c[0] == &a[0] {
		t.Fatal("Invalidate kept the rows")
	}
}
