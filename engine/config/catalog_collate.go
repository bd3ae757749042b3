package config

import (
	"strings"
	"unicode"
)

// icuPunct is the order of ASCII punctuation and symbols in the Unicode
// root collation (CLDR), which Node's String.prototype.localeCompare uses:
// all of them sort before digits, and digits before letters.
const icuPunct = "_-,;:!?.'\"()[]{}@*/\\&#%`^+<=>|~$"

// collateWeight is a rune's primary weight: whitespace, then punctuation
// in icuPunct's order, then digits, then letters without regard to case,
// then anything else by code point.
func collateWeight(r rune) int {
	switch {
	case unicode.IsSpace(r):
		return 1 + int(r)%32
	case r < 128 && strings.ContainsRune(icuPunct, r):
		return 100 + strings.IndexRune(icuPunct, r)
	case r >= '0' && r <= '9':
		return 200 + int(r-'0')
	case unicode.IsLetter(r):
		return 1000 + int(unicode.ToLower(r))
	}
	return 1<<20 + int(r)
}

// collateLess orders strings as localeCompare does for the ids and
// provider names pi lists: by primary weights first, and only when those
// tie, a lowercase letter before its uppercase form, then by bytes.
func collateLess(a, b string) bool {
	ra, rb := []rune(a), []rune(b)
	for i := 0; i < len(ra) && i < len(rb); i++ {
		if wa, wb := collateWeight(ra[i]), collateWeight(rb[i]); wa != wb {
			return wa < wb
		}
	}
	if len(ra) != len(rb) {
		return len(ra) < len(rb)
	}
	for i := range ra {
		if ra[i] != rb[i] {
			la, lb := unicode.IsLower(ra[i]), unicode.IsLower(rb[i])
			if la != lb {
				return la
			}
			return ra[i] < rb[i]
		}
	}
	return false
}
