package dialogs

import (
	"fmt"
	"time"

	"github.com/pi-go/pi/engine/tui"
)

// Countdown is the timeout of a dialog: the title shows the seconds left
// as "Title (9s)", and the dialog cancels itself when they run out. The
// dialog does not run a timer: the app calls Tick (about once a second)
// while Timed reports true, so tests drive the clock.
type Countdown struct {
	deadline time.Time
	now      func() time.Time
	left     int
}

func newCountdown(d time.Duration, now func() time.Time) *Countdown {
	if d <= 0 {
		return nil
	}
	if now == nil {
		now = time.Now
	}
	c := &Countdown{deadline: now().Add(d), now: now}
	c.update()
	return c
}

// update recomputes the seconds left and reports whether time is up.
func (c *Countdown) update() bool {
	rem := c.deadline.Sub(c.now())
	c.left = int((rem + time.Second - 1) / time.Second)
	return rem <= 0
}

func (c *Countdown) title(t string) string {
	if c == nil {
		return t
	}
	return fmt.Sprintf("%s (%ds)", t, max(c.left, 0))
}

// Timed is a dialog with a countdown.
type Timed interface {
	// Tick updates the countdown and, when time is up, cancels the
	// dialog. It reports whether the dialog still wants ticks.
	Tick() bool
}

// SelectOptions configure a Select.
type SelectOptions struct {
	Title   string
	Message string // optional, below the title
	Options []string
	// Timeout, when positive, cancels the dialog after that long.
	Timeout time.Duration
	// Now is the clock of the countdown (nil: time.Now).
	Now func() time.Time
	// OnSelect gets the chosen option's index and text.
	OnSelect func(index int, option string)
	// OnCancel runs on Escape/Ctrl+C, Cancel and a timeout.
	OnCancel func()
	// OnHighlight, when set, gets the option the selection moved to (the
	// theme picker previews it).
	OnHighlight func(index int, option string)
	// Search adds a "> " field that filters the options as the user
	// types (long lists such as the /login providers); j and k then type
	// instead of moving.
	Search bool
}

// Select is ctx.ui.select: a titled list of options with "→ " on the
// selection and a hint row. Up/Down (and j/k) move without wrapping.
type Select struct {
	rc     renderCache
	st     Style
	o      SelectOptions
	l      *list[string]
	search Line
	cd     *Countdown
	done   bool
}

// NewSelect builds a Select.
func NewSelect(st Style, o SelectOptions) *Select {
	var text func(string) string
	if o.Search {
		text = func(s string) string { return s }
	}
	l := newList(o.Options, text)
	return &Select{st: st, o: o, l: l, search: Line{Prompt: "> "}, cd: newCountdown(o.Timeout, o.Now)}
}

// Done reports whether the dialog has resolved.
func (s *Select) Done() bool { return s.done }

// Cancel resolves the dialog as cancelled (an extension's abort signal).
func (s *Select) Cancel() {
	s.rc.bump()
	if s.done {
		return
	}
	s.done = true
	if s.o.OnCancel != nil {
		s.o.OnCancel()
	}
}

// Tick implements Timed.
func (s *Select) Tick() bool {
	s.rc.bump()
	if s.done || s.cd == nil {
		return false
	}
	if s.cd.update() {
		s.Cancel()
		return false
	}
	return true
}

// HandleKey moves the selection, selects or cancels.
func (s *Select) HandleKey(k tui.Key) bool {
	s.rc.bump()
	if s.done || k.Release {
		return false
	}
	_, before, _ := s.l.current()
	defer func() {
		if opt, i, ok := s.l.current(); ok && i != before && !s.done && s.o.OnHighlight != nil {
			s.o.OnHighlight(i, opt)
		}
	}()
	switch {
	case s.st.Is(k, "tui.select.up") || (k.Text == "k" && !s.o.Search):
		s.l.move(-1)
	case s.st.Is(k, "tui.select.down") || (k.Text == "j" && !s.o.Search):
		s.l.move(1)
	case s.st.Is(k, "tui.select.pageUp"):
		s.l.move(-s.l.visible())
	case s.st.Is(k, "tui.select.pageDown"):
		s.l.move(s.l.visible())
	case s.st.Is(k, "tui.select.confirm") || k.Is("ctrl+j"):
		opt, i, ok := s.l.current()
		if !ok {
			return true
		}
		s.done = true
		if s.o.OnSelect != nil {
			s.o.OnSelect(i, opt)
		}
	case s.st.Is(k, "tui.select.cancel"):
		s.Cancel()
	default:
		if !s.o.Search || !s.search.HandleKey(k) {
			return false
		}
		s.l.setQuery(s.search.Text())
	}
	return true
}

// HandlePaste types into the search field of a searchable Select.
func (s *Select) HandlePaste(text string) {
	s.rc.bump()
	if s.o.Search && !s.done {
		s.search.HandlePaste(text)
		s.l.setQuery(s.search.Text())
	}
}

// Render draws border, title, message, the options, the hint row and the
// closing border.
// The rows are cached by width until the dialog changes.
func (s *Select) Render(width int) []string { return s.rc.get(width, s.render) }

// Invalidate drops the cached rows (after a theme change).
func (s *Select) Invalidate() { s.rc.bump() }

func (s *Select) render(width int) []string {
	f := &frame{w: width}
	f.line(s.st.border(width))
	f.blank()
	f.pad(s.st.title(s.cd.title(s.o.Title)))
	if s.o.Message != "" {
		f.blank()
		f.pad(s.st.text(s.o.Message))
	}
	f.blank()
	if s.o.Search {
		f.pad(s.search.Render(max(width-1, 1))[0])
		f.blank()
		if s.l.len() == 0 {
			f.pad(s.st.muted("  No matches"))
		}
	}
	start, end := s.l.window()
	for n := start; n < end; n++ {
		opt := oneLine(s.l.items[s.l.shown[n]])
		if n == s.l.sel {
			f.pad(s.st.accent("→ " + opt))
		} else {
			f.pad("  " + s.st.text(opt))
		}
	}
	if info := s.l.scrollInfo(); info != "" {
		f.line(s.st.muted("  " + info))
	}
	f.blank()
	f.pad(s.st.RawHint("↑↓", "navigate") + "  " + s.st.Hint("tui.select.confirm", "select") + "  " + s.st.Hint("tui.select.cancel", "cancel"))
	f.blank()
	f.line(s.st.border(width))
	return f.rows
}

// ConfirmOptions configure a Confirm.
type ConfirmOptions struct {
	Title, Message string
	Timeout        time.Duration
	Now            func() time.Time
	// OnDone gets true for Yes; a cancel (or timeout) is false.
	OnDone func(yes bool)
}

// NewConfirm is ctx.ui.confirm: a Select of Yes and No under the title
// and message. Escape, Ctrl+C and the timeout answer No.
func NewConfirm(st Style, o ConfirmOptions) *Select {
	done := func(v bool) {
		if o.OnDone != nil {
			o.OnDone(v)
		}
	}
	return NewSelect(st, SelectOptions{
		Title: o.Title, Message: o.Message, Options: []string{"Yes", "No"}, Timeout: o.Timeout, Now: o.Now,
		OnSelect: func(i int, _ string) { done(i == 0) },
		OnCancel: func() { done(false) },
	})
}
