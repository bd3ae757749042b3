package dialogs

import (
	"github.com/pi-go/pi/engine/tui"
	"github.com/pi-go/pi/engine/tui/editor"
)

// EditorOptions configure an EditorDialog.
type EditorOptions struct {
	Title    string
	Message  string // optional, below the title (/bug's note on what a report holds)
	Value    string // prefilled text
	OnSubmit func(text string)
	OnCancel func()
	// OnExternal, when set, opens the text in the external editor
	// (Ctrl+G); the app suspends the screen, runs the editor and calls
	// SetText with the result. nil leaves the key out of the hint and
	// unbound.
	OnExternal func(text string)
	// TerminalRows is the terminal's height, which bounds the text area
	// as the main editor's (nil: 24 rows).
	TerminalRows func() int
}

// EditorDialog is ctx.ui.editor and the custom-instructions prompt of
// /tree: pi's multi-line editor (kill ring, undo, paste markers, word
// motion) under a title. Enter submits, Shift+Enter (or Ctrl+J) starts a
// new line, Escape/Ctrl+C cancels.
type EditorDialog struct {
	st   Style
	o    EditorOptions
	ed   *editor.Editor
	done bool
}

// NewEditorDialog builds an EditorDialog.
func NewEditorDialog(st Style, o EditorOptions) *EditorDialog {
	e := &EditorDialog{st: st, o: o}
	e.ed = editor.New(st.editorKeymap(), editor.Options{TerminalRows: o.TerminalRows})
	e.ed.SetText(o.Value)
	e.ed.SetFocused(true)
	e.ed.OnSubmit = func(text string) {
		if e.done {
			return
		}
		e.done = true
		if e.o.OnSubmit != nil {
			e.o.OnSubmit(text)
		}
	}
	return e
}

// Text is the current text, paste markers expanded.
func (e *EditorDialog) Text() string { return e.ed.Text() }

// SetText replaces the text (the external editor's result).
func (e *EditorDialog) SetText(s string) { e.ed.SetText(s) }

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

// SetFocused shows or hides the editor's cursor.
func (e *EditorDialog) SetFocused(f bool) { e.ed.SetFocused(f) }

// HandlePaste inserts pasted text.
func (e *EditorDialog) HandlePaste(text string) {
	if !e.done {
		e.ed.HandlePaste(text)
	}
}

// HandleKey: Escape/Ctrl+C cancel (unless the editor's completion list
// is open, which Escape closes), Ctrl+G opens the external editor, the
// rest edits.
func (e *EditorDialog) HandleKey(k tui.Key) bool {
	if e.done || k.Release {
		return false
	}
	switch {
	case e.st.Is(k, "tui.select.cancel") && !e.ed.AutocompleteOpen():
		e.Cancel()
		return true
	case e.o.OnExternal != nil && e.st.Is(k, "app.editor.external"):
		e.o.OnExternal(e.ed.Text())
		return true
	}
	e.ed.HandleKey(k)
	return true
}

// Render draws the title, the editor between its rules, and the hints.
func (e *EditorDialog) Render(width int) []string {
	f := &frame{w: width}
	f.blank()
	f.pad(e.st.title(e.o.Title))
	f.blank()
	if e.o.Message != "" {
		f.pad(e.st.muted(e.o.Message))
		f.blank()
	}
	f.rows = append(f.rows, e.ed.Render(width)...)
	f.blank()
	hint := e.st.Hint("tui.input.submit", "submit") + "  " + e.st.Hint("tui.input.newLine", "newline") + "  " + e.st.Hint("tui.select.cancel", "cancel")
	if e.o.OnExternal != nil {
		hint += "  " + e.st.Hint("app.editor.external", "external editor")
	}
	f.pad(hint)
	return f.rows
}
