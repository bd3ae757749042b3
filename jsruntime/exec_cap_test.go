package jsruntime

import (
	"bytes"
	"testing"
)

// TestExecCap checks pi.exec's output cap: stdout and stderr share the
// limit, the write that crosses it keeps what fits, later writes are
// dropped, and the command is killed once.
func TestExecCap(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name       string
		limit      int64
		writes     []string // "o:" to stdout, "e:" to stderr
		out, err   string
		truncated  bool
		killsCount int
	}{
		{"within", 10, []string{"o:abc", "e:de"}, "abc", "de", false, 0},
		{"exact", 5, []string{"o:abc", "e:de"}, "abc", "de", false, 0},
		{"crossing", 4, []string{"o:abc", "e:de", "o:fgh"}, "abc", "d", true, 1},
		{"first write too long", 2, []string{"o:abcdef"}, "ab", "", true, 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			kills := 0
			c := &execCap{limit: tc.limit, onFull: func() { kills++ }}
			var out, errb bytes.Buffer
			o, e := c.writer(&out), c.writer(&errb)
			for _, w := range tc.writes {
				dst := o
				if w[0] == 'e' {
					dst = e
				}
				if n, err := dst.Write([]byte(w[2:])); err != nil || n != len(w)-2 {
					t.Fatalf("Write(%q) = %d, %v", w, n, err)
				}
			}
			if out.String() != tc.out || errb.String() != tc.err || c.full() != tc.truncated || kills != tc.killsCount {
				t.Errorf("got out %q err %q truncated %v kills %d; want %q %q %v %d",
					out.String(), errb.String(), c.full(), kills, tc.out, tc.err, tc.truncated, tc.killsCount)
			}
		})
	}
}
