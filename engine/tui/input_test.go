package tui

import (
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"
)

// keyCase is one input and the keys it must decode to, written in pi's
// syntax plus the typed text ("ctrl+c", "shift+a:A").
type keyCase struct {
	in    string
	want  []string
	kitty bool
	noRaw bool // the input holds bytes the decoder drops on purpose
}

// describe renders events compactly: a key as spec[:text][/repeat|/release],
// anything else by type.
func describe(evs []Event) []string {
	var out []string
	for _, ev := range evs {
		switch e := ev.(type) {
		case Key:
			s := e.String()
			if e.Code == "" {
				s = fmt.Sprintf("raw%q", e.Raw)
			}
			if e.Text != "" {
				s += ":" + e.Text
			}
			if e.Repeat {
				s += "/repeat"
			}
			if e.Release {
				s += "/release"
			}
			out = append(out, s)
		case Paste:
			out = append(out, fmt.Sprintf("paste%q", e.Text))
		case Mouse:
			out = append(out, fmt.Sprintf("mouse%d,%d,b%d,a%d,m%d", e.X, e.Y, e.Button, e.Action, e.Mod))
		case Focus:
			out = append(out, fmt.Sprintf("focus%v", e.Focused))
		case Reply:
			out = append(out, fmt.Sprintf("reply%q", e.Raw))
		default:
			out = append(out, fmt.Sprintf("%T", ev))
		}
	}
	return out
}

func runKeyCases(t *testing.T, cases []keyCase) {
	t.Helper()
	for _, c := range cases {
		d := NewDecoder()
		d.SetKittyProtocol(c.kitty)
		evs := append(d.Feed([]byte(c.in)), d.Flush()...)
		if got := describe(evs); !reflect.DeepEqual(got, c.want) {
			t.Errorf("%q (kitty %v): got %q, want %q", c.in, c.kitty, got, c.want)
		}
		// Raw is exactly the bytes of each key, so concatenated they
		// give back the input (for inputs made only of keys).
		var raw strings.Builder
		allKeys := true
		for _, ev := range evs {
			k, ok := ev.(Key)
			if !ok {
				allKeys = false
				break
			}
			raw.WriteString(k.Raw)
		}
		if allKeys && !c.noRaw && raw.String() != c.in {
			t.Errorf("%q: raw bytes of the keys = %q", c.in, raw.String())
		}
	}
}

func TestDecodeLegacy(t *testing.T) {
	t.Parallel()
	runKeyCases(t, []keyCase{
		{in: "a", want: []string{"a:a"}},
		{in: "A", want: []string{"shift+a:A"}},
		{in: "aB1", want: []string{"a:a", "shift+b:B", "1:1"}},
		{in: " ", want: []string{"space: "}},
		{in: "\r", want: []string{"enter"}},
		{in: "\t", want: []string{"tab"}},
		{in: "\x7f", want: []string{"backspace"}},
		{in: "\x08", want: []string{"backspace"}},
		{in: "\x01", want: []string{"ctrl+a"}},
		{in: "\x03", want: []string{"ctrl+c"}},
		{in: "\x1a", want: []string{"ctrl+z"}},
		{in: "\x00", want: []string{"ctrl+space"}},
		{in: "\n", want: []string{"ctrl+j"}},
		{in: "\x1d", want: []string{"ctrl+]"}},
		{in: "\x1c", want: []string{"ctrl+\\"}},
		{in: "\x1f", want: []string{"ctrl+-"}},
		{in: "\x1b[A", want: []string{"up"}},
		{in: "\x1b[B\x1b[C\x1b[D", want: []string{"down", "right", "left"}},
		{in: "\x1bOA", want: []string{"up"}},
		{in: "\x1b[H", want: []string{"home"}},
		{in: "\x1b[F", want: []string{"end"}},
		{in: "\x1b[1~", want: []string{"home"}},
		{in: "\x1b[4~", want: []string{"end"}},
		{in: "\x1b[7~", want: []string{"home"}},
		{in: "\x1b[2~", want: []string{"insert"}},
		{in: "\x1b[3~", want: []string{"delete"}},
		{in: "\x1b[5~", want: []string{"pageUp"}},
		{in: "\x1b[6~", want: []string{"pageDown"}},
		{in: "\x1b[E", want: []string{"clear"}},
		{in: "\x1b[Z", want: []string{"shift+tab"}},
		{in: "\x1b[1;5C", want: []string{"ctrl+right"}},
		{in: "\x1b[1;3D", want: []string{"alt+left"}},
		{in: "\x1b[1;6A", want: []string{"ctrl+shift+up"}},
		{in: "\x1b[5;5~", want: []string{"ctrl+pageUp"}},
		{in: "\x1b[1;5H", want: []string{"ctrl+home"}},
		{in: "\x1b[3;3~", want: []string{"alt+delete"}},
		{in: "\x1bOP", want: []string{"f1"}},
		{in: "\x1b[15~", want: []string{"f5"}},
		{in: "\x1b[24~", want: []string{"f12"}},
		{in: "\x1bOM", want: []string{"enter"}},
	})
}

func TestDecodeAltPrefix(t *testing.T) {
	t.Parallel()
	runKeyCases(t, []keyCase{
		{in: "\x1bb", want: []string{"alt+b"}},
		{in: "\x1bd", want: []string{"alt+d"}},
		{in: "\x1by", want: []string{"alt+y"}},
		{in: "\x1bB", want: []string{"alt+left"}},
		{in: "\x1bF", want: []string{"alt+right"}},
		{in: "\x1bX", want: []string{"shift+alt+x"}},
		{in: "\x1b\r", want: []string{"alt+enter"}},
		{in: "\x1b\x7f", want: []string{"alt+backspace"}},
		{in: "\x1b\x08", want: []string{"alt+backspace"}},
		{in: "\x1b\x1d", want: []string{"ctrl+alt+]"}},
		{in: "\x1b\x01", want: []string{"ctrl+alt+a"}},
		{in: "\x1b ", want: []string{"alt+space"}},
		{in: "\x1bé", want: []string{"alt+é"}},
		{in: "\x1b", want: []string{"escape"}},
		{in: "\x1b\x1b", want: []string{"alt+escape"}},
		{in: "\x1b\x1b[A", want: []string{"escape", "up"}},
		{in: "\x1b[", want: []string{"alt+["}},
	})
}

func TestDecodeKitty(t *testing.T) {
	t.Parallel()
	runKeyCases(t, []keyCase{
		{in: "\x1b[97u", want: []string{"a:a"}, kitty: true},
		{in: "\x1b[97;5u", want: []string{"ctrl+a"}, kitty: true},
		{in: "\x1b[97;2u", want: []string{"shift+a:A"}, kitty: true},
		{in: "\x1b[99;5u", want: []string{"ctrl+c"}, kitty: true},
		{in: "\x1b[13u", want: []string{"enter"}, kitty: true},
		{in: "\x1b[13;2u", want: []string{"shift+enter"}, kitty: true},
		{in: "\x1b[13;3u", want: []string{"alt+enter"}, kitty: true},
		{in: "\x1b[27u", want: []string{"escape"}, kitty: true},
		{in: "\x1b[9;2u", want: []string{"shift+tab"}, kitty: true},
		{in: "\x1b[127;5u", want: []string{"ctrl+backspace"}, kitty: true},
		{in: "\x1b[45;5u", want: []string{"ctrl+-"}, kitty: true},
		{in: "\x1b[93;5u", want: []string{"ctrl+]"}, kitty: true},
		{in: "\x1b[93;7u", want: []string{"ctrl+alt+]"}, kitty: true},
		{in: "\x1b[107;9u", want: []string{"super+k"}, kitty: true},
		{in: "\x1b[112;6u", want: []string{"ctrl+shift+p"}, kitty: true},
		{in: "\x1b[97;1:2u", want: []string{"a:a/repeat"}, kitty: true},
		{in: "\x1b[97;1:3u", want: []string{"a/release"}, kitty: true},
		{in: "\x1b[1;5:3C", want: []string{"ctrl+right/release"}, kitty: true},
		{in: "\x1b[57399u", want: []string{"0:0"}, kitty: true},
		{in: "\x1b[57414u", want: []string{"enter"}, kitty: true},
		// Terminals' own Shift+Enter mappings while the protocol is on.
		{in: "\x1b\r", want: []string{"shift+enter"}, kitty: true},
		{in: "\n", want: []string{"shift+enter"}, kitty: true},
		// A plain CSI-u key echoed as its raw character is one key.
		{in: "\x1b[97ua", want: []string{"a:a"}, kitty: true, noRaw: true},
		{in: "\x1b[97ub", want: []string{"a:a", "b:b"}, kitty: true},
	})
}

func TestDecodeKittyAlternates(t *testing.T) {
	t.Parallel()
	d := NewDecoder()
	d.SetKittyProtocol(true)
	cases := []struct {
		in, spec string
		match    bool
	}{
		{"\x1b[61:43;6u", "ctrl++", true},       // ctrl+shift+= produces +
		{"\x1b[61:43;6u", "ctrl+shift+=", true}, // the physical spelling too
		{"\x1b[1089::99;5u", "ctrl+c", true},    // Cyrillic с on the C key
		{"\x1b[107::118;5u", "ctrl+v", false},   // Dvorak: a Latin code is authoritative
		{"\x1b[107::118;5u", "ctrl+k", true},    //
		{"\x1b[97:65;2u", "shift+a", true},      // shifted letter keeps its code
		{"\x1b[61:43:61;6u", "ctrl++", true},    // all three fields
		{"\x1b[1089::99;1:3u", "c", false},      // releases never match
		{"\x1b[1089::99u", "c", true},           // plain key on a non-Latin layout
		{"\x1b[1089::99u", "shift+c", false},    //
		{"\x1b[45:95;6u", "ctrl+_", true},       // ctrl+shift+- produces _
		{"\x1b[49:33;2u", "!", true},            // shift+1 is !
		{"\x1b[49:33;2u", "shift+1", true},      //
		{"\x1b[97;5u", "ctrl+shift+a", false},   //
		{"\x1b[27;5;13~", "ctrl+enter", true},   // modifyOtherKeys
		{"\x1b[9786::97;5u", "ctrl+a", true},    // non-letter code, base a
	}
	for _, c := range cases {
		evs := d.Feed([]byte(c.in))
		if len(evs) != 1 {
			t.Errorf("%q: %d events", c.in, len(evs))
			continue
		}
		k := evs[0].(Key)
		if got := k.Is(c.spec); got != c.match {
			t.Errorf("%q (%+v).Is(%q) = %v, want %v", c.in, k, c.spec, got, c.match)
		}
	}
}

func TestDecodeModifyOtherKeys(t *testing.T) {
	t.Parallel()
	runKeyCases(t, []keyCase{
		{in: "\x1b[27;2;13~", want: []string{"shift+enter"}},
		{in: "\x1b[27;5;13~", want: []string{"ctrl+enter"}},
		{in: "\x1b[27;3;13~", want: []string{"alt+enter"}},
		{in: "\x1b[27;5;106~", want: []string{"ctrl+j"}},
		{in: "\x1b[27;6;112~", want: []string{"ctrl+shift+p"}},
		{in: "\x1b[27;5;45~", want: []string{"ctrl+-"}},
		{in: "\x1b[27;3;127~", want: []string{"alt+backspace"}},
		{in: "\x1b[27;5;9~", want: []string{"ctrl+tab"}},
		// tmux 3.3 with extended-keys on, as captured: CSI u without the
		// Kitty protocol (the decoder stays in legacy mode).
		{in: "\x1b[13;2u", want: []string{"shift+enter"}},
		{in: "\x1b[9;2u", want: []string{"shift+tab"}},
		{in: "\x1b[80;6u", want: []string{"ctrl+shift+p"}},
		{in: "\x1b\r", want: []string{"alt+enter"}},
	})
}

func TestDecodeMouseFocusReplies(t *testing.T) {
	t.Parallel()
	runKeyCases(t, []keyCase{
		{in: "\x1b[<0;10;5M", want: []string{"mouse9,4,b0,a0,m0"}},
		{in: "\x1b[<0;10;5m", want: []string{"mouse9,4,b0,a1,m0"}},
		{in: "\x1b[<2;1;1M", want: []string{"mouse0,0,b2,a0,m0"}},
		{in: "\x1b[<64;3;4M", want: []string{"mouse2,3,b-1,a3,m0"}},
		{in: "\x1b[<65;3;4M", want: []string{"mouse2,3,b-1,a4,m0"}},
		{in: "\x1b[<32;7;8M", want: []string{"mouse6,7,b0,a2,m0"}},
		{in: "\x1b[<20;7;8M", want: []string{"mouse6,7,b0,a0,m5"}},
		{in: "\x1b[I", want: []string{"focustrue"}},
		{in: "\x1b[O", want: []string{"focusfalse"}},
		{in: "\x1b[?7u", want: []string{`reply"\x1b[?7u"`}},
		{in: "\x1b[?62;22c", want: []string{`reply"\x1b[?62;22c"`}},
		{in: "\x1b]11;rgb:1e1e/1e1e/2e2e\x1b\\", want: []string{`reply"\x1b]11;rgb:1e1e/1e1e/2e2e\x1b\\"`}},
		{in: "\x1b]10;rgb:ffff/ffff/ffff\x07", want: []string{`reply"\x1b]10;rgb:ffff/ffff/ffff\a"`}},
		{in: "\x1b]4;1;rgb:cdcd/0000/0000\x1b\\", want: []string{`reply"\x1b]4;1;rgb:cdcd/0000/0000\x1b\\"`}},
		{in: "\x1b[?2026;2$y", want: []string{`reply"\x1b[?2026;2$y"`}},
		{in: "\x1bP>|xterm(390)\x1b\\", want: []string{`reply"\x1bP>|xterm(390)\x1b\\"`}},
		// A reply between keys keeps both sides intact.
		{in: "a\x1b[?1u\x1b[A", want: []string{"a:a", `reply"\x1b[?1u"`, "up"}},
	})
}

func TestKittyReplySetsMode(t *testing.T) {
	t.Parallel()
	d := NewDecoder()
	d.Feed([]byte("\x1b[?7u"))
	if !d.KittyProtocol() {
		t.Fatal("flags 7 reply did not turn the Kitty reading on")
	}
	if got := describe(d.Feed([]byte("\x1b\r"))); !reflect.DeepEqual(got, []string{"shift+enter"}) {
		t.Fatalf("ESC CR in Kitty mode = %q", got)
	}
	d.Feed([]byte("\x1b[?0u"))
	if d.KittyProtocol() {
		t.Fatal("flags 0 reply left the Kitty reading on")
	}
}

// TestDecodeSplit feeds inputs in every two-way split and checks the
// events match the unsplit decoding: sequences, UTF-8 and pastes cut by
// a read must not change what they mean.
func TestDecodeSplit(t *testing.T) {
	t.Parallel()
	inputs := []string{
		"\x1b[1;5C",
		"héllo",
		"日本🙂",
		"\x1b[200~line 1\nline 2\r\nü\x1b[201~x",
		"\x1b[97;5u\x1b[<0;10;5M",
		"\x1b]11;rgb:0000/0000/0000\x1b\\a",
		"\x1bé",
		"\x1b[27;2;13~",
	}
	for _, in := range inputs {
		d := NewDecoder()
		want := describe(append(d.Feed([]byte(in)), d.Flush()...))
		for i := 1; i < len(in); i++ {
			d := NewDecoder()
			evs := d.Feed([]byte(in[:i]))
			evs = append(evs, d.Feed([]byte(in[i:]))...)
			evs = append(evs, d.Flush()...)
			if got := describe(evs); !reflect.DeepEqual(got, want) {
				t.Errorf("%q split at %d: got %q, want %q", in, i, got, want)
			}
		}
	}
}

func TestDecodePaste(t *testing.T) {
	t.Parallel()
	d := NewDecoder()
	var evs []Event
	for _, chunk := range []string{"a\x1b[20", "0~first\n", "\x1b[A is not a key here\x1b", "[201", "~b"} {
		evs = append(evs, d.Feed([]byte(chunk))...)
		if d.Pending() && chunk != "~b" && strings.Contains(chunk, "first") {
			t.Errorf("open paste reported pending after %q", chunk)
		}
	}
	want := []string{"a:a", `paste"first\n\x1b[A is not a key here"`, "b:b"}
	if got := describe(evs); !reflect.DeepEqual(got, want) {
		t.Fatalf("got %q, want %q", got, want)
	}
	// Flush inside an open paste delivers nothing: the paste waits for its end.
	d.Feed([]byte("\x1b[200~abc"))
	if evs := d.Flush(); len(evs) != 0 {
		t.Fatalf("flush in paste = %q", describe(evs))
	}
	if got := describe(d.Feed([]byte("\x1b[201~"))); !reflect.DeepEqual(got, []string{`paste"abc"`}) {
		t.Fatalf("paste end = %q", got)
	}
}

func TestDecodePendingAndFlush(t *testing.T) {
	t.Parallel()
	cases := []struct {
		in   string
		want []string
	}{
		{"\x1b", []string{"escape"}},
		{"\x1b[", []string{"alt+["}},
		{"\x1bO", []string{"shift+alt+o"}},
		{"\x1b[1;", []string{`raw"\x1b[1;"`}},
		{"\xc3", []string{`raw"\xc3"`}},
	}
	for _, c := range cases {
		d := NewDecoder()
		if evs := d.Feed([]byte(c.in)); len(evs) != 0 {
			t.Errorf("%q decoded before the timeout: %q", c.in, describe(evs))
		}
		if !d.Pending() {
			t.Errorf("%q: not pending", c.in)
		}
		if got := describe(d.Flush()); !reflect.DeepEqual(got, c.want) {
			t.Errorf("%q flushed: got %q, want %q", c.in, got, c.want)
		}
		if d.Pending() {
			t.Errorf("%q: still pending after Flush", c.in)
		}
	}
	// A pending ESC followed by a letter before the timeout is Alt+letter.
	d := NewDecoder()
	d.Feed([]byte("\x1b"))
	if got := describe(d.Feed([]byte("f"))); !reflect.DeepEqual(got, []string{"alt+f"}) {
		t.Fatalf("ESC then f = %q", got)
	}
}

func TestEscTimeout(t *testing.T) {
	t.Parallel()
	env := func(m map[string]string) func(string) string { return func(k string) string { return m[k] } }
	cases := []struct {
		env  map[string]string
		want string
	}{
		{nil, "10ms"},
		{map[string]string{"SSH_TTY": "/dev/pts/1"}, "100ms"},
		{map[string]string{"PI_TUI_ESC_TIMEOUT": "25"}, "25ms"},
		{map[string]string{"PI_TUI_ESC_TIMEOUT": "0", "SSH_CONNECTION": "x"}, "100ms"},
		{map[string]string{"PI_TUI_ESC_TIMEOUT": "nope"}, "10ms"},
	}
	for _, c := range cases {
		if got := EscTimeout(env(c.env)).String(); got != c.want {
			t.Errorf("%v: %s, want %s", c.env, got, c.want)
		}
	}
}

func TestReplyParsers(t *testing.T) {
	t.Parallel()
	if f, ok := (Reply{Raw: "\x1b[?7u"}).KittyFlags(); !ok || f != 7 {
		t.Errorf("kitty flags = %d %v", f, ok)
	}
	if _, ok := (Reply{Raw: "\x1b[?62;22c"}).KittyFlags(); ok {
		t.Error("DA1 read as kitty flags")
	}
	if !(Reply{Raw: "\x1b[?62;22c"}).DeviceAttributes() || (Reply{Raw: "\x1b[?7u"}).DeviceAttributes() {
		t.Error("DeviceAttributes")
	}
	cases := []struct {
		raw   string
		index int
		rgb   [3]uint8
		ok    bool
	}{
		{"\x1b]11;rgb:1e1e/1e1e/2e2e\x1b\\", ColorBackground, [3]uint8{0x1e, 0x1e, 0x2e}, true},
		{"\x1b]10;rgb:ffff/ffff/ffff\a", ColorForeground, [3]uint8{0xff, 0xff, 0xff}, true},
		{"\x1b]4;1;rgb:cdcd/0000/0000\x1b\\", 1, [3]uint8{0xcd, 0, 0}, true},
		{"\x1b]4;300;rgb:0/0/0\a", 0, [3]uint8{}, false},
		{"\x1b]52;c;aGk=\a", 0, [3]uint8{}, false},
	}
	for _, c := range cases {
		i, col, ok := (Reply{Raw: c.raw}).Color()
		if ok != c.ok || ok && (i != c.index || [3]uint8{col.R, col.G, col.B} != c.rgb) {
			t.Errorf("%q: %d %v %v", c.raw, i, col, ok)
		}
	}
}

func TestDecoderTimeout(t *testing.T) {
	t.Parallel()
	esc := 10 * time.Millisecond
	cases := []struct {
		in   string
		want time.Duration
	}{
		{"", 0},
		{"abc", 0},
		{"\x1b", esc},
		{"\x1b[1;", SequenceTimeout},
		{"\x1b]", SequenceTimeout},
		{"\x1b]11;rgb:00", time.Second},
		{"\x1b]4;12;rgb:0", time.Second},
		{"\x1bP>|xterm", time.Second},
		{"\x1b[200~open paste", 0},
	}
	for _, c := range cases {
		d := NewDecoder()
		d.Feed([]byte(c.in))
		if got := d.Timeout(esc); got != c.want {
			t.Errorf("%q: %v, want %v", c.in, got, c.want)
		}
	}
	d := NewDecoder()
	d.Feed([]byte("\x1b"))
	if got := d.Timeout(100 * time.Millisecond); got != 100*time.Millisecond {
		t.Errorf("SSH lone ESC: %v", got)
	}
}
