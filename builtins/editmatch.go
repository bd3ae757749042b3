package builtins

import (
	"fmt"
	"sort"
	"strings"
	"unicode"

	"golang.org/x/text/unicode/norm"
)

// replacement replaces matchLength bytes at matchIndex with newText.
type replacement struct {
	editIndex  int
	matchIndex int
	matchLen   int
	newText    string
}

type editPair struct{ oldText, newText string }

func normalizeToLF(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "\r\n", "\n"), "\r", "\n")
}

var fuzzyFold = strings.NewReplacer(
	"\u2018", "'", "\u2019", "'", "\u201a", "'", "\u201b", "'",
	"\u201c", `"`, "\u201d", `"`, "\u201e", `"`, "\u201f", `"`,
	"\u2010", "-", "\u2011", "-", "\u2012", "-", "\u2013", "-", "\u2014", "-", "\u2015", "-", "\u2212", "-",
	"\u00a0", " ", "\u2002", " ", "\u2003", " ", "\u2004", " ", "\u2005", " ", "\u2006", " ",
	"\u2007", " ", "\u2008", " ", "\u2009", " ", "\u200a", " ", "\u202f", " ", "\u205f", " ", "\u3000", " ",
)

// jsSpace reports whether JavaScript's trimEnd removes r.
func jsSpace(r rune) bool {
	return r == '\ufeff' || (unicode.IsSpace(r) && r != '\u0085')
}

// normalizeForFuzzyMatch folds what models commonly get wrong: Unicode
// compatibility forms, trailing whitespace, smart quotes, dashes and
// special spaces.
func normalizeForFuzzyMatch(s string) string {
	lines := strings.Split(norm.NFKC.String(s), "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRightFunc(l, jsSpace)
	}
	return fuzzyFold.Replace(strings.Join(lines, "\n"))
}

// findText finds oldText exactly, else in fuzzy-normalized space.
func findText(content, oldText string) (idx, length int, fuzzy bool, found bool) {
	if i := strings.Index(content, oldText); i >= 0 {
		return i, len(oldText), false, true
	}
	fc, fo := normalizeForFuzzyMatch(content), normalizeForFuzzyMatch(oldText)
	if i := strings.Index(fc, fo); i >= 0 {
		return i, len(fo), true, true
	}
	return -1, 0, false, false
}

func countOccurrences(content, oldText string) int {
	fc, fo := normalizeForFuzzyMatch(content), normalizeForFuzzyMatch(oldText)
	return strings.Count(fc, fo)
}

// applyEdits matches every edit against the LF-normalized content and
// returns the new content and the replacements in content coordinates.
func applyEdits(content string, edits []editPair, path string) (string, []replacement, error) {
	n := len(edits)
	norm := make([]editPair, n)
	for i, e := range edits {
		norm[i] = editPair{normalizeToLF(e.oldText), normalizeToLF(e.newText)}
	}
	for i, e := range norm {
		if e.oldText == "" {
			if n == 1 {
				return "", nil, failf("oldText must not be empty in %s.", path)
			}
			return "", nil, failf("edits[%d].oldText must not be empty in %s.", i, path)
		}
	}
	usedFuzzy := false
	for _, e := range norm {
		if _, _, fz, _ := findText(content, e.oldText); fz {
			usedFuzzy = true
		}
	}
	base := content
	if usedFuzzy {
		base = normalizeForFuzzyMatch(content)
	}
	var matched []replacement
	for i, e := range norm {
		idx, l, _, ok := findText(base, e.oldText)
		if !ok {
			if n == 1 {
				return "", nil, failf("Could not find the exact text in %s. The old text must match exactly including all whitespace and newlines.", path)
			}
			return "", nil, failf("Could not find edits[%d] in %s. The oldText must match exactly including all whitespace and newlines.", i, path)
		}
		if c := countOccurrences(base, e.oldText); c > 1 {
			if n == 1 {
				return "", nil, failf("Found %d occurrences of the text in %s. The text must be unique. Please provide more context to make it unique.", c, path)
			}
			return "", nil, failf("Found %d occurrences of edits[%d] in %s. Each oldText must be unique. Please provide more context to make it unique.", c, i, path)
		}
		matched = append(matched, replacement{editIndex: i, matchIndex: idx, matchLen: l, newText: e.newText})
	}
	sort.SliceStable(matched, func(a, b int) bool { return matched[a].matchIndex < matched[b].matchIndex })
	for i := 1; i < len(matched); i++ {
		p, c := matched[i-1], matched[i]
		if p.matchIndex+p.matchLen > c.matchIndex {
			return "", nil, failf("edits[%d] and edits[%d] overlap in %s. Merge them into one edit or target disjoint regions.", p.editIndex, c.editIndex, path)
		}
	}
	reps := matched
	if usedFuzzy {
		var err error
		if reps, err = widenToLines(content, base, matched); err != nil {
			return "", nil, toolError(err.Error())
		}
	}
	out := applyReplacements(content, reps, 0)
	if out == content {
		if n == 1 {
			return "", nil, failf("No changes made to %s. The replacement produced identical content. This might indicate an issue with special characters or the text not existing as expected.", path)
		}
		return "", nil, failf("No changes made to %s. The replacements produced identical content.", path)
	}
	return out, reps, nil
}

func applyReplacements(s string, reps []replacement, offset int) string {
	for i := len(reps) - 1; i >= 0; i-- {
		r := reps[i]
		at := r.matchIndex - offset
		s = s[:at] + r.newText + s[at+r.matchLen:]
	}
	return s
}

type span struct{ start, end int }

// lineSpans are the byte ranges of the lines of s, newline included.
func lineSpans(s string) []span {
	var out []span
	off := 0
	for _, l := range lineTokens(s) {
		out = append(out, span{off, off + len(l)})
		off += len(l)
	}
	return out
}

// widenToLines turns replacements found in the fuzzy-normalized base into
// replacements of the original: each touched group of whole lines is
// rewritten from the normalized text, every other line keeps its bytes.
func widenToLines(original, base string, reps []replacement) ([]replacement, error) {
	ol, bl := lineSpans(original), lineSpans(base)
	if len(ol) != len(bl) {
		return nil, fmt.Errorf("Cannot preserve unchanged lines because the base content has a different line count.")
	}
	type group struct {
		start, end int
		reps       []replacement
	}
	var groups []group
	for _, r := range reps {
		start := -1
		for i, l := range bl {
			if r.matchIndex >= l.start && r.matchIndex < l.end {
				start = i
				break
			}
		}
		if start < 0 {
			return nil, fmt.Errorf("Replacement range is outside the base content.")
		}
		end := start
		for end < len(bl) && bl[end].end < r.matchIndex+r.matchLen {
			end++
		}
		if end >= len(bl) {
			return nil, fmt.Errorf("Replacement range is outside the base content.")
		}
		end++
		if len(groups) > 0 && start < groups[len(groups)-1].end {
			g := &groups[len(groups)-1]
			g.end = max(g.end, end)
			g.reps = append(g.reps, r)
			continue
		}
		groups = append(groups, group{start, end, []replacement{r}})
	}
	out := make([]replacement, len(groups))
	for i, g := range groups {
		bs, be := bl[g.start].start, bl[g.end-1].end
		os := ol[g.start].start
		out[i] = replacement{matchIndex: os, matchLen: ol[g.end-1].end - os, newText: applyReplacements(base[bs:be], g.reps, bs)}
	}
	return out, nil
}

// applyToOriginal applies replacements matched in normalizeToLF(orig) to
// orig itself: untouched text keeps its line endings, and newlines in new
// text take the ending of the line where the replacement starts.
func applyToOriginal(orig string, reps []replacement) string {
	crlfBefore := 0
	next := strings.Index(orig, "\r\n")
	toOrig := func(off int) int {
		for next != -1 && next-crlfBefore < off {
			crlfBefore++
			j := strings.Index(orig[next+2:], "\r\n")
			if j < 0 {
				next = -1
			} else {
				next = next + 2 + j
			}
		}
		return off + crlfBefore
	}
	var b strings.Builder
	endsWithCR := false
	push := func(p string) {
		if p == "" {
			return
		}
		if endsWithCR && p[0] == '\n' {
			b.WriteString("\n")
		}
		b.WriteString(p)
		endsWithCR = p[len(p)-1] == '\r'
	}
	pos := 0
	for _, r := range reps {
		start := toOrig(r.matchIndex)
		push(orig[pos:start])
		ending := lineEndingAt(orig, start)
		if ending == "\n" {
			push(r.newText)
		} else {
			push(strings.ReplaceAll(r.newText, "\n", ending))
		}
		pos = toOrig(r.matchIndex + r.matchLen)
	}
	push(orig[pos:])
	return b.String()
}

func lineEndingAt(s string, off int) string {
	lf := -1
	if off <= len(s) {
		if i := strings.IndexByte(s[off:], '\n'); i >= 0 {
			lf = off + i
		}
	}
	if lf == -1 {
		lf = strings.LastIndexByte(s[:min(len(s), off+1)], '\n')
	}
	if lf == -1 {
		if strings.Contains(s, "\r") {
			return "\r"
		}
		return "\n"
	}
	if lf > 0 && s[lf-1] == '\r' {
		return "\r\n"
	}
	return "\n"
}
