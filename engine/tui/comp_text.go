package tui

import "strings"

// rowCache holds a component's rows for the width and version they were
// rendered at.
type rowCache struct {
	width   int
	version int
	valid   bool
	rows    []string
}

func (c *rowCache) get(width, version int) ([]string, bool) {
	if c.valid && c.width == width && c.version == version {
		return c.rows, true
	}
	return nil, false
}

func (c *rowCache) put(width, version int, rows []string) []string {
	*c = rowCache{width: width, version: version, valid: true, rows: rows}
	return rows
}

// Text is wrapped text with horizontal and vertical padding and an
// optional background applied to whole padded rows. Empty (or blank)
// text renders no rows at all, so an empty Text takes no space.
type Text struct {
	text       string
	padX, padY int
	bg         func(string) string
	version    int
	cache      rowCache
}

// NewText builds a Text; the reference's defaults are padding 1 and 1.
func NewText(text string, padX, padY int, bg func(string) string) *Text {
	return &Text{text: text, padX: max(padX, 0), padY: max(padY, 0), bg: bg}
}

// SetText replaces the text.
func (t *Text) SetText(s string) {
	if s != t.text {
		t.text = s
		t.version++
	}
}

// Text is the current text.
func (t *Text) Text() string { return t.text }

// SetBg replaces the background function (nil: none).
func (t *Text) SetBg(bg func(string) string) { t.bg = bg; t.version++ }

// Invalidate drops the cached rows.
func (t *Text) Invalidate() { t.cache.valid = false }

// Render wraps the text to width minus the padding.
func (t *Text) Render(width int) []string {
	if rows, ok := t.cache.get(width, t.version); ok {
		return rows
	}
	if strings.TrimSpace(Strip(t.text)) == "" || width <= 0 {
		return t.cache.put(width, t.version, nil)
	}
	inner := max(width-2*t.padX, 1)
	pad := spaces(min(t.padX, width))
	var rows []string
	for range t.padY {
		rows = append(rows, t.fill("", width))
	}
	for _, line := range Wrap(expandTabs(t.text), inner) {
		rows = append(rows, t.fill(Truncate(pad+line, width, ""), width))
	}
	for range t.padY {
		rows = append(rows, t.fill("", width))
	}
	return t.cache.put(width, t.version, rows)
}

// fill pads a row to the full width and paints it when there is a
// background; without one it leaves the row short (fewer bytes).
func (t *Text) fill(row string, width int) string {
	if t.bg == nil {
		return row
	}
	return t.bg(PadRight(row, width))
}

// expandTabs replaces tabs with three spaces: a tab's width depends on
// the column, which a line renderer cannot know.
func expandTabs(s string) string {
	if !strings.Contains(s, "\t") {
		return s
	}
	return strings.ReplaceAll(s, "\t", "   ")
}

// TruncatedText is one line of text (up to its first newline) cut to
// the width with "...", with padding.
type TruncatedText struct {
	text       string
	padX, padY int
	version    int
	cache      rowCache
}

// NewTruncatedText builds a TruncatedText.
func NewTruncatedText(text string, padX, padY int) *TruncatedText {
	return &TruncatedText{text: text, padX: max(padX, 0), padY: max(padY, 0)}
}

// SetText replaces the text.
func (t *TruncatedText) SetText(s string) {
	if s != t.text {
		t.text = s
		t.version++
	}
}

// Invalidate drops the cached rows.
func (t *TruncatedText) Invalidate() { t.cache.valid = false }

// Render cuts the first line to the width.
func (t *TruncatedText) Render(width int) []string {
	if rows, ok := t.cache.get(width, t.version); ok {
		return rows
	}
	if width <= 0 {
		return t.cache.put(width, t.version, nil)
	}
	line := t.text
	if i := strings.IndexByte(line, '\n'); i >= 0 {
		line = line[:i]
	}
	inner := max(width-2*t.padX, 1)
	row := PadRight(Truncate(spaces(min(t.padX, width))+Truncate(expandTabs(line), inner, "..."), width, ""), width)
	var rows []string
	for range t.padY {
		rows = append(rows, spaces(width))
	}
	rows = append(rows, row)
	for range t.padY {
		rows = append(rows, spaces(width))
	}
	return t.cache.put(width, t.version, rows)
}

// Spacer is n blank rows.
type Spacer struct{ N int }

// NewSpacer builds a Spacer of n rows.
func NewSpacer(n int) *Spacer { return &Spacer{N: n} }

// Render returns N empty rows.
func (s *Spacer) Render(int) []string { return make([]string, max(s.N, 0)) }

// Box draws its children inside padding on a background. It reuses its
// padded rows while the children's rows are unchanged (children cache
// their own rows, so comparing is cheap).
type Box struct {
	Container
	padX, padY int
	bg         func(string) string
	version    int
	cache      rowCache
	childRows  []string
}

// NewBox builds a Box; the reference's defaults are padding 1 and 1.
func NewBox(padX, padY int, bg func(string) string) *Box {
	return &Box{padX: max(padX, 0), padY: max(padY, 0), bg: bg}
}

// SetBg replaces the background.
func (b *Box) SetBg(bg func(string) string) { b.bg = bg; b.version++ }

// Invalidate drops the cache and the children's.
func (b *Box) Invalidate() { b.cache.valid = false; b.Container.Invalidate() }

// Render pads the children's rows.
func (b *Box) Render(width int) []string {
	if width <= 0 {
		return nil
	}
	inner := max(width-2*b.padX, 1)
	child := b.Container.Render(inner)
	if rows, ok := b.cache.get(width, b.version); ok && equalRows(child, b.childRows) {
		return rows
	}
	b.childRows = child
	if len(child) == 0 {
		return b.cache.put(width, b.version, nil)
	}
	pad := spaces(min(b.padX, width))
	paint := func(s string) string {
		s = PadRight(s, width)
		if b.bg != nil {
			return b.bg(s)
		}
		return s
	}
	var rows []string
	for range b.padY {
		rows = append(rows, paint(""))
	}
	for _, r := range child {
		rows = append(rows, paint(Truncate(pad+r, width, "")))
	}
	for range b.padY {
		rows = append(rows, paint(""))
	}
	return b.cache.put(width, b.version, rows)
}

func equalRows(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
