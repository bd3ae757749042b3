package tui

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite testdata goldens")

var goldenWidths = []int{20, 40, 80, 120}

// testKeymap binds the actions the basic components use, as the
// defaults do (tuiedit's DefaultKeys owns the real table).
func testKeymap(t testing.TB) *Keymap {
	km, errs := NewKeymap(map[string][]string{
		"tui.select.up": {"up"}, "tui.select.down": {"down"},
		"tui.select.pageUp": {"pageUp"}, "tui.select.pageDown": {"pageDown"},
		"tui.select.confirm": {"enter"}, "tui.select.cancel": {"escape", "ctrl+c"},
		"tui.input.submit":      {"enter"},
		"tui.editor.cursorLeft": {"left", "ctrl+b"}, "tui.editor.cursorRight": {"right", "ctrl+f"},
		"tui.editor.cursorLineStart": {"home", "ctrl+a"}, "tui.editor.cursorLineEnd": {"end", "ctrl+e"},
		"tui.editor.cursorWordLeft": {"alt+left", "alt+b"}, "tui.editor.cursorWordRight": {"alt+right", "alt+f"},
		"tui.editor.deleteCharBackward": {"backspace"}, "tui.editor.deleteCharForward": {"delete", "ctrl+d"},
		"tui.editor.deleteWordBackward": {"ctrl+w", "alt+backspace"}, "tui.editor.deleteWordForward": {"alt+d"},
		"tui.editor.deleteToLineStart": {"ctrl+u"}, "tui.editor.deleteToLineEnd": {"ctrl+k"},
	})
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	return km
}

// visible shows escape sequences in a golden as \e so styling is
// reviewable.
func visible(s string) string { return strings.ReplaceAll(s, "\x1b", `\e`) }

func checkGolden(t *testing.T, name string, render func(width int) []string) {
	t.Helper()
	var b strings.Builder
	for _, w := range goldenWidths {
		fmt.Fprintf(&b, "== width %d ==\n", w)
		for i, row := range render(w) {
			if got := Width(row); got > w {
				t.Errorf("%s width %d: row %d is %d cells: %q", name, w, i, got, row)
			}
			b.WriteString(visible(row))
			b.WriteString("|\n")
		}
	}
	path := filepath.Join("testdata", name+".golden")
	if *update {
		if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update)", err)
	}
	if b.String() != string(want) {
		t.Errorf("%s differs from %s (run with -update to accept):\n%s", name, path, b.String())
	}
}

const sample = "The quick brown fox jumps over the lazy dog. 日本語のテキストも折り返す。 Emoji 🚀🎉 fit too, and a verylongwordthatmustbebrokenacrossrows."

func bgFn(s string) string { return "\x1b[48;5;236m" + s + "\x1b[49m" }

func TestComponentGoldens(t *testing.T) {
	t.Parallel()
	km := testKeymap(t)
	items := []SelectItem{
		{Value: "model", Description: "Select model (opens selector UI)"},
		{Value: "settings", Description: "Open settings menu"},
		{Value: "export", Description: "Export session to HTML file"},
		{Value: "日本語", Label: "日本語 command", Description: "Wide label 🚀"},
		{Value: "resume", Description: "Resume a different session"},
		{Value: "new", Description: "Start a new session"},
		{Value: "quit", Description: "Quit pi"},
	}
	cases := []struct {
		name   string
		render func(w int) []string
	}{
		{"text", NewText(sample, 1, 1, nil).Render},
		{"text_bg", NewText("Styled \x1b[1mbold\x1b[22m text on a background.\nSecond paragraph.", 2, 1, bgFn).Render},
		{"text_empty", NewText("   ", 1, 1, nil).Render},
		{"truncated", NewTruncatedText(sample+"\nsecond line", 1, 0).Render},
		{"spacer", NewSpacer(2).Render},
		{"box", func(w int) []string {
			b := NewBox(1, 1, bgFn)
			b.Add(NewText("Inside a box: 日本語 and 🚀.", 0, 0, nil), NewTruncatedText("truncated child row that is long", 0, 0))
			return b.Render(w)
		}},
		{"selectlist", func(w int) []string {
			l := NewSelectList(items, 5, km, SelectListStyle{Selected: func(s string) string { return "\x1b[36m" + s + "\x1b[39m" },
				Description: func(s string) string { return "\x1b[2m" + s + "\x1b[22m" }})
			l.HandleKey(Key{Code: "down"})
			l.HandleKey(Key{Code: "down"})
			l.HandleKey(Key{Code: "down"})
			return l.Render(w)
		}},
		{"selectlist_filter", func(w int) []string {
			l := NewSelectList(items, 5, km, SelectListStyle{})
			l.SetFilter("RE")
			return append(l.Render(w), func() []string { l.SetFilter("zzz"); return l.Render(w) }()...)
		}},
		{"input", func(w int) []string {
			in := NewInput(km)
			in.SetFocused(true)
			in.SetValue("editing a long line with 日本語 and 🚀 that scrolls horizontally")
			rows := in.Render(w)
			for range 30 {
				in.HandleKey(Key{Code: "left"})
			}
			return append(rows, in.Render(w)...)
		}},
		{"loader", NewLoader(nil, "Working...", func(s string) string { return "\x1b[36m" + s + "\x1b[39m" }, nil).Render},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) { checkGolden(t, c.name, c.render) })
	}
}
