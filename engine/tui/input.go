package tui

import (
	"bytes"
	"os"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	uv "github.com/charmbracelet/ultraviolet"
	"github.com/rivo/uniseg"
)

// The escape timeouts of pi: how long a lone ESC (or an unfinished
// sequence) waits for the rest before it counts as the Escape key.
const (
	DefaultEscTimeout    = 10 * time.Millisecond
	DefaultSSHEscTimeout = 100 * time.Millisecond
)

// EscTimeout is the ESC timeout for this process: PI_TUI_ESC_TIMEOUT
// (milliseconds, a positive number) when set, else 100 ms over SSH
// (SSH_CONNECTION or SSH_TTY set), else 10 ms.
func EscTimeout(getenv func(string) string) time.Duration {
	if getenv == nil {
		getenv = os.Getenv
	}
	if v, err := strconv.ParseFloat(getenv("PI_TUI_ESC_TIMEOUT"), 64); err == nil && v > 0 && v < 1e9 {
		return time.Duration(v * float64(time.Millisecond))
	}
	if getenv("SSH_CONNECTION") != "" || getenv("SSH_TTY") != "" {
		return DefaultSSHEscTimeout
	}
	return DefaultEscTimeout
}

var (
	pasteStart = []byte("\x1b[200~")
	pasteEnd   = []byte("\x1b[201~")
)

// Decoder turns terminal input bytes into Events. It keeps what it has
// not decoded yet (a lone ESC, half a CSI sequence, a split UTF-8
// character, an open bracketed paste) until the next Feed.
//
// The caller owns the ESC timer: when Pending reports true after a Feed,
// it arms a timer (EscTimeout) and calls Flush when it fires, so a lone
// ESC becomes the Escape key and an unfinished sequence is decoded as
// far as it goes. Any Feed before then supersedes the timer.
//
// Sequence parsing is ultraviolet's EventDecoder; the Decoder adds the
// framing (which bytes form one event), pi's readings of the ambiguous
// legacy bytes, and the mapping to pi's key syntax.
type Decoder struct {
	uv      uv.EventDecoder
	buf     []byte
	paste   []byte
	inPaste bool
	kitty   bool
	// lastKittyPrintable is the code point of the previous event when it
	// was a plain printable CSI-u key; some terminals send the same
	// character again as a raw byte, which is dropped.
	lastKittyPrintable rune
}

// NewDecoder returns a decoder in legacy mode (no Kitty keyboard protocol).
func NewDecoder() *Decoder { return &Decoder{} }

// SetKittyProtocol tells the decoder whether the terminal accepted the
// Kitty keyboard protocol. It changes the reading of two legacy byte
// strings: with the protocol on, ESC CR and LF are terminals' custom
// mappings of Shift+Enter; without it they are Alt+Enter and Ctrl+J.
// A Kitty flags reply (CSI ? flags u) also sets it: on for flags > 0.
func (d *Decoder) SetKittyProtocol(active bool) { d.kitty = active }

// KittyProtocol reports whether the decoder reads input as Kitty-mode.
func (d *Decoder) KittyProtocol() bool { return d.kitty }

// SequenceTimeout is how long an unfinished sequence other than a lone
// ESC waits for its end (pi's 50 ms): a sequence cut by a slow link
// should not turn into stray keys.
const SequenceTimeout = 50 * time.Millisecond

// replyTimeout is how long a terminal reply that has begun (a colour
// report, XTVERSION, a Kitty graphics answer) waits for its terminator;
// replies arrive in pieces on slow links and must not leak into the
// editor as keys.
const replyTimeout = time.Second

// Timeout is how long the caller should wait before calling Flush, given
// its ESC timeout: esc for a lone ESC, at least SequenceTimeout for an
// unfinished sequence, one second for a terminal reply under way, and 0
// when nothing is pending.
func (d *Decoder) Timeout(esc time.Duration) time.Duration {
	switch {
	case !d.Pending():
		return 0
	case len(d.buf) == 1 && d.buf[0] == 0x1b:
		return esc
	case replyHeader(d.buf):
		return max(esc, replyTimeout)
	}
	return max(esc, SequenceTimeout)
}

// replyHeader reports whether b starts like a terminal's answer to one of
// pi's queries: OSC 10/11 or 4;n colours, OSC 7501, DCS >| (XTVERSION),
// APC G (Kitty graphics).
func replyHeader(b []byte) bool {
	s := string(b)
	for _, p := range []string{"\x1b]10;", "\x1b]11;", "\x1b]7501;?", "\x1bP>|", "\x1b_G"} {
		if strings.HasPrefix(s, p) {
			return true
		}
	}
	if rest, ok := strings.CutPrefix(s, "\x1b]4;"); ok {
		n := 0
		for n < len(rest) && n < 3 && rest[n] >= '0' && rest[n] <= '9' {
			n++
		}
		return n > 0 && n < len(rest) && rest[n] == ';'
	}
	return false
}

// Pending reports whether bytes are waiting for more input (the caller
// arms the ESC timer and calls Flush when it fires). An open bracketed
// paste is not pending: it waits for its end marker however long it takes.
func (d *Decoder) Pending() bool { return !d.inPaste && len(d.buf) > 0 }

// Feed decodes b (appended to whatever was pending) and returns the
// complete events.
func (d *Decoder) Feed(b []byte) []Event {
	d.buf = append(d.buf, b...)
	return d.drain(false)
}

// Flush decodes whatever is pending as if no more bytes will follow: a
// lone ESC is the Escape key, ESC [ is Alt+[, an unfinished sequence
// becomes a Key with only Raw set.
func (d *Decoder) Flush() []Event {
	if d.inPaste {
		return nil
	}
	return d.drain(true)
}

func (d *Decoder) drain(expired bool) []Event {
	var out []Event
	for len(d.buf) > 0 {
		if d.inPaste {
			i := bytes.Index(d.buf, pasteEnd)
			if i < 0 {
				// Keep a tail that may be the start of the end marker.
				keep := partialSuffix(d.buf, pasteEnd)
				d.paste = append(d.paste, d.buf[:len(d.buf)-keep]...)
				d.buf = append(d.buf[:0], d.buf[len(d.buf)-keep:]...)
				return out
			}
			d.paste = append(d.paste, d.buf[:i]...)
			out = append(out, Paste{Text: string(bytes.ToValidUTF8(d.paste, nil))})
			d.paste, d.inPaste = nil, false
			d.buf = d.buf[i+len(pasteEnd):]
			continue
		}
		if bytes.HasPrefix(d.buf, pasteStart) {
			d.inPaste, d.paste = true, []byte{}
			d.lastKittyPrintable = 0
			d.buf = d.buf[len(pasteStart):]
			continue
		}
		n, complete := frame(d.buf)
		if !complete && !expired {
			break
		}
		out = d.decode(out, d.buf[:n])
		d.buf = d.buf[n:]
	}
	if len(d.buf) == 0 {
		d.buf = nil
	}
	return out
}

// partialSuffix is the length of the longest tail of b that is a proper
// prefix of marker.
func partialSuffix(b, marker []byte) int {
	for n := min(len(marker)-1, len(b)); n > 0; n-- {
		if bytes.HasPrefix(marker, b[len(b)-n:]) {
			return n
		}
	}
	return 0
}

// frame is the length of the first event in b, and whether it is
// complete (false: more bytes may belong to it).
func frame(b []byte) (n int, complete bool) {
	switch c := b[0]; {
	case c == 0x1b:
		return frameEsc(b)
	case c < 0x80:
		return 1, true
	default:
		if !utf8.FullRune(b) {
			// A valid start of a character cut by the read: wait. An
			// invalid byte can never complete, so it stands alone.
			if validUTF8Prefix(b) {
				return len(b), false
			}
			return 1, true
		}
		if r, size := utf8.DecodeRune(b); r == utf8.RuneError {
			return size, true
		}
		cluster, _, _, _ := uniseg.FirstGraphemeCluster(b, -1)
		return len(cluster), true
	}
}

// validUTF8Prefix reports whether b (not a full rune) can still become one.
func validUTF8Prefix(b []byte) bool {
	need := 0
	switch c := b[0]; {
	case c&0xE0 == 0xC0:
		need = 2
	case c&0xF0 == 0xE0:
		need = 3
	case c&0xF8 == 0xF0:
		need = 4
	default:
		return false
	}
	if len(b) >= need {
		return false
	}
	for _, c := range b[1:] {
		if c&0xC0 != 0x80 {
			return false
		}
	}
	return true
}

func frameEsc(b []byte) (int, bool) {
	if len(b) == 1 {
		return 1, false
	}
	switch b[1] {
	case '[':
		return frameCSI(b)
	case 'O':
		i := 2
		for i < len(b) && b[i] >= '0' && b[i] <= '9' {
			i++
		}
		if i >= len(b) {
			return len(b), false
		}
		return i + 1, true
	case ']', 'P', '_', '^', 'X':
		return frameString(b)
	case 0x1b:
		// ESC ESC: Alt+Escape, unless the second ESC starts a sequence
		// (then the first is a lone Escape).
		if len(b) == 2 {
			return 2, false
		}
		switch b[2] {
		case '[', ']', 'O', 'P', '_':
			return 1, true
		}
		return 2, true
	}
	// ESC followed by a key: Alt plus that key.
	n, ok := frame(b[1:])
	return 1 + n, ok
}

func frameCSI(b []byte) (int, bool) {
	if len(b) == 2 {
		return 2, false
	}
	if b[2] == 'M' {
		// X10 mouse: three raw bytes follow.
		if len(b) < 6 {
			return len(b), false
		}
		return 6, true
	}
	i := 2
	for i < len(b) && b[i] >= 0x30 && b[i] <= 0x3F {
		i++
	}
	for i < len(b) && b[i] >= 0x20 && b[i] <= 0x2F {
		i++
	}
	if i >= len(b) {
		return len(b), false
	}
	if b[i] >= 0x40 && b[i] <= 0x7E {
		return i + 1, true
	}
	// Not a CSI byte: the sequence is broken; it ends before this byte.
	return i, true
}

// frameString frames OSC, DCS, APC, PM and SOS: up to BEL (OSC's
// terminator of choice) or ST (ESC \). An ESC not followed by \ cancels
// the string, which then ends before that ESC.
func frameString(b []byte) (int, bool) {
	for i := 2; i < len(b); i++ {
		switch b[i] {
		case 0x07:
			return i + 1, true
		case 0x18, 0x1a: // CAN, SUB
			return i + 1, true
		case 0x1b:
			if i+1 >= len(b) {
				return len(b), false
			}
			if b[i+1] == '\\' {
				return i + 2, true
			}
			return i, true
		}
	}
	return len(b), false
}
