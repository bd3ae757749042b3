package markdown

import (
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"
)

// sgrState is the set of SGR attributes active at a point of a styled
// string, so a row break can close them and the next row re-open them.
type sgrState struct {
	fg, bg                                        string
	bold, dim, italic, underline, inverse, strike bool
	link                                          string // active OSC 8 target
}

func (s *sgrState) empty() bool { return *s == sgrState{} }

// apply updates the state from one escape sequence (SGR or OSC 8); others
// are ignored.
func (s *sgrState) apply(seq string) {
	if strings.HasPrefix(seq, "\x1b]8;") {
		// \x1b]8;params;uri ST
		body := strings.TrimPrefix(seq, "\x1b]8;")
		body = strings.TrimSuffix(strings.TrimSuffix(body, "\x1b\\"), "\a")
		if i := strings.IndexByte(body, ';'); i >= 0 {
			s.link = body[i+1:]
		}
		return
	}
	if !strings.HasPrefix(seq, "\x1b[") || !strings.HasSuffix(seq, "m") {
		return
	}
	params := strings.Split(seq[2:len(seq)-1], ";")
	for i := 0; i < len(params); i++ {
		p := params[i]
		switch p {
		case "", "0":
			link := s.link
			*s = sgrState{link: link}
		case "1":
			s.bold = true
		case "2":
			s.dim = true
		case "3":
			s.italic = true
		case "4":
			s.underline = true
		case "7":
			s.inverse = true
		case "9":
			s.strike = true
		case "22":
			s.bold, s.dim = false, false
		case "23":
			s.italic = false
		case "24":
			s.underline = false
		case "27":
			s.inverse = false
		case "29":
			s.strike = false
		case "39":
			s.fg = ""
		case "49":
			s.bg = ""
		case "38", "48":
			n := 0
			if i+1 < len(params) && params[i+1] == "5" {
				n = 2
			} else if i+1 < len(params) && params[i+1] == "2" {
				n = 4
			}
			if i+n >= len(params) {
				n = len(params) - 1 - i
			}
			v := strings.Join(params[i:i+n+1], ";")
			if p == "38" {
				s.fg = v
			} else {
				s.bg = v
			}
			i += n
		default:
			if n, err := strconv.Atoi(p); err == nil {
				switch {
				case n >= 30 && n <= 37 || n >= 90 && n <= 97:
					s.fg = p
				case n >= 40 && n <= 47 || n >= 100 && n <= 107:
					s.bg = p
				}
			}
		}
	}
}

// open is the escape sequence that re-establishes the state.
func (s *sgrState) open() string {
	var p []string
	if s.fg != "" {
		p = append(p, s.fg)
	}
	if s.bg != "" {
		p = append(p, s.bg)
	}
	for _, a := range [...]struct {
		on   bool
		code string
	}{{s.bold, "1"}, {s.dim, "2"}, {s.italic, "3"}, {s.underline, "4"}, {s.inverse, "7"}, {s.strike, "9"}} {
		if a.on {
			p = append(p, a.code)
		}
	}
	out := ""
	if len(p) > 0 {
		out = "\x1b[" + strings.Join(p, ";") + "m"
	}
	if s.link != "" {
		out += "\x1b]8;;" + s.link + "\x1b\\"
	}
	return out
}

// close ends the state at a row's end.
func (s *sgrState) close() string {
	out := ""
	if s.link != "" {
		out = "\x1b]8;;\x1b\\"
	}
	st := *s
	st.link = ""
	if !st.empty() {
		out += "\x1b[0m"
	}
	return out
}

// item is one piece of a styled line: an escape sequence (w < 0) or a
// grapheme cluster with its width.
type item struct {
	s string
	w int
}

func splitItems(s string) []item {
	var out []item
	var state byte
	for len(s) > 0 {
		seq, w, n, ns := ansi.DecodeSequence(s, state, nil)
		state = ns
		if n <= 0 {
			n = 1
			seq = s[:1]
		}
		if seq != "" && (seq[0] == 0x1b || seq[0] < 0x20 || seq[0] == 0x7f) {
			if seq[0] == 0x1b {
				out = append(out, item{seq, -1})
			}
			// Other control characters are dropped: they would move the
			// cursor and break the row's width.
		} else if !utf8.ValidString(seq) {
			// Invalid bytes show as the replacement character, so the row
			// is as wide as we counted.
			out = append(out, item{"\uFFFD", 1})
		} else {
			out = append(out, item{seq, w})
		}
		s = s[n:]
	}
	return out
}

// wrapLine word-wraps one styled line (no newlines) into rows of at most
// width cells. Spaces at a break are dropped, leading spaces of the first
// row kept (indentation), words longer than a row broken between grapheme
// clusters, and clusters wider than the whole row dropped. Every row closes
// the styles and hyperlink active at its end and the next row re-opens
// them, so each row stands alone.
func wrapLine(line string, width int) []string {
	if width < 1 {
		width = 1
	}
	if ansi.StringWidth(line) <= width {
		return []string{line}
	}
	items := splitItems(line)
	var rows []string
	var cur strings.Builder
	curW := 0
	var st sgrState
	emitEsc := func(s string) { cur.WriteString(s); st.apply(s) }
	newRow := func() {
		cur.WriteString(st.close())
		rows = append(rows, cur.String())
		cur.Reset()
		cur.WriteString(st.open())
		curW = 0
	}
	i := 0
	first := true
	for i < len(items) {
		// A group is a run of spaces or a run of non-spaces (escapes go
		// with whichever run they sit in).
		j := i
		isSpace := false
		for j < len(items) && items[j].w < 0 {
			j++
		}
		if j < len(items) {
			isSpace = items[j].s == " "
		}
		gw := 0
		j = i
		for j < len(items) {
			it := items[j]
			if it.w >= 0 && (it.s == " ") != isSpace {
				break
			}
			if it.w > 0 {
				gw += it.w
			}
			j++
		}
		group := items[i:j]
		i = j
		if isSpace {
			// Spaces are kept when the next word fits after them on this
			// row; at a break they vanish.
			k := i
			nw := 0
			for k < len(items) && (items[k].w < 0 || items[k].s != " ") {
				if items[k].w > 0 {
					nw += items[k].w
				}
				k++
			}
			keep := curW+gw+nw <= width || (first && curW == 0 && gw < width)
			if k == len(items) && nw == 0 {
				keep = false // trailing spaces
			}
			for _, it := range group {
				switch {
				case it.w < 0:
					emitEsc(it.s)
				case keep && curW+it.w <= width:
					cur.WriteString(it.s)
					curW += it.w
				}
			}
			if !keep && curW > 0 && nw > 0 {
				newRow()
			}
			continue
		}
		first = false
		if curW > 0 && curW+gw > width {
			newRow()
		}
		for _, it := range group {
			if it.w < 0 {
				emitEsc(it.s)
				continue
			}
			if it.w > width {
				continue
			}
			if curW+it.w > width {
				newRow()
			}
			cur.WriteString(it.s)
			curW += it.w
		}
	}
	cur.WriteString(st.close())
	rows = append(rows, cur.String())
	return rows
}

// wrapText wraps text that may contain newlines.
func wrapText(s string, width int) []string {
	if !strings.Contains(s, "\n") {
		return wrapLine(s, width)
	}
	var out []string
	// Styles may span a newline: carry them over like a wrap does.
	var st sgrState
	for _, l := range strings.Split(s, "\n") {
		l = st.open() + l
		for _, it := range splitItems(l) {
			if it.w < 0 {
				st.apply(it.s)
			}
		}
		l += st.close()
		out = append(out, wrapLine(l, width)...)
	}
	return out
}
