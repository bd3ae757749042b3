package interactive

import (
	"fmt"
	"strings"

	"github.com/pi-go/pi/engine"
	"github.com/pi-go/pi/engine/tui"
	"github.com/pi-go/pi/engine/tui/markdown"
	"github.com/pi-go/pi/engine/tui/theme"
)

// markdownDoc is the part of markdown.Doc the items use.
type markdownDoc interface {
	SetText(src string)
	Render(width int) []string
}

// newMarkdown builds the renderer of one Markdown block in th's colours.
func newMarkdown(th *theme.Theme) markdownDoc { return markdown.New(markdown.StylesFromTheme(th)) }

// newThinkingMarkdown renders a thinking block: Markdown in italic
// thinkingText.
func newThinkingMarkdown(th *theme.Theme) markdownDoc {
	st := markdown.StylesFromTheme(th)
	st.Text = func(s string) string { return theme.Italic(th.Fg("thinkingText", s)) }
	return markdown.New(st)
}

// outputPad is the left and right padding of transcript text (the
// reference's outputPad setting, default 1).
const outputPad = 1

// userItem is a user message: a padded box on userMessageBg.
type userItem struct {
	v    *view
	text string
	c    cache
}

func (it *userItem) Render(width int) []string {
	if r, ok := it.c.get(width, 0, it.v.gen); ok {
		return r
	}
	inner := width - 2*outputPad
	rows := wrapAll(it.text, inner, func(s string) string { return it.v.fg("userMessageText", s) })
	return it.c.put(width, 0, it.v.gen, box(it.v, width, outputPad, 1, "userMessageBg", rows))
}

// assistantItem is one assistant message: its thinking and text blocks
// in order (tool calls are their own rows), and its error or abort.
type assistantItem struct {
	v       *view
	msg     *engine.Message
	docs    []markdownDoc // per content block; nil for non-text blocks
	version uint64
	c       cache
}

func newAssistantItem(v *view, m *engine.Message) *assistantItem {
	it := &assistantItem{v: v}
	it.update(m)
	return it
}

// update takes the newest partial (or the final message).
func (it *assistantItem) update(m *engine.Message) {
	it.msg = m
	for len(it.docs) < len(m.Content.Blocks) {
		it.docs = append(it.docs, nil)
	}
	for i, b := range m.Content.Blocks {
		switch b.Type {
		case engine.ContentText:
			if it.docs[i] == nil {
				it.docs[i] = newMarkdown(it.v.th)
			}
			it.docs[i].SetText(strings.TrimSpace(b.Text))
		case engine.ContentThinking:
			if it.docs[i] == nil {
				it.docs[i] = newThinkingMarkdown(it.v.th)
			}
			it.docs[i].SetText(strings.TrimSpace(b.Thinking))
		}
	}
	it.version++
}

// empty reports whether the message shows nothing (a reply that only
// called tools).
func (it *assistantItem) empty() bool {
	for _, b := range it.msg.Content.Blocks {
		switch b.Type {
		case engine.ContentText:
			if strings.TrimSpace(b.Text) != "" {
				return false
			}
		case engine.ContentThinking:
			if strings.TrimSpace(b.Thinking) != "" {
				return false
			}
		}
	}
	return it.errorText() == ""
}

func (it *assistantItem) errorText() string {
	switch it.msg.StopReason {
	case engine.StopAborted:
		if it.msg.ErrorMessage != "" && it.msg.ErrorMessage != "Request was aborted" {
			return it.msg.ErrorMessage
		}
		return "Operation aborted"
	case engine.StopError:
		msg := it.msg.ErrorMessage
		if msg == "" {
			msg = "Unknown error"
		}
		return "Error: " + msg
	}
	return ""
}

func (it *assistantItem) Render(width int) []string {
	if r, ok := it.c.get(width, it.version, it.v.gen); ok {
		return r
	}
	inner := width - 2*outputPad
	var rows []string
	sep := func() {
		if len(rows) > 0 {
			rows = append(rows, "")
		}
	}
	for i, b := range it.msg.Content.Blocks {
		switch b.Type {
		case engine.ContentThinking:
			t := strings.TrimSpace(b.Thinking)
			if t == "" {
				continue
			}
			sep()
			if it.v.hideThinking {
				rows = append(rows, theme.Italic(it.v.fg("thinkingText", it.v.thinkingLabel)))
				continue
			}
			rows = append(rows, it.docs[i].Render(inner)...)
		case engine.ContentText:
			if strings.TrimSpace(b.Text) == "" || it.docs[i] == nil {
				continue
			}
			sep()
			rows = append(rows, it.docs[i].Render(inner)...)
		}
	}
	if e := it.errorText(); e != "" {
		sep()
		rows = append(rows, wrapAll(e, inner, func(s string) string { return it.v.fg("error", s) })...)
	}
	return it.c.put(width, it.version, it.v.gen, box(it.v, width, outputPad, 0, "", rows))
}

// noticeItem is a one-off line: "Operation aborted", "Error: …", an
// extension's notify(), a status such as "Thinking level: high".
type noticeItem struct {
	v     *view
	token string // theme token of the text: "dim", "warning", "error", …
	text  string
	c     cache
}

func (it *noticeItem) Render(width int) []string {
	if r, ok := it.c.get(width, 0, it.v.gen); ok {
		return r
	}
	rows := wrapAll(it.text, width-2*outputPad, func(s string) string { return it.v.fg(it.token, s) })
	return it.c.put(width, 0, it.v.gen, box(it.v, width, outputPad, 0, "", rows))
}

// customItem is a custom message an extension sent with display: a box
// on customMessageBg with its type as the label.
type customItem struct {
	v     *view
	label string
	text  string
	doc   markdownDoc
	c     cache
}

func newCustomItem(v *view, customType, text string) *customItem {
	d := newMarkdown(v.th)
	d.SetText(text)
	return &customItem{v: v, label: customType, text: text, doc: d}
}

func (it *customItem) Render(width int) []string {
	if r, ok := it.c.get(width, 0, it.v.gen); ok {
		return r
	}
	inner := width - 2*outputPad
	rows := []string{it.v.fg("customMessageLabel", theme.Bold("["+it.label+"]")), ""}
	rows = append(rows, it.doc.Render(inner)...)
	return it.c.put(width, 0, it.v.gen, box(it.v, width, outputPad, 1, "customMessageBg", rows))
}

// summaryItem is a compaction or branch summary: a label, then the
// summary when expanded or a one-line hint when collapsed.
type summaryItem struct {
	v       *view
	branch  bool
	tokens  int
	summary string
	doc     markdownDoc
	c       cache
}

func newSummaryItem(v *view, branch bool, tokens int, summary string) *summaryItem {
	d := newMarkdown(v.th)
	d.SetText(summary)
	return &summaryItem{v: v, branch: branch, tokens: tokens, summary: summary, doc: d}
}

func (it *summaryItem) Render(width int) []string {
	if r, ok := it.c.get(width, 0, it.v.gen); ok {
		return r
	}
	inner := width - 2*outputPad
	label, line := "[compaction]", fmt.Sprintf("Compacted from %s tokens", groupThousands(it.tokens))
	if it.branch {
		label, line = "[branch]", "Branch summary"
	}
	rows := []string{it.v.fg("customMessageLabel", theme.Bold(label)), ""}
	if it.v.toolsExpanded {
		rows = append(rows, theme.Bold(it.v.fg("customMessageText", line)), "")
		rows = append(rows, it.doc.Render(inner)...)
	} else {
		rows = append(rows, it.v.fg("customMessageText", line+" (")+it.v.expandHint()+it.v.fg("customMessageText", ")"))
	}
	return it.c.put(width, 0, it.v.gen, box(it.v, width, outputPad, 1, "customMessageBg", rows))
}

// groupThousands writes n as toLocaleString does in English: 12,345.
func groupThousands(n int) string {
	s := fmt.Sprint(n)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	var b strings.Builder
	for i, r := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(r)
	}
	if neg {
		return "-" + b.String()
	}
	return b.String()
}

// spacer is a fixed number of blank rows.
type spacer int

func (s spacer) Render(int) []string { return make([]string, int(s)) }

var _ tui.Component = spacer(0)

// markdownItem is Markdown a command prints into the transcript
// (/session, /hotkeys, /changelog).
type markdownItem struct {
	v   *view
	doc markdownDoc
	c   cache
}

func newMarkdownItem(v *view, src string) *markdownItem {
	d := newMarkdown(v.th)
	d.SetText(src)
	return &markdownItem{v: v, doc: d}
}

func (it *markdownItem) Render(width int) []string {
	if r, ok := it.c.get(width, 0, it.v.gen); ok {
		return r
	}
	return it.c.put(width, 0, it.v.gen, box(it.v, width, outputPad, 0, "", it.doc.Render(width-2*outputPad)))
}
