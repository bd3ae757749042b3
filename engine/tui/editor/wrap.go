package editor

import "github.com/pi-go/pi/engine/tui"

// chunk is one visual row of a logical line: line[start:end], with the
// text shown (trailing break spaces stay in the row they end).
type chunk struct {
	text       string
	start, end int
}

// wrapLine word-wraps line into rows of at most width cells: it breaks
// after the last run of spaces that still lets the rest fit, between CJK
// characters, and inside a word only when the word alone is wider than a
// row. A paste marker wider than a row is cut by grapheme for display but
// stays one unit for editing.
func wrapLine(line string, width int, valid map[int]string) []chunk {
	if line == "" || width <= 0 {
		return []chunk{{"", 0, 0}}
	}
	if tui.Width(line) <= width {
		return []chunk{{line, 0, len(line)}}
	}
	segs := segments(line, valid)
	var out []chunk
	cur, start := 0, 0
	opp, oppWidth := -1, 0
	for i, s := range segs {
		g := line[s.start:s.end]
		gw := tui.Width(g)
		marker := isMarker(g)
		ws := !marker && isSpace(g)
		if cur+gw > width {
			if opp >= 0 && cur-oppWidth+gw <= width {
				out = append(out, chunk{line[start:opp], start, opp})
				start = opp
				cur -= oppWidth
			} else if start < s.start {
				out = append(out, chunk{line[start:s.start], start, s.start})
				start = s.start
				cur = 0
			}
			opp = -1
		}
		if gw > width {
			sub := wrapLine(g, width, nil)
			for _, c := range sub[:len(sub)-1] {
				out = append(out, chunk{c.text, s.start + c.start, s.start + c.end})
			}
			last := sub[len(sub)-1]
			start = s.start + last.start
			cur = tui.Width(last.text)
			opp = -1
			continue
		}
		cur += gw
		if i+1 < len(segs) {
			next := line[segs[i+1].start:segs[i+1].end]
			nextWS := !isMarker(next) && isSpace(next)
			switch {
			case ws && !nextWS:
				opp, oppWidth = segs[i+1].start, cur
			case !ws && !nextWS && (!marker && isCJK(g) || !isMarker(next) && isCJK(next)):
				opp, oppWidth = segs[i+1].start, cur
			}
		}
	}
	return append(out, chunk{line[start:], start, len(line)})
}

// wrapped is wrapLine through a per-line cache: a keystroke changes one
// line, so a frame rewraps only that one. Paste ids are always 1..n, so
// the number of pastes says which markers are atomic.
func (e *Editor) wrapped(line string, width int) []chunk {
	if e.wrapWidth != width || e.wrapPastes != e.pasteCount || len(e.wrapCache) > 2*len(e.lines)+256 {
		e.wrapCache, e.wrapWidth, e.wrapPastes = map[string][]chunk{}, width, e.pasteCount
	}
	if c, ok := e.wrapCache[line]; ok {
		return c
	}
	c := wrapLine(line, width, e.pastes)
	e.wrapCache[line] = c
	return c
}

// visualLine is one row of the wrapped buffer.
type visualLine struct {
	line       int // logical line
	start, end int // byte range in the logical line
}

// visualLines wraps every logical line at width.
func (e *Editor) visualLines(width int) []visualLine {
	var out []visualLine
	for i, l := range e.lines {
		for _, c := range e.wrapped(l, width) {
			out = append(out, visualLine{i, c.start, c.end})
		}
	}
	return out
}

// visualIndex is the row holding (line, col): a column at a row's end
// belongs to the next row of the same line, except at the line's end.
func visualIndex(vls []visualLine, line, col int) int {
	for i, v := range vls {
		if v.line != line {
			continue
		}
		last := i == len(vls)-1 || vls[i+1].line != line
		if col >= v.start && (col < v.end || last && col == v.end) {
			return i
		}
	}
	return len(vls) - 1
}
