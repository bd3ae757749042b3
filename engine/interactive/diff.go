package interactive

import (
	"regexp"
	"strings"
	"sync"
	"unicode"

	"github.com/pi-go/pi/engine/tui/theme"
)

// The edit tool's details.diff is a display diff already: one line per
// row, "-12 old text", "+12 new text", " 13 context" and " ... " for
// skipped context, line numbers right-aligned to one width. renderDiff
// colours it as the reference does: removed rows in toolDiffRemoved,
// added rows in toolDiffAdded, context in toolDiffContext, and the words
// that changed between a removed row and the added row that replaces it
// in reverse video.

// diffLineRE is compiled on first use: package inits run at every
// start, in every mode.
var diffLineRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^([+\- ])(\s*\d*) (.*)$`) })

type diffLine struct {
	sign, num, text string
	raw             string
	ok              bool
}

func parseDiffLine(s string) diffLine {
	m := diffLineRE().FindStringSubmatch(s)
	if m == nil {
		return diffLine{raw: s}
	}
	return diffLine{sign: m[1], num: m[2], text: m[3], raw: s, ok: true}
}

// renderDiff returns the coloured rows of a display diff (not wrapped:
// the caller cuts rows to its width).
func renderDiff(v *view, diff string) []string {
	lines := strings.Split(strings.TrimRight(diff, "\n"), "\n")
	parsed := make([]diffLine, len(lines))
	for i, l := range lines {
		parsed[i] = parseDiffLine(strings.ReplaceAll(l, "\t", "   "))
	}
	out := make([]string, 0, len(lines))
	for i := 0; i < len(parsed); {
		p := parsed[i]
		if !p.ok || p.sign == " " {
			out = append(out, v.fg("toolDiffContext", p.raw))
			i++
			continue
		}
		if p.sign == "+" {
			out = append(out, v.fg("toolDiffAdded", p.raw))
			i++
			continue
		}
		// A run of removed rows, then the added rows after it: pair them
		// one to one for word highlights.
		j := i
		for j < len(parsed) && parsed[j].ok && parsed[j].sign == "-" {
			j++
		}
		k := j
		for k < len(parsed) && parsed[k].ok && parsed[k].sign == "+" {
			k++
		}
		removed, added := parsed[i:j], parsed[j:k]
		var oldHL, newHL []string
		if len(removed) == len(added) {
			for n := range removed {
				o, a := wordDiff(removed[n].text, added[n].text)
				oldHL, newHL = append(oldHL, o), append(newHL, a)
			}
		}
		for n, r := range removed {
			text := r.text
			if oldHL != nil {
				text = oldHL[n]
			}
			out = append(out, v.fg("toolDiffRemoved", r.sign+r.num+" "+text))
		}
		for n, a := range added {
			text := a.text
			if newHL != nil {
				text = newHL[n]
			}
			out = append(out, v.fg("toolDiffAdded", a.sign+a.num+" "+text))
		}
		i = k
	}
	return out
}

// maxWordDiffTokens bounds the quadratic token comparison; longer rows
// are shown without word highlights.
const maxWordDiffTokens = 400

// wordDiff marks, in reverse video, the tokens of old that new lacks and
// the tokens of new that old lacks (a longest common subsequence over
// word, space and punctuation tokens). Leading whitespace is never marked.
func wordDiff(old, new string) (string, string) {
	a, b := tokenize(old), tokenize(new)
	if len(a) > maxWordDiffTokens || len(b) > maxWordDiffTokens {
		return old, new
	}
	// lcs[i][j] is the common length of a[i:] and b[j:].
	lcs := make([][]int, len(a)+1)
	for i := range lcs {
		lcs[i] = make([]int, len(b)+1)
	}
	for i := len(a) - 1; i >= 0; i-- {
		for j := len(b) - 1; j >= 0; j-- {
			if a[i] == b[j] {
				lcs[i][j] = lcs[i+1][j+1] + 1
			} else {
				lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
			}
		}
	}
	keepA, keepB := make([]bool, len(a)), make([]bool, len(b))
	for i, j := 0, 0; i < len(a) && j < len(b); {
		switch {
		case a[i] == b[j]:
			keepA[i], keepB[j] = true, true
			i++
			j++
		case lcs[i+1][j] >= lcs[i][j+1]:
			i++
		default:
			j++
		}
	}
	return markTokens(a, keepA), markTokens(b, keepB)
}

func markTokens(toks []string, keep []bool) string {
	var sb strings.Builder
	leading := true
	for i := 0; i < len(toks); {
		if keep[i] || (leading && isSpace(toks[i])) {
			if !isSpace(toks[i]) {
				leading = false
			}
			sb.WriteString(toks[i])
			i++
			continue
		}
		leading = false
		j := i
		var run strings.Builder
		for j < len(toks) && !keep[j] {
			run.WriteString(toks[j])
			j++
		}
		sb.WriteString(theme.Inverse(run.String()))
		i = j
	}
	return sb.String()
}

func isSpace(s string) bool { return strings.TrimSpace(s) == "" }

// tokenize splits s into runs of letters and digits, runs of spaces, and
// single other characters.
func tokenize(s string) []string {
	var out []string
	rs := []rune(s)
	class := func(r rune) int {
		switch {
		case unicode.IsLetter(r) || unicode.IsDigit(r) || r == '_':
			return 1
		case unicode.IsSpace(r):
			return 2
		}
		return 0
	}
	for i := 0; i < len(rs); {
		c := class(rs[i])
		j := i + 1
		if c != 0 {
			for j < len(rs) && class(rs[j]) == c {
				j++
			}
		}
		out = append(out, string(rs[i:j]))
		i = j
	}
	return out
}
