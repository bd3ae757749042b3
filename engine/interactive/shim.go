package interactive

// Temporary seams for the pieces other TUI helpers are building. Each is
// a real (if plain) implementation, replaced by the owner's package when
// it lands; this file goes away then.

import (
	"github.com/pi-go/pi/engine/tui/theme"
)

// markdownDoc is what an assistant reply needs from tuimd's markdown.Doc.
type markdownDoc interface {
	SetText(src string)
	Render(width int) []string
}

// newMarkdown builds the renderer for one text block. Until
// engine/tui/markdown lands, text is shown wrapped as written.
var newMarkdown = func(th *theme.Theme) markdownDoc { return &plainDoc{} }

type plainDoc struct {
	text  string
	width int
	rows  []string
}

func (d *plainDoc) SetText(src string) {
	if src != d.text {
		d.text, d.rows = src, nil
	}
}

func (d *plainDoc) Render(width int) []string {
	if d.rows == nil || d.width != width {
		d.rows, d.width = wrapAll(d.text, width, nil), width
	}
	return d.rows
}
