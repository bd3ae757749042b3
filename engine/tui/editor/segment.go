package editor

import (
	"regexp"
	"strconv"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/rivo/uniseg"
)

// pasteMarkerRe matches a paste marker: "[paste #3 +42 lines]" or
// "[paste #3 1234 chars]" (pi's two forms; the bare "[paste #3]" too).
var (
	pasteMarkerRe    = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\[paste #(\d+)( (\+\d+ lines|\d+ chars))?\]`) })
	pasteMarkerWhole = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^\[paste #(\d+)( (\+\d+ lines|\d+ chars))?\]$`) })
)

// seg is one grapheme cluster (or one whole paste marker) of a line, by
// byte offsets.
type seg struct{ start, end int }

// segments splits line into grapheme clusters, merging each paste marker
// whose id is in valid into one segment.
func segments(line string, valid map[int]string) []seg {
	var markers [][]int
	if len(valid) > 0 {
		for _, m := range pasteMarkerRe().FindAllStringSubmatchIndex(line, -1) {
			id, _ := strconv.Atoi(line[m[2]:m[3]])
			if _, ok := valid[id]; ok {
				markers = append(markers, m[:2])
			}
		}
	}
	out := make([]seg, 0, len(line))
	mi := 0
	state := -1
	for pos := 0; pos < len(line); {
		s := pos
		var e int
		if c := line[pos]; c < 0x80 && (pos+1 == len(line) || line[pos+1] < 0x80) && c != '\r' {
			// ASCII followed by ASCII is a cluster of its own (CR LF aside).
			e, state = pos+1, -1
		} else {
			var cluster string
			cluster, _, _, state = uniseg.FirstGraphemeClusterInString(line[pos:], state)
			e = pos + len(cluster)
		}
		pos = e
		for mi < len(markers) && markers[mi][1] <= s {
			mi++
		}
		if mi < len(markers) && s >= markers[mi][0] && s < markers[mi][1] {
			if s == markers[mi][0] {
				out = append(out, seg{markers[mi][0], markers[mi][1]})
			}
			continue
		}
		out = append(out, seg{s, e})
	}
	return out
}

// isMarker reports whether the segment text is a whole paste marker.
func isMarker(s string) bool {
	return len(s) >= 10 && s[0] == '[' && pasteMarkerWhole().MatchString(s)
}

// prevBoundary is the start of the segment that ends at or spans col.
func prevBoundary(segs []seg, col int) int {
	for i := len(segs) - 1; i >= 0; i-- {
		if segs[i].start < col {
			return segs[i].start
		}
	}
	return 0
}

// nextBoundary is the end of the segment that starts at or spans col.
func nextBoundary(segs []seg, col, length int) int {
	for _, s := range segs {
		if s.end > col {
			return s.end
		}
	}
	return length
}

func isSpace(s string) bool {
	r, _ := utf8.DecodeRuneInString(s)
	return unicode.IsSpace(r)
}

// wordClass sorts a segment for word movement: 0 whitespace, 1 word,
// 2 punctuation (pi's word boundaries: words stop at ASCII punctuation).
func wordClass(s string) int {
	r, _ := utf8.DecodeRuneInString(s)
	switch {
	case unicode.IsSpace(r):
		return 0
	case r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.IsMark(r):
		return 1
	case r < 0x80:
		return 2
	case unicode.IsPunct(r) || unicode.IsSymbol(r):
		return 2
	}
	return 1
}

// wordBackward is where Alt+Left lands from col: past trailing
// whitespace, then over one word (or one run of punctuation, or one
// paste marker).
func wordBackward(line string, col int, segs []seg) int {
	i := len(segs) - 1
	for i >= 0 && segs[i].start >= col {
		i--
	}
	for i >= 0 && !isMarker(line[segs[i].start:segs[i].end]) && wordClass(line[segs[i].start:segs[i].end]) == 0 {
		i--
	}
	if i < 0 {
		return 0
	}
	if isMarker(line[segs[i].start:segs[i].end]) {
		return segs[i].start
	}
	class := wordClass(line[segs[i].start:segs[i].end])
	for i >= 0 {
		t := line[segs[i].start:segs[i].end]
		if isMarker(t) || wordClass(t) != class {
			return segs[i].end
		}
		i--
	}
	return 0
}

// wordForward is where Alt+Right lands from col.
func wordForward(line string, col int, segs []seg) int {
	i := 0
	for i < len(segs) && segs[i].end <= col {
		i++
	}
	for i < len(segs) && !isMarker(line[segs[i].start:segs[i].end]) && wordClass(line[segs[i].start:segs[i].end]) == 0 {
		i++
	}
	if i >= len(segs) {
		return len(line)
	}
	if isMarker(line[segs[i].start:segs[i].end]) {
		return segs[i].end
	}
	class := wordClass(line[segs[i].start:segs[i].end])
	for i < len(segs) {
		t := line[segs[i].start:segs[i].end]
		if isMarker(t) || wordClass(t) != class {
			return segs[i].start
		}
		i++
	}
	return len(line)
}

// isCJK reports whether s is Han, Hiragana, Katakana, Hangul or Bopomofo,
// between which a line may break anywhere.
func isCJK(s string) bool {
	r, _ := utf8.DecodeRuneInString(s)
	return unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana, unicode.Hangul, unicode.Bopomofo)
}
