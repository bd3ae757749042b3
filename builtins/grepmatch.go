package builtins

import (
	"bytes"
	"regexp"
	"regexp/syntax"
	"strings"
	"unicode/utf8"
)

// grepMatcher decides which lines of a file match. The regular expression
// re, applied to each line without its "\n", is the definition; the other
// fields are faster ways to the same answer:
//   - exact: the pattern is a case-sensitive literal without "\n", so a
//     byte search over the whole buffer finds exactly the matching lines;
//   - req/fold: a literal every matching line contains (fold: ignoring
//     ASCII case), found with a byte search before re runs on that line;
//   - whole: re rewritten for multi-line mode, used over the whole buffer,
//     when nothing in it can match across a line end.
//
// Without any of them re runs line by line.
type grepMatcher struct {
	re     *regexp.Regexp
	exact  bool
	req    []byte
	fold   bool
	anchor int // with fold: the offset in req of its rarest byte, searched first
	whole  *regexp.Regexp
}

func newGrepMatcher(expr string, re *regexp.Regexp) *grepMatcher {
	m := &grepMatcher{re: re}
	tree, err := syntax.Parse(expr, syntax.Perl)
	if err != nil {
		return m // re compiled, so this does not happen; the line loop is still right
	}
	tree = tree.Simplify()
	if tree.Op == syntax.OpLiteral && tree.Flags&syntax.FoldCase == 0 && !strings.ContainsRune(string(tree.Rune), '\n') {
		m.exact, m.req = true, []byte(string(tree.Rune))
		return m
	}
	if lit, fold := requiredLiteral(tree); len(lit) > 0 {
		if fold {
			lit = foldSafeRun(lit)
		}
		if len(lit) > 0 {
			m.req, m.fold = []byte(lit), fold
			if fold {
				m.req = bytes.ToLower(m.req)
				m.anchor = rarestByte(m.req)
			}
			return m
		}
	}
	if mtree, err := syntax.Parse("(?m)"+expr, syntax.Perl); err == nil && lineLocal(mtree) {
		if w, err := regexp.Compile("(?m)" + expr); err == nil {
			m.whole = w
		}
	}
	return m
}

// requiredLiteral returns the longest literal that every match of t
// contains, and whether it is to be matched ignoring case.
func requiredLiteral(t *syntax.Regexp) (string, bool) {
	switch t.Op {
	case syntax.OpLiteral:
		return string(t.Rune), t.Flags&syntax.FoldCase != 0
	case syntax.OpCapture, syntax.OpPlus:
		return requiredLiteral(t.Sub[0])
	case syntax.OpRepeat:
		if t.Min >= 1 {
			return requiredLiteral(t.Sub[0])
		}
	case syntax.OpConcat:
		best, bestFold := "", false
		for _, s := range t.Sub {
			if l, f := requiredLiteral(s); len(l) > len(best) {
				best, bestFold = l, f
			}
		}
		return best, bestFold
	}
	return "", false
}

// foldSafeRun returns the longest run of lit that an ASCII
// case-insensitive byte search finds in every case-insensitive match of
// lit: ASCII bytes other than "\n" and the letters k and s, whose case
// folding reaches beyond ASCII (the Kelvin sign, the long s).
func foldSafeRun(lit string) string {
	best, start := "", 0
	for i := 0; i <= len(lit); i++ {
		if i < len(lit) {
			c := lit[i] | 0x20
			if lit[i] < utf8.RuneSelf && lit[i] != '\n' && c != 'k' && c != 's' {
				continue
			}
		}
		if i-start > len(best) {
			best = lit[start:i]
		}
		start = i + 1
	}
	return best
}

// byteRank orders bytes from most to least common in source text; bytes
// not listed count as rare.
const byteRank = " etaoinsrlcdhupmf\n\t()fg.,;=_ybwv\"{}x0-1/k:*2jq"

// rarestByte returns the offset of the byte of lower least common in
// source text, so that the byte search stops at few false candidates.
func rarestByte(lower []byte) int {
	best, bestRank := 0, -1
	for i, c := range lower {
		r := strings.IndexByte(byteRank, c)
		if r < 0 {
			r = len(byteRank)
		}
		if r > bestRank {
			best, bestRank = i, r
		}
	}
	return best
}

// lineLocal reports whether no part of t can match "\n" or depend on the
// text's ends, so its matches in a whole buffer (multi-line mode) are
// exactly its matches in each line.
func lineLocal(t *syntax.Regexp) bool {
	switch t.Op {
	case syntax.OpAnyChar, syntax.OpBeginText, syntax.OpEndText, syntax.OpNoMatch:
		return false
	case syntax.OpLiteral:
		for _, r := range t.Rune {
			if r == '\n' {
				return false
			}
		}
	case syntax.OpCharClass:
		for i := 0; i+1 < len(t.Rune); i += 2 {
			if t.Rune[i] <= '\n' && '\n' <= t.Rune[i+1] {
				return false
			}
		}
	}
	for _, s := range t.Sub {
		if !lineLocal(s) {
			return false
		}
	}
	return true
}

// next returns the bounds of the first matching line that starts at or
// after from ("\n" excluded), or ok false.
func (m *grepMatcher) next(data []byte, from int) (start, end int, ok bool) {
	for from <= len(data) {
		if from == len(data) && (from == 0 || data[from-1] == '\n') {
			return 0, 0, false // past the last line
		}
		var hit int
		switch {
		case m.whole != nil:
			loc := m.whole.FindIndex(data[from:])
			if loc == nil {
				return 0, 0, false
			}
			hit = from + loc[0]
		case m.fold:
			hit = indexFoldASCII(data, from, m.req, m.anchor)
		case m.req != nil:
			hit = bytes.Index(data[from:], m.req)
			if hit >= 0 {
				hit += from
			}
		default:
			hit = from // every line is a candidate
		}
		if hit < 0 {
			return 0, 0, false
		}
		start = bytes.LastIndexByte(data[from:hit], '\n') + 1 + from
		end = len(data)
		if i := bytes.IndexByte(data[hit:], '\n'); i >= 0 {
			end = hit + i
		}
		if start == len(data) && start > 0 && data[start-1] == '\n' {
			return 0, 0, false // an empty match after the final newline is no line
		}
		if m.exact || m.whole != nil || m.re.Match(data[start:end]) {
			return start, end, true
		}
		from = end + 1
	}
	return 0, 0, false
}

// indexFoldASCII finds lower (an ASCII-lowercased literal) in data[from:]
// ignoring ASCII case, returning an index into data or -1. It looks for
// the byte at anchor in either case with IndexByte and compares the rest
// around it, so it runs at memchr speed where that byte is rare.
func indexFoldASCII(data []byte, from int, lower []byte, anchor int) int {
	c0 := lower[anchor]
	up := c0
	if 'a' <= c0 && c0 <= 'z' {
		up = c0 - 0x20
	}
	// Candidates are found by their anchor byte, searched from pos on.
	pos := from + anchor
	nextLo, nextUp := -2, -2 // -2: not searched yet, -1: none left
	for {
		if pos > len(data) {
			return -1
		}
		if nextLo != -1 && nextLo < pos {
			nextLo = indexFrom(data, pos, c0)
		}
		if nextUp != -1 && nextUp < pos {
			nextUp = indexFrom(data, pos, up)
		}
		i := nextLo
		if i < 0 || (nextUp >= 0 && nextUp < i) {
			i = nextUp
		}
		if i < 0 {
			return -1
		}
		start := i - anchor
		if start+len(lower) > len(data) {
			return -1
		}
		if asciiEqualFold(data[start:start+len(lower)], lower) {
			return start
		}
		pos = i + 1
	}
}

func indexFrom(data []byte, from int, c byte) int {
	if i := bytes.IndexByte(data[from:], c); i >= 0 {
		return from + i
	}
	return -1
}

func asciiEqualFold(b, lower []byte) bool {
	for i, c := range b {
		if 'A' <= c && c <= 'Z' {
			c += 0x20
		}
		if c != lower[i] {
			return false
		}
	}
	return true
}

// grepLine is one output line of a file: a match or context around one,
// already stripped of its line end and cut to GrepMaxLineLength.
type grepLine struct {
	n     int
	text  string
	cut   bool
	match bool
}

// searchFile returns the matches of data, at most maxMatches of them, each
// with up to contextN lines around it; the lines after the last match are
// returned as context without telling which of them match, since the
// caller stops at that match's limit anyway.
func (m *grepMatcher) searchFile(data []byte, contextN, maxMatches int) []grepLine {
	var out []grepLine
	lineNo, pos := 1, 0 // lineNo is the number of the line starting at pos
	lastLine := 0       // number of the last line in out
	lastEnd := -1       // where that line ends
	matches := 0
	add := func(n, start, end int, match bool) {
		out = append(out, makeGrepLine(n, data[start:end], match))
		lastLine, lastEnd = n, end
	}
	// after adds the context lines following the last added line, up to
	// line upTo.
	after := func(upTo int) {
		for lastLine < upTo && lastEnd < len(data) {
			start := lastEnd + 1
			if start == len(data) {
				return // the final newline ends the file
			}
			end := len(data)
			if i := bytes.IndexByte(data[start:], '\n'); i >= 0 {
				end = start + i
			}
			add(lastLine+1, start, end, false)
		}
	}
	for from := 0; matches < maxMatches; {
		start, end, ok := m.next(data, from)
		if !ok {
			break
		}
		lineNo += bytes.Count(data[pos:start], []byte{'\n'})
		pos = start
		if contextN > 0 {
			if matches > 0 {
				after(min(lastLine+contextN, lineNo-1))
			}
			// Lines before the match, back to the last one already added.
			first := max(lastLine+1, lineNo-contextN)
			s := start
			for n := lineNo; n > first; n-- {
				s = bytes.LastIndexByte(data[:s-1], '\n') + 1
			}
			for n := first; n < lineNo; n++ {
				e := s + bytes.IndexByte(data[s:], '\n')
				add(n, s, e, false)
				s = e + 1
			}
		}
		add(lineNo, start, end, true)
		matches++
		from = end + 1
	}
	if contextN > 0 && matches > 0 {
		after(lastLine + contextN)
	}
	return out
}

// grepLineMaxBytes bounds what is copied of a line: GrepMaxLineLength
// UTF-16 units never take more than four bytes each, so TruncateLine cuts
// a longer line within this prefix.
const grepLineMaxBytes = 4*GrepMaxLineLength + 4

func makeGrepLine(n int, b []byte, match bool) grepLine {
	if len(b) > grepLineMaxBytes {
		b = b[:grepLineMaxBytes]
	} else {
		b = bytes.TrimSuffix(b, []byte{'\r'})
	}
	text, cut := TruncateLine(string(b), GrepMaxLineLength)
	return grepLine{n: n, text: text, cut: cut, match: match}
}

// rgChunk is ripgrep's read buffer size, the unit of its binary detection.
const rgChunk = 64 << 10

// rgTextEnd returns how much of data ripgrep searches when it meets the
// file while walking a directory. Its line buffer starts at 64 KiB; each
// fill reads into the free space (the very first read returns only the 3
// bytes its BOM sniffer peeked), stops at the first read holding a line
// end, and the complete lines so far are searched; a buffer with no line
// end in it grows to three times its size. The first read that brings a
// NUL byte ends the search, before the lines of its fill are searched.
// Checked against ripgrep 13 (TestRgTextEnd).
func rgTextEnd(data []byte) int {
	nul := bytes.IndexByte(data, 0)
	if nul < 0 {
		return len(data)
	}
	size, searched, end, first := rgChunk, 0, 0, true
	for {
		if end-searched == size {
			size *= 3
		}
		want := searched + size - end
		if first {
			want, first = min(want, 3), false
		}
		next := min(end+want, len(data))
		if nul < next {
			return searched
		}
		if lt := bytes.LastIndexByte(data[end:next], '\n'); lt >= 0 {
			searched = end + lt + 1
		}
		end = next
	}
}

// maxKeptBuf is the largest read buffer a worker keeps between files.
const maxKeptBuf = 8 << 20

// isFault reports whether a recovered panic is a memory fault, as reading
// a mapped file that shrank raises (debug.SetPanicOnFault).
func isFault(r any) bool {
	_, ok := r.(interface{ Addr() uintptr })
	return ok
}
