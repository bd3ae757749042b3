package editor

import "strings"

// visibleRows is how many text rows the editor shows before it scrolls:
// 30% of the terminal, at least 5 (pi's rule).
func (e *Editor) visibleRows() int {
	rows := 24
	if e.opt.TerminalRows != nil {
		if r := e.opt.TerminalRows(); r > 0 {
			rows = r
		}
	}
	return max(5, rows*3/10)
}

func (e *Editor) onFirstVisualLine() bool {
	vls := e.visualLines(e.lastWidth)
	return visualIndex(vls, e.line, e.col) == 0
}

func (e *Editor) onLastVisualLine() bool {
	vls := e.visualLines(e.lastWidth)
	return visualIndex(vls, e.line, e.col) == len(vls)-1
}

func (e *Editor) lineStart() {
	e.last = actNone
	e.setCol(0)
}

func (e *Editor) lineEnd() {
	e.last = actNone
	e.setCol(len(e.cur()))
}

func (e *Editor) left() {
	e.last = actNone
	switch {
	case e.col > 0:
		e.setCol(prevBoundary(e.segs(e.cur()), e.col))
	case e.line > 0:
		e.line--
		e.setCol(len(e.cur()))
	}
	e.changedView()
	e.refreshAutocomplete()
}

func (e *Editor) right() {
	e.last = actNone
	line := e.cur()
	switch {
	case e.col < len(line):
		e.setCol(nextBoundary(e.segs(line), e.col, len(line)))
	case e.line < len(e.lines)-1:
		e.line++
		e.setCol(0)
	default:
		// At the very end: remember the column for a following Up.
		vls := e.visualLines(e.lastWidth)
		v := vls[visualIndex(vls, e.line, e.col)]
		e.prefer = e.col - v.start
	}
	e.changedView()
	e.refreshAutocomplete()
}

func (e *Editor) wordLeft() {
	e.last = actNone
	if e.col == 0 {
		if e.line > 0 {
			e.line--
			e.setCol(len(e.cur()))
		}
	} else {
		e.setCol(wordBackward(e.cur(), e.col, e.segs(e.cur())))
	}
	e.changedView()
}

func (e *Editor) wordRight() {
	e.last = actNone
	if e.col >= len(e.cur()) {
		if e.line < len(e.lines)-1 {
			e.line++
			e.setCol(0)
		}
	} else {
		e.setCol(wordForward(e.cur(), e.col, e.segs(e.cur())))
	}
	e.changedView()
}

// vertical moves the cursor by delta visual rows, keeping a sticky column.
func (e *Editor) vertical(delta int) {
	e.last = actNone
	vls := e.visualLines(e.lastWidth)
	from := visualIndex(vls, e.line, e.col)
	to := from + delta
	if to < 0 {
		to = 0
	}
	if to > len(vls)-1 {
		to = len(vls) - 1
	}
	if to != from {
		e.moveToVisual(vls, from, to)
	}
	e.changedView()
	e.refreshAutocomplete()
}

// rowLimit is the last column the cursor may take in visual row i: a row
// that continues on the next one ends before its last byte.
func rowLimit(vls []visualLine, i int) int {
	v := vls[i]
	if i == len(vls)-1 || vls[i+1].line != v.line {
		return v.end - v.start
	}
	return max(0, v.end-v.start-1)
}

func (e *Editor) moveToVisual(vls []visualLine, from, to int) {
	cur := e.col - vls[from].start
	srcMax, dstMax := rowLimit(vls, from), rowLimit(vls, to)
	var col int
	switch {
	case e.prefer < 0 || cur < srcMax:
		if dstMax < cur {
			e.prefer = cur
			col = dstMax
		} else {
			e.prefer = -1
			col = cur
		}
	case dstMax < cur || dstMax < e.prefer:
		col = dstMax
	default:
		col = e.prefer
		e.prefer = -1
	}
	t := vls[to]
	e.line = t.line
	c := min(t.start+col, len(e.cur()))
	// Land on a segment boundary (never inside a paste marker or a
	// multi-byte character).
	for _, s := range e.segs(e.cur()) {
		if c > s.start && c < s.end {
			c = s.start
			break
		}
	}
	e.col = c
}

func (e *Editor) page(dir int) {
	e.vertical(dir * e.visibleRows())
}

// jumpTo moves to the next (dir 1) or previous (dir -1) occurrence of ch,
// across lines; the cursor stays when there is none.
func (e *Editor) jumpTo(ch string, dir int) {
	e.last = actNone
	for i := e.line; i >= 0 && i < len(e.lines); i += dir {
		line := e.lines[i]
		idx := -1
		if dir > 0 {
			from := 0
			if i == e.line {
				from = min(len(line), e.col+1)
			}
			if j := strings.Index(line[from:], ch); j >= 0 {
				idx = from + j
			}
		} else {
			to := len(line)
			if i == e.line {
				to = e.col - 1 + len(ch)
				if e.col == 0 {
					to = -1
				}
				to = min(to, len(line))
			}
			if to >= 0 {
				idx = strings.LastIndex(line[:to], ch)
			}
		}
		if idx >= 0 {
			e.line = i
			e.setCol(idx)
			e.changedView()
			return
		}
	}
}
