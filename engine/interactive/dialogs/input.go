package dialogs

import (
	"time"

	"github.com/pi-go/pi/engine/tui"
)

// InputOptions configure an Input.
type InputOptions struct {
	Title       string
	Message     string // optional, below the title
	Placeholder string
	Value       string // initial text
	// Secret masks the text (API keys).
	Secret   bool
	Timeout  time.Duration
	Now      func() time.Time
	OnSubmit func(text string)
	OnCancel func()
}

// Input is ctx.ui.input and every one-line question of the built-in
// commands (a session name, a tree label, an API key).
type Input struct {
	rc   renderCache
	st   Style
	o    InputOptions
	line Line
	cd   *Countdown
	done bool
}

// NewInput builds an Input.
func NewInput(st Style, o InputOptions) *Input {
	in := &Input{st: st, o: o, cd: newCountdown(o.Timeout, o.Now)}
	in.line = Line{Prompt: "", Secret: o.Secret, Placeholder: o.Placeholder}
	in.line.SetText(o.Value)
	return in
}

// Text is the text typed so far.
func (in *Input) Text() string { return in.line.Text() }

// Done reports whether the dialog has resolved.
func (in *Input) Done() bool { return in.done }

// Cancel resolves the dialog as cancelled.
func (in *Input) Cancel() {
	in.rc.bump()
	if in.done {
		return
	}
	in.done = true
	if in.o.OnCancel != nil {
		in.o.OnCancel()
	}
}

// Tick implements Timed.
func (in *Input) Tick() bool {
	in.rc.bump()
	if in.done || in.cd == nil {
		return false
	}
	if in.cd.update() {
		in.Cancel()
		return false
	}
	return true
}

// HandleKey edits the text, submits on Enter, cancels on Escape/Ctrl+C.
func (in *Input) HandleKey(k tui.Key) bool {
	in.rc.bump()
	if in.done || k.Release {
		return false
	}
	switch {
	case in.st.Is(k, "tui.select.confirm"):
		in.done = true
		if in.o.OnSubmit != nil {
			in.o.OnSubmit(in.line.Text())
		}
		return true
	case in.st.Is(k, "tui.select.cancel"):
		in.Cancel()
		return true
	}
	return in.line.HandleKey(k)
}

// HandlePaste inserts pasted text into the field.
func (in *Input) HandlePaste(text string) {
	in.rc.bump()
	if !in.done {
		in.line.HandlePaste(text)
	}
}

// Render draws the title, the field and the hint row between borders.
// The rows are cached by width until the dialog changes.
func (in *Input) Render(width int) []string { return in.rc.get(width, in.render) }

// Invalidate drops the cached rows (after a theme change).
func (in *Input) Invalidate() { in.rc.bump() }

func (in *Input) render(width int) []string {
	f := &frame{w: width}
	f.line(in.st.border(width))
	f.blank()
	f.pad(in.st.title(in.cd.title(in.o.Title)))
	if in.o.Message != "" {
		f.pad(in.st.text(in.o.Message))
	}
	f.blank()
	for _, r := range in.line.Render(max(width-1, 1)) {
		f.line(" " + r)
	}
	f.blank()
	f.pad(in.st.Hint("tui.select.confirm", "submit") + "  " + in.st.Hint("tui.select.cancel", "cancel"))
	f.blank()
	f.line(in.st.border(width))
	return f.rows
}
