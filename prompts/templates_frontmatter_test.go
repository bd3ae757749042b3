package prompts

import (
	"reflect"
	"testing"
)

// TestFrontmatterBlockScalars checks block scalars against what the
// reference's YAML parser gives for the same frontmatter (values taken
// from running it): "|" and ">" keep one final line break even though
// the frontmatter's last line has none, "|-" and ">-" strip it, "|+"
// keeps the breaks there are, and ">" folds.
func TestFrontmatterBlockScalars(t *testing.T) {
	t.Parallel()
	cases := []struct {
		yaml string
		want map[string]any
	}{
		{"description: |\n  line one\n  line two", map[string]any{"description": "line one\nline two\n"}},
		{"description: |-\n  a\n  b", map[string]any{"description": "a\nb"}},
		{"description: >\n  folded one\n  folded two\n\n  para", map[string]any{"description": "folded one folded two\npara\n"}},
		{"description: >-\n  a\n  b", map[string]any{"description": "a b"}},
		{"description: >\n  a\n    more\n  b", map[string]any{"description": "a\n  more\nb\n"}},
		{"description: |+\n  a", map[string]any{"description": "a\n"}},
		{"description: |+\n  a\n", map[string]any{"description": "a\n"}},
		{"description: |+\n  a\n\n", map[string]any{"description": "a\n\n"}},
		{"description: |\n  a\n\n", map[string]any{"description": "a\n"}},
		{"description: |\n  a\nname: x", map[string]any{"description": "a\n", "name": "x"}},
		{"description: |\n", map[string]any{"description": ""}},
		{"description: \"q\"\nname: n", map[string]any{"description": "q", "name": "n"}},
	}
	for _, c := range cases {
		t.Run(c.yaml, func(t *testing.T) {
			t.Parallel()
			content := "---\n" + c.yaml + "\n---\nBody here.\n"
			fm, body, err := ParseFrontmatter(content)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(fm, c.want) || body != "Body here." {
				t.Fatalf("got %#v body %q, want %#v", fm, body, c.want)
			}
			got := map[string]any{}
			if _, err := ScanFrontmatter(content, func(k, s string, v any) {
				if v == nil {
					got[k] = s
				} else {
					got[k] = v
				}
			}); err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, c.want) {
				t.Fatalf("ScanFrontmatter got %#v, want %#v", got, c.want)
			}
		})
	}
}
