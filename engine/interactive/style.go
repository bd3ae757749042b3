package interactive

import (
	"strings"

	"github.com/pi-go/pi/engine/tui"
	"github.com/pi-go/pi/engine/tui/theme"
)

// view is the display state every transcript item reads: the theme, the
// Ctrl+O and Ctrl+T switches, and what key hints name. gen changes
// whenever any of it does, so an item's cache key (width, its own
// version, gen) goes stale on a toggle without visiting every item.
type view struct {
	th            *theme.Theme
	toolsExpanded bool
	hideThinking  bool
	thinkingLabel string
	expandKey     string // the key app.tools.expand is bound to, for hints
	cwd           string
	home          string
	gen           uint64

	// Inline images in tool results: the terminal's protocol (none:
	// placeholders), terminal.showImages, terminal.imageWidthCells and
	// the cell size the terminal reported.
	images     tui.ImageProtocol
	showImages bool
	imageWidth int
	cell       tui.CellSize
	hyperlinks bool
	imageGen   uint64 // bumped when an image option above changes
}

func (v *view) changed() { v.gen++ }

func (v *view) fg(token, s string) string { return v.th.Fg(token, s) }

// expandHint is "(ctrl+o to expand)" without its parentheses, in the
// colours of the reference's key hints.
func (v *view) expandHint() string {
	return v.fg("dim", v.expandKey) + v.fg("muted", " to expand")
}

// shortPath shows a path relative to the home directory as ~/…, as the
// reference's tool rows do.
func (v *view) shortPath(p string) string {
	if v.home != "" && (p == v.home || strings.HasPrefix(p, v.home+"/")) {
		return "~" + p[len(v.home):]
	}
	return p
}

// cache holds one component's rows for a width, a version and a view
// generation.
type cache struct {
	width   int
	version uint64
	gen     uint64
	rows    []string
	valid   bool
}

func (c *cache) get(width int, version, gen uint64) ([]string, bool) {
	if c.valid && c.width == width && c.version == version && c.gen == gen {
		return c.rows, true
	}
	return nil, false
}

func (c *cache) put(width int, version, gen uint64, rows []string) []string {
	c.width, c.version, c.gen, c.rows, c.valid = width, version, gen, rows, true
	return rows
}

// box lays rows out as pi's boxes are: paddingX columns on each side,
// paddingY blank rows above and below, every row filled to the width on
// the background bg (a theme token; "" for none).
func box(v *view, width, paddingX, paddingY int, bg string, content []string) []string {
	inner := width - 2*paddingX
	if inner < 1 {
		inner = 1
	}
	pad := strings.Repeat(" ", paddingX)
	// A full reset inside a row (Markdown ends its styles with one) would
	// end the background too: it is set again after each.
	bgOn := ""
	if bg != "" {
		if p := v.th.Bg(bg, "\x00"); strings.Contains(p, "\x00") {
			bgOn = p[:strings.Index(p, "\x00")]
		}
	}
	fill := func(s string) string {
		row := tui.PadRight(pad+tui.Truncate(s, inner, "")+pad, width)
		if bgOn != "" {
			row = strings.ReplaceAll(row, "\x1b[0m", "\x1b[0m"+bgOn)
			row = strings.ReplaceAll(row, "\x1b[49m", "\x1b[49m"+bgOn)
		}
		if bg != "" {
			row = v.th.Bg(bg, row)
		}
		return row
	}
	out := make([]string, 0, len(content)+2*paddingY)
	for i := 0; i < paddingY; i++ {
		out = append(out, fill(""))
	}
	for _, r := range content {
		out = append(out, fill(r))
	}
	for i := 0; i < paddingY; i++ {
		out = append(out, fill(""))
	}
	return out
}

// wrapAll wraps text (which may hold newlines) to width and paints each
// row with paint (nil for none). Tabs become three spaces, as the
// reference shows them.
func wrapAll(text string, width int, paint func(string) string) []string {
	if width < 1 {
		width = 1
	}
	text = strings.ReplaceAll(text, "\t", "   ")
	var out []string
	for _, line := range strings.Split(text, "\n") {
		if line == "" {
			out = append(out, "")
			continue
		}
		for _, r := range tui.Wrap(line, width) {
			if paint != nil {
				r = paint(r)
			}
			out = append(out, r)
		}
	}
	return out
}
