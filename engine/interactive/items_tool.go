package interactive

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/pi-go/pi/engine"
	"github.com/pi-go/pi/engine/tui"
	"github.com/pi-go/pi/engine/tui/highlight"
	"github.com/pi-go/pi/engine/tui/theme"
)

// toolItem is one tool call's row: its call line (from the streamed
// arguments), then its partial or final result, on toolPendingBg while it
// runs and toolSuccessBg or toolErrorBg after.
type toolItem struct {
	v        *view
	id, name string
	args     map[string]any
	rawArgs  json.RawMessage
	done     bool
	partial  bool // result holds a partial (streaming) result
	result   engine.ToolResult
	isError  bool
	duration *int64
	version  uint64
	c        cache
	images   []*tui.Image // the result's images, drawn below the row where the terminal can
	imageKey [2]uint64    // the version and image options images were made for (version+1: 0 is none)
}

func newToolItem(v *view, id, name string, args json.RawMessage) *toolItem {
	it := &toolItem{v: v, id: id, name: name}
	it.setArgs(args)
	return it
}

func (it *toolItem) setArgs(raw json.RawMessage) {
	if len(raw) == 0 || string(raw) == string(it.rawArgs) {
		return
	}
	it.rawArgs = append(json.RawMessage(nil), raw...)
	var m map[string]any
	if json.Unmarshal(raw, &m) == nil {
		it.args = m
	}
	it.version++
}

func (it *toolItem) setPartial(r engine.ToolResult) {
	if it.done {
		return
	}
	it.result, it.partial = r, true
	it.version++
}

func (it *toolItem) finish(r engine.ToolResult, isError bool, duration *int64) {
	it.result, it.isError, it.duration, it.done, it.partial = r, isError, duration, true, false
	it.version++
}

func (it *toolItem) str(key string) string {
	if s, ok := it.args[key].(string); ok {
		return s
	}
	return ""
}

// output is the result's text blocks joined and, when the images are
// not drawn (the terminal cannot, or terminal.showImages is off), a
// placeholder line for each, as the reference's text output has.
func (it *toolItem) output() string {
	var parts, images []string
	for _, c := range it.result.Content {
		switch c.Type {
		case engine.ContentText:
			parts = append(parts, c.Text)
		case engine.ContentImage:
			mime := c.MimeType
			if mime == "" {
				mime = "image/unknown"
			}
			data, _ := base64.StdEncoding.DecodeString(c.Data)
			w, h, _ := tui.ImageSize(data, c.MimeType)
			images = append(images, tui.ImageFallback(mime, w, h, "", false))
		}
	}
	if it.v.drawImages() {
		images = nil
	}
	return strings.Join(append(parts, images...), "\n")
}

// drawImages reports whether result images are drawn inline.
func (v *view) drawImages() bool { return v.images != tui.ImagesNone && v.showImages }

// imageRows are the result's images, each after a blank row, below the
// tool's box (outside its background), as the reference lays them out.
func (it *toolItem) imageRows(width int) []string {
	if !it.v.drawImages() || it.result.Content == nil {
		return nil
	}
	if key := [2]uint64{it.version + 1, it.v.imageGen}; it.imageKey != key {
		it.imageKey = key
		it.images = nil
		o := tui.ImageOptions{Protocol: it.v.images, MaxWidthCells: it.v.imageWidth, Cell: it.v.cell,
			Fallback: func(s string) string { return it.v.fg("toolOutput", s) }}
		for _, c := range it.result.Content {
			if c.Type == engine.ContentImage && c.Data != "" && c.MimeType != "" {
				it.images = append(it.images, tui.NewImage(c.Data, c.MimeType, o))
			}
		}
	}
	var rows []string
	for _, im := range it.images {
		rows = append(rows, "")
		rows = append(rows, im.Render(width)...)
	}
	return rows
}

func (it *toolItem) bg() string {
	switch {
	case !it.done:
		return "toolPendingBg"
	case it.isError:
		return "toolErrorBg"
	}
	return "toolSuccessBg"
}

func (it *toolItem) Render(width int) []string {
	if r, ok := it.c.get(width, it.version, it.v.gen); ok {
		return r
	}
	inner := width - 2*outputPad
	var rows []string
	switch it.name {
	case "bash":
		rows = it.renderBash(inner)
	case "read":
		rows = it.renderRead(inner)
	case "edit":
		rows = it.renderEdit(inner)
	case "write":
		rows = it.renderWrite(inner)
	case "grep", "find", "ls":
		rows = it.renderListing(inner)
	default:
		rows = it.renderGeneric(inner)
	}
	return it.c.put(width, it.version, it.v.gen, append(box(it.v, width, outputPad, 1, it.bg(), rows), it.imageRows(width)...))
}

func (it *toolItem) title(s string) string { return it.v.fg("toolTitle", theme.Bold(s)) }

func (it *toolItem) out(s string) string { return it.v.fg("toolOutput", s) }

// errorBody is a failed call's message, shown whatever the tool.
func (it *toolItem) errorBody(inner int) []string {
	return wrapAll(strings.TrimSpace(it.output()), inner, func(s string) string { return it.v.fg("error", s) })
}

func (it *toolItem) renderBash(inner int) []string {
	rows := wrapAll("$ "+it.str("command"), inner, it.title)
	out := strings.TrimRight(it.output(), "\n")
	if out != "" {
		lines := wrapAll(out, inner, it.out)
		rows = append(rows, "")
		if !it.v.toolsExpanded && len(lines) > bashPreviewLines {
			hidden := len(lines) - bashPreviewLines
			rows = append(rows, it.v.fg("muted", fmt.Sprintf("... (%d earlier lines,", hidden))+" "+it.v.expandHint()+it.v.fg("muted", ")"))
			lines = lines[hidden:]
		}
		rows = append(rows, lines...)
	}
	if it.done && it.duration != nil {
		rows = append(rows, "", it.v.fg("muted", "Took "+formatDuration(*it.duration)))
	}
	return rows
}

// code shows a file's text, highlighted by the language its path names
// (plain toolOutput otherwise), wrapped to inner.
func (it *toolItem) code(text string, inner int) []string {
	lang := highlight.LanguageFromPath(it.str("path") + it.str("file_path"))
	if lang == "" {
		return wrapAll(text, inner, it.out)
	}
	var out []string
	for _, l := range highlight.Lines(lang, strings.ReplaceAll(text, "\t", "   "), it.v.th) {
		out = append(out, wrapAll(l, inner, nil)...)
	}
	return out
}

// bashPreviewLines is how many output rows a collapsed bash row keeps.
const bashPreviewLines = 5

func (it *toolItem) path() string {
	p := it.str("path")
	if p == "" {
		p = it.str("file_path")
	}
	return it.v.shortPath(p)
}

func (it *toolItem) renderRead(inner int) []string {
	call := it.title("read") + " " + it.v.fg("accent", it.path())
	if off, ok := it.args["offset"].(float64); ok {
		rng := fmt.Sprintf(":%d", int(off))
		if lim, ok := it.args["limit"].(float64); ok {
			rng = fmt.Sprintf(":%d-%d", int(off), int(off)+int(lim)-1)
		}
		call += it.v.fg("warning", rng)
	}
	rows := []string{call}
	switch {
	case it.done && it.isError:
		rows = append(rows, "")
		rows = append(rows, it.errorBody(inner)...)
	case it.done && it.v.toolsExpanded:
		rows = append(rows, "")
		rows = append(rows, it.code(strings.TrimRight(it.output(), "\n"), inner)...)
	}
	return rows
}

func (it *toolItem) renderEdit(inner int) []string {
	rows := []string{it.title("edit") + " " + it.v.fg("accent", it.path())}
	if !it.done {
		return rows
	}
	if it.isError {
		return append(append(rows, ""), it.errorBody(inner)...)
	}
	var d struct {
		Diff string `json:"diff"`
	}
	if json.Unmarshal(it.result.Details, &d) == nil && d.Diff != "" {
		rows = append(rows, "")
		for _, r := range renderDiff(it.v, d.Diff) {
			rows = append(rows, tui.Truncate(r, inner, ""))
		}
	}
	return rows
}

func (it *toolItem) renderWrite(inner int) []string {
	rows := []string{it.title("write") + " " + it.v.fg("accent", it.path())}
	content := strings.TrimRight(it.str("content"), "\n")
	if content != "" {
		lines := it.code(content, inner)
		rows = append(rows, "")
		total := len(lines)
		if !it.v.toolsExpanded && total > 10 {
			rows = append(rows, lines[:10]...)
			rows = append(rows, it.v.fg("muted", fmt.Sprintf("... (%d more lines, %d total,", total-10, total))+" "+it.v.expandHint()+it.v.fg("muted", ")"))
		} else {
			rows = append(rows, lines...)
		}
	}
	if it.done && it.isError {
		rows = append(append(rows, ""), it.errorBody(inner)...)
	}
	return rows
}

func (it *toolItem) renderListing(inner int) []string {
	path := it.path()
	if path == "" {
		path = "."
	}
	var call string
	limit := 20
	switch it.name {
	case "grep":
		call = it.title("grep") + " " + it.v.fg("accent", "/"+it.str("pattern")+"/") + it.out(" in "+path)
		if g := it.str("glob"); g != "" {
			call += it.out(" (" + g + ")")
		}
		limit = 15
	case "find":
		call = it.title("find") + " " + it.v.fg("accent", it.str("pattern")) + it.out(" in "+path)
	default:
		call = it.title("ls") + " " + it.v.fg("accent", path)
	}
	rows := []string{call}
	if !it.done {
		return rows
	}
	if it.isError {
		return append(append(rows, ""), it.errorBody(inner)...)
	}
	out := strings.TrimSpace(it.output())
	if out != "" {
		rows = append(rows, "")
		rows = append(rows, limitRows(it.v, strings.Split(out, "\n"), limit, "")...)
	}
	return rows
}

// limitRows keeps the first n rows (all when n is 0 or the rows are
// expanded) and says how many more there are.
func limitRows(v *view, rows []string, n int, _ string) []string {
	if n == 0 || v.toolsExpanded || len(rows) <= n {
		out := make([]string, len(rows))
		for i, r := range rows {
			out[i] = v.fg("toolOutput", r)
		}
		return out
	}
	out := make([]string, 0, n+1)
	for _, r := range rows[:n] {
		out = append(out, v.fg("toolOutput", r))
	}
	return append(out, v.fg("muted", fmt.Sprintf("... (%d more lines,", len(rows)-n))+" "+v.expandHint()+v.fg("muted", ")"))
}

func (it *toolItem) renderGeneric(inner int) []string {
	call := it.title(it.name)
	if len(it.rawArgs) > 0 && string(it.rawArgs) != "{}" {
		call += " " + it.v.fg("muted", compactJSON(it.rawArgs))
	}
	rows := []string{tui.Truncate(call, inner, "…")}
	if out := strings.TrimSpace(it.output()); out != "" {
		rows = append(rows, "")
		if it.isError {
			rows = append(rows, it.errorBody(inner)...)
		} else {
			rows = append(rows, limitRows(it.v, wrapAll(out, inner, nil), 10, "")...)
		}
	}
	return rows
}

func compactJSON(raw json.RawMessage) string {
	var v any
	if json.Unmarshal(raw, &v) != nil {
		return string(raw)
	}
	b, err := json.Marshal(v)
	if err != nil {
		return string(raw)
	}
	return string(b)
}

// formatDuration is the reference's tool duration: 0.4s, 2m 5s, 1h 2m 5s.
func formatDuration(ms int64) string {
	sec := float64(ms) / 1000
	if sec < 60 {
		return fmt.Sprintf("%.1fs", sec)
	}
	total := int64(sec)
	m, s := total/60, total%60
	if m < 60 {
		return fmt.Sprintf("%dm %ds", m, s)
	}
	return fmt.Sprintf("%dh %dm %ds", m/60, m%60, s)
}

// bashItem is a user command (!cmd, !!cmd): the command, its streamed
// output and its exit, between two rules.
type bashItem struct {
	v        *view
	command  string
	excluded bool
	out      strings.Builder
	done     bool
	exitCode *int
	cancel   bool
	version  uint64
	c        cache
}

func (it *bashItem) append(s string) {
	it.out.WriteString(s)
	it.version++
}

func (it *bashItem) finish(code *int, cancelled bool) {
	it.done, it.exitCode, it.cancel = true, code, cancelled
	it.version++
}

func (it *bashItem) Render(width int) []string {
	if r, ok := it.c.get(width, it.version, it.v.gen); ok {
		return r
	}
	inner := width - 2*outputPad
	token := "bashMode"
	if it.excluded {
		token = "dim"
	}
	rule := it.v.fg(token, strings.Repeat("─", max(width, 1)))
	content := wrapAll("$ "+it.command, inner, func(s string) string { return it.v.fg(token, theme.Bold(s)) })
	if out := strings.TrimRight(it.out.String(), "\n"); out != "" {
		lines := wrapAll(out, inner, func(s string) string { return it.v.fg("muted", s) })
		content = append(content, "")
		if !it.v.toolsExpanded && len(lines) > 20 {
			hidden := len(lines) - 20
			content = append(content, it.v.fg("muted", fmt.Sprintf("... (%d earlier lines,", hidden))+" "+it.v.expandHint()+it.v.fg("muted", ")"))
			lines = lines[hidden:]
		}
		content = append(content, lines...)
	}
	switch {
	case !it.done:
		content = append(content, "", it.v.fg("muted", "Running..."))
	case it.cancel:
		content = append(content, "", it.v.fg("warning", "(cancelled)"))
	case it.exitCode != nil && *it.exitCode != 0:
		content = append(content, "", it.v.fg("error", fmt.Sprintf("(exit %d)", *it.exitCode)))
	}
	rows := []string{rule}
	rows = append(rows, box(it.v, width, outputPad, 0, "", content)...)
	rows = append(rows, rule)
	return it.c.put(width, it.version, it.v.gen, rows)
}
