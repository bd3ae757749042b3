package editor

import (
	"strings"
	"testing"

	"github.com/pi-go/pi/engine/tui"
)

func newTestEditor(t *testing.T) *Editor {
	t.Helper()
	km, errs := tui.NewKeymap(tui.DefaultKeysFor("linux", func(string) string { return "" }))
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	e := New(km, Options{})
	e.SetFocused(true)
	return e
}

// setState loads "text with | as the cursor".
func setState(e *Editor, s string) {
	i := strings.Index(s, "|")
	text := strings.Replace(s, "|", "", 1)
	e.SetText(text)
	e.undo = nil
	before := text[:i]
	e.line = strings.Count(before, "\n")
	e.col = len(before) - (strings.LastIndex(before, "\n") + 1)
}

// state renders the text with | at the cursor.
func state(e *Editor) string {
	var b strings.Builder
	for i, l := range e.lines {
		if i > 0 {
			b.WriteByte('\n')
		}
		if i == e.line {
			b.WriteString(l[:e.col] + "|" + l[e.col:])
		} else {
			b.WriteString(l)
		}
	}
	return b.String()
}

// key turns a test key into a tui.Key: a spec ("ctrl+k", "enter") or,
// in quotes, text typed character by character ('abc').
func keys(t *testing.T, specs ...string) []tui.Key {
	t.Helper()
	var out []tui.Key
	for _, s := range specs {
		if len(s) >= 2 && s[0] == '\'' && s[len(s)-1] == '\'' {
			for _, r := range s[1 : len(s)-1] {
				k := tui.Key{Code: strings.ToLower(string(r)), Text: string(r), Raw: string(r)}
				if r == ' ' {
					k.Code = "space"
				}
				if strings.ToLower(string(r)) != string(r) {
					k.Mod = tui.ModShift
				}
				out = append(out, k)
			}
			continue
		}
		spec, err := tui.ParseKey(s)
		if err != nil {
			t.Fatalf("bad test key %q: %v", s, err)
		}
		out = append(out, tui.Key{Code: spec.Code, Mod: spec.Mod})
	}
	return out
}

func press(t *testing.T, e *Editor, specs ...string) {
	t.Helper()
	for _, k := range keys(t, specs...) {
		e.HandleKey(k)
	}
}

func TestEditing(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name, before string
		keys         []string
		after        string
	}{
		{"type", "|", []string{"'hello'"}, "hello|"},
		{"type mid", "he|o", []string{"'ll'"}, "hell|o"},
		{"backspace", "ab|c", []string{"backspace"}, "a|c"},
		{"backspace joins lines", "ab\n|cd", []string{"backspace"}, "ab|cd"},
		{"backspace emoji", "a👍🏽|b", []string{"backspace"}, "a|b"},
		{"backspace wide", "日本|", []string{"backspace"}, "日|"},
		{"delete", "a|bc", []string{"delete"}, "a|c"},
		{"ctrl+d deletes forward", "a|bc", []string{"ctrl+d"}, "a|c"},
		{"delete joins", "ab|\ncd", []string{"delete"}, "ab|cd"},
		{"left right", "ab|c", []string{"left", "left", "right"}, "a|bc"},
		{"ctrl+b ctrl+f", "ab|c", []string{"ctrl+b", "ctrl+b", "ctrl+f"}, "a|bc"},
		{"left wraps to previous line", "ab\n|c", []string{"left"}, "ab|\nc"},
		{"right wraps to next line", "ab|\nc", []string{"right"}, "ab\n|c"},
		{"left over emoji", "a🙂|", []string{"left"}, "a|🙂"},
		{"home end", "ab|c", []string{"home", "'x'", "end", "'y'"}, "xabcy|"},
		{"ctrl+a ctrl+e", "ab|c", []string{"ctrl+a", "ctrl+e"}, "abc|"},
		{"word left", "foo bar.baz qux|", []string{"alt+left"}, "foo bar.baz |qux"},
		{"word left punct", "foo bar.baz |qux", []string{"ctrl+left", "ctrl+left"}, "foo bar|.baz qux"},
		{"word left alt+b", "foo bar|", []string{"alt+b"}, "foo |bar"},
		{"word right", "|foo bar", []string{"alt+right"}, "foo| bar"},
		{"word right alt+f twice", "|foo bar", []string{"alt+f", "alt+f"}, "foo bar|"},
		{"word right at line end", "foo|\nbar", []string{"alt+right"}, "foo\n|bar"},
		{"newline shift+enter", "ab|cd", []string{"shift+enter"}, "ab\n|cd"},
		{"newline ctrl+j", "ab|cd", []string{"ctrl+j"}, "ab\n|cd"},
		{"backslash enter", `ab\|`, []string{"enter"}, "ab\n|"},
		{"kill to end", "ab|cd", []string{"ctrl+k"}, "ab|"},
		{"kill to start", "ab|cd", []string{"ctrl+u"}, "|cd"},
		{"kill word back", "foo bar|", []string{"ctrl+w"}, "foo |"},
		{"alt+backspace", "foo bar|", []string{"alt+backspace"}, "foo |"},
		{"kill word forward", "|foo bar", []string{"alt+d"}, "| bar"},
		{"kill at line end joins", "ab|\ncd", []string{"ctrl+k"}, "ab|cd"},
		{"kill and yank", "foo bar|", []string{"ctrl+w", "ctrl+a", "ctrl+y"}, "bar|foo "},
		{"kills accumulate", "one two three|", []string{"ctrl+w", "ctrl+w", "ctrl+y"}, "one two three|"},
		{"kill then move breaks accumulation", "ab cd|", []string{"ctrl+w", "left", "ctrl+w", "end", "ctrl+y"}, " ab|"},
		{"yank pop", "aa bb|", []string{"ctrl+w", "ctrl+w", "'x'", "ctrl+a", "ctrl+k", "ctrl+y", "alt+y"}, "aa bb|"},
		{"yank pop needs a yank", "aa bb|", []string{"ctrl+w", "ctrl+w", "alt+y"}, "|"},
		{"forward kills append", "|ab cd", []string{"alt+d", "alt+d", "ctrl+y"}, "ab cd|"},
		{"undo typing word", "|", []string{"'hello world'", "ctrl+-"}, "hello|"},
		{"undo twice", "|", []string{"'hello world'", "ctrl+-", "ctrl+-"}, "|"},
		{"undo kill", "ab|cd", []string{"ctrl+k", "ctrl+-"}, "ab|cd"},
		{"jump forward", "|abcabc", []string{"ctrl+]", "'c'"}, "ab|cabc"},
		{"jump forward again", "ab|cabc", []string{"ctrl+]", "'c'"}, "abcab|c"},
		{"jump across lines", "|ab\ncd", []string{"ctrl+]", "'d'"}, "ab\nc|d"},
		{"jump backward", "abcab|c", []string{"ctrl+alt+]", "'a'"}, "abc|abc"},
		{"jump missing stays", "a|bc", []string{"ctrl+]", "'z'"}, "a|bc"},
		{"jump cancelled by the hotkey", "a|bc", []string{"ctrl+]", "ctrl+]", "'c'"}, "ac|bc"},
		{"up down", "abc\nd|ef", []string{"up", "down"}, "abc\nd|ef"},
		{"up keeps column", "abcdef\nab|", []string{"up"}, "ab|cdef\nab"},
		{"sticky column", "abcdef\na\nabcd|ef", []string{"up", "up"}, "abcd|ef\na\nabcdef"},
		{"up on first line goes home", "ab|c", []string{"up"}, "|abc"},
		{"down on last line goes end", "a|bc", []string{"down"}, "abc|"},
		{"shift+space", "a|", []string{"shift+space"}, "a |"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			e := newTestEditor(t)
			setState(e, c.before)
			press(t, e, c.keys...)
			if got := state(e); got != c.after {
				t.Errorf("%q + %v = %q, want %q", c.before, c.keys, got, c.after)
			}
		})
	}
}

func TestSubmitAndHistory(t *testing.T) {
	t.Parallel()
	e := newTestEditor(t)
	var got []string
	e.OnSubmit = func(s string) { got = append(got, s); e.AddHistory(s) }
	press(t, e, "'first'", "enter", "' second '", "enter")
	if strings.Join(got, "|") != "first|second" || !e.IsEmpty() {
		t.Fatalf("submitted %q, editor %q", got, state(e))
	}
	press(t, e, "'draft'", "ctrl+a", "up")
	if state(e) != "|second" {
		t.Fatalf("up from column 0 = %q", state(e))
	}
	press(t, e, "up")
	if state(e) != "|first" {
		t.Fatalf("up again = %q", state(e))
	}
	press(t, e, "up")
	if state(e) != "|first" {
		t.Fatalf("up past the oldest = %q", state(e))
	}
	press(t, e, "down")
	if state(e) != "second|" {
		t.Fatalf("down = %q", state(e))
	}
	press(t, e, "down")
	if state(e) != "|draft" {
		t.Fatalf("down past the newest restores the draft: %q", state(e))
	}
	// Repeats and blanks are not recorded.
	e.AddHistory("second")
	e.AddHistory("  ")
	if len(e.history) != 2 {
		t.Fatalf("history %q", e.history)
	}
	// The history actions browse from anywhere once bound.
	e.km.Set("tui.editor.historyPrevious", []string{"alt+p"})
	setState(e, "ab|c")
	press(t, e, "alt+p")
	if state(e) != "|second" {
		t.Fatalf("historyPrevious = %q", state(e))
	}
}

func TestDisableSubmitAndUnhandledKeys(t *testing.T) {
	t.Parallel()
	e := newTestEditor(t)
	e.DisableSubmit = true
	called := false
	e.OnSubmit = func(string) { called = true }
	press(t, e, "'x'", "enter")
	if called || state(e) != "x|" {
		t.Fatalf("enter with submit disabled: called %v, %q", called, state(e))
	}
	for _, spec := range []string{"ctrl+c", "escape", "ctrl+p", "ctrl+l", "alt+enter"} {
		if e.HandleKey(keys(t, spec)[0]) {
			t.Errorf("%s consumed by the editor", spec)
		}
	}
	if e.HandleKey(tui.Key{Code: "a", Text: "a", Release: true}) {
		t.Error("key release consumed")
	}
}

func TestPaste(t *testing.T) {
	t.Parallel()
	e := newTestEditor(t)
	e.HandlePaste("short\r\npaste\twith tab\x07")
	if state(e) != "short\npaste    with tab|" {
		t.Fatalf("small paste = %q", state(e))
	}
	e.SetText("")
	big := strings.Repeat("line\n", 11) + "end"
	e.HandlePaste(big)
	if state(e) != "[paste #1 +12 lines]|" {
		t.Fatalf("big paste = %q", state(e))
	}
	press(t, e, "' and '")
	e.HandlePaste(strings.Repeat("x", 1001))
	if state(e) != "[paste #1 +12 lines] and [paste #2 1001 chars]|" {
		t.Fatalf("long paste = %q", state(e))
	}
	if e.Text() != big+" and "+strings.Repeat("x", 1001) {
		t.Fatal("Text does not expand the markers")
	}
	// The cursor steps over a marker as one unit.
	press(t, e, "home", "right")
	if state(e) != "[paste #1 +12 lines]| and [paste #2 1001 chars]" {
		t.Fatalf("right over marker = %q", state(e))
	}
	// Backspace deletes the marker whole and renumbers the later one.
	press(t, e, "backspace")
	if state(e) != "| and [paste #1 1001 chars]" || e.Text() != " and "+strings.Repeat("x", 1001) {
		t.Fatalf("backspace on marker = %q", state(e))
	}
	// Paths pasted after a word get a space.
	e.SetText("see")
	e.HandlePaste("/tmp/x")
	if state(e) != "see /tmp/x|" {
		t.Fatalf("path paste = %q", state(e))
	}
	// Submitting expands and resets the paste numbering.
	var sub string
	e.OnSubmit = func(s string) { sub = s }
	e.SetText("")
	e.HandlePaste(big)
	press(t, e, "enter")
	if sub != big || e.pasteCount != 0 {
		t.Fatalf("submitted %q", sub)
	}
}

func TestInsertTextIsOneUndo(t *testing.T) {
	t.Parallel()
	e := newTestEditor(t)
	setState(e, "a|b")
	e.InsertText("X\nY")
	if state(e) != "aX\nY|b" {
		t.Fatalf("%q", state(e))
	}
	press(t, e, "ctrl+-")
	if state(e) != "a|b" {
		t.Fatalf("undo = %q", state(e))
	}
}

func TestAppKeysOrder(t *testing.T) {
	t.Parallel()
	e := newTestEditor(t)
	var app []string
	e.opt.AppKeys = func(k tui.Key) bool {
		for _, spec := range []string{"alt+enter", "ctrl+p", "escape", "pageUp"} {
			if k.Is(spec) {
				app = append(app, spec)
				return true
			}
		}
		return false
	}
	e.SetProviders(NewCommandProvider(testCommands()))
	e.AddHistory("old")
	e.km.Set("tui.editor.historyPrevious", []string{"ctrl+p"})
	setState(e, "ab|")
	press(t, e, "alt+enter") // the app's follow-up, not a newline
	press(t, e, "ctrl+p")    // bound history wins over the app
	if state(e) != "|old" || strings.Join(app, ",") != "alt+enter" {
		t.Fatalf("text %q, app got %q", state(e), app)
	}
	press(t, e, "ctrl+e", "backspace", "backspace", "backspace", "'/'")
	press(t, e, "pageUp", "escape") // the open list takes its paging and Escape
	if e.AutocompleteOpen() || strings.Join(app, ",") != "alt+enter" {
		t.Fatalf("open %v, app got %q", e.AutocompleteOpen(), app)
	}
	press(t, e, "escape") // no list: the app's interrupt
	if strings.Join(app, ",") != "alt+enter,escape" {
		t.Fatalf("app got %q", app)
	}
}
