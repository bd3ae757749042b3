package tui

import "testing"

func TestProbeReply(t *testing.T) {
	t.Parallel()
	cases := []struct {
		replies    []string
		kitty, mok bool
		written    string
	}{
		{[]string{"\x1b[?7u", "\x1b[?62;22c"}, true, false, ""},
		{[]string{"\x1b[?0u"}, true, false, ""},
		{[]string{"\x1b[?62;22c", "\x1b[?7u"}, false, true, SeqModifyOtherOn},
		{[]string{"\x1b[?1;2c"}, false, true, SeqModifyOtherOn},
		{[]string{"\x1b[?x7u", "\x1b]11;rgb:0/0/0\x07"}, false, false, ""},
	}
	for _, c := range cases {
		var m modes
		written := ""
		for _, r := range c.replies {
			written += m.probeReply(r)
		}
		if m.kitty != c.kitty || m.modifyKeys != c.mok || written != c.written {
			t.Errorf("%q: kitty=%v modifyOtherKeys=%v wrote %q", c.replies, m.kitty, m.modifyKeys, written)
		}
	}
}
