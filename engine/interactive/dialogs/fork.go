package dialogs

import (
	"fmt"

	"github.com/pi-go/pi/engine/tui"
)

// ForkItem is one user message a fork can start from.
type ForkItem struct {
	EntryID string
	Text    string
}

// ForkSelectorOptions configure the /fork selector.
type ForkSelectorOptions struct {
	Messages []ForkItem // oldest first
	OnSelect func(ForkItem)
	OnCancel func()
}

// ForkSelector lists the session's user messages, newest selected, with
// "Message N of M" under the list.
type ForkSelector struct {
	rc   renderCache
	st   Style
	o    ForkSelectorOptions
	l    *list[ForkItem]
	done bool
}

// NewForkSelector builds the selector on the latest message.
func NewForkSelector(st Style, o ForkSelectorOptions) *ForkSelector {
	fs := &ForkSelector{st: st, o: o, l: newList(o.Messages, nil)}
	fs.l.wrap = true
	fs.l.sel = max(len(o.Messages)-1, 0)
	return fs
}

// Done reports whether the selector has resolved.
func (fs *ForkSelector) Done() bool { return fs.done }

// HandleKey moves, selects or cancels.
func (fs *ForkSelector) HandleKey(k tui.Key) bool {
	fs.rc.bump()
	if fs.done || k.Release {
		return false
	}
	switch {
	case fs.st.Is(k, "tui.select.up"):
		fs.l.move(-1)
	case fs.st.Is(k, "tui.select.down"):
		fs.l.move(1)
	case fs.st.Is(k, "tui.select.pageUp"):
		fs.l.move(-fs.l.visible())
	case fs.st.Is(k, "tui.select.pageDown"):
		fs.l.move(fs.l.visible())
	case fs.st.Is(k, "tui.select.confirm"):
		if it, _, ok := fs.l.current(); ok {
			fs.done = true
			if fs.o.OnSelect != nil {
				fs.o.OnSelect(it)
			}
		}
	case fs.st.Is(k, "tui.select.cancel"):
		fs.done = true
		if fs.o.OnCancel != nil {
			fs.o.OnCancel()
		}
	default:
		return false
	}
	return true
}

// Render draws the title and explanation above the top rule, then the
// messages and the position, as the reference lays it out.
// The rows are cached by width until the dialog changes.
func (fs *ForkSelector) Render(width int) []string { return fs.rc.get(width, fs.render) }

// Invalidate drops the cached rows (after a theme change).
func (fs *ForkSelector) Invalidate() { fs.rc.bump() }

func (fs *ForkSelector) render(width int) []string {
	st := fs.st
	f := &frame{w: width}
	f.pad(st.title("Fork from Message"))
	f.pad(st.muted("Pick a user message: the active path up to it is copied into a new session, and its text goes back into the editor"))
	f.blank()
	f.line(st.border(width))
	f.blank()
	if fs.l.len() == 0 {
		f.line(st.muted("  No user messages found"))
	}
	start, end := fs.l.window()
	for n := start; n < end; n++ {
		text := oneLine(fs.l.items[fs.l.shown[n]].Text)
		if n == fs.l.sel {
			f.line(st.accent("› " + text))
		} else {
			f.line("  " + st.text(text))
		}
	}
	if fs.l.len() > 0 {
		f.line(st.muted(fmt.Sprintf("  Message %d of %d", fs.l.sel+1, fs.l.len())))
	}
	f.blank()
	f.blank()
	f.line(st.border(width))
	return f.rows
}
