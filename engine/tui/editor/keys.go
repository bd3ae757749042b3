package editor

import (
	"slices"
	"strings"

	"github.com/pi-go/pi/engine/tui"
)

func (e *Editor) is(k tui.Key, action string) bool { return e.km.Matches(k, action) }

// HandleKey applies one key. It reports false for keys the editor leaves
// to the application: Ctrl+C (tui.input.copy), Escape without an open
// list, key releases, and keys bound to nothing the editor does.
func (e *Editor) HandleKey(k tui.Key) bool {
	if k.Release {
		return false
	}
	// pi's order: an open list's paging and Escape, then bound history
	// keys (so Ctrl+P can browse history although it cycles models by
	// default), then the application's keys, then the editor's.
	listKey := e.ac != nil && (e.is(k, "tui.select.pageUp") || e.is(k, "tui.select.pageDown") || e.is(k, "tui.select.cancel"))
	if !listKey {
		switch {
		case e.is(k, "tui.editor.historyPrevious"):
			e.jump = 0
			e.closeAutocomplete()
			e.historyMove(-1)
			return true
		case e.is(k, "tui.editor.historyNext"):
			e.jump = 0
			e.closeAutocomplete()
			e.historyMove(1)
			return true
		}
		if e.opt.AppKeys != nil && e.opt.AppKeys(k) {
			return true
		}
	}
	if e.jump != 0 {
		dir := e.jump
		e.jump = 0
		if e.is(k, "tui.editor.jumpForward") || e.is(k, "tui.editor.jumpBackward") {
			return true
		}
		if k.Text != "" {
			e.jumpTo(k.Text, dir)
			return true
		}
		// Any other key cancels the jump and does what it does.
	}
	if e.is(k, "tui.input.copy") {
		return false
	}
	if e.is(k, "tui.editor.undo") {
		e.doUndo()
		return true
	}
	if e.ac != nil {
		switch {
		case e.is(k, "tui.select.cancel"):
			e.closeAutocomplete()
			e.changedView()
			return true
		case e.is(k, "tui.select.up"):
			e.ac.move(-1)
			e.changedView()
			return true
		case e.is(k, "tui.select.down"):
			e.ac.move(1)
			e.changedView()
			return true
		case e.is(k, "tui.select.pageUp"):
			e.ac.page(-1, e.opt.AutocompleteMaxVisible)
			e.changedView()
			return true
		case e.is(k, "tui.select.pageDown"):
			e.ac.page(1, e.opt.AutocompleteMaxVisible)
			e.changedView()
			return true
		case e.is(k, "tui.input.tab"):
			e.acceptAutocomplete()
			return true
		case e.is(k, "tui.select.confirm"):
			before := e.cur()[:e.col]
			submits := strings.HasPrefix(e.ac.prefix, "/") && e.slashNameContext(before)
			e.acceptAutocomplete()
			if !submits {
				return true
			}
			if !e.DisableSubmit {
				e.submit()
			}
			return true
		}
	}
	if e.is(k, "tui.select.cancel") {
		// No list yet, but one may be on its way: Escape drops it too
		// (the key still goes to the application).
		e.acSeq++
	}
	if e.is(k, "tui.input.tab") {
		e.tabComplete()
		return true
	}
	switch {
	case e.is(k, "tui.editor.deleteToLineEnd"):
		e.killToLineEnd()
	case e.is(k, "tui.editor.deleteToLineStart"):
		e.killToLineStart()
	case e.is(k, "tui.editor.deleteWordBackward"):
		e.killWordBackward()
	case e.is(k, "tui.editor.deleteWordForward"):
		e.killWordForward()
	case e.is(k, "tui.editor.deleteCharBackward") || k.Is("shift+backspace"):
		e.backspace()
	case e.is(k, "tui.editor.deleteCharForward") || k.Is("shift+delete"):
		e.deleteForward()
	case e.is(k, "tui.editor.yank"):
		e.yank()
	case e.is(k, "tui.editor.yankPop"):
		e.yankPop()
	case e.is(k, "tui.editor.cursorLineStart"):
		e.lineStart()
		e.changedView()
	case e.is(k, "tui.editor.cursorLineEnd"):
		e.lineEnd()
		e.changedView()
	case e.is(k, "tui.editor.cursorWordLeft"):
		e.wordLeft()
	case e.is(k, "tui.editor.cursorWordRight"):
		e.wordRight()
	case e.isNewLine(k):
		if e.submitOnBackslashEnter(k) {
			e.backspace()
			e.submit()
		} else {
			e.newLine()
		}
	case e.is(k, "tui.input.submit"):
		if e.DisableSubmit {
			return true
		}
		// Terminals without Shift+Enter: a backslash before the cursor
		// turns Enter into a newline.
		if e.col > 0 && e.cur()[e.col-1] == '\\' {
			e.backspace()
			e.newLine()
			return true
		}
		e.submit()
	case e.is(k, "tui.editor.cursorUp"):
		switch {
		case e.onFirstVisualLine() && (e.IsEmpty() || e.histIdx > -1 || e.col == 0):
			e.historyMove(-1)
		case e.onFirstVisualLine():
			e.lineStart()
			e.changedView()
		default:
			e.vertical(-1)
		}
	case e.is(k, "tui.editor.cursorDown"):
		switch {
		case e.histIdx > -1 && e.onLastVisualLine():
			e.historyMove(1)
		case e.onLastVisualLine():
			e.lineEnd()
			e.changedView()
		default:
			e.vertical(1)
		}
	case e.is(k, "tui.editor.cursorRight"):
		e.right()
	case e.is(k, "tui.editor.cursorLeft"):
		e.left()
	case e.is(k, "tui.editor.pageUp"):
		e.page(-1)
	case e.is(k, "tui.editor.pageDown"):
		e.page(1)
	case e.is(k, "tui.editor.jumpForward"):
		e.jump = 1
	case e.is(k, "tui.editor.jumpBackward"):
		e.jump = -1
	case k.Is("shift+space"):
		e.insertChar(" ")
	case k.Text != "" && k.Mod&(tui.ModCtrl|tui.ModAlt|tui.ModSuper) == 0:
		e.insertChar(k.Text)
	default:
		return false
	}
	return true
}

// isNewLine: tui.input.newLine, and the byte strings terminals send for
// Shift+Enter when they have no better encoding (ESC CR, LF).
func (e *Editor) isNewLine(k tui.Key) bool {
	if e.is(k, "tui.input.newLine") {
		return true
	}
	switch k.Raw {
	case "\n", "\x1b\r", "\x1b[13;2~":
		return true
	}
	return false
}

// submitOnBackslashEnter: when Shift+Enter submits (a remapped file),
// "\" then Enter still submits, without the backslash.
func (e *Editor) submitOnBackslashEnter(k tui.Key) bool {
	if e.DisableSubmit || !k.Is("enter") {
		return false
	}
	hasShiftEnter := slices.ContainsFunc(e.km.Keys("tui.input.submit"), func(s tui.KeySpec) bool { return s.String() == "shift+enter" })
	return hasShiftEnter && e.col > 0 && e.cur()[e.col-1] == '\\'
}
