package markdown

import "strings"

// Doc is one Markdown document rendered to rows, for example an assistant
// reply. It is not safe for concurrent use.
type Doc struct {
	r   renderer
	raw string // the text as set (before Transform)
	src string // the text parsed: transformed, tabs expanded
	// rawBuf and srcBuf hold raw and src, so appending costs the delta.
	rawBuf, srcBuf strings.Builder
	// blocks are the top-level blocks; starts[i] is the offset in src of
	// the line where blocks[i] starts.
	blocks []*top
	// rows is the last Render's result; dirty is the first block whose rows
	// in it may be stale.
	rows  []string
	width int
	dirty int
}

// top is a top-level block with its cached rows.
type top struct {
	b     *block
	start int    // offset of its first line in src
	raw   string // its source, for reuse across full re-parses
	// The rows depend on the width and on the next block (the blank row
	// between them).
	width     int
	nextKind  kind
	nextBlank bool
	rows      []string
	rowStart  int // index of its first row in Doc.rows
}

// New makes an empty document painted with st (nil: no styling).
func New(st *Styles) *Doc {
	if st == nil {
		st = &Styles{}
	}
	return &Doc{r: renderer{st: st}, width: -1}
}

// SetStyles replaces the styles (after a theme change) and drops every
// cached row.
func (d *Doc) SetStyles(st *Styles) {
	if st == nil {
		st = &Styles{}
	}
	d.r.st = st
	d.Invalidate()
}

// Invalidate drops cached rows, so the next Render paints everything again.
func (d *Doc) Invalidate() {
	for _, t := range d.blocks {
		t.width = -1
	}
	d.dirty = 0
	d.width = -1
}

// Text is the Markdown last set.
func (d *Doc) Text() string { return d.raw }

// SetText replaces the document's text. When the new text extends the old
// one (a streaming reply), it costs what Append of the difference costs;
// otherwise the whole text is parsed again, and blocks whose source did
// not change keep their rows.
func (d *Doc) SetText(text string) {
	if text == d.raw && d.blocks != nil {
		return
	}
	if d.r.st.Transform == nil && len(d.blocks) > 0 && len(text) > len(d.raw) && text[:len(d.raw)] == d.raw {
		d.Append(text[len(d.raw):])
		return
	}
	d.rawBuf.Reset()
	d.rawBuf.WriteString(text)
	d.raw = d.rawBuf.String()
	src := text
	if d.r.st.Transform != nil {
		src = d.r.st.Transform(src)
	}
	old := make(map[string]*top, len(d.blocks))
	for _, t := range d.blocks {
		old[t.raw] = t
	}
	d.srcBuf.Reset()
	d.srcBuf.WriteString(clean(src))
	d.src = d.srcBuf.String()
	d.blocks = d.lex(d.src, 0, false)
	for i, t := range d.blocks {
		if o, ok := old[t.raw]; ok && o.b.blankBefore == t.b.blankBefore {
			d.blocks[i] = &top{b: o.b, start: t.start, raw: t.raw, width: o.width, nextKind: o.nextKind, nextBlank: o.nextBlank, rows: o.rows}
		}
	}
	d.dirty = 0
}

// Append adds streamed text to the end of the document. Only the last
// top-level block is parsed and rendered again, so its cost does not grow
// with the document (with a Transform, the whole text is transformed and
// parsed again).
func (d *Doc) Append(delta string) {
	if delta == "" && d.blocks != nil {
		return
	}
	if d.r.st.Transform != nil || len(d.blocks) == 0 {
		// Builder strings stay valid after later writes, so this does not
		// alias the text SetText compares against.
		d.rawBuf.WriteString(delta)
		text := d.rawBuf.String()
		d.raw = ""
		d.blocks = nil
		d.SetText(text)
		return
	}
	d.rawBuf.WriteString(delta)
	d.raw = d.rawBuf.String()
	d.srcBuf.WriteString(clean(delta))
	d.appendText(d.srcBuf.String())
}

// appendText handles text that extends the previous text. A block ends at
// a line that starts another block or at a blank line, and appending text
// changes neither, so only the last block can change, with one exception:
// while the last block is its first line still being typed, that line may
// turn out to continue the block before it ("2" becoming "2. item" of a
// list, "#" becoming "#x" of a paragraph). So lexing restarts at the last
// block, or at the one before while the last has no line break yet.
func (d *Doc) appendText(src string) {
	restart := len(d.blocks) - 1
	if restart > 0 && !strings.Contains(d.blocks[restart].raw, "\n") {
		restart--
	}
	first := d.blocks[restart]
	d.src = src
	tail := d.lex(src[first.start:], first.start, first.b.blankBefore)
	for k := 0; k < len(tail) && restart+k < len(d.blocks); k++ {
		if o := d.blocks[restart+k]; tail[k].raw == o.raw && tail[k].b.blankBefore == o.b.blankBefore {
			tail[k] = o
		}
	}
	d.blocks = append(d.blocks[:restart], tail...)
	// The block before the first re-lexed one may need a different blank
	// row below it.
	d.dirty = min(d.dirty, max(0, restart-1))
}

// lex parses src (which starts at offset base of the document) into
// top-level blocks.
func (d *Doc) lex(src string, base int, blankBefore bool) []*top {
	lines := strings.Split(src, "\n")
	offsets := make([]int, len(lines)+1)
	off := base
	for i, l := range lines {
		offsets[i] = off
		off += len(l) + 1
	}
	offsets[len(lines)] = off
	var out []*top
	blank := blankBefore
	i := 0
	for i < len(lines) {
		if isBlank(lines[i]) {
			blank = blank || len(out) > 0 || base > 0
			i++
			continue
		}
		b, next := lexOne(lines, i)
		b.blankBefore = blank
		blank = false
		end := offsets[next] - 1
		end = min(end, base+len(src))
		out = append(out, &top{b: b, start: offsets[i], raw: src[offsets[i]-base : end-base], width: -1})
		i = next
	}
	return out
}

// Render returns the document's rows at width, each at most width cells
// wide. The returned slice belongs to the Doc: a later SetText or Render
// overwrites its tail in place, so copy rows that must outlive the next
// call.
func (d *Doc) Render(width int) []string {
	if width < 1 {
		width = 1
	}
	if width != d.width {
		d.width = width
		d.dirty = 0
	}
	if d.dirty < len(d.blocks) {
		start := 0
		if d.dirty > 0 {
			start = d.blocks[d.dirty].rowStart
		}
		d.rows = d.rows[:start]
		for i := d.dirty; i < len(d.blocks); i++ {
			t := d.blocks[i]
			var next *block
			nk, nb := kNone, false
			if i+1 < len(d.blocks) {
				next = d.blocks[i+1].b
				nk, nb = next.kind, next.blankBefore
			}
			if t.width != width || t.nextKind != nk || t.nextBlank != nb {
				t.rows = t.rows[:0]
				for _, l := range d.r.block(t.b, next, width, nil) {
					t.rows = append(t.rows, wrapText(l, width)...)
				}
				t.width, t.nextKind, t.nextBlank = width, nk, nb
			}
			t.rowStart = len(d.rows)
			d.rows = append(d.rows, t.rows...)
		}
	} else if len(d.blocks) == 0 {
		d.rows = d.rows[:0]
	}
	d.dirty = len(d.blocks)
	return d.rows
}

// clean prepares source text: tabs become three spaces (as pi shows them)
// and control characters other than newlines are dropped, since an escape
// sequence in a reply would restyle or move the terminal's cursor.
func clean(s string) string {
	ok := true
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < 0x20 && c != '\n' || c == 0x7f || c == 0xc2 && i+1 < len(s) && s[i+1] >= 0x80 && s[i+1] <= 0x9f {
			ok = false
			break
		}
	}
	if ok {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '\t':
			b.WriteString("   ")
		case c < 0x20 && c != '\n' || c == 0x7f:
		case c == 0xc2 && i+1 < len(s) && s[i+1] >= 0x80 && s[i+1] <= 0x9f:
			i++
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}
