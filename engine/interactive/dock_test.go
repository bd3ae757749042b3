package interactive

import (
	"fmt"
	"strings"
	"testing"

	"github.com/pi-go/pi/engine"
	"github.com/pi-go/pi/engine/tui"
)

// TestDockGolden renders the header, a wide-character transcript, the
// queue area, widgets and the footer at the golden widths.
func TestDockGolden(t *testing.T) {
	t.Parallel()
	for _, w := range []int{20, 40, 80, 120} {
		t.Run(fmt.Sprint(w), func(t *testing.T) {
			t.Parallel()
			v := testView()
			km, _ := buildKeymap("")
			h := &header{v: v, version: "1.6.0", keys: func(a string) string { return firstKey(km, a) },
				resources: []resourceGroup{{"Extensions", []string{"/home/u/.pi/agent/extensions/todo.ts", "/p/.pi/extensions/status/index.ts"}}},
				warnings:  []string{"Warning: fd not found."}}
			tr := newTranscript(v)
			tr.add(h)
			tr.addMessage(&engine.Message{Role: engine.RoleUser, Content: engine.StringContents("中文日本語 and emoji 🎉🚀 in a prompt")}, false)
			tr.addMessage(assistant(engine.TextContent("Réponse: 漢字 👍 done.")), false)
			tr.notice("error", "Error: 429 too many requests")
			q := &pendingArea{v: v, dequeue: "alt+up"}
			q.set([]string{"steer: be brief"}, []string{"follow-up: then summarise"})
			above := &widgetArea{v: v}
			above.set("w", []string{"Above editor widget"})
			pct := 12.5
			f := &footer{v: v, cwd: "/home/u/project", branch: "main", sessionName: "demo 🎯",
				model: &engine.Model{ID: "mock-model", Provider: "mock", Reasoning: true}, thinking: engine.ThinkingMedium,
				autoCompact: true, stats: footerStats{input: 12345, output: 678, cost: 0.0123, percent: &pct, window: 128000},
				statuses: map[string]string{"b": "Ready", "a": "line\none"}}
			var rows []string
			rows = append(rows, tr.Render(w)...)
			rows = append(rows, q.Render(w)...)
			rows = append(rows, above.Render(w)...)
			rows = append(rows, f.Render(w)...)
			for i, r := range rows {
				if tui.Width(r) > w {
					t.Errorf("row %d is %d cells at width %d: %q", i, tui.Width(r), w, r)
				}
			}
			golden(t, fmt.Sprintf("dock_%d.golden", w), strings.Join(rows, "\n")+"\n")
		})
	}
}

func TestFormatTokens(t *testing.T) {
	t.Parallel()
	for n, want := range map[int]string{0: "0", 999: "999", 1234: "1.2k", 12345: "12k", 999499: "999k", 1234567: "1.2M", 12345678: "12M"} {
		if got := formatTokens(n); got != want {
			t.Errorf("formatTokens(%d) = %q, want %q", n, got, want)
		}
	}
}

func TestTildePath(t *testing.T) {
	t.Parallel()
	for _, c := range [][3]string{{"/home/u", "/home/u", "~"}, {"/home/u/p", "/home/u", "~/p"}, {"/home/ux", "/home/u", "/home/ux"}, {"/tmp", "", "/tmp"}} {
		if got := tildePath(c[0], c[1]); got != c[2] {
			t.Errorf("tildePath(%q, %q) = %q, want %q", c[0], c[1], got, c[2])
		}
	}
}
