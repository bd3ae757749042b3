package llm

import (
	"strconv"
	"unicode/utf16"
)

// ShortHash is the reference's short deterministic string hash (two 32-bit
// multiplicative lanes over UTF-16 code units, printed in base 36). The
// adapters use it to shorten or derive tool-call and item ids of replayed
// turns, so its values must be the reference's: a transcript replayed by
// either implementation then carries the same ids.
func ShortHash(s string) string {
	h1, h2 := uint32(0xdeadbeef), uint32(0x41c6ce57)
	for _, ch := range utf16.Encode([]rune(s)) {
		h1 = (h1 ^ uint32(ch)) * 2654435761
		h2 = (h2 ^ uint32(ch)) * 1597334677
	}
	h1 = ((h1 ^ (h1 >> 16)) * 2246822507) ^ ((h2 ^ (h2 >> 13)) * 3266489909)
	h2 = ((h2 ^ (h2 >> 16)) * 2246822507) ^ ((h1 ^ (h1 >> 13)) * 3266489909)
	return strconv.FormatUint(uint64(h2), 36) + strconv.FormatUint(uint64(h1), 36)
}
