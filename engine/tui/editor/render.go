package editor

import (
	"strings"

	"github.com/pi-go/pi/engine/tui"
)

// Reverse video around the cell under the cursor.
const (
	cursorOn  = "\x1b[7m"
	cursorOff = "\x1b[27m"
)

type layoutRow struct {
	text   string
	cursor int // byte offset of the cursor in text, -1 when not on this row
}

// layout wraps the buffer at width and marks the cursor's row.
func (e *Editor) layout(width int) []layoutRow {
	if e.IsEmpty() {
		return []layoutRow{{"", 0}}
	}
	var rows []layoutRow
	for i, l := range e.lines {
		chunks := e.wrapped(l, width)
		for ci, c := range chunks {
			cur := -1
			if i == e.line {
				last := ci == len(chunks)-1
				switch {
				case last && e.col >= c.start:
					cur = e.col - c.start
				case !last && e.col >= c.start && e.col < c.end:
					cur = min(e.col-c.start, len(c.text))
				}
			}
			rows = append(rows, layoutRow{c.text, cur})
		}
	}
	return rows
}

// Render draws the top rule (with the label or "↑ N more"), the visible
// text rows, the bottom rule ("↓ N more" when text is cut) and, when
// open, the autocomplete list.
func (e *Editor) Render(width int) []string {
	if width <= 0 {
		return nil
	}
	maxVis := e.visibleRows()
	key := [4]int{width, e.version, maxVis, 0}
	if e.focused {
		key[3] = 1
	}
	if e.cacheValid && key == e.cacheKey {
		return e.cacheRows
	}
	pad := min(e.opt.PaddingX, max(0, (width-1)/2))
	content := max(1, width-2*pad)
	// Without padding one column stays free for the cursor at a row's end.
	layoutW := content
	if pad == 0 {
		layoutW = max(1, content-1)
	}
	e.lastWidth = layoutW
	rows := e.layout(layoutW)
	cursorRow := 0
	for i, r := range rows {
		if r.cursor >= 0 {
			cursorRow = i
			break
		}
	}
	if cursorRow < e.scroll {
		e.scroll = cursorRow
	} else if cursorRow >= e.scroll+maxVis {
		e.scroll = cursorRow - maxVis + 1
	}
	e.scroll = max(0, min(e.scroll, max(0, len(rows)-maxVis)))
	visible := rows[e.scroll:min(len(rows), e.scroll+maxVis)]

	out := make([]string, 0, len(visible)+8)
	padS := strings.Repeat(" ", pad)
	switch {
	case e.topLabel != "":
		out = append(out, e.labelRule(width, e.scroll))
	case e.scroll > 0:
		out = append(out, style(e.border, scrollRule("↑", e.scroll, width)))
	default:
		out = append(out, style(e.border, strings.Repeat("─", width)))
	}
	for _, r := range visible {
		text := r.text
		rightPad := padS
		if r.cursor >= 0 && e.focused {
			// A cursor inside a grapheme cluster (a combining mark typed
			// after it, a jump into it) is shown on the whole cluster.
			at := r.cursor
			for _, sg := range segments(text, e.pastes) {
				if at > sg.start && at < sg.end {
					at = sg.start
					break
				}
			}
			before, after := text[:at], text[at:]
			if after != "" {
				n := firstSegment(after, e.pastes)
				text = before + CursorMarker + cursorOn + after[:n] + cursorOff + after[n:]
			} else {
				text = before + CursorMarker + cursorOn + " " + cursorOff
			}
		}
		// Measured after the cursor is drawn: its escapes split clusters.
		w := tui.Width(text)
		if w > content && pad > 0 {
			rightPad = padS[:max(0, len(padS)-(w-content))]
		} else if w > content {
			text = tui.Truncate(text, content, "")
			w = tui.Width(text)
		}
		out = append(out, padS+text+strings.Repeat(" ", max(0, content-w))+rightPad)
	}
	below := len(rows) - (e.scroll + len(visible))
	if below > 0 {
		out = append(out, style(e.border, scrollRule("↓", below, width)))
	} else {
		out = append(out, style(e.border, strings.Repeat("─", width)))
	}
	if e.ac != nil {
		for _, l := range e.renderList(content) {
			out = append(out, padS+l+strings.Repeat(" ", max(0, content-tui.Width(l)))+padS)
		}
	}
	e.cacheKey, e.cacheRows, e.cacheValid = key, out, true
	return out
}

// firstSegment is the byte length of the first grapheme (or paste
// marker) of s.
func firstSegment(s string, pastes map[int]string) int {
	segs := segments(s, pastes)
	if len(segs) == 0 {
		return len(s)
	}
	return segs[0].end
}

// labelRule is the top rule carrying a label, as pi draws its working
// indicator: "── ⠋ Working ─────…", with " ↑ N more " centred after it
// when the text is scrolled and both fit; where they do not, the short
// label (the spinner alone) stands in.
func (e *Editor) labelRule(width, hidden int) string {
	b := func(s string) string { return style(e.border, s) }
	status := tui.Truncate(e.topLabel, max(1, width-5), "")
	sw := tui.Width(status)
	short := func() {
		if e.topShort != "" {
			status = tui.Truncate(e.topShort, width, "")
			sw = tui.Width(status)
		}
	}
	if hidden > 0 {
		over := " ↑ " + itoa(hidden) + " more "
		ow := tui.Width(over)
		start := (width - ow) / 2
		fits := func() bool { return ow+2 <= width && start-(3+sw+1) >= 1 }
		if !fits() {
			short()
		}
		if fits() {
			return b("── ") + status + b(" "+strings.Repeat("─", start-(3+sw+1))+over+strings.Repeat("─", width-start-ow))
		}
	}
	if width >= sw+5 {
		return b("── ") + status + b(" "+strings.Repeat("─", width-sw-4))
	}
	short()
	lead := min(3, max(0, width-sw))
	return tui.Truncate(b(strings.Repeat("─", lead))+status+b(strings.Repeat("─", max(0, width-lead-sw))), width, "")
}

// scrollRule is a rule with " ↑ N more " centred, or left-aligned when
// the row is narrow.
func scrollRule(arrow string, n, width int) string {
	label := " " + arrow + " " + itoa(n) + " more "
	lw := tui.Width(label)
	if lw+2 <= width {
		left := (width - lw) / 2
		return strings.Repeat("─", left) + label + strings.Repeat("─", width-left-lw)
	}
	ind := "─── " + arrow + " " + itoa(n) + " more "
	if rem := width - tui.Width(ind); rem >= 0 {
		return ind + strings.Repeat("─", rem)
	}
	dots := "..."[:min(3, width)]
	return tui.Truncate(ind, width-len(dots), "") + dots
}
