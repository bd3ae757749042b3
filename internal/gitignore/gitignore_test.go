package gitignore

import (
	"strings"
	"testing"
)

func TestIgnored(t *testing.T) {
	t.Parallel()
	root := Parse(strings.NewReader("# comment\n\n*.log\n!keep.log\nbuild/\n/top.txt\n\\#literal\n"), "")
	sub := Parse(strings.NewReader("gen/*.go\n"), "pkg")
	rules := append(root, sub...)
	cases := []struct {
		rel  string
		dir  bool
		want bool
	}{
		{"a.log", false, true},
		{"deep/x/a.log", false, true},
		{"keep.log", false, false},
		{"build", true, true},
		{"build", false, false}, // dir-only rule, a file named build
		{"top.txt", false, true},
		{"x/top.txt", false, false}, // anchored at the root
		{"#literal", false, true},
		{"pkg/gen/a.go", false, true},
		{"gen/a.go", false, false}, // the rule lives in pkg/
		{"main.go", false, false},
	}
	for _, c := range cases {
		if got := Ignored(rules, c.rel, c.dir); got != c.want {
			t.Errorf("Ignored(%q, dir=%v) = %v, want %v", c.rel, c.dir, got, c.want)
		}
	}
}
