package tui

import (
	"bytes"
	"encoding/base64"
	"strconv"
	"strings"
	"time"

	"github.com/charmbracelet/x/ansi"
)

// fullRenderer draws on the alternate screen: the body scrolls inside
// the rows above the dock, and only rows that differ from the previous
// frame are rewritten.
type fullRenderer struct {
	started     bool
	width       int
	height      int
	prev        []string
	images      bool // the last frame showed an inline image
	offset      int  // first body row in view
	follow      bool // keep the newest rows in view
	bodyH       int  // body height at the last frame
	winH        int  // body window height at the last frame
	bodyW       int  // body width at the last frame
	cursorShown bool
	cursor      cursorPos
	sel         selection
	memo        widthMemo
	// barShown is the transient scrollbar of ScrollbarAuto, up until
	// ScrollbarHideDelay after the last scroll; barStop cancels its hiding.
	barShown bool
	barStop  func()
}

// ScrollbarHideDelay is how long ScrollbarAuto's scrollbar stays after the
// last scroll (the reference's second).
const ScrollbarHideDelay = time.Second

// scrollActivity shows ScrollbarAuto's scrollbar and (re)arms its hiding.
func (p *Program) scrollActivity() {
	if !p.o.ScrollbarAuto || p.o.Scrollbar {
		return
	}
	f := &p.full
	f.barShown = true
	if f.barStop != nil {
		f.barStop()
	}
	f.barStop = p.After(ScrollbarHideDelay, func() {
		f.barShown, f.barStop = false, nil
		p.RequestRender()
	})
}

// selection is a drag in body coordinates (row = body row, col = cell).
type selection struct {
	active         bool
	aRow, aCol     int
	bRow, bCol     int
	dragged        bool
	lastX, lastRow int
}

// frameImages is what a fullscreen frame must do about inline images.
type frameImages struct {
	anchors, covered []bool // rows that place an image; rows a Kitty image covers
	any              bool   // the frame shows an image
	kitty            bool   // Kitty images are involved (now or in the last frame)
	redraw           bool   // an image row, or a row under a Kitty image, changed
	iterm2           bool   // an iTerm2 image changed: the screen is cleared and redrawn
}

// imageRedraw decides how the frame's images are drawn. A moved or
// changed image must be redrawn, and so must one whose covered rows were
// written over; iTerm2 images live in the cells, so they are redrawn by
// clearing the screen, as the reference does.
func (p *Program) imageRedraw(screen []string, winH int, full bool) frameImages {
	f := &p.full
	anchors, covered, any := imageRows(screen, winH)
	fi := frameImages{anchors: anchors, covered: covered, any: any}
	if !any && !f.images {
		return fi
	}
	for i, row := range screen {
		was := ""
		if i < len(f.prev) {
			was = f.prev[i]
		}
		if strings.Contains(row, kittyPrefix) || strings.Contains(was, kittyPrefix) {
			fi.kitty = true
		}
		if row != was && (anchors[i] || covered[i] || IsImageLine(was)) {
			fi.redraw = true
			if strings.Contains(row, iterm2Prefix) || strings.Contains(was, iterm2Prefix) {
				fi.iterm2 = true
			}
		}
	}
	if full {
		fi.redraw = true
	}
	return fi
}

func (f *fullRenderer) reset() {
	follow, offset := f.follow, f.offset
	*f = fullRenderer{follow: follow, offset: offset, memo: f.memo, barShown: f.barShown, barStop: f.barStop}
}

func (p *Program) renderFull(b *bytes.Buffer) {
	w, h := p.width, p.height
	f := &p.full
	bw := w
	if p.o.Scrollbar && w > 1 {
		bw = w - 1
	}
	d := p.document(w, bw)
	dock := d.dock
	if len(dock) > h {
		dock = dock[len(dock)-h:]
	}
	winH := h - len(dock)
	maxOff := max(0, d.bodyH-winH)
	if f.follow || f.offset >= maxOff {
		f.offset, f.follow = maxOff, true
	}
	f.offset = max(f.offset, 0)
	f.bodyH, f.winH, f.bodyW = d.bodyH, winH, bw
	f.memo.next()
	if p.search != nil {
		p.refreshSearch()
	}

	screen := make([]string, h)
	copy(screen, d.body(f.offset, f.offset+winH))
	if p.search != nil {
		for i := range winH {
			screen[i] = p.highlightMatches(screen[i], f.offset+i, bw)
		}
	}
	if f.sel.active && f.sel.dragged {
		for i := range winH {
			screen[i] = f.sel.highlight(screen[i], f.offset+i, bw)
		}
	}
	if !f.follow && d.bodyH > winH && winH > 0 {
		screen[winH-1] = p.jumpLabel(bw)
	}
	// ScrollbarAuto draws over the body's last column while it shows, as
	// the reference's does; Scrollbar keeps a column of its own.
	transient := !p.o.Scrollbar && p.o.ScrollbarAuto && f.barShown && w > 1
	if (bw < w || transient) && d.bodyH > winH && winH > 0 {
		barCol := bw
		if transient {
			barCol = w - 1
		}
		size := max(1, winH*winH/d.bodyH)
		pos := 0
		if maxOff > 0 {
			pos = f.offset * (winH - size) / maxOff
		}
		for i := range winH {
			bar := "│"
			if i >= pos && i < pos+size {
				bar = "┃"
			}
			if p.o.ScrollbarStyle != nil {
				bar = p.o.ScrollbarStyle(bar)
			}
			screen[i] = f.memo.pad(Truncate(screen[i], barCol, ""), barCol) + SeqResetLine + bar
		}
	}
	copy(screen[winH:], dock)
	if len(p.overlays) > 0 {
		p.compositeOverlays(screen, w, h)
	}
	cur := takeCursor(screen)
	for i := range screen {
		screen[i] = f.memo.fit(screen[i], w)
	}

	// An image placed near the window's bottom is cut to the window, so
	// it never covers the dock.
	imgH := winH
	if !f.follow && d.bodyH > winH && winH > 0 {
		imgH-- // nor the jump label
	}
	for i := 0; i < imgH; i++ {
		if n := KittyRows(screen[i]); n > 0 && i+n > imgH {
			screen[i] = cropKittyLine(screen[i], 0, imgH-i)
		}
	}
	// An image whose top row is above the window shows its lower part
	// from the window's first row, as the reference crops it.
	if f.offset > 0 && imgH > 0 && kittyDrawn.Load() {
		from := max(0, f.offset-kittyLookback)
		above := d.body(from, f.offset)
		for j := len(above) - 1; j >= 0; j-- {
			n := KittyRows(above[j])
			if hidden := f.offset - (from + j); n > hidden {
				if !IsImageLine(screen[0]) {
					screen[0] = cropKittyLine(above[j], hidden, imgH) + screen[0]
				}
				break
			}
		}
	}

	full := !f.started || p.reprint || f.width != w || f.height != h
	imgs := p.imageRedraw(screen, imgH, full)
	if imgs.iterm2 {
		full = true
	}
	start := b.Len()
	b.WriteString(SeqSyncBegin)
	body := b.Len()
	if imgs.kitty && (full || imgs.redraw) {
		// Placements stay where they were drawn: take them all down and
		// place every visible image again after the text.
		b.WriteString(KittyDeletePlacements)
	}
	if full {
		b.WriteString(seqClearScreenHome)
	}
	moved := false
	writeAt := func(i int, row string) {
		b.WriteString("\x1b[")
		b.WriteString(strconv.Itoa(i + 1))
		b.WriteString(";1H")
		writeRow(b, row)
		moved = true
	}
	for i, row := range screen {
		if imgs.anchors[i] && imgs.kitty {
			continue
		}
		if !full && !(imgs.redraw && imgs.covered[i]) && i < len(f.prev) && f.prev[i] == row {
			continue
		}
		if full && row == "" {
			continue
		}
		writeAt(i, row)
	}
	for i, row := range screen {
		// Kitty images go last: terminals that keep an image in the
		// cells it covers (WezTerm) would lose the part a later row
		// write clears.
		if imgs.anchors[i] && imgs.kitty && (full || imgs.redraw || i >= len(f.prev) || f.prev[i] != row) {
			writeAt(i, row)
		}
	}
	f.images = imgs.any
	f.started, f.width, f.height, f.prev = true, w, h, screen
	if cur.row >= 0 && (moved || cur != f.cursor) {
		b.WriteString("\x1b[")
		b.WriteString(strconv.Itoa(cur.row + 1))
		b.WriteByte(';')
		b.WriteString(strconv.Itoa(cur.col + 1))
		b.WriteByte('H')
	}
	f.cursor = cur
	want := p.o.ShowHardwareCursor && cur.row >= 0
	if want != f.cursorShown {
		if want {
			b.WriteString(SeqShowCursor)
		} else {
			b.WriteString(SeqHideCursor)
		}
		f.cursorShown = want
	}
	if b.Len() == body {
		b.Truncate(start)
		return
	}
	b.WriteString(SeqSyncEnd)
}

// jumpLabel is the centred "jump to latest" row.
func (p *Program) jumpLabel(width int) string {
	label := Truncate(p.o.JumpLabel, width, "")
	pad := (width - Width(label)) / 2
	if p.o.JumpLabelStyle != nil {
		label = p.o.JumpLabelStyle(label)
	}
	return spaces(pad) + label
}

// ScrollBy scrolls the fullscreen body by n rows (negative: towards the
// top). Reaching the bottom resumes following new content.
func (p *Program) ScrollBy(n int) {
	f := &p.full
	maxOff := max(0, f.bodyH-f.winH)
	if f.follow {
		f.offset = maxOff
	}
	f.offset = min(max(f.offset+n, 0), maxOff)
	f.follow = f.offset >= maxOff
	p.scrollActivity()
	p.RequestRender()
}

// Marked is a body that knows the rows where its messages start (the
// user's prompts and the replies, which the reference marks with OSC
// 133;A), for the previous/next prompt jumps.
type Marked interface {
	MarkRows(width int) []int
}

// ScrollToMark puts the previous (dir < 0) or next (dir > 0) marked row
// of a Marked body at the top of the window; nothing moves when there is
// none that way.
func (p *Program) ScrollToMark(dir int) {
	m, ok := p.body.(Marked)
	if !ok || dir == 0 {
		return
	}
	f := &p.full
	maxOff := max(0, f.bodyH-f.winH)
	cur := f.offset
	if f.follow {
		cur = maxOff
	}
	rows := m.MarkRows(f.bodyW)
	target := -1
	if dir > 0 {
		for _, r := range rows {
			if r > cur {
				target = r
				break
			}
		}
	} else {
		for i := len(rows) - 1; i >= 0; i-- {
			if rows[i] < cur {
				target = rows[i]
				break
			}
		}
	}
	if target < 0 {
		return
	}
	f.offset = min(target, maxOff)
	f.follow = f.offset >= maxOff
	p.scrollActivity()
	p.RequestRender()
}

// pageOverlap is how many rows of context a page scroll keeps (the
// reference's).
const pageOverlap = 4

// PageUp scrolls the body up by one window less four rows of context.
func (p *Program) PageUp() { p.ScrollBy(-max(1, p.full.winH-pageOverlap)) }

// PageDown scrolls the body down by one window less four rows.
func (p *Program) PageDown() { p.ScrollBy(max(1, p.full.winH-pageOverlap)) }

// ViewportCapturer is a focused component that keeps the viewport keys
// (PageUp/PageDown…) for itself in fullscreen, as a select list does.
type ViewportCapturer interface {
	CapturesViewportInput() bool
}

// viewportKey handles the keymap's tui.altScreen.* scrolling actions in
// fullscreen, ahead of the focused component (they shadow the editor's
// page keys), unless an overlay or a ViewportCapturer has focus.
func (p *Program) viewportKey(k Key) bool {
	km := p.o.Keymap
	if !p.o.Fullscreen || km == nil {
		return false
	}
	t := p.focusTarget()
	if vc, ok := t.(ViewportCapturer); ok && vc.CapturesViewportInput() {
		return false
	}
	if t != nil && t != p.focus {
		return false // an overlay has focus
	}
	half := max(1, p.full.winH/2)
	switch {
	case km.Matches(k, "tui.altScreen.pageUp"):
		p.PageUp()
	case km.Matches(k, "tui.altScreen.pageDown"):
		p.PageDown()
	case km.Matches(k, "tui.altScreen.halfPageUp"):
		p.ScrollBy(-half)
	case km.Matches(k, "tui.altScreen.halfPageDown"):
		p.ScrollBy(half)
	case km.Matches(k, "tui.altScreen.lineUp"):
		p.ScrollBy(-1)
	case km.Matches(k, "tui.altScreen.lineDown"):
		p.ScrollBy(1)
	case km.Matches(k, "tui.altScreen.search"):
		p.ToggleSearch()
	case km.Matches(k, "tui.altScreen.previousPrompt"):
		p.ScrollToMark(-1)
	case km.Matches(k, "tui.altScreen.nextPrompt"):
		p.ScrollToMark(1)
	case km.Matches(k, "tui.altScreen.top"):
		p.ScrollToTop()
	case km.Matches(k, "tui.altScreen.bottom"):
		p.ScrollToBottom()
	default:
		return false
	}
	return true
}

// ScrollToTop shows the first body row.
func (p *Program) ScrollToTop() {
	p.full.offset = 0
	p.full.follow = p.full.bodyH <= p.full.winH
	p.scrollActivity()
	p.RequestRender()
}

// ScrollToBottom shows the newest rows and follows new content again
// (Ctrl+End, the jump label's key).
func (p *Program) ScrollToBottom() { p.full.follow = true; p.scrollActivity(); p.RequestRender() }

// Scrolled reports whether the fullscreen body is scrolled away from
// the bottom (the jump label is showing).
func (p *Program) Scrolled() bool { return !p.full.follow }

// mouseFull handles the wheel and drag-select; it reports whether it
// used the event.
func (p *Program) mouseFull(m Mouse) bool {
	f := &p.full
	switch m.Action {
	case MouseWheelUp:
		p.ScrollBy(-p.o.WheelLines)
		return true
	case MouseWheelDown:
		p.ScrollBy(p.o.WheelLines)
		return true
	}
	if !p.o.CopyOnSelect {
		return false
	}
	y := min(max(m.Y, 0), max(f.winH-1, 0))
	x := min(max(m.X, 0), max(f.bodyW, 0))
	switch {
	case m.Action == MousePress && m.Button == 0 && m.Y < f.winH:
		f.sel = selection{active: true, aRow: f.offset + y, aCol: x, bRow: f.offset + y, bCol: x}
		return true
	case m.Action == MouseMotion && f.sel.active:
		// Dragging onto the top row or below the window scrolls a row per
		// motion event, so a selection can reach rows out of view.
		if m.Y <= 0 && f.offset > 0 {
			p.ScrollBy(-1)
		} else if m.Y >= f.winH {
			p.ScrollBy(1)
		}
		f.sel.bRow, f.sel.bCol, f.sel.dragged = f.offset+y, x, true
		return true
	case m.Action == MouseRelease && f.sel.active:
		f.sel.bRow, f.sel.bCol = f.offset+y, x
		if f.sel.dragged {
			if text := p.selectedText(); text != "" {
				p.write(OSC52(text))
			}
		}
		f.sel = selection{}
		return true
	}
	return false
}

// OSC52 is the escape sequence that puts text on the system clipboard.
func OSC52(text string) string {
	return "\x1b]52;c;" + base64.StdEncoding.EncodeToString([]byte(text)) + "\x07"
}

// ordered returns the selection's start and end (row, col) in reading
// order; end is exclusive.
func (s *selection) ordered() (r0, c0, r1, c1 int) {
	r0, c0, r1, c1 = s.aRow, s.aCol, s.bRow, s.bCol
	if r1 < r0 || (r1 == r0 && c1 < c0) {
		r0, c0, r1, c1 = r1, c1, r0, c0
	}
	return r0, c0, r1, c1
}

// span is the selected column range of body row row.
func (s *selection) span(row, width int) (from, to int, ok bool) {
	r0, c0, r1, c1 := s.ordered()
	if row < r0 || row > r1 {
		return 0, 0, false
	}
	from, to = 0, width
	if row == r0 {
		from = c0
	}
	if row == r1 {
		to = c1
	}
	return from, to, from < to
}

// highlight shows the selected part of a row in reverse video.
func (s *selection) highlight(row string, bodyRow, width int) string {
	from, to, ok := s.span(bodyRow, width)
	if !ok {
		return row
	}
	row = PadRight(row, width)
	return ansi.Cut(row, 0, from) + SeqResetLine + "\x1b[7m" + Strip(ansi.Cut(row, from, to)) +
		"\x1b[27m" + ansi.Cut(row, to, width)
}

// selectedText is the plain text of the selection, trailing blanks of
// each row trimmed.
func (p *Program) selectedText() string {
	f := &p.full
	r0, _, r1, _ := f.sel.ordered()
	d := p.document(0, f.bodyW)
	rows := d.body(r0, r1+1)
	var out []string
	for i, row := range rows {
		from, to, ok := f.sel.span(r0+i, f.bodyW)
		if !ok {
			out = append(out, "")
			continue
		}
		out = append(out, strings.TrimRight(Strip(ansi.Cut(stripMarkers(row), from, to)), " "))
	}
	return strings.TrimRight(strings.Join(out, "\n"), "\n")
}
