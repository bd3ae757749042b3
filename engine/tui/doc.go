// Package tui is pi's terminal component library: line-based components
// (Render(width) returns the component's rows, each at most width cells
// wide), decoded keyboard input that keeps each key's raw bytes, a keymap
// of named actions, and the two renderers of the interactive mode
// (fullscreen and regular).
//
// It imports nothing of package engine on purpose: the interactive mode
// (engine/interactive) builds pi's screens from it, and jsruntime can host
// extension components on the same types without an import cycle.
//
// Threading: components are not safe for concurrent use. One UI goroutine
// owns every component; other goroutines hand work to it through
// Program.Post.
//
// A Program draws a document: the body (the transcript) above the dock
// (queue, widgets, editor, footer). The regular renderer keeps the
// document in the main screen, its top scrolling into the terminal's
// scrollback, and repaints from the first changed row; a change above the
// visible rows needs Program.Reprint (clear screen and scrollback,
// print everything again), as a width change does by itself. The
// fullscreen renderer scrolls the body inside the alternate screen above
// the pinned dock and rewrites only changed rows. Both wrap every frame
// in synchronized output (CSI ?2026). A body implementing Windowed (see
// Column) is rendered only where it is in view, so the cost of a frame
// does not grow with the session.
//
// Overlays (ShowOverlay) are composited over the frame row by row. The
// hardware cursor stays hidden and is parked at the CursorMarker a
// focused component emits, for input methods.
//
// Package tuitest runs a Program on a virtual terminal for tests.
package tui
