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
package tui
