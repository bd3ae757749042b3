package markdown

import (
	"strings"

	"github.com/charmbracelet/x/ansi"
)

// ictx is the style that surrounds inline text: apply paints plain text,
// prefix re-opens the surrounding style after an inner element closed it.
type ictx struct {
	apply  func(string) string
	prefix string
}

type renderer struct {
	st *Styles
}

func (r *renderer) defaultCtx() ictx {
	if r.st.Text != nil {
		return ictx{apply: r.st.Text, prefix: prefixOf(r.st.Text)}
	}
	return ictx{apply: func(s string) string { return s }}
}

// inline renders inline Markdown source in a context.
func (r *renderer) inline(src string, c ictx) string {
	return r.nodes(parseInline(src), c)
}

func (r *renderer) nodes(ns []*inode, c ictx) string {
	var b strings.Builder
	applyLines := func(s string) {
		if !strings.Contains(s, "\n") {
			b.WriteString(c.apply(s))
			return
		}
		for i, seg := range strings.Split(s, "\n") {
			if i > 0 {
				b.WriteByte('\n')
			}
			b.WriteString(c.apply(seg))
		}
	}
	st := r.st
	// After a hidden comment, "a <!-- c --> b" reads "a b": the text after
	// it loses its leading spaces when the text before ended with one.
	dropSpace := false
	for i, n := range ns {
		if dropSpace && n.kind == iText {
			n = &inode{kind: iText, text: strings.TrimLeft(n.text, " \t")}
		}
		dropSpace = false
		switch n.kind {
		case iText:
			applyLines(n.text)
		case iHTML:
			if !strings.HasPrefix(n.text, "<!--") {
				applyLines(n.text)
			} else {
				dropSpace = i == 0 || ns[i-1].kind == iText && strings.HasSuffix(ns[i-1].text, " ")
			}
		case iCode:
			b.WriteString(apply(st.Code, n.text) + c.prefix)
		case iStrong:
			b.WriteString(apply(st.Bold, r.nodes(n.children, c)) + c.prefix)
		case iEm:
			b.WriteString(apply(st.Italic, r.nodes(n.children, c)) + c.prefix)
		case iDel:
			b.WriteString(apply(st.Strike, r.nodes(n.children, c)) + c.prefix)
		case iLink:
			text := apply(st.Link, apply(st.Underline, r.nodes(n.children, c)))
			if st.Hyperlinks {
				b.WriteString("\x1b]8;;" + cleanURL(n.href) + "\x1b\\" + text + "\x1b]8;;\x1b\\" + c.prefix)
				continue
			}
			cmp := strings.TrimPrefix(n.href, "mailto:")
			if n.text == n.href || n.text == cmp {
				b.WriteString(text + c.prefix)
			} else {
				b.WriteString(text + apply(st.LinkURL, " ("+n.href+")") + c.prefix)
			}
		}
	}
	out := b.String()
	for c.prefix != "" && strings.HasSuffix(out, c.prefix) {
		out = out[:len(out)-len(c.prefix)]
	}
	return out
}

// gapAfter reports whether a blank row separates block a from the block
// after it: always when the source had a blank line between them, and
// otherwise after every block but lists, HTML, and a paragraph followed
// directly by a list.
func gapAfter(a *block, next *block) bool {
	if next == nil {
		return false
	}
	if next.blankBefore {
		return true
	}
	switch a.kind {
	case kList, kHTML:
		return false
	case kParagraph:
		return next.kind != kList
	}
	return true
}

// block renders one block at width into lines that may still be wider than
// width (the caller wraps them); next decides the trailing blank row.
func (r *renderer) block(b *block, next *block, width int, c *ictx) []string {
	st := r.st
	ctx := r.defaultCtx()
	if c != nil {
		ctx = *c
	}
	var lines []string
	switch b.kind {
	case kHeading:
		style := func(s string) string { return apply(st.Heading, apply(st.Bold, s)) }
		if b.level == 1 {
			style = func(s string) string { return apply(st.Heading, apply(st.Bold, apply(st.Underline, s))) }
		}
		hc := ictx{apply: style, prefix: prefixOf(style)}
		text := r.inline(b.text, hc)
		if b.level >= 3 {
			text = style(strings.Repeat("#", b.level)+" ") + text
		}
		lines = append(lines, text)
	case kParagraph:
		lines = append(lines, r.inline(b.text, ctx))
	case kHTML:
		t := strings.TrimSpace(stripComments(b.text))
		if t != "" {
			lines = append(lines, ctx.apply(t))
		}
	case kCode:
		indent := st.CodeBlockIndent
		if indent == "" {
			indent = "  "
		}
		lines = append(lines, apply(st.CodeBlockBorder, "```"+b.lang))
		var body []string
		if st.Highlight != nil {
			body = st.Highlight(b.lang, b.text)
		} else {
			for _, l := range strings.Split(b.text, "\n") {
				body = append(body, apply(st.CodeBlock, l))
			}
		}
		for _, l := range body {
			lines = append(lines, indent+l)
		}
		lines = append(lines, apply(st.CodeBlockBorder, "```"))
	case kList:
		lines = append(lines, r.list(b, 0, width, ctx)...)
	case kTable:
		lines = append(lines, r.table(b, width, ctx)...)
	case kQuote:
		lines = append(lines, r.quote(b, width)...)
	case kHR:
		lines = append(lines, apply(st.HR, strings.Repeat("─", min(width, 80))))
	}
	if gapAfter(b, next) {
		lines = append(lines, "")
	}
	return lines
}

func stripComments(s string) string {
	for {
		i := strings.Index(s, "<!--")
		if i < 0 {
			return s
		}
		j := strings.Index(s[i+4:], "-->")
		if j < 0 {
			return s[:i]
		}
		s = s[:i] + s[i+4+j+3:]
	}
}

// blocks renders a sequence of blocks, each wrapped to width.
func (r *renderer) blocks(bs []*block, width int, c *ictx) []string {
	var out []string
	for i, b := range bs {
		var next *block
		if i+1 < len(bs) {
			next = bs[i+1]
		}
		for _, l := range r.block(b, next, width, c) {
			out = append(out, wrapText(l, width)...)
		}
	}
	return out
}

func (r *renderer) quote(b *block, width int) []string {
	st := r.st
	style := func(s string) string { return apply(st.Quote, apply(st.Italic, s)) }
	prefix := prefixOf(style)
	if width < 3 {
		// No room for a border and content: show the content without one
		// (each level would otherwise re-wrap every line at width 1).
		return r.blocks(b.children, width, nil)
	}
	inner := ictx{apply: func(s string) string { return s }, prefix: prefix}
	cw := width - 2
	var lines []string
	for i, c := range b.children {
		var next *block
		if i+1 < len(b.children) {
			next = b.children[i+1]
		}
		lines = append(lines, r.block(c, next, cw, &inner)...)
	}
	for len(lines) > 0 && lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	var out []string
	border := apply(st.QuoteBorder, "│ ")
	for _, l := range lines {
		if prefix != "" {
			l = strings.ReplaceAll(l, "\x1b[0m", "\x1b[0m"+prefix)
		}
		for _, w := range wrapText(style(l), cw) {
			out = append(out, border+w)
		}
	}
	return out
}

func (r *renderer) list(b *block, depth, width int, c ictx) []string {
	st := r.st
	indent := strings.Repeat("    ", depth)
	var out []string
	for i, it := range b.items {
		bullet := "- "
		if b.ordered {
			bullet = itoa(b.start+i) + ". "
		}
		marker := bullet
		if it.task {
			if it.checked {
				marker += "[x] "
			} else {
				marker += "[ ] "
			}
		}
		first := indent + apply(st.ListBullet, marker)
		cont := indent + strings.Repeat(" ", ansi.StringWidth(marker))
		iw := max(1, width-ansi.StringWidth(first))
		any := false
		for k, ib := range it.blocks {
			if ib.kind == kList {
				out = append(out, r.list(ib, depth+1, width, c)...)
				any = true
				continue
			}
			var lines []string
			if k > 0 && ib.blankBefore {
				lines = append(lines, "")
			}
			lines = append(lines, r.block(ib, nil, iw, &c)...)
			for _, l := range lines {
				for _, w := range wrapText(l, iw) {
					p := first
					if any {
						p = cont
					}
					if w == "" {
						p = strings.TrimRight(p, " ")
					}
					out = append(out, p+w)
					any = true
				}
			}
		}
		if !any {
			out = append(out, first)
		}
		if b.loose && i < len(b.items)-1 {
			out = append(out, "")
		}
	}
	return out
}

func itoa(n int) string {
	if n == 0 {
		return "0"
	}
	neg := n < 0
	if neg {
		n = -n
	}
	var buf [20]byte
	i := len(buf)
	for n > 0 {
		i--
		buf[i] = byte('0' + n%10)
		n /= 10
	}
	if neg {
		i--
		buf[i] = '-'
	}
	return string(buf[i:])
}

// longestWord is the width of the widest space-separated word, capped.
func longestWord(s string, limit int) int {
	w := 0
	for _, f := range strings.Fields(ansi.Strip(s)) {
		w = max(w, ansi.StringWidth(f))
	}
	return min(w, limit)
}

// table renders a GFM table in box drawing, fitting the columns into width
// and wrapping cells that do not fit.
func (r *renderer) table(b *block, width int, c ictx) []string {
	n := len(b.header)
	if n == 0 {
		return nil
	}
	overhead := 3*n + 1
	avail := width - overhead
	if avail < n {
		// Too narrow for a table: show its source.
		return wrapText(b.raw, width)
	}
	head := make([]string, n)
	cells := make([][]string, len(b.rows))
	natural := make([]int, n)
	minw := make([]int, n)
	for i := range n {
		head[i] = r.inline(b.header[i], c)
		natural[i] = ansi.StringWidth(head[i])
		minw[i] = max(1, longestWord(head[i], 30))
	}
	for ri, row := range b.rows {
		cells[ri] = make([]string, n)
		for i := range n {
			cells[ri][i] = r.inline(row[i], c)
			natural[i] = max(natural[i], ansi.StringWidth(cells[ri][i]))
			minw[i] = max(minw[i], longestWord(cells[ri][i], 30))
		}
	}
	sum := func(v []int) int {
		t := 0
		for _, x := range v {
			t += x
		}
		return t
	}
	mins := minw
	if sum(mins) > avail {
		// Even the longest words do not fit: start from one column each and
		// share the rest by how long each column's words are.
		mins = make([]int, n)
		rest := avail - n
		weight := 0
		for _, w := range minw {
			weight += max(0, w-1)
		}
		given := 0
		for i, w := range minw {
			mins[i] = 1
			if weight > 0 && rest > 0 {
				g := max(0, w-1) * rest / weight
				mins[i] += g
				given += g
			}
		}
		for i := 0; rest-given > 0 && i < n; i++ {
			mins[i]++
			given++
		}
	}
	widths := make([]int, n)
	if sum(natural)+overhead <= width {
		for i := range n {
			widths[i] = max(natural[i], mins[i])
		}
	} else {
		grow := 0
		for i := range n {
			grow += max(0, natural[i]-mins[i])
		}
		extra := max(0, avail-sum(mins))
		for i := range n {
			widths[i] = mins[i]
			if grow > 0 {
				widths[i] += max(0, natural[i]-mins[i]) * extra / grow
			}
		}
		left := avail - sum(widths)
		for left > 0 {
			grew := false
			for i := 0; i < n && left > 0; i++ {
				if widths[i] < natural[i] {
					widths[i]++
					left--
					grew = true
				}
			}
			if !grew {
				break
			}
		}
	}
	rule := func(l, m, rt string) string {
		parts := make([]string, n)
		for i, w := range widths {
			parts[i] = strings.Repeat("─", w)
		}
		return l + "─" + strings.Join(parts, "─"+m+"─") + "─" + rt
	}
	bold := r.st.Bold
	row := func(cs []string, header bool) []string {
		wrapped := make([][]string, n)
		h := 1
		for i, cell := range cs {
			wrapped[i] = wrapText(cell, widths[i])
			h = max(h, len(wrapped[i]))
		}
		out := make([]string, h)
		for k := range h {
			parts := make([]string, n)
			for i := range n {
				t := ""
				if k < len(wrapped[i]) {
					t = wrapped[i][k]
				}
				p := t + strings.Repeat(" ", max(0, widths[i]-ansi.StringWidth(t)))
				if header {
					p = apply(bold, p)
				}
				parts[i] = p
			}
			out[k] = "│ " + strings.Join(parts, " │ ") + " │"
		}
		return out
	}
	out := []string{rule("┌", "┬", "┐")}
	out = append(out, row(head, true)...)
	sep := rule("├", "┼", "┤")
	out = append(out, sep)
	for ri, cs := range cells {
		out = append(out, row(cs, false)...)
		if ri < len(cells)-1 {
			out = append(out, sep)
		}
	}
	return append(out, rule("└", "┴", "┘"))
}

// cleanURL drops control characters from a link target, which would end
// the OSC 8 sequence early.
func cleanURL(u string) string {
	return strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f {
			return -1
		}
		return r
	}, u)
}
