package tui

import "strings"

// The escape sequences a Program writes. They are exported so tests (and
// the end-to-end harness) can look for them in the output stream.
const (
	SeqSyncBegin       = "\x1b[?2026h"
	SeqSyncEnd         = "\x1b[?2026l"
	SeqHideCursor      = "\x1b[?25l"
	SeqShowCursor      = "\x1b[?25h"
	SeqPasteOn         = "\x1b[?2004h"
	SeqPasteOff        = "\x1b[?2004l"
	SeqKittyPush       = "\x1b[>7u" // disambiguate + event types + alternate keys
	SeqKittyQuery      = "\x1b[?u"
	SeqKittyPop        = "\x1b[<u"
	SeqDA1             = "\x1b[c"  // sentinel: answered after the Kitty query by every terminal
	SeqCursorQuery     = "\x1b[6n" // regular mode: where the document starts
	SeqModifyOtherOn   = "\x1b[>4;2m"
	SeqModifyOtherOff  = "\x1b[>4;0m"
	SeqColorSchemeOn   = "\x1b[?2031h" // report the terminal's light/dark changes (CSI ? 997 ; 1|2 n)
	SeqColorSchemeOff  = "\x1b[?2031l"
	SeqProgressActive  = "\x1b]9;4;3\x07" // OSC 9;4 indeterminate progress
	SeqProgressClear   = "\x1b]9;4;0\x07"
	SeqFocusOn         = "\x1b[?1004h"
	SeqFocusOff        = "\x1b[?1004l"
	SeqAltScreenOn     = "\x1b[?1049h"
	SeqAltScreenOff    = "\x1b[?1049l"
	SeqAutowrapOff     = "\x1b[?7l"
	SeqAutowrapOn      = "\x1b[?7h"
	SeqMouseOn         = "\x1b[?1000h\x1b[?1002h\x1b[?1006h"
	SeqMouseOff        = "\x1b[?1006l\x1b[?1002l\x1b[?1000l"
	SeqClearAll        = "\x1b[2J\x1b[H\x1b[3J"  // screen, home, scrollback: the regular renderer's reprint
	SeqResetLine       = "\x1b[0m\x1b]8;;\x1b\\" // every row ends with styles and links closed
	seqEraseLine       = "\x1b[2K"
	seqClearScreenHome = "\x1b[2J\x1b[H"
)

// CursorMarker is a zero-width APC string a focused component puts where
// the text cursor is. The renderer removes it and parks the hardware
// cursor there (hidden unless ProgramOptions.ShowHardwareCursor), so
// input methods draw their candidate window at the right place.
const CursorMarker = "\x1b_pi:c\x1b\\"

// cursorMarkerBEL is the reference's spelling (terminated by BEL), which
// JavaScript components use; the renderer accepts both.
const cursorMarkerBEL = "\x1b_pi:c\x07"

// modes records what setup turned on, so teardown undoes exactly that.
type modes struct {
	raw        bool
	setup      bool
	fullscreen bool
	kitty      bool // the terminal answered the Kitty query
	modifyKeys bool // modifyOtherKeys was turned on as the fallback
	probed     bool // the Kitty question is settled
	// altLeft: the alternate screen was already left (to print the body
	// on exit); a second 1049l would restore the cursor saved on entry
	// and put what follows over the printed rows.
	altLeft bool
	// colorScheme: light/dark change reports (mode 2031) are on.
	colorScheme bool
	// progress: an OSC 9;4 progress indicator is showing.
	progress bool
	// programStatus: the terminal answered the OSC 7501 query;
	// statusShown: a status was written, so exit clears it.
	programStatus, statusShown bool
	statusQueried              bool // the query is out and unanswered
}

// enterSequence is what a Program writes when it takes the terminal.
func enterSequence(fullscreen, statusQuery bool) string {
	var b strings.Builder
	if fullscreen {
		b.WriteString(SeqAltScreenOn)
		b.WriteString(SeqAutowrapOff)
		b.WriteString(SeqMouseOn)
		b.WriteString(SeqFocusOn)
		b.WriteString(seqClearScreenHome)
	}
	b.WriteString(SeqHideCursor)
	b.WriteString(SeqPasteOn)
	b.WriteString(SeqKittyPush)
	b.WriteString(SeqKittyQuery)
	if statusQuery {
		b.WriteString(ProgramStatusQuery)
	}
	if !fullscreen {
		b.WriteString(SeqCursorQuery)
	}
	b.WriteString(SeqDA1)
	return b.String()
}

// exitSequence undoes enterSequence and the keyboard mode the probe chose.
func (m *modes) exitSequence() string {
	var b strings.Builder
	b.WriteString(SeqSyncEnd) // in case a frame was cut short by a panic
	b.WriteString(SeqKittyPop)
	if m.modifyKeys {
		b.WriteString(SeqModifyOtherOff)
	}
	b.WriteString(SeqPasteOff)
	if m.programStatus && m.statusShown {
		b.WriteString(FormatProgramStatus(ProgramStatus{State: "clear"}))
	}
	if m.colorScheme {
		b.WriteString(SeqColorSchemeOff)
	}
	if m.progress {
		b.WriteString(SeqProgressClear)
	}
	if m.fullscreen {
		b.WriteString(SeqFocusOff)
		b.WriteString(SeqMouseOff)
		b.WriteString(SeqAutowrapOn)
		if !m.altLeft {
			b.WriteString(SeqAltScreenOff)
		}
	}
	b.WriteString(SeqShowCursor)
	return b.String()
}

// isCSIReply reports whether raw is ESC [ ? params final with params of
// the allowed bytes (hand-written: a package-level regexp would be
// compiled at every process start).
func isCSIReply(raw string, final byte, allowed string) bool {
	if len(raw) < 4 || raw[:3] != "\x1b[?" || raw[len(raw)-1] != final {
		return false
	}
	for i := 3; i < len(raw)-1; i++ {
		if !strings.ContainsRune(allowed, rune(raw[i])) {
			return false
		}
	}
	return true
}

// probeReply settles the keyboard protocol from a terminal reply: a
// Kitty flags answer means the push took effect; a DA1 answer before any
// Kitty answer means the terminal ignored the push (tmux, older xterm),
// so modifyOtherKeys is the fallback. It returns what to write, if
// anything.
func (m *modes) probeReply(raw string) string {
	if m.probed {
		return ""
	}
	switch {
	case isCSIReply(raw, 'u', "0123456789"):
		m.probed, m.kitty = true, true
	case isCSIReply(raw, 'c', "0123456789;"):
		m.probed, m.modifyKeys = true, true
		return SeqModifyOtherOn
	}
	return ""
}

// cursorReportRow reads a cursor position report (CSI row ; col R) and
// returns the one-based row. A report of row 1 reads the same as a
// modified F3 key in the legacy encoding, so decoders may hand it over
// as a key; both arrive here by their raw bytes.
func cursorReportRow(raw string) (int, bool) {
	if len(raw) < 6 || raw[:2] != "\x1b[" || raw[len(raw)-1] != 'R' {
		return 0, false
	}
	row, col, ok := strings.Cut(raw[2:len(raw)-1], ";")
	if !ok || row == "" || col == "" || strings.Trim(row, "0123456789") != "" || strings.Trim(col, "0123456789") != "" {
		return 0, false
	}
	n := 0
	for _, c := range row {
		n = n*10 + int(c-'0')
		if n > 1<<20 {
			return 0, false
		}
	}
	return n, n > 0
}
