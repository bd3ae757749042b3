package tui

import (
	"sync"
	"sync/atomic"
	"time"
)

// KeyReleaseHandler is a focused component that wants Kitty key-release
// events (games, push-to-talk); other components never see releases.
type KeyReleaseHandler interface {
	WantsKeyRelease() bool
}

// MouseHandler is a focus target that takes mouse events the renderer
// did not use (fullscreen wheel and drag-select come first).
type MouseHandler interface {
	HandleMouse(m Mouse) bool
}

// dispatch routes one event; see the Program doc for the order.
func (p *Program) dispatch(ev Event) {
	if p.waitStart && p.startReply(ev) {
		return
	}
	switch e := ev.(type) {
	case Reply:
		if isProgramStatusReply(e.Raw) {
			if p.modes.statusQueried {
				p.modes.statusQueried = false
				p.modes.programStatus = true
				if p.status != nil {
					p.write(FormatProgramStatus(*p.status))
					p.modes.statusShown = true
				}
			}
			return
		}
		if s := p.modes.probeReply(e.Raw); s != "" {
			p.write(s)
		}
	case Resize:
		p.RequestRender()
	case Key, Paste:
		p.inputSeen = true
	case Mouse:
		p.inputSeen = true
		if p.o.Fullscreen && p.mouseFull(e) {
			p.RequestRender()
			return
		}
	}
	if k, ok := ev.(Key); ok && k.Release {
		if h, ok := p.focusTarget().(KeyReleaseHandler); ok && h.WantsKeyRelease() {
			if ih, ok := h.(InputHandler); ok {
				ih.HandleKey(k)
				p.RequestRender()
			}
		}
		return
	}
	if k, ok := ev.(Key); ok && p.viewportKey(k) {
		p.RequestRender()
		return
	}
	if p.intercept != nil && p.intercept(ev) {
		p.RequestRender()
		return
	}
	target := p.focusTarget()
	switch e := ev.(type) {
	case Key:
		if h, ok := target.(InputHandler); ok && h.HandleKey(e) {
			p.RequestRender()
			return
		}
	case Paste:
		if h, ok := target.(PasteHandler); ok {
			h.HandlePaste(e.Text)
			p.RequestRender()
			return
		}
	case Mouse:
		if h, ok := target.(MouseHandler); ok && h.HandleMouse(e) {
			p.RequestRender()
			return
		}
	}
	if p.onEvent != nil {
		p.onEvent(ev)
	}
	p.RequestRender()
}

// startReply takes the terminal's answers to the start-up cursor query
// while the first regular-mode frame waits: a cursor report gives the
// start row (and is consumed: it is ours); DA1 without one ends the wait.
func (p *Program) startReply(ev Event) bool {
	var raw string
	switch e := ev.(type) {
	case Reply:
		raw = e.Raw
	case Key:
		raw = e.Raw
	default:
		return false
	}
	if row, ok := cursorReportRow(raw); ok {
		p.startRow = row - 1
		p.endWait()
		return true
	}
	if isCSIReply(raw, 'c', "0123456789;") {
		p.endWait()
	}
	return false
}

// endWait releases the first regular-mode frame and cancels the
// fallback timer (a late timer would draw a frame nobody asked for).
func (p *Program) endWait() {
	p.waitStart = false
	if p.stopWait != nil {
		p.stopWait()
		p.stopWait = nil
	}
	p.RequestRender()
}

// Dispatch delivers ev as if the terminal had sent it (UI goroutine):
// for synthetic input such as an extension's pasteToEditor, and tests.
func (p *Program) Dispatch(ev Event) { p.dispatch(ev) }

// focusTarget is the topmost visible overlay that captures focus, else
// the focused component.
func (p *Program) focusTarget() Component {
	for i := len(p.overlays) - 1; i >= 0; i-- {
		if ov := p.overlays[i]; ov.capture && !ov.hidden {
			return ov.c
		}
	}
	return p.focus
}

// After runs fn on the UI goroutine once, d from now. stop cancels it.
func (p *Program) After(d time.Duration, fn func()) (stop func()) {
	var stopped atomic.Bool
	t := time.AfterFunc(d, func() {
		p.Post(func() {
			if !stopped.Load() {
				fn()
			}
		})
	})
	return func() { stopped.Store(true); t.Stop() }
}

// Every runs fn on the UI goroutine every d until stop is called. Ticks
// do not pile up: while one waits for the UI goroutine, later ones are
// skipped (a spinner on a busy UI simply turns slower).
func (p *Program) Every(d time.Duration, fn func()) (stop func()) {
	var stopped, pending atomic.Bool
	tk := time.NewTicker(d)
	done := make(chan struct{})
	go func() {
		for {
			select {
			case <-done:
				return
			case <-tk.C:
				if pending.CompareAndSwap(false, true) {
					p.Post(func() {
						pending.Store(false)
						if !stopped.Load() {
							fn()
						}
					})
				}
			}
		}
	}()
	var once sync.Once
	return func() {
		once.Do(func() {
			stopped.Store(true)
			tk.Stop()
			close(done)
		})
	}
}

// Scheduler is what animated components need from a Program: a periodic
// callback on the UI goroutine and a frame request. *Program implements
// it; tests can use a manual one.
type Scheduler interface {
	Every(d time.Duration, fn func()) (stop func())
	RequestRender()
}
