package tui

import (
	"bytes"
	"strings"
)

// Windowed is a body that can render a slice of itself, so a frame
// touches only the rows in view: a 2,000-message transcript keeps the
// heights of its items and renders the few that intersect the window.
//
// Height(width) is len(Render(width)); RenderRange(width, from, to)
// returns rows [from, to) of Render(width) (to ≤ Height). Both are
// called every frame, so they must cost O(rows returned), not O(body).
type Windowed interface {
	Component
	Height(width int) int
	RenderRange(width, from, to int) []string
}

// document is one frame's body and dock at one width.
type document struct {
	win      Windowed
	bodyRows []string // the whole body when it is not Windowed
	bodyH    int
	width    int
	dock     []string
}

func (p *Program) document(width, bodyWidth int) document {
	d := document{width: bodyWidth}
	if p.body != nil && bodyWidth > 0 {
		if w, ok := p.body.(Windowed); ok {
			d.win = w
			d.bodyH = w.Height(bodyWidth)
		} else {
			d.bodyRows = p.body.Render(bodyWidth)
			d.bodyH = len(d.bodyRows)
		}
	}
	if p.dock != nil && width > 0 {
		d.dock = p.dock.Render(width)
	}
	return d
}

// body returns body rows [from, to), clamped.
func (d *document) body(from, to int) []string {
	from, to = max(from, 0), min(to, d.bodyH)
	if from >= to {
		return nil
	}
	if d.win != nil {
		rows := d.win.RenderRange(d.width, from, to)
		if len(rows) > to-from {
			rows = rows[:to-from]
		}
		for len(rows) < to-from {
			rows = append(rows, "")
		}
		return rows
	}
	return d.bodyRows[from:to]
}

// height is the number of document rows (body then dock).
func (d *document) height() int { return d.bodyH + len(d.dock) }

// rows returns document rows [from, to).
func (d *document) rows(from, to int) []string {
	from, to = max(from, 0), min(to, d.height())
	if from >= to {
		return nil
	}
	out := make([]string, 0, to-from)
	if from < d.bodyH {
		out = append(out, d.body(from, min(to, d.bodyH))...)
	}
	if to > d.bodyH {
		out = append(out, d.dock[max(from-d.bodyH, 0):to-d.bodyH]...)
	}
	return out
}

// cursorPos is where a CursorMarker was found: a row index into the rows
// searched and a column in cells; row -1 means none.
type cursorPos struct{ row, col int }

// takeCursor removes every cursor marker from rows (in place) and
// returns the position of the last one found, searching from the bottom
// (the focused editor is low on the screen).
func takeCursor(rows []string) cursorPos {
	pos := cursorPos{row: -1}
	for i := len(rows) - 1; i >= 0; i-- {
		r := rows[i]
		if strings.IndexByte(r, 0x1b) < 0 {
			continue
		}
		j := strings.Index(r, CursorMarker)
		n := len(CursorMarker)
		if j < 0 {
			j = strings.Index(r, cursorMarkerBEL)
			n = len(cursorMarkerBEL)
		}
		if j < 0 {
			continue
		}
		if pos.row < 0 {
			pos = cursorPos{row: i, col: Width(r[:j])}
		}
		rows[i] = stripMarkers(r[:j] + r[j+n:])
	}
	return pos
}

// stripMarkers removes cursor markers (a row may hold more than one when
// a component nests another).
func stripMarkers(s string) string {
	if strings.IndexByte(s, 0x1b) < 0 {
		return s
	}
	s = strings.ReplaceAll(s, CursorMarker, "")
	return strings.ReplaceAll(s, cursorMarkerBEL, "")
}

// fitRow cuts a row to width; components should never exceed it, but a
// wrong row must not wrap and shift the whole screen.
func fitRow(s string, width int) string {
	if Width(s) > width {
		return Truncate(s, width, "")
	}
	return s
}

// widthMemo remembers the widths of the rows of this frame and the last
// one: most rows repeat from frame to frame, and hashing a row is far
// cheaper than measuring its graphemes again.
type widthMemo struct{ cur, old map[string]int }

func (m *widthMemo) width(s string) int {
	if len(s) < 16 {
		return Width(s)
	}
	if w, ok := m.cur[s]; ok {
		return w
	}
	w, ok := m.old[s]
	if !ok {
		w = Width(s)
	}
	if m.cur == nil {
		m.cur = make(map[string]int)
	}
	m.cur[s] = w
	return w
}

// next starts a frame: widths not used in the last frame are forgotten.
func (m *widthMemo) next() {
	m.old, m.cur = m.cur, m.old
	clear(m.cur)
}

func (m *widthMemo) fit(s string, width int) string {
	if m.width(s) > width {
		return Truncate(s, width, "")
	}
	return s
}

func (m *widthMemo) pad(s string, width int) string {
	w := m.width(s)
	if w > width {
		return Truncate(s, width, "")
	}
	return s + spaces(width-w)
}

// writeRow writes one row and closes its styles and links.
func writeRow(b *bytes.Buffer, row string) {
	b.WriteString(seqEraseLine)
	b.WriteString(row)
	b.WriteString(SeqResetLine)
}
