// Package dialogs holds the interactive mode's dialogs and selectors: the
// generic Select, Confirm, Input and EditorDialog that extensions' ctx.ui
// calls and the built-in commands use, and pi's own pickers (models,
// thinking levels, scoped models, settings, sessions, the session tree,
// fork points, project trust).
//
// Every dialog is a plain tui.Component and tui.InputHandler that the app
// shows in the editor slot. A dialog never touches the agent: it gets its
// data as values and reports the user's choice through callbacks, which
// run on the UI goroutine inside HandleKey (or Tick, for a timeout). A
// dialog calls exactly one of its done callbacks, once; keys after that
// are ignored.
//
// Styling goes through a *theme.Theme; nil styles nothing, which is what
// the golden tests render.
package dialogs
