package dialogs

// renderCache keeps a dialog's rows for one width until the dialog
// changes: every key, paste, tick or cancel bumps it, since any of them
// may change what is drawn, so a frame that touches nothing in the dialog
// reuses its rows.
type renderCache struct {
	width, version, built int
	rows                  []string
	valid                 bool
}

func (c *renderCache) bump() { c.version++ }

func (c *renderCache) get(width int, render func(int) []string) []string {
	if c.valid && c.width == width && c.built == c.version {
		return c.rows
	}
	c.rows, c.width, c.built, c.valid = render(width), width, c.version, true
	return c.rows
}
