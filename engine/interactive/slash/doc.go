// Package slash holds the interactive mode's built-in slash commands:
// their list for the "/" menu (Builtins) and their behaviour (Run).
//
// A command acts through Host, which the interactive app implements: it
// shows dialogs (package dialogs) in the editor slot, adds notices and
// Markdown to the transcript, reads and sets the editor text, copies to
// the clipboard, and reaches the agent through the small Agent interface
// (*pi.Agent satisfies it). Work that may take long (compaction, a
// session switch with extension hooks, a sign-in) runs through Host.Go
// and reports back through Host.Post, so the UI goroutine never blocks.
//
// Every command either does what it says or tells the user why not; a
// command this build cannot run is not listed.
package slash
