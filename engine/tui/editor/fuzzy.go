package editor

import (
	"regexp"
	"sort"
	"strings"
	"sync"
)

// scorePositions scores a match (lower is better): consecutive runs and
// word-boundary hits are rewarded, gaps and late matches cost.
func scorePositions(text []rune, pos []int) float64 {
	score := 0.0
	last, run := -1, 0
	for _, i := range pos {
		if last == i-1 {
			run++
			score -= float64(run * 5)
		} else {
			run = 0
			if last >= 0 {
				score += float64((i - last - 1) * 2)
			}
		}
		if i == 0 || strings.ContainsRune(" \t\n-_./:", text[i-1]) {
			score -= 10
		}
		score += float64(i) * 0.1
		last = i
	}
	return score
}

func indexRune(text []rune, r rune, from int) int {
	for i := from; i < len(text); i++ {
		if text[i] == r {
			return i
		}
	}
	return -1
}

func indexRunes(text, q []rune, from int) int {
	for i := from; i+len(q) <= len(text); i++ {
		match := true
		for j := range q {
			if text[i+j] != q[j] {
				match = false
				break
			}
		}
		if match {
			return i
		}
	}
	return -1
}

// matchQuery: every query character in order; the score is the best of
// the greedy alignment and every contiguous occurrence.
func matchQuery(q, text []rune) (bool, float64) {
	if len(q) == 0 {
		return true, 0
	}
	if len(q) > len(text) {
		return false, 0
	}
	pos := make([]int, len(q))
	last := -1
	for k, r := range q {
		i := indexRune(text, r, last+1)
		if i < 0 {
			return false, 0
		}
		pos[k] = i
		last = i
	}
	score := scorePositions(text, pos)
	for start := indexRunes(text, q, 0); start >= 0; start = indexRunes(text, q, start+1) {
		for k := range pos {
			pos[k] = start + k
		}
		score = min(score, scorePositions(text, pos))
	}
	if string(q) == string(text) {
		score -= 100
	}
	return true, score
}

var (
	lettersDigits = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^([a-z]+)([0-9]+)$`) })
	digitsLetters = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^([0-9]+)([a-z]+)$`) })
)

// fuzzyMatch matches query against text ignoring case; "gpt4" also
// finds "4gpt"-ordered names at a small cost, as pi's does.
func fuzzyMatch(query, text string) (bool, float64) {
	q, t := []rune(strings.ToLower(query)), []rune(strings.ToLower(text))
	if ok, s := matchQuery(q, t); ok {
		return true, s
	}
	lq := string(q)
	swapped := ""
	if m := lettersDigits().FindStringSubmatch(lq); m != nil {
		swapped = m[2] + m[1]
	} else if m := digitsLetters().FindStringSubmatch(lq); m != nil {
		swapped = m[2] + m[1]
	}
	if swapped == "" {
		return false, 0
	}
	if ok, s := matchQuery([]rune(swapped), t); ok {
		return true, s + 5
	}
	return false, 0
}

// fuzzyFilter keeps the items matching every space- or slash-separated
// token of query, best first (stable among equals).
func fuzzyFilter[T any](items []T, query string, text func(T) string) []T {
	tokens := strings.FieldsFunc(strings.TrimSpace(query), func(r rune) bool { return r == ' ' || r == '\t' || r == '/' })
	if len(tokens) == 0 {
		return items
	}
	type scored struct {
		item  T
		score float64
	}
	var out []scored
	for _, it := range items {
		total, all := 0.0, true
		for _, tok := range tokens {
			ok, s := fuzzyMatch(tok, text(it))
			if !ok {
				all = false
				break
			}
			total += s
		}
		if all {
			out = append(out, scored{it, total})
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].score < out[j].score })
	res := make([]T, len(out))
	for i, s := range out {
		res[i] = s.item
	}
	return res
}
