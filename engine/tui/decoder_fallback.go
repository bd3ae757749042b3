package tui

// This file is a stand-in for tuiedit's decoder (input*.go) so the
// Program compiles and its tests run before that lands. It decodes only
// what the renderer tests feed: text, Enter/Tab/Backspace/Escape, Ctrl
// letters, arrows and Home/End/PageUp/PageDown/Delete, SGR mouse,
// bracketed paste, focus and terminal replies. Delete this file when
// engine/tui/input*.go provides NewDecoder.

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

type fallbackDecoder struct{ buf []byte }

// NewDecoder returns the input decoder.
func NewDecoder() EventDecoder { return &fallbackDecoder{} }

func (d *fallbackDecoder) Feed(b []byte) []Event {
	d.buf = append(d.buf, b...)
	var out []Event
	for len(d.buf) > 0 {
		ev, n := decodeOne(d.buf)
		if n == 0 {
			break
		}
		if ev != nil {
			out = append(out, ev)
		}
		d.buf = d.buf[n:]
	}
	return out
}

func (d *fallbackDecoder) Flush() []Event {
	var out []Event
	for len(d.buf) > 0 {
		if d.buf[0] == 0x1b {
			out = append(out, Key{Code: "escape", Raw: "\x1b"})
			d.buf = d.buf[1:]
			out = append(out, d.Feed(nil)...)
			continue
		}
		d.buf = d.buf[1:]
	}
	return out
}

// decodeOne returns the event at the start of b and its length; n == 0
// means b holds an incomplete sequence.
func decodeOne(b []byte) (Event, int) {
	c := b[0]
	switch {
	case c == 0x1b:
		if len(b) < 2 {
			return nil, 0
		}
		if b[1] != '[' {
			r, n := utf8.DecodeRune(b[1:])
			return Key{Code: string(r), Mod: ModAlt, Raw: string(b[:1+n])}, 1 + n
		}
		if strings.HasPrefix(string(b), "\x1b[200~") {
			end := strings.Index(string(b), "\x1b[201~")
			if end < 0 {
				return nil, 0
			}
			return Paste{Text: string(b[6:end])}, end + 6
		}
		for i := 2; i < len(b); i++ {
			if b[i] >= 0x40 && b[i] <= 0x7e {
				return csiEvent(string(b[:i+1])), i + 1
			}
		}
		return nil, 0
	case c == '\r' || c == '\n':
		return Key{Code: "enter", Raw: string(b[:1])}, 1
	case c == '\t':
		return Key{Code: "tab", Raw: "\t"}, 1
	case c == 0x7f || c == 0x08:
		return Key{Code: "backspace", Raw: string(b[:1])}, 1
	case c < 0x20:
		return Key{Code: string(rune('a' + c - 1)), Mod: ModCtrl, Raw: string(b[:1])}, 1
	}
	if !utf8.FullRune(b) {
		return nil, 0
	}
	r, n := utf8.DecodeRune(b)
	s := string(b[:n])
	if r == ' ' {
		return Key{Code: "space", Text: " ", Raw: s}, n
	}
	return Key{Code: s, Text: s, Raw: s}, n
}

func csiEvent(seq string) Event {
	body := seq[2 : len(seq)-1]
	final := seq[len(seq)-1]
	if strings.HasPrefix(body, "?") {
		return Reply{Raw: seq}
	}
	if strings.HasPrefix(body, "<") && (final == 'M' || final == 'm') {
		f := strings.Split(body[1:], ";")
		if len(f) == 3 {
			bt, _ := strconv.Atoi(f[0])
			x, _ := strconv.Atoi(f[1])
			y, _ := strconv.Atoi(f[2])
			m := Mouse{X: x - 1, Y: y - 1, Button: bt & 3, Raw: seq}
			switch {
			case bt&64 != 0 && bt&1 == 0:
				m.Action = MouseWheelUp
			case bt&64 != 0:
				m.Action = MouseWheelDown
			case final == 'm':
				m.Action = MouseRelease
			case bt&32 != 0:
				m.Action = MouseMotion
			default:
				m.Action = MousePress
			}
			return m
		}
	}
	names := map[string]string{"A": "up", "B": "down", "C": "right", "D": "left", "H": "home", "F": "end",
		"2~": "insert", "3~": "delete", "5~": "pageUp", "6~": "pageDown"}
	key := string(final)
	if final == '~' {
		key = strings.SplitN(body, ";", 2)[0] + "~"
	}
	if name, ok := names[key]; ok {
		k := Key{Code: name, Raw: seq}
		if i := strings.IndexByte(body, ';'); i >= 0 {
			if m, err := strconv.Atoi(body[i+1:]); err == nil && m > 1 {
				k.Mod = Mod(m - 1)
			}
		}
		return k
	}
	switch seq {
	case "\x1b[I":
		return Focus{Focused: true}
	case "\x1b[O":
		return Focus{Focused: false}
	}
	return Reply{Raw: seq}
}
