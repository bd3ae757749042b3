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
	c         cache
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
	rows := []string{
		h.v.fg("accent", theme.Bold("pi")) + " " + h.v.fg("dim", "v"+h.version),
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
		} {
			rows = append(rows, h.hint(kh[0], kh[1]))
		}
		rows = append(rows,
			h.v.fg("dim", "/")+h.v.fg("muted", " for commands"),
			h.v.fg("dim", "!")+h.v.fg("muted", " to run bash"),
			h.v.fg("dim", "!!")+h.v.fg("muted", " to run bash (no context)"))
	} else {
		rows = append(rows,
			h.hint("app.interrupt", "interrupt")+sep+
				h.v.fg("dim", h.keys("app.clear")+"/"+h.keys("app.exit"))+h.v.fg("muted", " clear/exit")+sep+
				h.v.fg("dim", "/")+h.v.fg("muted", " commands")+sep+
				h.v.fg("dim", "!")+h.v.fg("muted", " bash")+sep+
				h.hint("app.tools.expand", "more"),
			h.v.fg("muted", "Press "+h.keys("app.tools.expand")+" to show full startup help and loaded resources."))
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
