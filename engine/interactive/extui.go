package interactive

import (
	"context"
	"sync"
	"time"

	"github.com/pi-go/pi/engine"
	"github.com/pi-go/pi/engine/tui"
)

// UI is engine.UI for the interactive mode (ctx.mode "tui", ctx.hasUI
// true). It exists before the screen does: pi.New needs it for the
// extensions, and what they ask before Run attaches it (a notify in
// session_start) waits and is shown once the screen is up.
type UI struct {
	mu      sync.Mutex
	a       *app
	backlog []func(*app)
	closed  chan struct{}
}

var _ engine.UI = (*UI)(nil)

// NewUI returns a UI to pass as pi.Options.UI and Options.UI.
func NewUI() *UI { return &UI{closed: make(chan struct{})} }

// do runs fn on the UI goroutine, now or once the screen is attached.
func (u *UI) do(fn func(a *app)) {
	u.mu.Lock()
	a := u.a
	if a == nil {
		select {
		case <-u.closed:
		default:
			u.backlog = append(u.backlog, fn)
		}
		u.mu.Unlock()
		return
	}
	u.mu.Unlock()
	a.p.Post(func() { fn(a) })
}

func (u *UI) attach(a *app) {
	u.mu.Lock()
	u.a = a
	backlog := u.backlog
	u.backlog = nil
	u.mu.Unlock()
	for _, fn := range backlog {
		a.p.Post(func() { fn(a) })
	}
}

// detach is the screen going away: dialogs still open resolve with their
// defaults, and later calls are dropped.
func (u *UI) detach() {
	u.mu.Lock()
	u.a = nil
	u.backlog = nil
	select {
	case <-u.closed:
	default:
		close(u.closed)
	}
	u.mu.Unlock()
}

// HasUI is true: dialogs reach a person.
func (u *UI) HasUI() bool { return true }

// Mode is "tui".
func (u *UI) Mode() string { return "tui" }

// Notify adds a notice to the transcript: errors in red with "Error: ",
// warnings with "Warning: ", information dimmed.
func (u *UI) Notify(message, notifyType string) {
	u.do(func(a *app) {
		switch notifyType {
		case "error":
			a.showError("Error: " + message)
		case "warning":
			a.showWarning("Warning: " + message)
		default:
			a.tr.notice("dim", message)
			a.p.RequestRender()
		}
	})
}

// SetStatus sets (text non-nil) or clears a footer status.
func (u *UI) SetStatus(key string, text *string) {
	u.do(func(a *app) {
		if text == nil {
			delete(a.foot.statuses, key)
		} else {
			a.foot.statuses[key] = *text
		}
		a.foot.changed()
		a.p.RequestRender()
	})
}

// SetWidget sets (lines non-nil) or clears a widget above or below the
// editor.
func (u *UI) SetWidget(key string, lines []string, o engine.WidgetOptions) {
	u.do(func(a *app) {
		above, below := a.above, a.below
		if o.Placement == "belowEditor" {
			above, below = below, above
		}
		// A key lives in one place: moving it clears the other.
		below.set(key, nil)
		above.set(key, lines)
		a.p.RequestRender()
	})
}

// SetTitle sets the terminal title.
func (u *UI) SetTitle(title string) { u.do(func(a *app) { a.setTitle(title) }) }

// SetEditorText replaces the editor's text.
func (u *UI) SetEditorText(text string) {
	u.do(func(a *app) {
		a.editor.SetText(text)
		a.p.RequestRender()
	})
}

// Select shows a list dialog in the editor's place.
func (u *UI) Select(ctx context.Context, title string, options []string, o engine.DialogOptions) (string, bool) {
	return u.dialog(ctx, o.TimeoutMs, func(a *app, done func(string, bool)) tui.Component {
		return newSelectDialog(a, title, options, o.TimeoutMs, done)
	})
}

// Confirm shows a Yes/No dialog.
func (u *UI) Confirm(ctx context.Context, title, message string, o engine.DialogOptions) bool {
	_, ok := u.dialog(ctx, o.TimeoutMs, func(a *app, done func(string, bool)) tui.Component {
		return newConfirmDialog(a, title, message, o.TimeoutMs, done)
	})
	return ok
}

// Input shows a one-line input dialog.
func (u *UI) Input(ctx context.Context, title, placeholder string, o engine.DialogOptions) (string, bool) {
	return u.dialog(ctx, o.TimeoutMs, func(a *app, done func(string, bool)) tui.Component {
		return newInputDialog(a, title, placeholder, o.TimeoutMs, done)
	})
}

// Editor shows a multi-line editor dialog.
func (u *UI) Editor(ctx context.Context, title, prefill string) (string, bool) {
	return u.dialog(ctx, 0, func(a *app, done func(string, bool)) tui.Component {
		return newEditorDialog(a, title, prefill, done)
	})
}

type dialogResult struct {
	value string
	ok    bool
}

// dialog shows the component build returns in the editor's place and
// waits for its answer, the timeout, ctx's end or the screen closing;
// the last three resolve with the default.
func (u *UI) dialog(ctx context.Context, timeoutMs int64, build func(a *app, done func(string, bool)) tui.Component) (string, bool) {
	if ctx.Err() != nil {
		return "", false
	}
	res := make(chan dialogResult, 1)
	var shown tui.Component
	var once sync.Once
	resolve := func(a *app, v string, ok bool) {
		once.Do(func() {
			res <- dialogResult{v, ok}
			a.closeDialog(shown)
		})
	}
	u.do(func(a *app) {
		shown = build(a, func(v string, ok bool) { resolve(a, v, ok) })
		if shown == nil {
			resolve(a, "", false)
			return
		}
		a.openDialog(shown)
	})
	var timeout <-chan time.Time
	if timeoutMs > 0 {
		t := time.NewTimer(time.Duration(timeoutMs) * time.Millisecond)
		defer t.Stop()
		timeout = t.C
	}
	select {
	case r := <-res:
		return r.value, r.ok
	case <-ctx.Done():
	case <-timeout:
	case <-u.closed:
		return "", false
	}
	u.do(func(a *app) { resolve(a, "", false) })
	return "", false
}

// openDialog puts c in the editor's place with the keyboard.
func (a *app) openDialog(c tui.Component) {
	if a.dialog != nil {
		a.dialogStack = append(a.dialogStack, a.dialog)
	}
	a.dialog = c
	a.layoutDock()
	a.p.SetFocus(c)
	a.startDialogTicks()
	a.p.RequestRender()
}

// closeDialog removes c (wherever it is in the stack) and gives the
// keyboard back.
func (a *app) closeDialog(c tui.Component) {
	if c == nil {
		return
	}
	if a.dialog != c {
		for i, d := range a.dialogStack {
			if d == c {
				a.dialogStack = append(a.dialogStack[:i], a.dialogStack[i+1:]...)
				break
			}
		}
		return
	}
	a.dialog = nil
	if n := len(a.dialogStack); n > 0 {
		a.dialog, a.dialogStack = a.dialogStack[n-1], a.dialogStack[:n-1]
	}
	a.layoutDock()
	if a.dialog != nil {
		a.p.SetFocus(a.dialog)
	} else {
		a.p.SetFocus(a.editor)
	}
	a.p.RequestRender()
}

// ticker is a dialog with a countdown (tuicmd's dialogs.Timed).
type ticker interface{ Tick() bool }

// startDialogTicks redraws a countdown dialog once a second while it
// wants ticks.
func (a *app) startDialogTicks() {
	if a.stopTicks != nil {
		return
	}
	a.stopTicks = a.p.Every(time.Second, func() {
		t, ok := a.dialog.(ticker)
		if !ok || !t.Tick() {
			if a.stopTicks != nil {
				a.stopTicks()
				a.stopTicks = nil
			}
		}
		a.p.RequestRender()
	})
}
