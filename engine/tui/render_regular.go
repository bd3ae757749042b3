package tui

import (
	"bytes"
	"strconv"
	"strings"
)

// regularRenderer keeps the document in the main screen. The terminal
// holds document rows [0, written); rows above top have scrolled into
// the terminal's scrollback and can no longer be changed, rows
// [top, written) are on screen. prev is what those on-screen rows show.
//
// The first frame starts at the cursor row the terminal reported at
// start (CSI 6n), below what the shell showed; without an answer it
// scrolls the shell's rows into the scrollback (kept, not erased) and
// starts at the top row. Either way the renderer knows exactly which
// document row is on which screen row.
type regularRenderer struct {
	started     bool
	width       int
	height      int
	written     int
	top         int
	prev        []string
	cur         int // document row the hardware cursor is on
	curCol      int // its column, -1 when unknown (after writing a row)
	cursorShown bool
	memo        widthMemo
	// shell is how many rows of the shell's output sit above the
	// document on the first screen (the cursor row reported at start):
	// they count as blank rows of a virtual document and are never
	// written. A reprint clears them away.
	shell int
	// images is set once an inline image was written, so a reprint
	// takes Kitty's images down with the text.
	images bool
	// docLen is the document's height at the last frame: rows below it
	// were written once (a closed dialog) and are blank now.
	docLen int
}

// placeImages writes the Kitty image rows of a frame after its other
// rows (they were written blank): terminals that keep an image in the
// cells it covers (WezTerm) would lose the part a later row write
// clears. Rows of images drawn above the screen (into the scrollback)
// were written in place.
func (r *regularRenderer) placeImages(b *bytes.Buffer, rows []int, row func(int) string) {
	for _, i := range rows {
		r.moveTo(b, i)
		writeRow(b, row(i))
		r.curCol = -1
		r.images = true
	}
}

// vdoc is the document below shell blank rows.
type vdoc struct {
	d     *document
	shell int
}

func (v vdoc) height() int { return v.shell + v.d.height() }

func (v vdoc) rows(from, to int) []string {
	var out []string
	for i := max(from, 0); i < min(to, v.shell); i++ {
		out = append(out, "")
	}
	return append(out, v.d.rows(max(from-v.shell, 0), to-v.shell)...)
}

func (r *regularRenderer) reset() { *r = regularRenderer{memo: r.memo} }

func (p *Program) renderRegular(b *bytes.Buffer) {
	w, h := p.width, p.height
	r := &p.reg
	d := p.document(w, w)
	v := vdoc{d: &d, shell: r.shell}
	n := v.height()
	// Reprint when asked, after a size change, when the document shrank
	// into the scrollback (the rows still on screen would be a stale
	// copy of it), or on shrink when the dock must go back down.
	if !r.started || p.reprint || r.width != w || r.height != h || n < r.top ||
		(p.o.ClearOnShrink && n < r.written && r.written > h) {
		p.reprintRegular(b, &d)
		return
	}
	nEff := n
	if len(p.overlays) > 0 {
		// An overlay is placed on a whole screen: pad a short document
		// with blank rows so it has one.
		nEff = max(n, r.written, h)
	}
	newWritten := max(r.written, nEff)
	newTop := max(0, newWritten-h)
	from := r.top
	all := v.rows(from, n)
	for len(all) < nEff-from {
		all = append(all, "")
	}
	window := all[newTop-from:]
	for i := range all[:newTop-from] {
		all[i] = fitRow(stripMarkers(all[i]), w)
	}
	if len(p.overlays) > 0 {
		p.compositeOverlays(window, w, h)
	}
	cur := takeCursor(window)
	r.memo.next()
	for i := range window {
		window[i] = r.memo.fit(window[i], w)
	}

	// The first row that differs from what the screen shows.
	first := -1
	for i := from; i < max(nEff, r.written); i++ {
		var was, now string
		if i-r.top < len(r.prev) {
			was = r.prev[i-r.top]
		}
		if i < nEff {
			now = all[i-from]
		}
		if i >= r.written || was != now {
			first = i
			break
		}
	}
	start := b.Len()
	b.WriteString(SeqSyncBegin)
	body := b.Len()
	if first >= 0 && first < nEff {
		// Rewrite the changed rows only: a keystroke in the editor
		// leaves the rules and the footer below it as they are.
		oldWritten, oldTop := r.written, r.top
		var images []int
		for i := first; i < nEff; i++ {
			if i > first && i < oldWritten && i-oldTop < len(r.prev) && r.prev[i-oldTop] == all[i-from] {
				continue
			}
			r.moveTo(b, i)
			row := all[i-from]
			if i >= newTop && strings.Contains(row, kittyPrefix) {
				images = append(images, i)
				row = ""
			}
			writeRow(b, row)
			r.curCol = -1
		}
		r.written = max(r.written, nEff)
		r.placeImages(b, images, func(i int) string { return all[i-from] })
	}
	if first >= 0 && nEff < r.written {
		// The document shrank: blank the rows below it.
		r.moveTo(b, nEff)
		b.WriteString("\x1b[J")
	}
	r.top = max(0, r.written-h)
	r.docLen = nEff
	r.prev = r.prev[:0]
	for i := r.top; i < r.written; i++ {
		if i < nEff {
			r.prev = append(r.prev, all[i-from])
		} else {
			r.prev = append(r.prev, "")
		}
	}
	r.placeCursor(b, p.o.ShowHardwareCursor, cur, newTop, nEff)
	if b.Len() == body {
		b.Truncate(start)
		return
	}
	b.WriteString(SeqSyncEnd)
}

// reprintRegular draws the whole document. After the first frame it
// clears screen and scrollback first (ESC[2J ESC[H ESC[3J), as the
// reference does after a resize or a change above the visible rows.
func (p *Program) reprintRegular(b *bytes.Buffer, d *document) {
	w, h := p.width, p.height
	r := &p.reg
	// The first frame starts at the cursor row the terminal reported,
	// below the shell's output; a later reprint clears everything.
	shell := 0
	if !r.started && p.startRow > 0 {
		shell = min(p.startRow, h-1)
	}
	v := vdoc{d: d, shell: shell}
	n := v.height()
	nEff := n
	if len(p.overlays) > 0 {
		nEff = max(n, h)
	}
	all := v.rows(0, n)
	for len(all) < nEff {
		all = append(all, "")
	}
	top := max(0, nEff-h)
	for i := range all[:top] {
		all[i] = fitRow(stripMarkers(all[i]), w)
	}
	window := all[top:]
	if len(p.overlays) > 0 {
		p.compositeOverlays(window, w, h)
	}
	cur := takeCursor(window)
	for i := range window {
		window[i] = fitRow(window[i], w)
	}
	b.WriteString(SeqSyncBegin)
	switch {
	case r.started:
		if r.images {
			// The clear leaves Kitty's images up; they are placed again.
			b.WriteString(KittyDeleteAll)
		}
		b.WriteString(SeqClearAll)
	case p.startRow < 0:
		// Where the cursor is was not reported: scroll the shell's rows
		// into the scrollback (kept, not erased) and start at the top, so
		// the renderer still knows which row is where.
		for i := 1; i < h; i++ {
			b.WriteString("\r\n")
		}
		b.WriteString("\x1b[H")
	default:
		b.WriteString("\r")
	}
	var images []int
	for i := shell; i < len(all); i++ {
		if i > shell {
			b.WriteString("\r\n")
		}
		row := all[i]
		if i >= top && strings.Contains(row, kittyPrefix) {
			images = append(images, i)
			row = ""
		}
		writeRow(b, row)
	}
	*r = regularRenderer{started: true, width: w, height: h, written: nEff, top: top,
		prev: append([]string(nil), window...), cur: max(nEff-1, 0), curCol: -1, cursorShown: r.cursorShown,
		memo: r.memo, shell: shell}
	r.docLen = nEff
	r.placeImages(b, images, func(i int) string { return all[i] })
	r.placeCursor(b, p.o.ShowHardwareCursor, cur, top, nEff)
	b.WriteString(SeqSyncEnd)
}

// moveTo moves the hardware cursor to column 0 of document row row,
// creating rows below the written ones with newlines.
func (r *regularRenderer) moveTo(b *bytes.Buffer, row int) {
	switch {
	case row < r.cur:
		b.WriteString("\x1b[")
		b.WriteString(strconv.Itoa(r.cur - row))
		b.WriteByte('A')
	case row > r.cur:
		down := min(row, r.written-1) - r.cur
		if down > 0 {
			b.WriteString("\x1b[")
			b.WriteString(strconv.Itoa(down))
			b.WriteByte('B')
		}
		for i := max(r.written, r.cur+1); i <= row; i++ {
			b.WriteString("\r\n")
		}
		r.written = max(r.written, row+1)
	}
	b.WriteByte('\r')
	r.cur, r.curCol = row, 0
}

// placeCursor parks the hardware cursor at the marker (window row
// cur.row is document row top+cur.row), or on the last row.
func (r *regularRenderer) placeCursor(b *bytes.Buffer, show bool, cur cursorPos, top, n int) {
	if cur.row >= 0 {
		if row := top + cur.row; row != r.cur || cur.col != r.curCol {
			if row != r.cur {
				r.moveTo(b, row)
			}
			b.WriteString("\x1b[")
			b.WriteString(strconv.Itoa(cur.col + 1))
			b.WriteByte('G')
			r.curCol = cur.col
		}
	} else if n > 0 && r.cur != n-1 {
		r.moveTo(b, n-1)
	}
	want := show && cur.row >= 0
	if want != r.cursorShown {
		if want {
			b.WriteString(SeqShowCursor)
		} else {
			b.WriteString(SeqHideCursor)
		}
		r.cursorShown = want
	}
}

// leave puts the cursor on a fresh row below the document, so what the
// shell prints next does not overwrite it.
func (r *regularRenderer) leave(b *bytes.Buffer) {
	if !r.started || r.written == 0 {
		return
	}
	end := r.written
	if r.docLen > 0 && r.docLen < end {
		end = r.docLen
	}
	r.moveTo(b, end-1)
	// One row down when there is one (CSI B stops at the screen's
	// bottom), then a new line: a blank row between the document and
	// what follows, as the reference leaves it.
	b.WriteString("\x1b[B\r\n")
}
