package editor

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pi-go/pi/engine/tui"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

// golden compares got with testdata/name, or rewrites it with -update.
func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name)
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
		t.Errorf("%s differs (run with -update to accept):\n--- got\n%s\n--- want\n%s", name, got, want)
	}
}

// show makes a rendered frame readable: ESC as \e, the cursor marker as
// ‸, and a | at each row's end to show the padding.
func show(rows []string) string {
	var b strings.Builder
	for _, r := range rows {
		r = strings.ReplaceAll(r, CursorMarker, "‸")
		r = strings.ReplaceAll(r, "\x1b", `\e`)
		b.WriteString(r + "|\n")
	}
	return b.String()
}

type renderCase struct {
	name  string
	setup func(e *Editor)
}

func TestRenderGoldens(t *testing.T) {
	t.Parallel()
	bold := func(s string) string { return "\x1b[1m" + s + "\x1b[22m" }
	cases := []renderCase{
		{"empty", func(e *Editor) {}},
		{"unfocused", func(e *Editor) { e.SetText("no cursor here"); e.SetFocused(false) }},
		{"wrap", func(e *Editor) {
			e.SetText("The quick brown fox jumps over the lazy dog and keeps running far away")
			e.line, e.col = 0, 10
		}},
		{"wide", func(e *Editor) {
			e.SetText("日本語のテキストを折り返す 中文也一样 한국어도")
			e.line, e.col = 0, len("日本語")
		}},
		{"emoji", func(e *Editor) {
			e.SetText("emoji 👍🏽 family 👨‍👩‍👧 flag 🇯🇵 rocket 🚀 end")
			e.line, e.col = 0, len("emoji ")
		}},
		{"multiline-end-cursor", func(e *Editor) { e.SetText("first line\nsecond line\n") }},
		{"tall", func(e *Editor) {
			var lines []string
			for i := 1; i <= 12; i++ {
				lines = append(lines, fmt.Sprintf("line %d", i))
			}
			e.SetText(strings.Join(lines, "\n"))
			e.line, e.col = 0, 0
		}},
		{"scrolled", func(e *Editor) {
			var lines []string
			for i := 1; i <= 12; i++ {
				lines = append(lines, fmt.Sprintf("line %d", i))
			}
			e.SetText(strings.Join(lines, "\n"))
		}},
		{"label", func(e *Editor) { e.SetTopLabel("⠋ Working"); e.SetBorderStyle(bold) }},
		{"label-scrolled", func(e *Editor) {
			e.SetTopLabels("⠋ Working on a long task", "⠋")
			var lines []string
			for i := 1; i <= 12; i++ {
				lines = append(lines, fmt.Sprintf("line %d", i))
			}
			e.SetText(strings.Join(lines, "\n"))
		}},
		{"padding", func(e *Editor) { e.opt.PaddingX = 2; e.SetText("padded text that wraps around the edge") }},
		{"paste-marker", func(e *Editor) {
			e.HandlePaste(strings.Repeat("x\n", 30))
			e.line, e.col = 0, 0
		}},
		{"slash-list", func(e *Editor) {
			e.SetProviders(NewCommandProvider(testCommands()))
			press(t, e, "'/'")
		}},
		{"slash-filter", func(e *Editor) {
			e.SetProviders(NewCommandProvider(testCommands()))
			press(t, e, "'/mo'")
		}},
	}
	for _, c := range cases {
		var b strings.Builder
		for _, w := range []int{20, 40, 80, 120} {
			e := newTestEditor(t)
			c.setup(e)
			rows := e.Render(w)
			for i, r := range rows {
				if got := tui.Width(r); got > w {
					t.Errorf("%s at %d: row %d is %d cells wide: %q", c.name, w, i, got, r)
				}
			}
			fmt.Fprintf(&b, "=== width %d\n%s", w, show(rows))
		}
		golden(t, "render-"+c.name+".txt", b.String())
	}
}

func testCommands() []Command {
	return []Command{
		{Name: "settings", Description: "Open settings menu"},
		{Name: "model", ArgumentHint: "<provider/model>", Description: "Select model (opens selector UI)",
			Complete: func(arg string) []Item {
				var out []Item
				for _, m := range []string{"mock/model-a", "mock/model-b", "other/x"} {
					if strings.HasPrefix(m, arg) {
						out = append(out, Item{Value: m, Label: m})
					}
				}
				return out
			}},
		{Name: "tree", Description: "Navigate session tree (switch branches)"},
		{Name: "thinking", ArgumentHint: "<level>", Description: "Set thinking level"},
		{Name: "scoped-models", Description: "Enable/disable models for Ctrl+P cycling"},
		{Name: "export", Description: "Export session"},
		{Name: "import", Description: "Import session from a JSONL file"},
		{Name: "skill:commit", Description: "Commit with a good message"},
	}
}
