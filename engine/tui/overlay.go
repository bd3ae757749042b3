package tui

import "github.com/charmbracelet/x/ansi"

// Anchor is where an overlay sits on the screen.
type Anchor uint8

// Overlay anchors.
const (
	AnchorCenter Anchor = iota
	AnchorTop
	AnchorBottom
	AnchorLeft
	AnchorRight
	AnchorTopLeft
	AnchorTopRight
	AnchorBottomLeft
	AnchorBottomRight
)

// OverlayOptions place an overlay. Sizes are in cells; a percentage
// applies to the terminal size. Zero values mean: centred, 80% wide,
// as tall as its rows (within the screen), no margin.
type OverlayOptions struct {
	Anchor       Anchor
	Width        int // columns; 0: WidthPercent
	WidthPercent int // of the terminal width; 0: 80
	MinWidth     int
	MaxHeight    int // rows; 0: MaxHeightPercent, else the screen
	MaxHeightPct int
	OffsetX      int // moves the overlay right (negative: left) from its anchor
	OffsetY      int // moves it down (negative: up)
	Margin       int // cells kept free at every screen edge
	// NonCapturing overlays do not take keyboard focus.
	NonCapturing bool
	// Visible, when set, decides per frame whether the overlay shows at
	// this terminal size (a side panel only on wide terminals).
	Visible func(w, h int) bool
}

type overlay struct {
	c       Component
	o       OverlayOptions
	hidden  bool
	capture bool // takes keyboard focus while visible
	removed bool
	bounds  [4]int // x, y, w, h at the last frame
}

// Overlay is a handle on a shown overlay (the reference's OverlayHandle):
// hide it for good, hide it for a while, move focus in and out, and read
// where it was drawn. Methods run on the UI goroutine.
type Overlay struct {
	p  *Program
	ov *overlay
}

// ShowOverlay draws c above everything else, composited into the frame
// row by row. Unless NonCapturing it becomes the focus target until
// hidden; hide (idempotent) removes it and gives focus back.
func (p *Program) ShowOverlay(c Component, o OverlayOptions) (hide func()) {
	return p.OpenOverlay(c, o).Hide
}

// OpenOverlay is ShowOverlay returning a handle.
func (p *Program) OpenOverlay(c Component, o OverlayOptions) *Overlay {
	ov := &overlay{c: c, o: o, capture: !o.NonCapturing}
	before := p.focusTarget()
	p.overlays = append(p.overlays, ov)
	p.refocus(before)
	p.RequestRender()
	return &Overlay{p: p, ov: ov}
}

// refocus tells the old and the new focus target about a change.
func (p *Program) refocus(before Component) {
	after := p.focusTarget()
	if after == before {
		return
	}
	if f, ok := before.(Focusable); ok {
		f.SetFocused(false)
	}
	if f, ok := after.(Focusable); ok {
		f.SetFocused(true)
	}
}

// Hide removes the overlay for good and gives focus back.
func (h *Overlay) Hide() {
	p, ov := h.p, h.ov
	if ov.removed {
		return
	}
	before := p.focusTarget()
	for i, x := range p.overlays {
		if x == ov {
			p.overlays = append(p.overlays[:i], p.overlays[i+1:]...)
			break
		}
	}
	ov.removed = true
	p.refocus(before)
	p.RequestRender()
}

// SetHidden hides or shows the overlay without removing it; a hidden
// overlay neither draws nor takes keys.
func (h *Overlay) SetHidden(hidden bool) { h.change(func() { h.ov.hidden = hidden }) }

// Hidden reports whether SetHidden hid it (or it was removed).
func (h *Overlay) Hidden() bool { return h.ov.hidden || h.ov.removed }

// Focus makes the overlay take keys again (also a NonCapturing one).
func (h *Overlay) Focus() { h.change(func() { h.ov.capture = true }) }

// Unfocus gives keys back to what is under it, leaving it visible.
func (h *Overlay) Unfocus() { h.change(func() { h.ov.capture = false }) }

// Focused reports whether the overlay is the focus target.
func (h *Overlay) Focused() bool { return !h.ov.removed && h.p.focusTarget() == h.ov.c && h.ov.capture }

// Bounds is where the overlay was drawn at the last frame (cells).
func (h *Overlay) Bounds() (x, y, w, ht int) {
	b := h.ov.bounds
	return b[0], b[1], b[2], b[3]
}

func (h *Overlay) change(fn func()) {
	if h.ov.removed {
		return
	}
	before := h.p.focusTarget()
	fn()
	h.p.refocus(before)
	h.p.RequestRender()
}

// HasOverlay reports whether any overlay is showing.
func (p *Program) HasOverlay() bool { return len(p.overlays) > 0 }

// layout computes the overlay's rectangle and rows for a w×h screen.
func (ov *overlay) layout(w, h int) (x, y, ow int, rows []string) {
	o := ov.o
	if o.Visible != nil && !o.Visible(w, h) {
		return 0, 0, 0, nil
	}
	m := max(o.Margin, 0)
	availW, availH := w-2*m, h-2*m
	if availW <= 0 || availH <= 0 {
		return 0, 0, 0, nil
	}
	ow = o.Width
	if ow <= 0 {
		pct := o.WidthPercent
		if pct <= 0 {
			pct = 80
		}
		ow = w * pct / 100
	}
	ow = min(max(ow, o.MinWidth, 1), availW)
	maxH := o.MaxHeight
	if maxH <= 0 && o.MaxHeightPct > 0 {
		maxH = h * o.MaxHeightPct / 100
	}
	if maxH <= 0 || maxH > availH {
		maxH = availH
	}
	rows = ov.c.Render(ow)
	if len(rows) > maxH {
		rows = rows[:maxH]
	}
	oh := len(rows)
	switch o.Anchor {
	case AnchorTopLeft, AnchorLeft, AnchorBottomLeft:
		x = m
	case AnchorTopRight, AnchorRight, AnchorBottomRight:
		x = w - m - ow
	default:
		x = (w - ow) / 2
	}
	switch o.Anchor {
	case AnchorTop, AnchorTopLeft, AnchorTopRight:
		y = m
	case AnchorBottom, AnchorBottomLeft, AnchorBottomRight:
		y = h - m - oh
	default:
		y = (h - oh) / 2
	}
	x = min(max(x+o.OffsetX, m), w-m-ow)
	y = min(max(y+o.OffsetY, m), max(h-m-oh, m))
	return x, y, ow, rows
}

// compositeOverlays draws every overlay into screen (exactly h rows of
// width w), bottom-most first.
func (p *Program) compositeOverlays(screen []string, w, h int) {
	for _, ov := range p.overlays {
		if ov.hidden {
			continue
		}
		x, y, ow, rows := ov.layout(w, h)
		ov.bounds = [4]int{x, y, ow, len(rows)}
		for i, r := range rows {
			if y+i < 0 || y+i >= len(screen) {
				continue
			}
			screen[y+i] = Composite(screen[y+i], r, x, ow, w)
		}
	}
}

// Composite puts top over base starting at column x, covering span
// columns (top is padded to span), keeping what base shows left and
// right of it. Wide characters cut by either edge become spaces, so the
// result is never wider than width.
func Composite(base, top string, x, span, width int) string {
	if x >= width || span <= 0 {
		return base
	}
	span = min(span, width-x)
	left := PadRight(Truncate(base, x, ""), x)
	mid := PadRight(Truncate(top, span, ""), span)
	k := x + span
	right := ""
	if bw := Width(base); bw > k {
		right = ansi.TruncateLeft(base, k, "")
		if Width(right) > bw-k { // a wide character straddles the edge
			right = " " + ansi.TruncateLeft(base, k+1, "")
		}
		right = Truncate(right, width-k, "")
	}
	return left + SeqResetLine + mid + SeqResetLine + right
}
