package llm

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestTruncateText(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, in string
		max      int
		want     string
	}{
		{"short", "abc", 5, "abc"},
		{"exact", "abcde", 5, "abcde"},
		{"ascii", "abcdefg", 5, "abcde... [truncated 2 chars]"},
		{"two-byte runes count once", strings.Repeat("é", 6), 5, strings.Repeat("é", 5) + "... [truncated 1 chars]"},
		{"bytes over, units under", strings.Repeat("é", 5), 5, strings.Repeat("é", 5)},
		{"surrogate pair kept whole", "abcd😀x", 5, "abcd... [truncated 2 chars]"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			assert.Equal(t, tc.want, TruncateText(tc.in, tc.max))
		})
	}
}
