package openairesponses

import (
	"strconv"
	"strings"
	"unicode/utf16"

	"github.com/pi-go/pi/engine/llm"
)

// shortHash is the reference's short deterministic string hash (two
// 32-bit multiplicative lanes over UTF-16 code units, printed in base 36).
// It shortens ids that are too long or foreign, so the values must match
// for replayed ids to line up with what the reference would send.
func shortHash(s string) string {
	h1, h2 := uint32(0xdeadbeef), uint32(0x41c6ce57)
	for _, ch := range utf16.Encode([]rune(s)) {
		h1 = (h1 ^ uint32(ch)) * 2654435761
		h2 = (h2 ^ uint32(ch)) * 1597334677
	}
	h1 = ((h1 ^ (h1 >> 16)) * 2246822507) ^ ((h2 ^ (h2 >> 13)) * 3266489909)
	h2 = ((h2 ^ (h2 >> 16)) * 2246822507) ^ ((h1 ^ (h1 >> 13)) * 3266489909)
	return strconv.FormatUint(uint64(h2), 36) + strconv.FormatUint(uint64(h1), 36)
}

// normalizeIDPart makes an id safe for the API: every character outside
// [A-Za-z0-9_-] becomes "_" (one per UTF-16 unit, as the reference's regex
// sees them), the result is cut to 64 characters and trailing underscores
// are dropped.
func normalizeIDPart(s string) string { return strings.TrimRight(llm.SanitizeID(s), "_") }
