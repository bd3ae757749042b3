package dialogs

import "github.com/pi-go/pi/engine/tui"

// Loader is a bordered "working" box shown in the editor's place while a
// command waits on the network or a helper program (/share, /bug): a
// spinner with the message, and Escape to cancel.
type Loader struct {
	rc       renderCache
	st       Style
	message  string
	frame    int
	onCancel func()
	done     bool
}

// NewLoader builds a loader; onCancel runs once on Escape.
func NewLoader(st Style, message string, onCancel func()) *Loader {
	return &Loader{st: st, message: message, onCancel: onCancel}
}

// Done reports whether the loader was cancelled or finished.
func (l *Loader) Done() bool { return l.done }

// Finish ends the loader without cancelling (the work completed).
func (l *Loader) Finish() { l.done = true }

// Tick turns the spinner (Timed).
func (l *Loader) Tick() bool {
	l.rc.bump()
	l.frame++
	return !l.done
}

// HandleKey cancels on Escape; other keys are swallowed while it shows.
func (l *Loader) HandleKey(k tui.Key) bool {
	if k.Release || l.done {
		return false
	}
	if l.st.Is(k, "tui.select.cancel") {
		l.done = true
		l.rc.bump()
		if l.onCancel != nil {
			l.onCancel()
		}
	}
	return true
}

// Render draws the box.
func (l *Loader) Render(width int) []string { return l.rc.get(width, l.render) }

// Invalidate drops the cached rows (after a theme change).
func (l *Loader) Invalidate() { l.rc.bump() }

func (l *Loader) render(width int) []string {
	f := &frame{w: width}
	f.line(l.st.border(width))
	f.blank()
	spin := tui.SpinnerFrames[l.frame%len(tui.SpinnerFrames)]
	f.pad(l.st.accent(spin) + " " + l.st.muted(l.message))
	f.blank()
	f.pad(l.st.Hint("tui.select.cancel", "cancel"))
	f.blank()
	f.line(l.st.border(width))
	return f.rows
}
