package utf16x

import "unicode/utf8"

// Len is the length of s in UTF-16 code units: 2 for a rune outside the
// Basic Multilingual Plane, 1 for any other rune or invalid byte.
func Len(s string) int {
	n := len(s)
	// A rune of k bytes is one unit when k <= 3 and two when k == 4, so
	// the length is the byte count minus what the multi-byte runes add.
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		i += size
		switch {
		case r == utf8.RuneError && size == 1:
			// One invalid byte, one unit.
		case size == 4:
			n -= 2
		default:
			n -= size - 1
		}
	}
	return n
}

// Cut returns the longest prefix of s that is at most max UTF-16 code
// units long, as bytes of s, and whether anything was left out. A max of
// zero or less yields an empty prefix for a non-empty s.
func Cut(s string, max int) (prefix string, cut bool) {
	if len(s) <= max {
		return s, false // never more units than bytes
	}
	units := 0
	for i, r := range s {
		n := 1
		if r >= 0x10000 {
			n = 2
		}
		if units+n > max {
			return s[:i], true
		}
		units += n
	}
	return s, false
}

// Truncate cuts s to at most max UTF-16 code units as Cut does and, when it
// cut, returns the prefix as JavaScript holds it (each invalid byte turned
// into U+FFFD, see ReplaceInvalid) and how many units past max s has
// (Len(s) - max, the count the reference's "N more characters" messages
// print). When s fits, it is returned unchanged with dropped 0.
func Truncate(s string, max int) (prefix string, dropped int, cut bool) {
	p, cut := Cut(s, max)
	if !cut {
		return s, 0, false
	}
	return ReplaceInvalid(p), Len(s) - max, true
}

// ReplaceInvalid returns s with every invalid UTF-8 byte replaced by
// U+FFFD, one replacement per byte (strings.ToValidUTF8 would write one
// per run). That is the string a []rune round trip gives.
func ReplaceInvalid(s string) string {
	if utf8.ValidString(s) {
		return s
	}
	return string([]rune(s))
}
