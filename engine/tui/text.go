package tui

import (
	"strings"

	"github.com/charmbracelet/x/ansi"
)

// Width is the number of terminal cells s occupies, ignoring escape
// sequences (grapheme clusters, wide characters and emoji counted as the
// terminal draws them).
func Width(s string) int {
	// Most rows are plain ASCII; measuring graphemes costs ~100× more.
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= 0x7f {
			return ansi.StringWidth(s)
		}
	}
	return len(s)
}

// Truncate cuts s to at most width cells, appending tail (counted in the
// width) when it cut anything. Escape sequences are kept so styles stay
// balanced.
func Truncate(s string, width int, tail string) string {
	if width <= 0 {
		return ""
	}
	return ansi.Truncate(s, width, tail)
}

// Wrap breaks s (which may contain newlines and SGR styles) into rows of at
// most width cells, preferring breaks at spaces and breaking words longer
// than a row. Styles active at a break carry over to the next row.
func Wrap(s string, width int) []string {
	if width <= 0 {
		return nil
	}
	return splitLines(ansi.Wrap(s, width, ""))
}

// Strip removes every escape sequence from s.
func Strip(s string) string { return ansi.Strip(s) }

// PadRight pads s with spaces to exactly width cells (truncating when longer).
func PadRight(s string, width int) string {
	w := Width(s)
	if w > width {
		return Truncate(s, width, "")
	}
	return s + spaces(width-w)
}

// blanks backs spaces for the common widths without an allocation (a
// constant, so process start builds nothing).
const (
	blanks64 = "                                                                "
	blanks   = blanks64 + blanks64 + blanks64 + blanks64 + blanks64 + blanks64 + blanks64 + blanks64
)

func spaces(n int) string {
	if n <= 0 {
		return ""
	}
	if n <= len(blanks) {
		return blanks[:n]
	}
	return strings.Repeat(" ", n)
}

func splitLines(s string) []string {
	var out []string
	start := 0
	for i := 0; i < len(s); i++ {
		if s[i] == '\n' {
			out = append(out, s[start:i])
			start = i + 1
		}
	}
	return append(out, s[start:])
}
