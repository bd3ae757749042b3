package tui

import "sort"

// Column is a Windowed stack of children for long bodies (a transcript).
// It keeps every child's height at the current width and the running
// total, so Height is O(1) and RenderRange renders only the children
// that intersect the range. A child whose rows may have changed must be
// reported with Changed (the last message while it streams, a tool row
// when its result arrives); appending needs no report. A width change
// measures every child again, once.
type Column struct {
	children []Component
	width    int
	starts   []int // starts[i]: first row of child i; starts[len] is the total
	valid    int   // children [0, valid) have measured heights
}

// NewColumn builds a Column of children.
func NewColumn(children ...Component) *Column {
	return &Column{children: children}
}

// Add appends children.
func (c *Column) Add(children ...Component) { c.children = append(c.children, children...) }

// Insert puts child before index i (at the end when i ≥ Len).
func (c *Column) Insert(i int, child Component) {
	i = min(max(i, 0), len(c.children))
	c.children = append(c.children[:i], append([]Component{child}, c.children[i:]...)...)
	c.valid = min(c.valid, i)
}

// Remove drops child i.
func (c *Column) Remove(i int) {
	if i < 0 || i >= len(c.children) {
		return
	}
	c.children = append(c.children[:i], c.children[i+1:]...)
	c.valid = min(c.valid, i)
}

// Clear drops every child.
func (c *Column) Clear() { c.children, c.valid = nil, 0 }

// Len is the number of children.
func (c *Column) Len() int { return len(c.children) }

// Child returns child i.
func (c *Column) Child(i int) Component { return c.children[i] }

// Changed reports that child i may render different rows now.
func (c *Column) Changed(i int) { c.valid = min(c.valid, max(i, 0)) }

// ChangedChild is Changed for a child found by identity, searching from
// the end (the usual case is a recent child).
func (c *Column) ChangedChild(child Component) {
	for i := len(c.children) - 1; i >= 0; i-- {
		if c.children[i] == child {
			c.Changed(i)
			return
		}
	}
}

// Invalidate drops every child's cache and every measurement.
func (c *Column) Invalidate() {
	for _, ch := range c.children {
		if inv, ok := ch.(Invalidator); ok {
			inv.Invalidate()
		}
	}
	c.valid = 0
}

// measure brings the running totals up to date for width.
func (c *Column) measure(width int) {
	if width != c.width {
		c.width, c.valid = width, 0
	}
	n := len(c.children)
	if c.valid > n {
		c.valid = n
	}
	if cap(c.starts) < n+1 {
		s := make([]int, n+1, 2*n+1)
		copy(s, c.starts[:min(len(c.starts), c.valid+1)])
		c.starts = s
	}
	c.starts = c.starts[:n+1]
	if c.valid == 0 {
		c.starts[0] = 0
	}
	for i := c.valid; i < n; i++ {
		c.starts[i+1] = c.starts[i] + len(c.children[i].Render(width))
	}
	c.valid = n
}

// Height is the total number of rows.
func (c *Column) Height(width int) int {
	c.measure(width)
	return c.starts[len(c.children)]
}

// RenderRange returns rows [from, to).
func (c *Column) RenderRange(width, from, to int) []string {
	c.measure(width)
	n := len(c.children)
	to = min(to, c.starts[n])
	if from >= to {
		return nil
	}
	// The child holding row from: the last start ≤ from.
	i := sort.Search(n, func(i int) bool { return c.starts[i+1] > from })
	out := make([]string, 0, to-from)
	for ; i < n && c.starts[i] < to; i++ {
		rows := c.children[i].Render(width)
		lo := max(from-c.starts[i], 0)
		hi := min(to-c.starts[i], len(rows))
		if lo < hi {
			out = append(out, rows[lo:hi]...)
		}
	}
	return out
}

// Render returns every row.
func (c *Column) Render(width int) []string { return c.RenderRange(width, 0, c.Height(width)) }
