package session

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestLabelOrder checks the reference's labelsById Map order: a changed
// label keeps its place, a removed one is gone, and labelling it again
// puts it last.
func TestLabelOrder(t *testing.T) {
	t.Parallel()
	type op struct{ target, label string }
	tests := []struct {
		name string
		ops  []op
		want []string
	}{
		{"first set", []op{{"x", "1"}, {"y", "1"}, {"z", "1"}}, []string{"x", "y", "z"}},
		{"change keeps place", []op{{"x", "1"}, {"y", "1"}, {"x", "2"}}, []string{"x", "y"}},
		{"remove and set again", []op{{"x", "1"}, {"y", "1"}, {"z", "1"}, {"y", ""}, {"y", "2"}}, []string{"x", "z", "y"}},
		{"removed", []op{{"x", "1"}, {"x", ""}}, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			f := InMemory("/tmp", "labels")
			ids := map[string]string{}
			for _, name := range []string{"x", "y", "z"} {
				m := userMsg(name)
				require.NoError(t, f.Append(m))
				ids[name] = m.ID
			}
			names := map[string]string{}
			for n, id := range ids {
				names[id] = n
			}
			for _, o := range tc.ops {
				require.NoError(t, f.AppendLabel(ids[o.target], o.label))
			}
			var got []string
			for _, id := range f.LabelOrder() {
				got = append(got, names[id])
			}
			assert.Equal(t, tc.want, got)
		})
	}
}
