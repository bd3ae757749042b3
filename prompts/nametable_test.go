package prompts

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestNameTableClaim checks that the first position to claim a name keeps
// it, for few names and for more than the smallest table holds.
func TestNameTableClaim(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name  string
		names []string
		want  []int
	}{
		{"empty", nil, nil},
		{"distinct", []string{"a", "b", "c"}, []int{-1, -1, -1}},
		{"repeats", []string{"a", "b", "a", "b", "a"}, []int{-1, -1, 0, 1, 0}},
		{"empty name", []string{"", "x", ""}, []int{-1, -1, 0}},
	}
	many := make([]string, 0, 200)
	wantMany := make([]int, 0, 200)
	for i := range 100 {
		many = append(many, fmt.Sprintf("n%d", i))
		wantMany = append(wantMany, -1)
	}
	for i := range 100 {
		many = append(many, fmt.Sprintf("n%d", i))
		wantMany = append(wantMany, i)
	}
	cases = append(cases, struct {
		name  string
		names []string
		want  []int
	}{"many", many, wantMany})
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			var held []string
			table := NewNameTable(len(tc.names))
			var got []int
			for _, n := range tc.names {
				w := table.Claim(n, len(held), func(i int) string { return held[i] })
				if w < 0 {
					held = append(held, n)
				}
				got = append(got, w)
			}
			assert.Equal(t, tc.want, got)
		})
	}
}
