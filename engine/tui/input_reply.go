package tui

import (
	"image/color"
	"strconv"
	"strings"

	"github.com/charmbracelet/x/ansi"
)

// Colour report indexes of ColorReply besides the palette's 0..255.
const (
	ColorForeground = -1 // OSC 10
	ColorBackground = -2 // OSC 11
)

// KittyFlags reads a Kitty keyboard flags reply (CSI ? flags u).
func (r Reply) KittyFlags() (flags int, ok bool) {
	s, found := strings.CutPrefix(r.Raw, "\x1b[?")
	if !found {
		return 0, false
	}
	s, found = strings.CutSuffix(s, "u")
	if !found {
		return 0, false
	}
	n, err := strconv.Atoi(s)
	return n, err == nil && n >= 0
}

// DeviceAttributes reports whether the reply is a primary device
// attributes answer (CSI ? … c), which every terminal sends and so marks
// the end of the replies to queries sent before it.
func (r Reply) DeviceAttributes() bool {
	s, found := strings.CutPrefix(r.Raw, "\x1b[?")
	return found && strings.HasSuffix(s, "c") && strings.Trim(s[:len(s)-1], "0123456789;") == ""
}

// Color reads a colour report: OSC 10 (ColorForeground), OSC 11
// (ColorBackground) or OSC 4;n (palette entry n), in any form xterm
// reports (rgb:rrrr/gggg/bbbb, #rrggbb).
func (r Reply) Color() (index int, c color.RGBA, ok bool) {
	s, found := strings.CutPrefix(r.Raw, "\x1b]")
	if !found {
		return 0, c, false
	}
	switch {
	case strings.HasSuffix(s, "\x1b\\"):
		s = s[:len(s)-2]
	case strings.HasSuffix(s, "\a"):
		s = s[:len(s)-1]
	default:
		return 0, c, false
	}
	var spec string
	switch {
	case strings.HasPrefix(s, "10;"):
		index, spec = ColorForeground, s[3:]
	case strings.HasPrefix(s, "11;"):
		index, spec = ColorBackground, s[3:]
	case strings.HasPrefix(s, "4;"):
		num, rest, found := strings.Cut(s[2:], ";")
		n, err := strconv.Atoi(num)
		if !found || err != nil || n < 0 || n > 255 {
			return 0, c, false
		}
		index, spec = n, rest
	default:
		return 0, c, false
	}
	col := ansi.XParseColor(spec)
	if col == nil {
		return 0, c, false
	}
	r16, g16, b16, _ := col.RGBA()
	return index, color.RGBA{R: uint8(r16 >> 8), G: uint8(g16 >> 8), B: uint8(b16 >> 8), A: 0xff}, true
}
