package interactive

// Temporary seams for the pieces other TUI helpers are building. Each is
// a real (if plain) implementation, replaced by the owner's package when
// it lands; this file goes away then.

import (
	"github.com/pi-go/pi/engine/tui"
)

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
