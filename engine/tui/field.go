package tui

import (
	"strings"
	"unicode"
)

// Input is a one-line text field: a prompt ("> " by default), the text
// scrolled horizontally so the cursor stays in view, and a reverse-video
// cursor with a CursorMarker while focused. Keys are the keymap's
// tui.editor.* motions and deletions, tui.input.submit (OnSubmit) and
// tui.select.cancel (OnCancel); other keys with text insert it.
type Input struct {
	Prompt   string
	OnSubmit func(string)
	OnCancel func()
	OnChange func(string)

	value   []rune
	cur     int
	scroll  int
	focused bool
	km      *Keymap
	version int
	cache   rowCache
}

// NewInput builds an empty field using km's bindings.
func NewInput(km *Keymap) *Input { return &Input{Prompt: "> ", km: km} }

// Value is the text.
func (in *Input) Value() string { return string(in.value) }

// SetValue replaces the text and puts the cursor at its end.
func (in *Input) SetValue(s string) {
	in.value = []rune(oneLine(s))
	in.cur = len(in.value)
	in.version++
}

// SetFocused shows or hides the cursor.
func (in *Input) SetFocused(f bool) { in.focused = f; in.version++ }

// Invalidate drops the cached row.
func (in *Input) Invalidate() { in.cache.valid = false }

func oneLine(s string) string {
	s = strings.ReplaceAll(s, "\r\n", " ")
	return strings.Map(func(r rune) rune {
		if r == '\n' || r == '\r' || r == '\t' {
			return ' '
		}
		if unicode.IsControl(r) {
			return -1
		}
		return r
	}, s)
}

// HandlePaste inserts pasted text as one line.
func (in *Input) HandlePaste(text string) { in.insert(oneLine(text)) }

func (in *Input) insert(s string) {
	if s == "" {
		return
	}
	r := []rune(s)
	in.value = append(in.value[:in.cur], append(r, in.value[in.cur:]...)...)
	in.cur += len(r)
	in.changed()
}

func (in *Input) changed() {
	in.version++
	if in.OnChange != nil {
		in.OnChange(string(in.value))
	}
}

// HandleKey edits the text.
func (in *Input) HandleKey(k Key) bool {
	m := func(action string) bool { return in.km.Matches(k, action) }
	n := len(in.value)
	switch {
	case m("tui.input.submit"):
		if in.OnSubmit != nil {
			in.OnSubmit(string(in.value))
		}
	case m("tui.select.cancel"):
		if in.OnCancel != nil {
			in.OnCancel()
		}
	case m("tui.editor.cursorLeft"):
		in.moveTo(in.cur - 1)
	case m("tui.editor.cursorRight"):
		in.moveTo(in.cur + 1)
	case m("tui.editor.cursorLineStart"):
		in.moveTo(0)
	case m("tui.editor.cursorLineEnd"):
		in.moveTo(n)
	case m("tui.editor.cursorWordLeft"):
		in.moveTo(in.wordLeft())
	case m("tui.editor.cursorWordRight"):
		in.moveTo(in.wordRight())
	case m("tui.editor.deleteCharBackward"):
		in.deleteRange(in.cur-1, in.cur)
	case m("tui.editor.deleteCharForward"):
		in.deleteRange(in.cur, in.cur+1)
	case m("tui.editor.deleteWordBackward"):
		in.deleteRange(in.wordLeft(), in.cur)
	case m("tui.editor.deleteWordForward"):
		in.deleteRange(in.cur, in.wordRight())
	case m("tui.editor.deleteToLineStart"):
		in.deleteRange(0, in.cur)
	case m("tui.editor.deleteToLineEnd"):
		in.deleteRange(in.cur, n)
	default:
		if k.Text != "" && k.Mod&(ModCtrl|ModAlt|ModSuper) == 0 {
			in.insert(oneLine(k.Text))
			return true
		}
		return false
	}
	return true
}

func (in *Input) moveTo(i int) {
	i = min(max(i, 0), len(in.value))
	if i != in.cur {
		in.cur = i
		in.version++
	}
}

func (in *Input) deleteRange(from, to int) {
	from, to = max(from, 0), min(to, len(in.value))
	if from >= to {
		return
	}
	in.value = append(in.value[:from], in.value[to:]...)
	in.cur = from
	in.changed()
}

func isWordRune(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) || r == '_' }

// wordLeft is the start of the word before the cursor (skipping blanks).
func (in *Input) wordLeft() int {
	i := in.cur
	for i > 0 && !isWordRune(in.value[i-1]) {
		i--
	}
	for i > 0 && isWordRune(in.value[i-1]) {
		i--
	}
	return i
}

// wordRight is the end of the word after the cursor.
func (in *Input) wordRight() int {
	i, n := in.cur, len(in.value)
	for i < n && !isWordRune(in.value[i]) {
		i++
	}
	for i < n && isWordRune(in.value[i]) {
		i++
	}
	return i
}

// Render draws the prompt and the scrolled text.
func (in *Input) Render(width int) []string {
	if rows, ok := in.cache.get(width, in.version); ok {
		return rows
	}
	pw := Width(in.Prompt)
	avail := width - pw
	if avail <= 0 {
		return in.cache.put(width, in.version, []string{Truncate(in.Prompt, width, "")})
	}
	// Keep the cursor cell in view: scroll left when the cursor is left
	// of the window, right while the text up to the cursor plus the
	// cursor cell is wider than the window.
	in.scroll = min(in.scroll, in.cur)
	lo, used := in.cur, 1
	for lo > in.scroll {
		w := max(Width(string(in.value[lo-1])), 0)
		if used+w > avail {
			break
		}
		used += w
		lo--
	}
	in.scroll = lo
	var b strings.Builder
	b.WriteString(in.Prompt)
	used = 0
	for i := in.scroll; i <= len(in.value); i++ {
		ch := " "
		if i < len(in.value) {
			ch = string(in.value[i])
		} else if i != in.cur {
			break
		}
		w := max(Width(ch), 1)
		if used+w > avail {
			break
		}
		if i == in.cur && in.focused {
			b.WriteString(CursorMarker)
			b.WriteString("\x1b[7m" + ch + "\x1b[27m")
		} else {
			b.WriteString(ch)
		}
		used += w
	}
	return in.cache.put(width, in.version, []string{b.String()})
}
