package dialogs

import (
	"strings"
	"unicode"

	"github.com/pi-go/pi/engine/tui"
)

// Line is a one-line text field: the search row of the pickers and the
// body of the Input dialog. It keeps the text as runes with a cursor, and
// draws the cursor as a reverse-video cell. With Secret set it shows one
// "*" per character, so a typed API key never reaches the screen.
type Line struct {
	Prompt string // drawn before the text, e.g. "> "
	Secret bool
	// Placeholder is shown dim while the field is empty.
	Placeholder string
	// NoCursor hides the drawn cursor (a field that is not focused).
	NoCursor bool

	text []rune
	pos  int
}

// Text is the field's content.
func (l *Line) Text() string { return string(l.text) }

// SetText replaces the content and puts the cursor at its end.
func (l *Line) SetText(s string) {
	l.text = []rune(s)
	l.pos = len(l.text)
}

// HandleKey edits the field; it reports whether the key was an edit key.
func (l *Line) HandleKey(k tui.Key) bool {
	switch {
	case k.Release:
		return false
	case k.Text != "" && k.Mod&(tui.ModCtrl|tui.ModAlt|tui.ModSuper) == 0:
		l.insert(k.Text)
	case k.Is("space"):
		l.insert(" ")
	case k.Is("backspace") || k.Is("ctrl+h"):
		if l.pos > 0 {
			l.text = append(l.text[:l.pos-1], l.text[l.pos:]...)
			l.pos--
		}
	case k.Is("delete"):
		if l.pos < len(l.text) {
			l.text = append(l.text[:l.pos], l.text[l.pos+1:]...)
		}
	case k.Is("left") || k.Is("ctrl+b"):
		l.pos = max(l.pos-1, 0)
	case k.Is("right") || k.Is("ctrl+f"):
		l.pos = min(l.pos+1, len(l.text))
	case k.Is("home") || k.Is("ctrl+a"):
		l.pos = 0
	case k.Is("end") || k.Is("ctrl+e"):
		l.pos = len(l.text)
	case k.Is("ctrl+u"):
		l.text = l.text[l.pos:]
		l.pos = 0
	case k.Is("ctrl+k"):
		l.text = l.text[:l.pos]
	case k.Is("ctrl+w") || k.Is("alt+backspace"):
		i := l.pos
		for i > 0 && unicode.IsSpace(l.text[i-1]) {
			i--
		}
		for i > 0 && !unicode.IsSpace(l.text[i-1]) {
			i--
		}
		l.text = append(l.text[:i], l.text[l.pos:]...)
		l.pos = i
	default:
		return false
	}
	return true
}

// HandlePaste inserts pasted text, newlines flattened to spaces.
func (l *Line) HandlePaste(text string) {
	text = strings.NewReplacer("\r\n", " ", "\n", " ", "\r", " ", "\t", " ").Replace(text)
	l.insert(text)
}

func (l *Line) insert(s string) {
	r := []rune(s)
	l.text = append(l.text[:l.pos], append(r, l.text[l.pos:]...)...)
	l.pos += len(r)
}

// Render draws the prompt and the text, scrolled so the cursor stays in
// view.
func (l *Line) Render(width int) []string {
	prompt := l.Prompt
	avail := width - tui.Width(prompt)
	if avail < 1 {
		return []string{tui.Truncate(prompt, width, "")}
	}
	shown := l.text
	if l.Secret {
		shown = []rune(strings.Repeat("*", len(l.text)))
	}
	if len(shown) == 0 && l.Placeholder != "" {
		cur := ""
		if !l.NoCursor {
			cur = "\x1b[7m" + " " + "\x1b[27m"
			avail--
		}
		return []string{prompt + cur + "\x1b[2m" + tui.Truncate(l.Placeholder, avail, "") + "\x1b[22m"}
	}
	// Keep the cursor cell visible: drop runes from the left until the
	// text before the cursor plus the cursor cell fits.
	start := 0
	for start < l.pos && tui.Width(string(shown[start:l.pos]))+1 > avail {
		start++
	}
	var b strings.Builder
	b.WriteString(prompt)
	used := 0
	for i := start; i <= len(shown); i++ {
		ch := " "
		if i < len(shown) {
			ch = string(shown[i])
		}
		cw := max(tui.Width(ch), 1)
		if used+cw > avail {
			break
		}
		if i == l.pos && !l.NoCursor {
			b.WriteString("\x1b[7m" + ch + "\x1b[27m")
		} else if i < len(shown) {
			b.WriteString(ch)
		}
		used += cw
	}
	return []string{b.String()}
}
