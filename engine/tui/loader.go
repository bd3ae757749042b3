package tui

import "time"

// SpinnerFrames are the Loader's default frames, shown 80 ms apart.
var SpinnerFrames = []string{"⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"}

// SpinnerInterval is the Loader's default frame time.
const SpinnerInterval = 80 * time.Millisecond

// Loader is a spinner and a message: a blank row, then "⠋ message" with
// one column of padding. Start drives it from the scheduler's timer (a
// Program), so it turns without sleeping and without a goroutine of its
// own; Stop ends the ticks.
type Loader struct {
	sched        Scheduler
	message      string
	spinnerStyle func(string) string
	messageStyle func(string) string
	frames       []string
	interval     time.Duration
	frame        int
	stop         func()
	text         Text
	rows         []string // "" then the text rows, rebuilt when those change
	textRows     []string
}

// NewLoader builds a stopped loader.
func NewLoader(s Scheduler, message string, spinnerStyle, messageStyle func(string) string) *Loader {
	l := &Loader{sched: s, message: message, spinnerStyle: spinnerStyle, messageStyle: messageStyle,
		frames: SpinnerFrames, interval: SpinnerInterval, text: Text{padX: 1}}
	l.update()
	return l
}

// SetFrames replaces the frames and their interval (an extension's
// working indicator); an empty list shows only the message.
func (l *Loader) SetFrames(frames []string, interval time.Duration) {
	l.frames = frames
	if interval > 0 {
		l.interval = interval
	}
	l.frame = 0
	if l.stop != nil {
		l.Stop()
		l.Start()
	}
	l.update()
}

// SetMessage replaces the message.
func (l *Loader) SetMessage(m string) { l.message = m; l.update() }

// Frame is the spinner frame showing now ("" without frames).
func (l *Loader) Frame() string {
	if len(l.frames) == 0 {
		return ""
	}
	return l.frames[l.frame%len(l.frames)]
}

// Start begins turning (again); it is a no-op while running.
func (l *Loader) Start() {
	if l.stop != nil || len(l.frames) <= 1 || l.sched == nil {
		return
	}
	l.stop = l.sched.Every(l.interval, l.Tick)
}

// Stop ends the ticks.
func (l *Loader) Stop() {
	if l.stop != nil {
		l.stop()
		l.stop = nil
	}
}

// Tick shows the next frame and asks for a frame (the timer calls it;
// tests may too).
func (l *Loader) Tick() {
	if len(l.frames) > 0 {
		l.frame = (l.frame + 1) % len(l.frames)
	}
	l.update()
	if l.sched != nil {
		l.sched.RequestRender()
	}
}

func (l *Loader) update() {
	s := l.message
	if l.messageStyle != nil {
		s = l.messageStyle(s)
	}
	if f := l.Frame(); f != "" {
		if l.spinnerStyle != nil {
			f = l.spinnerStyle(f)
		}
		s = f + " " + s
	}
	l.text.SetText(s)
}

// Invalidate drops the cached rows.
func (l *Loader) Invalidate() { l.text.Invalidate() }

// Render is a blank row and the spinner row.
func (l *Loader) Render(width int) []string {
	tr := l.text.Render(width)
	if l.rows == nil || !equalRows(tr, l.textRows) {
		l.textRows = tr
		l.rows = append([]string{""}, tr...)
	}
	return l.rows
}
