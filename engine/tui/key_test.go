package tui

import "testing"

func TestParseKey(t *testing.T) {
	t.Parallel()
	cases := []struct {
		spec string
		want string
		err  bool
	}{
		{"ctrl+c", "ctrl+c", false},
		{"shift+ctrl+p", "ctrl+shift+p", false},
		{"alt+Enter", "alt+enter", false},
		{"esc", "escape", false},
		{"return", "enter", false},
		{"ctrl++", "ctrl++", false},
		{"pageup", "pageUp", false},
		{"ctrl+pageDown", "ctrl+pageDown", false},
		{"f12", "f12", false},
		{"ctrl+]", "ctrl+]", false},
		{"ctrl+alt+]", "ctrl+alt+]", false},
		{"super+K", "super+k", false},
		{"hyper+x", "", true},
		{"f13", "", true},
		{"bogus", "", true},
		{"", "", true},
	}
	for _, c := range cases {
		got, err := ParseKey(c.spec)
		if (err != nil) != c.err {
			t.Errorf("ParseKey(%q) err = %v, want error %v", c.spec, err, c.err)
			continue
		}
		if err == nil && got.String() != c.want {
			t.Errorf("ParseKey(%q) = %q, want %q", c.spec, got.String(), c.want)
		}
	}
}

func TestKeymap(t *testing.T) {
	t.Parallel()
	m, errs := NewKeymap(map[string][]string{"tui.select.up": {"up", "ctrl+p"}, "x": {"nope+a"}})
	if len(errs) != 1 {
		t.Fatalf("errs = %v, want one", errs)
	}
	if !m.Matches(Key{Code: "p", Mod: ModCtrl}, "tui.select.up") || m.Matches(Key{Code: "p"}, "tui.select.up") {
		t.Fatal("ctrl+p should match, p should not")
	}
	m.Set("tui.select.up", nil)
	if m.Matches(Key{Code: "up"}, "tui.select.up") {
		t.Fatal("disabled action still matches")
	}
	if m.Matches(Key{Code: "up", Release: true}, "tui.select.up") {
		t.Fatal("release matched")
	}
}
