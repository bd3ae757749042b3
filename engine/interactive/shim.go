package interactive

// Temporary seams for the pieces other TUI helpers are building. Each is
// a real (if plain) implementation, replaced by the owner's package when
// it lands; this file goes away then.

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

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

// tuiDefaultKeys are engine/tui's defaults for the tui.* actions
// (tui.DefaultKeys once it lands); until then the few the plain editor
// below uses.
var tuiDefaultKeys = func() map[string][]string {
	return map[string][]string{
		"tui.input.submit":              {"enter"},
		"tui.input.newLine":             {"shift+enter", "ctrl+j"},
		"tui.editor.deleteCharBackward": {"backspace"},
		"tui.select.up":                 {"up"},
		"tui.select.down":               {"down"},
		"tui.select.confirm":            {"enter"},
		"tui.select.cancel":             {"escape", "ctrl+c"},
	}
}

// loadKeybindings applies keybindings.json (tui.LoadKeybindings once it
// lands).
var loadKeybindings = func(path string, km *tui.Keymap) []error {
	if _, err := os.Stat(path); err == nil {
		return []error{fmt.Errorf("%s: keybindings.json is not read by this build yet", path)}
	}
	return nil
}

// newEditor builds the main editor (engine/tui/editor once it lands).
// Until then a plain one: typing appends, Backspace deletes, Enter
// submits, Shift+Enter starts a line.
var newEditor = func(km *tui.Keymap, onSubmit func(string), onChange func()) mainEditor {
	return &plainEditor{km: km, onSubmit: onSubmit, onChange: onChange}
}

type plainEditor struct {
	km       *tui.Keymap
	onSubmit func(string)
	onChange func()
	text     []rune
	border   func(string) string
	label    string
	focused  bool
}

func (e *plainEditor) Text() string                         { return string(e.text) }
func (e *plainEditor) SetText(s string)                     { e.text = []rune(s); e.changed() }
func (e *plainEditor) InsertText(s string)                  { e.text = append(e.text, []rune(s)...); e.changed() }
func (e *plainEditor) AddHistory(string)                    {}
func (e *plainEditor) SetBorderStyle(f func(string) string) { e.border = f }
func (e *plainEditor) SetTopLabel(s string)                 { e.label = s }
func (e *plainEditor) SetFocused(f bool)                    { e.focused = f }
func (e *plainEditor) HandlePaste(s string)                 { e.InsertText(s) }

func (e *plainEditor) changed() {
	if e.onChange != nil {
		e.onChange()
	}
}

func (e *plainEditor) HandleKey(k tui.Key) bool {
	switch {
	case e.km.Matches(k, "tui.input.newLine"):
		e.InsertText("\n")
	case e.km.Matches(k, "tui.input.submit"):
		if e.onSubmit != nil {
			e.onSubmit(string(e.text))
		}
	case e.km.Matches(k, "tui.editor.deleteCharBackward"):
		if len(e.text) > 0 {
			e.text = e.text[:len(e.text)-1]
			e.changed()
		}
	case k.Text != "" && k.Mod&(tui.ModCtrl|tui.ModAlt|tui.ModSuper) == 0:
		e.InsertText(k.Text)
	default:
		return false
	}
	return true
}

func (e *plainEditor) Render(width int) []string {
	paint := e.border
	if paint == nil {
		paint = func(s string) string { return s }
	}
	top := strings.Repeat("─", width)
	if e.label != "" {
		top = tui.Truncate("── "+e.label+" "+strings.Repeat("─", width), width, "")
	}
	rows := []string{paint(top)}
	text := string(e.text)
	if e.focused {
		text += "\x1b[7m \x1b[27m"
	}
	rows = append(rows, wrapAll(text, width, nil)...)
	return append(rows, paint(strings.Repeat("─", width)))
}

// newProgram builds the tui.Program (engine/tui's, once it lands).
var newProgram = func(term terminal, in io.Reader, o programOptions) (uiProgram, error) {
	return nil, errors.New("interactive mode: the terminal renderer is not in this build yet")
}

// terminal is tui.Terminal (once engine/tui's renderer lands).
type terminal interface {
	io.Writer
	Size() (w, h int, err error)
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
