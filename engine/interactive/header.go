package interactive

import (
	"path/filepath"
	"strings"

	"github.com/pi-go/pi/engine/tui"
	"github.com/pi-go/pi/engine/tui/theme"
)

// header is the start-up block at the top of the transcript: the version,
// one line of key hints, the loaded resources and the start-up warnings.
// Ctrl+O (with the tool rows) expands it into every key hint and the full
// resource paths.
type header struct {
	v         *view
	version   string
	keys      func(action string) string // the first key bound to an action
	resources []resourceGroup
	warnings  []string
	logo      bool // the terminal draws the half-block logo (not Apple Terminal)
	c         cache
}

// onboarding is the header's last line: pi answers questions about
// itself from its docs.
const onboarding = "Ask pi how to use or extend it: it reads its own docs to answer."

// The logo's colours are pi's brand colours, the same in every theme.
var (
	logoCoral  = theme.RGB{R: 228, G: 138, B: 122}
	logoBlue   = theme.RGB{R: 79, G: 142, B: 179}
	logoYellow = theme.RGB{R: 234, G: 182, B: 93}
)

// piLogo is the logo, two rows of four half-block cells (each cell two
// square pixels): coral over blue, coral, coral, then blue, blank, yellow.
func piLogo(th *theme.Theme) (top, bottom string) {
	m := th.Mode()
	reset := ""
	if m != theme.ModeNone {
		reset = "\x1b[0m"
	}
	fg := func(c theme.RGB) string { return c.SGR(m, false) }
	top = fg(logoCoral) + logoBlue.SGR(m, true) + "▀" + reset + fg(logoCoral) + "▀█" + reset + " "
	bottom = fg(logoBlue) + "█▀" + reset + " " + fg(logoYellow) + "█" + reset
	return top, bottom
}

// piWordmark is "Pi" in the logo's coral and yellow, for terminals whose
// half blocks do not line up.
func piWordmark(th *theme.Theme) string {
	m := th.Mode()
	reset := ""
	if m != theme.ModeNone {
		reset = "\x1b[0m"
	}
	return logoCoral.SGR(m, false) + "P" + reset + logoYellow.SGR(m, false) + "i" + reset
}

// resourceGroup is one "[Extensions]"-style listing.
type resourceGroup struct {
	label string
	paths []string
}

func (h *header) hint(action, desc string) string {
	return h.v.fg("dim", h.keys(action)) + h.v.fg("muted", " "+desc)
}

func (h *header) Render(width int) []string {
	if r, ok := h.c.get(width, 0, h.v.gen); ok {
		return r
	}
	sep := h.v.fg("muted", " · ")
	version := h.v.fg("dim", "v"+h.version)
	var rows []string
	// withLogo puts the logo's two lines in front of the version and the
	// first hint line; a terminal that cannot draw it gets the wordmark.
	withLogo := func(first string) {
		if !h.logo {
			rows = append(rows, piWordmark(h.v.th)+" "+version, first)
			return
		}
		top, bottom := piLogo(h.v.th)
		rows = append(rows, top+" "+version, bottom+" "+first)
	}
	if h.v.toolsExpanded {
		for _, kh := range [][2]string{
			{"app.interrupt", "to interrupt"},
			{"app.clear", "to clear"},
			{"app.clear", "twice to exit"},
			{"app.exit", "to exit (empty)"},
			{"app.suspend", "to suspend"},
			{"tui.editor.deleteToLineEnd", "to delete to end"},
			{"app.thinking.cycle", "to cycle thinking level"},
			{"app.model.cycleForward", "to cycle models"},
			{"app.model.select", "to select model"},
			{"app.tools.expand", "to expand tools"},
			{"app.thinking.toggle", "to expand thinking"},
			{"app.editor.external", "for external editor"},
			{"app.message.followUp", "to queue follow-up"},
			{"app.message.dequeue", "to edit all queued messages"},
			{"app.clipboard.pasteImage", "to paste an image or text"},
		} {
			line := h.hint(kh[0], kh[1])
			if rows == nil {
				withLogo(line)
				continue
			}
			rows = append(rows, line)
		}
		rows = append(rows,
			h.v.fg("dim", "/")+h.v.fg("muted", " for commands"),
			h.v.fg("dim", "!")+h.v.fg("muted", " to run bash"),
			h.v.fg("dim", "!!")+h.v.fg("muted", " to run bash (no context)"),
			"", h.v.fg("dim", onboarding))
	} else {
		withLogo(h.hint("app.interrupt", "interrupt") + sep +
			h.v.fg("dim", h.keys("app.clear")+"/"+h.keys("app.exit")) + h.v.fg("muted", " clear/exit") + sep +
			h.v.fg("dim", "/") + h.v.fg("muted", " commands") + sep +
			h.v.fg("dim", "!") + h.v.fg("muted", " bash") + sep +
			h.hint("app.tools.expand", "more"))
		rows = append(rows,
			h.v.fg("dim", "Press "+h.keys("app.tools.expand")+" to show full startup help and loaded resources."),
			"", h.v.fg("dim", onboarding))
	}
	inner := width - 1
	var body []string
	body = append(body, rows...)
	for _, g := range h.resources {
		if len(g.paths) == 0 {
			continue
		}
		body = append(body, "", h.v.fg("accent", "["+g.label+"]"))
		if h.v.toolsExpanded {
			for _, p := range g.paths {
				body = append(body, "  "+h.v.fg("dim", h.v.shortPath(p)))
			}
			continue
		}
		names := make([]string, len(g.paths))
		for i, p := range g.paths {
			names[i] = displayName(p)
		}
		for _, r := range wrapAll(strings.Join(names, ", "), inner-2, func(s string) string { return h.v.fg("dim", s) }) {
			body = append(body, "  "+r)
		}
	}
	if len(h.warnings) > 0 {
		body = append(body, "")
		for _, w := range h.warnings {
			body = append(body, wrapAll(w, inner, func(s string) string { return h.v.fg("warning", s) })...)
		}
	}
	// The header keeps only the left pad, so the hint line fits 80
	// columns as the reference's does.
	out := []string{""}
	for _, r := range body {
		out = append(out, " "+tui.Truncate(r, width-1, ""))
	}
	// A blank row below, as the reference's header has: the first
	// message after it needs no separator of its own.
	out = append(out, "")
	return h.c.put(width, 0, h.v.gen, out)
}

// displayName is a resource's short name: the file name, or for an
// index file or SKILL.md its folder's name.
func displayName(p string) string {
	base := filepath.Base(p)
	switch base {
	case "index.ts", "index.js", "SKILL.md":
		return filepath.Base(filepath.Dir(p))
	}
	return base
}
