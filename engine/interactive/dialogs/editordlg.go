package dialogs

import (
	"strings"

	"github.com/pi-go/pi/engine/tui"
)

// EditorOptions configure an EditorDialog.
type EditorOptions struct {
	Title    string
	Value    string // prefilled text
	OnSubmit func(text string)
	OnCancel func()
	// OnExternal, when set, opens the text in the external editor
	// (Ctrl+G); the app suspends the screen, runs the editor and calls
	// SetText with the result. nil leaves the key out of the hint and
	// unbound.
	OnExternal func(text string)
	// MaxRows bounds the text area's height (default 10); the view
	// follows the cursor.
	MaxRows int
}

// EditorDialog is ctx.ui.editor: a multi-line text area. Enter submits,
// Shift+Enter (or Ctrl+J) starts a new line, Escape/Ctrl+C cancels.
type EditorDialog struct {
	st    Style
	o     EditorOptions
	lines [][]rune
	row   int
	col   int
	top   int
	done  bool
}

// NewEditorDialog builds an EditorDialog.
func NewEditorDialog(st Style, o EditorOptions) *EditorDialog {
	e := &EditorDialog{st: st, o: o}
	e.SetText(o.Value)
	return e
}

// Text is the current text.
func (e *EditorDialog) Text() string {
	parts := make([]string, len(e.lines))
	for i, l := range e.lines {
		parts[i] = string(l)
	}
	return strings.Join(parts, "\n")
}

// SetText replaces the text (the external editor's result) and moves the
// cursor to its end.
func (e *EditorDialog) SetText(s string) {
	s = strings.ReplaceAll(s, "\r\n", "\n")
	e.lines = nil
	for _, l := range strings.Split(s, "\n") {
		e.lines = append(e.lines, []rune(l))
	}
	e.row = len(e.lines) - 1
	e.col = len(e.lines[e.row])
}

// Done reports whether the dialog has resolved.
func (e *EditorDialog) Done() bool { return e.done }

// Cancel resolves the dialog as cancelled.
func (e *EditorDialog) Cancel() {
	if e.done {
		return
	}
	e.done = true
	if e.o.OnCancel != nil {
		e.o.OnCancel()
	}
}

// HandlePaste inserts the pasted text, newlines included.
func (e *EditorDialog) HandlePaste(text string) {
	if e.done {
		return
	}
	text = strings.ReplaceAll(strings.ReplaceAll(text, "\r\n", "\n"), "\r", "\n")
	for i, part := range strings.Split(text, "\n") {
		if i > 0 {
			e.newline()
		}
		e.insert([]rune(part))
	}
}

func (e *EditorDialog) insert(r []rune) {
	l := e.lines[e.row]
	e.lines[e.row] = append(l[:e.col:e.col], append(r, l[e.col:]...)...)
	e.col += len(r)
}

func (e *EditorDialog) newline() {
	l := e.lines[e.row]
	rest := append([]rune(nil), l[e.col:]...)
	e.lines[e.row] = l[:e.col]
	e.lines = append(e.lines[:e.row+1], append([][]rune{rest}, e.lines[e.row+1:]...)...)
	e.row++
	e.col = 0
}

// HandleKey edits the text.
func (e *EditorDialog) HandleKey(k tui.Key) bool {
	if e.done || k.Release {
		return false
	}
	switch {
	case e.st.Is(k, "tui.input.newLine"):
		e.newline()
	case e.st.Is(k, "tui.input.submit"):
		e.done = true
		if e.o.OnSubmit != nil {
			e.o.OnSubmit(e.Text())
		}
	case e.st.Is(k, "tui.select.cancel"):
		e.Cancel()
	case e.o.OnExternal != nil && e.st.Is(k, "app.editor.external"):
		e.o.OnExternal(e.Text())
	case k.Text != "" && k.Mod&(tui.ModCtrl|tui.ModAlt|tui.ModSuper) == 0:
		e.insert([]rune(k.Text))
	case k.Is("space"):
		e.insert([]rune{' '})
	case k.Is("backspace"):
		switch {
		case e.col > 0:
			l := e.lines[e.row]
			e.lines[e.row] = append(l[:e.col-1], l[e.col:]...)
			e.col--
		case e.row > 0:
			prev := e.lines[e.row-1]
			e.col = len(prev)
			e.lines[e.row-1] = append(prev, e.lines[e.row]...)
			e.lines = append(e.lines[:e.row], e.lines[e.row+1:]...)
			e.row--
		}
	case k.Is("delete"):
		l := e.lines[e.row]
		switch {
		case e.col < len(l):
			e.lines[e.row] = append(l[:e.col], l[e.col+1:]...)
		case e.row < len(e.lines)-1:
			e.lines[e.row] = append(l, e.lines[e.row+1]...)
			e.lines = append(e.lines[:e.row+1], e.lines[e.row+2:]...)
		}
	case k.Is("left"):
		if e.col > 0 {
			e.col--
		} else if e.row > 0 {
			e.row--
			e.col = len(e.lines[e.row])
		}
	case k.Is("right"):
		if e.col < len(e.lines[e.row]) {
			e.col++
		} else if e.row < len(e.lines)-1 {
			e.row++
			e.col = 0
		}
	case k.Is("up"):
		if e.row > 0 {
			e.row--
			e.col = min(e.col, len(e.lines[e.row]))
		}
	case k.Is("down"):
		if e.row < len(e.lines)-1 {
			e.row++
			e.col = min(e.col, len(e.lines[e.row]))
		}
	case k.Is("home") || k.Is("ctrl+a"):
		e.col = 0
	case k.Is("end") || k.Is("ctrl+e"):
		e.col = len(e.lines[e.row])
	default:
		return false
	}
	return true
}

// Render draws the title, the text area (long lines cut, the cursor as a
// reverse-video cell) and the hint row.
func (e *EditorDialog) Render(width int) []string {
	f := &frame{w: width}
	f.line(e.st.border(width))
	f.blank()
	f.pad(e.st.title(e.o.Title))
	f.blank()
	rows := e.o.MaxRows
	if rows <= 0 {
		rows = 10
	}
	if e.row < e.top {
		e.top = e.row
	}
	if e.row >= e.top+rows {
		e.top = e.row - rows + 1
	}
	for i := e.top; i < len(e.lines) && i < e.top+rows; i++ {
		ln := Line{}
		ln.text, ln.pos = e.lines[i], e.col
		ln.NoCursor = i != e.row
		if ln.NoCursor {
			ln.pos = 0
		}
		for _, r := range ln.Render(max(width-1, 1)) {
			f.line(" " + r)
		}
	}
	if more := len(e.lines) - (e.top + rows); more > 0 {
		f.pad(e.st.muted("↓ " + itoa(more) + " more"))
	}
	f.blank()
	hint := e.st.Hint("tui.input.submit", "submit") + "  " + e.st.Hint("tui.input.newLine", "newline") + "  " + e.st.Hint("tui.select.cancel", "cancel")
	if e.o.OnExternal != nil {
		hint += "  " + e.st.Hint("app.editor.external", "external editor")
	}
	f.pad(hint)
	f.blank()
	f.line(e.st.border(width))
	return f.rows
}
