package tui

// Component is anything that can draw itself as terminal rows. Render
// returns the rows for the given width; every row must have a visible
// width of at most width cells (use Truncate). Rows may carry SGR styling
// and OSC 8 links; a renderer resets styles at the end of every row.
//
// Render is called often (every frame that touches the component), so
// components cache their rows by width and a version they bump on change.
type Component interface {
	Render(width int) []string
}

// InputHandler is a component that takes keyboard input while focused.
// HandleKey reports whether the key was consumed; an unconsumed key goes
// to the next handler (the application's global keys).
type InputHandler interface {
	HandleKey(k Key) bool
}

// PasteHandler is a component that takes bracketed-paste text.
type PasteHandler interface {
	HandlePaste(text string)
}

// Focusable is told when it gains or loses keyboard focus (an editor
// shows its cursor only while focused).
type Focusable interface {
	SetFocused(focused bool)
}

// Invalidator drops cached rows, for example after a theme change.
type Invalidator interface {
	Invalidate()
}

// Container stacks its children vertically.
type Container struct {
	children []Component
}

// Add appends children.
func (c *Container) Add(children ...Component) { c.children = append(c.children, children...) }

// Remove drops the first occurrence of child; it reports whether it was there.
func (c *Container) Remove(child Component) bool {
	for i, ch := range c.children {
		if ch == child {
			c.children = append(c.children[:i], c.children[i+1:]...)
			return true
		}
	}
	return false
}

// Clear drops every child.
func (c *Container) Clear() { c.children = nil }

// Children returns the children in order; the slice is the container's own.
func (c *Container) Children() []Component { return c.children }

// Len is the number of children.
func (c *Container) Len() int { return len(c.children) }

// Render concatenates the children's rows.
func (c *Container) Render(width int) []string {
	var rows []string
	for _, ch := range c.children {
		rows = append(rows, ch.Render(width)...)
	}
	return rows
}

// Invalidate invalidates every child that caches.
func (c *Container) Invalidate() {
	for _, ch := range c.children {
		if inv, ok := ch.(Invalidator); ok {
			inv.Invalidate()
		}
	}
}

// Lines is a fixed list of rows, truncated to the width when rendered.
type Lines []string

// Render returns the rows, each cut to width.
func (l Lines) Render(width int) []string {
	out := make([]string, len(l))
	for i, s := range l {
		out[i] = Truncate(s, width, "")
	}
	return out
}
