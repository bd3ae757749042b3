package tui

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// FuzzRowsFitWidth: whatever the text and width, no component row and
// no composited row is wider than its width.
func FuzzRowsFitWidth(f *testing.F) {
	for _, s := range []string{sample, "", "\t\ttabs", "\x1b[31mred\x1b[0m 日本語🚀", "a\nb\n\nc", strings.Repeat("🚀", 50), "e\u0301 combining"} {
		f.Add(s, 7, 3)
	}
	km := testKeymap(f)
	f.Fuzz(func(t *testing.T, s string, width, x int) {
		if !utf8.ValidString(s) {
			t.Skip("rows are UTF-8; invalid bytes are measured inconsistently")
		}
		width = width%150 + 1
		if width < 1 {
			width = -width + 1
		}
		check := func(name string, rows []string, w int) {
			for i, r := range rows {
				if got := Width(r); got > w {
					t.Fatalf("%s width %d: row %d is %d cells: %q", name, w, i, got, r)
				}
			}
		}
		check("text", NewText(s, 1, 1, bgFn).Render(width), width)
		check("truncated", NewTruncatedText(s, 2, 0).Render(width), width)
		l := NewSelectList([]SelectItem{{Value: s, Description: s}, {Value: "x" + s}}, 5, km, SelectListStyle{})
		check("selectlist", l.Render(width), width)
		in := NewInput(km)
		in.SetFocused(true)
		in.SetValue(s)
		check("input", in.Render(width), width)
		in.HandleKey(Key{Code: "home"})
		check("input home", in.Render(width), width)
		b := NewBox(1, 0, nil)
		b.Add(NewText(s, 0, 0, nil))
		check("box", b.Render(width), width)
		base := Truncate(s+strings.Repeat("日", width), width, "")
		if x < 0 {
			x = -x
		}
		check("composite", []string{Composite(base, s, x%(width+1), 1+x%7, width)}, width)
	})
}
