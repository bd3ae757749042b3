package codemode

import (
	"fmt"
	"os"
	"strings"

	"github.com/pi-go/pi/engine"
)

// renderOutput turns the script's items and console lines into result
// blocks. Text longer than maxTokens (estimated as characters / 4) keeps
// its start and end around a marker, and the whole text goes to a temp
// file whose path the result names.
func (t *Tool) renderOutput(r *run, maxTokens int) ([]engine.Content, string) {
	texts := 0
	for _, it := range r.items {
		if it.image == nil {
			texts++
		}
	}
	var blocks []engine.Content
	var cur []string
	flush := func() {
		if len(cur) > 0 {
			blocks = append(blocks, engine.TextContent(joinLines(cur)))
			cur = nil
		}
	}
	n := 0
	for _, it := range r.items {
		if it.image != nil {
			if it.path != "" {
				cur = append(cur, "[Image saved: "+it.path+"]")
			}
			flush()
			blocks = append(blocks, *it.image)
			continue
		}
		n++
		if texts > 1 {
			cur = append(cur, fmt.Sprintf("==> text %d/%d <==\n%s", n, texts, it.text))
		} else {
			cur = append(cur, it.text)
		}
	}
	if len(r.console) > 0 {
		cur = append(cur, "<console_output>\n"+strings.Join(r.console, "\n")+"\n</console_output>")
	}
	flush()
	full := ""
	for _, b := range blocks {
		if b.Type == engine.ContentText {
			full += b.Text
		}
	}
	runes := []rune(full)
	tokens := (len(runes) + 3) / 4
	if maxTokens <= 0 || tokens <= maxTokens {
		return blocks, ""
	}
	path := ""
	if f, err := os.CreateTemp(t.cfg.TempDir, "pi-codemode-*.txt"); err == nil {
		_, werr := f.WriteString(full)
		if f.Close() == nil && werr == nil {
			path = f.Name()
		}
	}
	keep := maxTokens * 2 // characters kept at each end
	lines := strings.Count(full, "\n") + 1
	cut := fmt.Sprintf("Warning: truncated output (original token count: %d)\nTotal output lines: %d\n\n%s…%d tokens truncated…%s",
		tokens, lines, string(runes[:keep]), tokens-maxTokens, string(runes[len(runes)-keep:]))
	if path != "" {
		cut += "\n\n[Full output: " + path + " (read with offset/limit)]"
	}
	// The truncated text replaces the text blocks; images stay after it.
	out := []engine.Content{engine.TextContent(cut)}
	for _, b := range blocks {
		if b.Type != engine.ContentText {
			out = append(out, b)
		}
	}
	return out, path
}

// joinLines puts each item on its own line; an item that already ends
// with a newline (a file's text) gets no second one.
func joinLines(items []string) string {
	var b strings.Builder
	for i, s := range items {
		if i > 0 && !strings.HasSuffix(items[i-1], "\n") {
			b.WriteByte('\n')
		}
		b.WriteString(s)
	}
	return b.String()
}
