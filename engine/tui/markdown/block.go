package markdown

import (
	"strconv"
	"strings"
)

type kind uint8

const (
	kNone kind = iota
	kHeading
	kParagraph
	kCode
	kList
	kQuote
	kTable
	kHR
	kHTML
)

// block is one block-level element.
type block struct {
	kind        kind
	blankBefore bool // the source has a blank line between it and the block before
	level       int  // heading depth
	text        string
	lang        string
	// lists
	ordered bool
	start   int
	loose   bool
	items   []*listItem
	// block quotes
	children []*block
	// tables
	header []string
	rows   [][]string
	// raw is the block's source lines, for the table fallback.
	raw string
}

type listItem struct {
	task, checked bool
	blocks        []*block
}

func isBlank(l string) bool { return strings.TrimLeft(l, " \t") == "" }

// indentOf is the number of leading spaces.
func indentOf(l string) int {
	n := 0
	for n < len(l) && l[n] == ' ' {
		n++
	}
	return n
}

// stripIndent removes up to n leading spaces.
func stripIndent(l string, n int) string {
	i := 0
	for i < n && i < len(l) && l[i] == ' ' {
		i++
	}
	return l[i:]
}

// fenceOpen reports a code fence: its character, length, indentation and
// info string.
func fenceOpen(l string) (ch byte, n, indent int, info string, ok bool) {
	indent = indentOf(l)
	if indent > 3 {
		return
	}
	r := l[indent:]
	if len(r) < 3 || (r[0] != '`' && r[0] != '~') {
		return
	}
	ch = r[0]
	for n < len(r) && r[n] == ch {
		n++
	}
	if n < 3 {
		return
	}
	info = strings.TrimSpace(r[n:])
	if ch == '`' && strings.IndexByte(info, '`') >= 0 {
		return
	}
	return ch, n, indent, info, true
}

func fenceClose(l string, ch byte, n int) bool {
	if indentOf(l) > 3 {
		return false
	}
	r := strings.TrimSpace(l)
	if len(r) < n {
		return false
	}
	for i := 0; i < len(r); i++ {
		if r[i] != ch {
			return false
		}
	}
	return true
}

func atxHeading(l string) (level int, text string, ok bool) {
	if indentOf(l) > 3 {
		return
	}
	r := strings.TrimLeft(l, " ")
	for level < len(r) && r[level] == '#' {
		level++
	}
	if level == 0 || level > 6 || (level < len(r) && r[level] != ' ' && r[level] != '\t') {
		return 0, "", false
	}
	text = strings.TrimSpace(r[level:])
	// A closing sequence of #s preceded by a space is not part of the text.
	t := strings.TrimRight(text, "#")
	if t == "" {
		text = ""
	} else if len(t) < len(text) && (t[len(t)-1] == ' ' || t[len(t)-1] == '\t') {
		text = strings.TrimSpace(t)
	}
	return level, text, true
}

func isHR(l string) bool {
	if indentOf(l) > 3 {
		return false
	}
	r := strings.TrimSpace(l)
	if len(r) < 3 || (r[0] != '-' && r[0] != '*' && r[0] != '_') {
		return false
	}
	n := 0
	for i := 0; i < len(r); i++ {
		switch r[i] {
		case r[0]:
			n++
		case ' ', '\t':
		default:
			return false
		}
	}
	return n >= 3
}

// setextLevel reports a setext underline (=== is 1, --- is 2).
func setextLevel(l string) int {
	if indentOf(l) > 3 {
		return 0
	}
	r := strings.TrimSpace(l)
	if r == "" || strings.Trim(r, string(r[0])) != "" {
		return 0
	}
	switch r[0] {
	case '=':
		return 1
	case '-':
		return 2
	}
	return 0
}

// listMarker parses a list item's marker: ordered or not, the number, the
// marker character (- + * or . )) and the column where the content starts.
func listMarker(l string) (ordered bool, num int, delim byte, content int, ok bool) {
	ind := indentOf(l)
	if ind > 3 {
		return
	}
	r := l[ind:]
	w := 0
	if len(r) > 0 && (r[0] == '-' || r[0] == '+' || r[0] == '*') {
		delim, w = r[0], 1
	} else {
		d := 0
		for d < len(r) && d < 9 && r[d] >= '0' && r[d] <= '9' {
			d++
		}
		if d == 0 || d >= len(r) || (r[d] != '.' && r[d] != ')') {
			return
		}
		num, _ = strconv.Atoi(r[:d])
		ordered, delim, w = true, r[d], d+1
	}
	rest := r[w:]
	if rest != "" && rest[0] != ' ' && rest[0] != '\t' {
		return false, 0, 0, 0, false
	}
	sp := indentOf(rest)
	if sp > 4 || strings.TrimSpace(rest) == "" {
		sp = 1 // an indented code block or empty item: content starts one space after the marker
	}
	return ordered, num, delim, ind + w + sp, true
}

func isQuote(l string) bool {
	return indentOf(l) <= 3 && strings.HasPrefix(strings.TrimLeft(l, " "), ">")
}

func stripQuote(l string) string {
	r := strings.TrimLeft(l, " ")[1:]
	if strings.HasPrefix(r, " ") {
		r = r[1:]
	}
	return r
}

// isHTMLStart recognises the start of an HTML block: an opening or closing
// tag or a comment at the start of the line (autolinks like <https://…>
// are not tags: their name runs into a colon).
func isHTMLStart(l string) bool {
	if indentOf(l) > 3 {
		return false
	}
	r := strings.TrimLeft(l, " ")
	if strings.HasPrefix(r, "<!--") {
		return true
	}
	if len(r) < 2 || r[0] != '<' {
		return false
	}
	i := 1
	if r[i] == '/' {
		i++
	}
	j := i
	for j < len(r) && (r[j] >= 'a' && r[j] <= 'z' || r[j] >= 'A' && r[j] <= 'Z' || j > i && (r[j] >= '0' && r[j] <= '9' || r[j] == '-')) {
		j++
	}
	if j == i {
		return false
	}
	return j == len(r) || r[j] == ' ' || r[j] == '>' || r[j] == '\t' || strings.HasPrefix(r[j:], "/>")
}

// tableCells splits a table row on unescaped pipes, dropping the outer
// ones.
func tableCells(l string) []string {
	s := strings.TrimSpace(l)
	if strings.HasPrefix(s, "|") {
		s = s[1:]
	}
	if strings.HasSuffix(s, "|") && !strings.HasSuffix(s, "\\|") {
		s = s[:len(s)-1]
	}
	var cells []string
	var cur strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) && s[i+1] == '|' {
			cur.WriteByte('|')
			i++
			continue
		}
		if s[i] == '|' {
			cells = append(cells, strings.TrimSpace(cur.String()))
			cur.Reset()
			continue
		}
		cur.WriteByte(s[i])
	}
	return append(cells, strings.TrimSpace(cur.String()))
}

// isDelimiterRow matches a table's |---|:--:| row.
func isDelimiterRow(l string) bool {
	if indentOf(l) > 3 {
		return false
	}
	cells := tableCells(l)
	for _, c := range cells {
		c = strings.TrimSuffix(strings.TrimPrefix(c, ":"), ":")
		if c == "" || strings.Trim(c, "-") != "" {
			return false
		}
	}
	return true
}

// tableStart reports whether lines[i] and lines[i+1] start a GFM table: a
// header row and a delimiter row with the same number of cells, with a pipe
// somewhere (a pipe-free "---" is a rule or setext underline).
func tableStart(lines []string, i int) bool {
	if i+1 >= len(lines) || isBlank(lines[i]) || !isDelimiterRow(lines[i+1]) {
		return false
	}
	if !strings.Contains(lines[i], "|") && !strings.Contains(lines[i+1], "|") {
		return false
	}
	return len(tableCells(lines[i])) == len(tableCells(lines[i+1]))
}

// interrupts reports whether lines[i] starts a block that ends a paragraph.
func interrupts(lines []string, i int) bool {
	l := lines[i]
	if _, _, _, _, ok := fenceOpen(l); ok {
		return true
	}
	if _, _, ok := atxHeading(l); ok {
		return true
	}
	if isHR(l) || isQuote(l) || isHTMLStart(l) || tableStart(lines, i) {
		return true
	}
	if ordered, num, _, c, ok := listMarker(l); ok && strings.TrimSpace(l[min(c, len(l)):]) != "" {
		return !ordered || num == 1
	}
	return false
}

// maxDepth bounds the nesting of lists and quotes: deeper markers read as
// text, so pathological input ("> - > - …") costs linear time.
const maxDepth = 12

// lexBlocks splits lines into blocks.
func lexBlocks(lines []string) []*block { return lexBlocksAt(lines, 0) }

func lexBlocksAt(lines []string, depth int) []*block {
	var out []*block
	blank := false
	i := 0
	for i < len(lines) {
		l := lines[i]
		if isBlank(l) {
			blank = len(out) > 0
			i++
			continue
		}
		b, next := lexOneAt(lines, i, depth)
		b.blankBefore = blank
		blank = false
		out = append(out, b)
		i = next
	}
	return out
}

// lexOne lexes the top-level block that starts at lines[i] (not blank) and
// returns it with the index of the line after it.
func lexOne(lines []string, i int) (*block, int) { return lexOneAt(lines, i, 0) }

func lexOneAt(lines []string, i, depth int) (*block, int) {
	l := lines[i]
	nest := depth < maxDepth
	if ch, n, ind, info, ok := fenceOpen(l); ok {
		j := i + 1
		var body []string
		closed := false
		for ; j < len(lines); j++ {
			if fenceClose(lines[j], ch, n) {
				closed = true
				j++
				break
			}
			body = append(body, stripIndent(lines[j], ind))
		}
		if !closed && len(body) > 0 {
			// A closing fence still streaming in ("`", "``") is not code.
			last := body[len(body)-1]
			if t := strings.TrimSpace(last); t != "" && len(t) < n && strings.Trim(t, string(ch)) == "" {
				body = body[:len(body)-1]
			}
		}
		lang := info
		if k := strings.IndexAny(lang, " \t"); k >= 0 {
			lang = lang[:k]
		}
		return &block{kind: kCode, lang: lang, text: strings.Join(body, "\n")}, j
	}
	if level, text, ok := atxHeading(l); ok {
		return &block{kind: kHeading, level: level, text: text}, i + 1
	}
	if isHR(l) {
		return &block{kind: kHR}, i + 1
	}
	if nest && isQuote(l) {
		var inner []string
		j := i
		for j < len(lines) {
			if isQuote(lines[j]) {
				inner = append(inner, stripQuote(lines[j]))
				j++
				continue
			}
			// Lazy continuation: a paragraph line inside the quote goes on
			// without its ">".
			if isBlank(lines[j]) || len(inner) == 0 || isBlank(inner[len(inner)-1]) || interrupts(lines, j) {
				break
			}
			if _, _, _, _, ok := fenceOpen(inner[len(inner)-1]); ok {
				break
			}
			inner = append(inner, lines[j])
			j++
		}
		return &block{kind: kQuote, children: lexBlocksAt(inner, depth+1)}, j
	}
	if tableStart(lines, i) {
		header := tableCells(l)
		j := i + 2
		var rows [][]string
		for j < len(lines) && !isBlank(lines[j]) && !(interrupts(lines, j) && !strings.Contains(lines[j], "|")) {
			cells := tableCells(lines[j])
			row := make([]string, len(header))
			copy(row, cells)
			rows = append(rows, row)
			j++
		}
		return &block{kind: kTable, header: header, rows: rows, raw: strings.Join(lines[i:j], "\n")}, j
	}
	if _, _, _, _, ok := listMarker(l); ok && nest {
		return lexList(lines, i, depth)
	}
	if isHTMLStart(l) {
		j := i
		for j < len(lines) && !isBlank(lines[j]) {
			j++
		}
		return &block{kind: kHTML, text: strings.Join(lines[i:j], "\n")}, j
	}
	if indentOf(l) >= 4 {
		j := i
		var body []string
		for j < len(lines) && (isBlank(lines[j]) || indentOf(lines[j]) >= 4) {
			body = append(body, stripIndent(lines[j], 4))
			j++
		}
		for len(body) > 0 && isBlank(body[len(body)-1]) {
			body = body[:len(body)-1]
			j--
		}
		return &block{kind: kCode, text: strings.Join(body, "\n")}, j
	}
	// Paragraph, possibly turned into a setext heading.
	j := i + 1
	for j < len(lines) && !isBlank(lines[j]) {
		if lv := setextLevel(lines[j]); lv > 0 {
			return &block{kind: kHeading, level: lv, text: paragraphText(lines[i:j])}, j + 1
		}
		if interrupts(lines, j) {
			break
		}
		j++
	}
	return &block{kind: kParagraph, text: paragraphText(lines[i:j])}, j
}

// paragraphText joins a paragraph's lines: leading indentation and trailing
// spaces go, a hard-break backslash at a line's end goes; line breaks stay
// (pi shows soft breaks as breaks).
func paragraphText(lines []string) string {
	parts := make([]string, len(lines))
	for k, l := range lines {
		l = strings.TrimLeft(l, " \t")
		l = strings.TrimRight(l, " \t")
		if k < len(lines)-1 && strings.HasSuffix(l, "\\") && !strings.HasSuffix(l, "\\\\") {
			l = l[:len(l)-1]
		}
		parts[k] = l
	}
	return strings.Join(parts, "\n")
}

// lexList lexes a list starting at lines[i].
func lexList(lines []string, i, depth int) (*block, int) {
	ordered, num, delim, _, _ := listMarker(lines[i])
	b := &block{kind: kList, ordered: ordered, start: num}
	j := i
	sawBlankBetween := false
	for j < len(lines) {
		o, _, d, content, ok := listMarker(lines[j])
		if !ok || o != ordered || (ordered && d != delim) {
			break
		}
		if len(b.items) > 0 && sawBlankBetween {
			b.loose = true
		}
		// The item's lines: the first without its marker, then lines
		// indented to the content column, blank lines, and lazy
		// paragraph continuations.
		first := ""
		if content < len(lines[j]) {
			first = lines[j][content:]
		}
		body := []string{first}
		k := j + 1
		for k < len(lines) {
			lk := lines[k]
			if isBlank(lk) {
				body = append(body, "")
				k++
				continue
			}
			if indentOf(lk) >= content {
				body = append(body, lk[content:])
				k++
				continue
			}
			prev := body[len(body)-1]
			if prev != "" && !interrupts(lines, k) {
				if _, _, _, _, isItem := listMarker(lk); !isItem {
					body = append(body, strings.TrimLeft(lk, " "))
					k++
					continue
				}
			}
			break
		}
		// Trailing blank lines belong between items, not to the item.
		trail := 0
		for len(body) > 1 && body[len(body)-1] == "" {
			body = body[:len(body)-1]
			trail++
		}
		it := &listItem{}
		if len(body[0]) >= 3 && body[0][0] == '[' && body[0][2] == ']' && (len(body[0]) == 3 || body[0][3] == ' ') {
			switch body[0][1] {
			case ' ':
				it.task = true
			case 'x', 'X':
				it.task, it.checked = true, true
			}
			if it.task {
				body[0] = strings.TrimLeft(body[0][3:], " ")
			}
		}
		it.blocks = lexBlocksAt(body, depth+1)
		for _, c := range it.blocks[min(1, len(it.blocks)):] {
			if c.blankBefore {
				b.loose = true
			}
		}
		b.items = append(b.items, it)
		j = k - trail
		sawBlankBetween = trail > 0
		if trail > 0 {
			// A blank line ends the list unless another item follows.
			if k >= len(lines) {
				break
			}
			if o2, _, d2, _, ok2 := listMarker(lines[k]); !ok2 || o2 != ordered || (ordered && d2 != delim) {
				break
			}
			j = k
		}
	}
	return b, j
}
