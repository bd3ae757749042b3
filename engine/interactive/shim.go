package interactive

// Temporary seams for the pieces other TUI helpers are building. Each is
// a real (if plain) implementation, replaced by the owner's package when
// it lands; this file goes away then.

import (
	"github.com/pi-go/pi/engine/tui"
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

// The extension dialogs (engine/interactive/dialogs once it lands). Until
// then a dialog cannot be shown: the call resolves with its default and
// the transcript says why.
func dialogsMissing(a *app) tui.Component {
	a.showError("Error: extension dialogs are not in this build yet")
	return nil
}

func newSelectDialog(a *app, title string, options []string, timeoutMs int64, done func(string, bool)) tui.Component {
	return dialogsMissing(a)
}

func newConfirmDialog(a *app, title, message string, timeoutMs int64, done func(string, bool)) tui.Component {
	return dialogsMissing(a)
}

func newInputDialog(a *app, title, placeholder string, timeoutMs int64, done func(string, bool)) tui.Component {
	return dialogsMissing(a)
}

func newEditorDialog(a *app, title, prefill string, done func(string, bool)) tui.Component {
	return dialogsMissing(a)
}
