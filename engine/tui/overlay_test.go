package tui

import "testing"

func TestOverlayLayout(t *testing.T) {
	t.Parallel()
	rows := Lines{"1", "2", "3", "4", "5", "6"}
	cases := []struct {
		name       string
		o          OverlayOptions
		x, y, w, n int
	}{
		{"default centre 80%", OverlayOptions{}, 10, 7, 80, 6},
		{"width percent", OverlayOptions{WidthPercent: 50}, 25, 7, 50, 6},
		{"fixed width, min width", OverlayOptions{Width: 10, MinWidth: 30}, 35, 7, 30, 6},
		{"top left with margin", OverlayOptions{Width: 20, Anchor: AnchorTopLeft, Margin: 2}, 2, 2, 20, 6},
		{"bottom right", OverlayOptions{Width: 20, Anchor: AnchorBottomRight}, 80, 14, 20, 6},
		{"max height", OverlayOptions{Width: 20, MaxHeight: 3, Anchor: AnchorTop}, 40, 0, 20, 3},
		{"max height percent", OverlayOptions{Width: 20, MaxHeightPct: 10}, 40, 9, 20, 2},
		{"offset clamped to screen", OverlayOptions{Width: 20, Anchor: AnchorRight, OffsetX: 50, OffsetY: -50}, 80, 0, 20, 6},
		{"wider than screen", OverlayOptions{Width: 500}, 0, 7, 100, 6},
	}
	for _, c := range cases {
		ov := &overlay{c: rows, o: c.o}
		x, y, w, got := ov.layout(100, 20)
		if x != c.x || y != c.y || w != c.w || len(got) != c.n {
			t.Errorf("%s: x=%d y=%d w=%d rows=%d, want %d %d %d %d", c.name, x, y, w, len(got), c.x, c.y, c.w, c.n)
		}
	}
	hidden := &overlay{c: rows, o: OverlayOptions{Visible: func(w, h int) bool { return w > 120 }}}
	if _, _, _, got := hidden.layout(100, 20); got != nil {
		t.Error("Visible=false still laid out")
	}
}

func TestComposite(t *testing.T) {
	t.Parallel()
	cases := []struct {
		base, top string
		x, span   int
		want      string
	}{
		{"abcdefghij", "XY", 3, 2, "abcXYfghij"},
		{"abc", "XY", 5, 2, "abc  XY"},
		{"日本語日本", "X", 1, 1, " X本語日本"},
		{"日本語日本", "X", 2, 1, "日X 語日本"},
		{"abcdefghij", "toolongtext", 7, 5, "abcdefgtoo"},
		{"\x1b[31mredred\x1b[0m", "X", 2, 1, "reXred"},
	}
	for _, c := range cases {
		got := Composite(c.base, c.top, c.x, c.span, 10)
		if Strip(got) != c.want || Width(got) > 10 {
			t.Errorf("Composite(%q,%q,%d,%d) = %q, want %q", c.base, c.top, c.x, c.span, Strip(got), c.want)
		}
	}
}
