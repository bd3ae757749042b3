package tui

import (
	"strconv"
	"strings"

	"github.com/charmbracelet/x/ansi"
)

// Transcript search in fullscreen (tui.altScreen.search), as the
// reference's: a box at the top right with the query and "n/m", the
// matches in the body highlighted (the selected one apart), Enter or
// Ctrl+G for the next match, Shift+Enter or Ctrl+Shift+G for the
// previous one, Escape (or the search key again) to close. Matching is
// case-insensitive on each row's text with runs of spaces as one; a match
// does not span rows.

// searchMatch is one match: body row and cell columns [from, to).
type searchMatch struct{ row, from, to int }

type search struct {
	p       *Program
	input   *Input
	box     *searchBox
	overlay *Overlay
	query   string
	matches []searchMatch
	sel     int
	anchor  int    // the row the selection is searched from after the query changes
	version uint64 // body version the matches were found in
	mode    int    // 0: pick the match at/after anchor; ±1: move the selection
	stale   bool   // the query or the body changed: find again
}

// BodyVersioned is a body that says when its rows changed, so the search
// finds its matches again only then.
type BodyVersioned interface {
	Version() uint64
}

// ToggleSearch opens the transcript search box, or closes it (fullscreen).
func (p *Program) ToggleSearch() {
	if p.search != nil {
		p.CloseSearch()
		return
	}
	if !p.o.Fullscreen {
		return
	}
	s := &search{p: p, input: NewInput(p.o.Keymap), sel: -1, anchor: p.full.offset}
	s.input.Prompt = " "
	s.input.OnChange = func(q string) {
		if len(s.matches) > 0 && s.sel >= 0 {
			s.anchor = s.matches[s.sel].row
		} else {
			s.anchor = p.full.offset
		}
		s.query, s.mode, s.stale = q, 0, true
		p.RequestRender()
	}
	s.box = &searchBox{s: s}
	p.search = s
	s.overlay = p.OpenOverlay(s.box, OverlayOptions{Anchor: AnchorTopRight, WidthPercent: 40, MinWidth: 32, Margin: 1})
	p.RequestRender()
}

// CloseSearch closes the search box and drops the highlights.
func (p *Program) CloseSearch() {
	if p.search == nil {
		return
	}
	p.search.overlay.Hide()
	p.search = nil
	p.RequestRender()
}

// normalizeQuery collapses runs of white space and trims, as the
// reference normalises the query.
func normalizeQuery(q string) string { return strings.Join(strings.Fields(q), " ") }

// findMatches finds q in every body row.
func (p *Program) findMatches(q string) []searchMatch {
	q = strings.ToLower(normalizeQuery(q))
	if q == "" || p.body == nil {
		return nil
	}
	w := p.full.bodyW
	var rows []string
	if win, ok := p.body.(Windowed); ok {
		rows = win.RenderRange(w, 0, win.Height(w))
	} else {
		rows = p.body.Render(w)
	}
	var out []searchMatch
	for i, row := range rows {
		plain := Strip(row)
		if plain == "" {
			continue
		}
		// The row's text lowered, runs of spaces as one; from and to give
		// each byte the cells of the character it belongs to.
		var b strings.Builder
		var from, to []int
		col, space := 0, false
		for _, r := range plain {
			cw := max(Width(string(r)), 0)
			if r == ' ' || r == '\t' {
				if !space && b.Len() > 0 {
					b.WriteByte(' ')
					from, to = append(from, col), append(to, col+1)
				}
				space = true
				col += max(cw, 1)
				continue
			}
			space = false
			l := strings.ToLower(string(r))
			for range len(l) {
				from, to = append(from, col), append(to, col+cw)
			}
			b.WriteString(l)
			col += cw
		}
		text := b.String()
		for at := 0; at < len(text); {
			j := strings.Index(text[at:], q)
			if j < 0 {
				break
			}
			start, end := at+j, at+j+len(q)
			out = append(out, searchMatch{row: i, from: from[start], to: to[end-1]})
			at = end
		}
	}
	return out
}

// refreshSearch brings the matches up to date and scrolls to the
// selected one (renderFull calls it before drawing).
func (p *Program) refreshSearch() {
	s := p.search
	if s == nil {
		return
	}
	var v uint64
	if bv, ok := p.body.(BodyVersioned); ok {
		v = bv.Version()
	} else {
		v = s.version + 1 // unknown: search every frame
	}
	if v != s.version || s.stale {
		s.matches, s.version, s.stale = p.findMatches(s.query), v, false
		if s.mode == 0 {
			s.sel = -1
			for i, m := range s.matches {
				if m.row >= s.anchor {
					s.sel = i
					break
				}
			}
			if s.sel < 0 && len(s.matches) > 0 {
				s.sel = 0
			}
			s.mode = 2 // retain from now on
			p.showMatch()
		} else if s.sel >= len(s.matches) {
			s.sel = len(s.matches) - 1
		}
	}
	if (s.mode == 1 || s.mode == -1) && len(s.matches) > 0 {
		s.sel = (s.sel + s.mode + len(s.matches)) % len(s.matches)
		s.mode = 2
		p.showMatch()
	}
}

// showMatch scrolls so the selected match is in view, a third from the
// top when it was not.
func (p *Program) showMatch() {
	s := p.search
	if s == nil || s.sel < 0 || s.sel >= len(s.matches) {
		return
	}
	f := &p.full
	row := s.matches[s.sel].row
	if row >= f.offset && row < f.offset+f.winH-1 && !f.follow {
		return
	}
	maxOff := max(0, f.bodyH-f.winH)
	f.offset = min(max(0, row-f.winH/3), maxOff)
	f.follow = f.offset >= maxOff && row >= f.offset
}

// highlightMatches styles the matches on a window row.
func (p *Program) highlightMatches(row string, bodyRow, width int) string {
	s := p.search
	if s == nil || len(s.matches) == 0 {
		return row
	}
	var ms []int
	for i, m := range s.matches {
		if m.row == bodyRow {
			ms = append(ms, i)
		}
	}
	if len(ms) == 0 {
		return row
	}
	match, current := p.o.SearchMatchStyle, p.o.SearchCurrentStyle
	if match == nil {
		match = func(t string) string { return "\x1b[4m" + t + "\x1b[24m" }
	}
	if current == nil {
		current = func(t string) string { return "\x1b[1;7m" + t + "\x1b[22;27m" }
	}
	row = PadRight(row, width)
	var b strings.Builder
	at := 0
	for _, i := range ms {
		m := s.matches[i]
		from, to := max(m.from, at), min(m.to, width)
		if from >= to {
			continue
		}
		style := match
		if i == s.sel {
			style = current
		}
		b.WriteString(ansi.Cut(row, at, from))
		b.WriteString(SeqResetLine)
		b.WriteString(style(Strip(ansi.Cut(row, from, to))))
		b.WriteString(SeqResetLine)
		at = to
	}
	b.WriteString(ansi.Cut(row, at, width))
	return b.String()
}

// searchBox is the search overlay: a box with the query and the result,
// and the previous/next keys in its bottom edge.
type searchBox struct{ s *search }

func (sb *searchBox) SetFocused(f bool) { sb.s.input.SetFocused(f) }

// HandleKey: next, previous and close, the search key closes too; the
// rest edits the query.
func (sb *searchBox) HandleKey(k Key) bool {
	s, km := sb.s, sb.s.p.o.Keymap
	if k.Release {
		return true
	}
	switch {
	case km.Matches(k, "tui.altScreen.searchClose"), km.Matches(k, "tui.altScreen.search"):
		s.p.CloseSearch()
	case km.Matches(k, "tui.altScreen.searchPrevious"):
		if s.query != "" {
			s.mode = -1
		}
	case km.Matches(k, "tui.altScreen.searchNext"):
		if s.query != "" {
			s.mode = 1
		}
	default:
		s.input.HandleKey(k)
	}
	s.p.RequestRender()
	return true
}

func (sb *searchBox) HandlePaste(text string) { sb.s.input.HandlePaste(text) }

// keyLabel is a key as the search box shows it: "Shift+Enter".
func keyLabel(km *Keymap, action string) string {
	ks := km.Keys(action)
	if len(ks) == 0 {
		return "Unbound"
	}
	parts := strings.Split(ks[0].String(), "+")
	for i, p := range parts {
		if p != "" {
			parts[i] = strings.ToUpper(p[:1]) + p[1:]
		}
	}
	return strings.Join(parts, "+")
}

func (sb *searchBox) Render(width int) []string {
	s := sb.s
	width = max(1, width)
	if width == 1 {
		return []string{"┌", "│", "└"}
	}
	inner := width - 2
	result := ""
	switch {
	case s.query == "":
	case len(s.matches) == 0:
		result = "No matches"
	default:
		result = strconv.Itoa(s.sel+1) + "/" + strconv.Itoa(len(s.matches))
	}
	res := ""
	if r := Truncate(result, max(0, inner-3), ""); r != "" {
		res = "\x1b[2m " + r + " \x1b[22m"
	}
	inputW := max(0, inner-Width(res))
	in := ""
	if s.input.Value() == "" && inputW > 0 {
		in = " \x1b[2mFind in transcript\x1b[22m"
		if s.input.focused {
			in = " " + CursorMarker + "\x1b[2mFind in transcript\x1b[22m"
		}
	} else if r := s.input.Render(max(1, inputW)); len(r) > 0 {
		in = r[0]
	}
	in = Truncate(in, inputW, "")
	content := in + strings.Repeat(" ", max(0, inputW-Width(in))) + res
	km := s.p.o.Keymap
	prev, next, sep := "↑ "+keyLabel(km, "tui.altScreen.searchPrevious"), "↓ "+keyLabel(km, "tui.altScreen.searchNext"), " · "
	avail := max(0, inner-3)
	if Width(prev)+Width(sep)+Width(next) > avail {
		prev, next, sep = "↑", "↓", " "
	}
	controls := Width(prev) + Width(sep) + Width(next)
	bottom := "└" + strings.Repeat("─", inner) + "┘"
	if controls <= avail {
		right := 0
		if inner > controls+2 {
			right = 1
		}
		left := max(0, inner-controls-2-right)
		bottom = "└" + strings.Repeat("─", left) + " " + prev + sep + next + " " + strings.Repeat("─", right) + "┘"
	}
	return []string{"┌" + strings.Repeat("─", inner) + "┐", "│" + content + "│", bottom}
}
