package llm

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestShortHash(t *testing.T) {
	t.Parallel()
	// Values computed by the reference's shortHash.
	tests := []struct{ in, want string }{
		{"abc", "y0biex7f9bbh"},
		{"fc_éß😀x", "15n22nx14k1qgb"},
		{"", "k4n83c7h0j2b"},
	}
	for _, tc := range tests {
		assert.Equal(t, tc.want, ShortHash(tc.in), tc.in)
	}
}
