package tui

import (
	"bytes"
	"context"
	"errors"
	"io"
	"sync"
	"sync/atomic"
	"time"
)

// EventDecoder turns input bytes into events. Feed may keep an
// incomplete sequence for the next call; Flush gives up on it (a lone
// Escape key is only known once no more bytes follow).
type EventDecoder interface {
	Feed(b []byte) []Event
	Flush() []Event
}

// ProgramOptions configure a Program. The zero value is the regular
// renderer with every optional behaviour off.
type ProgramOptions struct {
	// Fullscreen selects the alternate-screen renderer (the reference's
	// default); otherwise the document lives in the main screen and its
	// top scrolls into the terminal's scrollback.
	Fullscreen bool
	// Keymap resolves tui.* actions for the basic components.
	Keymap *Keymap
	// Decoder decodes input; nil means NewDecoder().
	Decoder EventDecoder

	// ShowHardwareCursor shows the terminal's cursor at CursorMarker
	// (PI_HARDWARE_CURSOR=1); otherwise it is only parked there.
	ShowHardwareCursor bool
	// ClearOnShrink (regular mode): when the document gets shorter than
	// what the terminal holds, clear and reprint it so the dock returns
	// to the bottom; otherwise the freed rows are blanked in place.
	ClearOnShrink bool

	// Scrollbar (fullscreen) draws a scrollbar column at the right edge
	// when the body overflows its window; the body is then rendered one
	// column narrower.
	Scrollbar bool
	// ScrollbarAuto (fullscreen, when Scrollbar is off) shows the
	// scrollbar over the body's last column only while the user scrolls,
	// for ScrollbarHideDelay after the last scroll: the reference's
	// "auto" fullscreenScrollbar, its default.
	ScrollbarAuto bool
	// WheelLines is how many rows one wheel step scrolls (fullscreen);
	// 0 means 3.
	WheelLines int
	// CopyOnSelect (fullscreen): a left-button drag selects body text
	// and the release copies it with OSC 52.
	CopyOnSelect bool
	// PrintBodyOnExit (fullscreen): after leaving the alternate screen,
	// print the whole body, then the dock, into the normal screen's scrollback.
	PrintBodyOnExit bool
	// JumpLabel replaces the "↓ Jump to latest message · Ctrl+End" label
	// shown on the last body row while scrolled away from the bottom.
	JumpLabel string
	// JumpLabelStyle, ScrollbarStyle and SelectionStyle colour those
	// parts; nil leaves the label and bar unstyled and selects with
	// reverse video.
	JumpLabelStyle func(string) string
	ScrollbarStyle func(string) string
	// SearchMatchStyle and SearchCurrentStyle draw the transcript
	// search's matches and its selected one (nil: underline; bold
	// reverse video).
	// ProgramStatus is PI_PROGRAM_STATUS: "1" the terminal takes OSC 7501
	// program status, "0" it does not, anything else asks it.
	ProgramStatus      string
	SearchMatchStyle   func(string) string
	SearchCurrentStyle func(string) string

	// FrameInterval is the shortest time between two frames that were not
	// caused by input; 0 means 16 ms (about 60 frames a second).
	FrameInterval time.Duration
	// EscapeTimeout is how long an incomplete escape sequence waits for
	// more bytes before it counts as keys; 0 means EscTimeout(nil)
	// (PI_TUI_ESC_TIMEOUT, else 100 ms over SSH, else 10 ms).
	EscapeTimeout time.Duration
}

// startReplyWait bounds how long the first regular-mode frame waits for
// the terminal's cursor report; terminals answer in a few milliseconds,
// and DA1 ends the wait at once on those that do not report.
const startReplyWait = 200 * time.Millisecond

// DefaultJumpLabel is the label on the last body row while the
// fullscreen body is scrolled away from the newest content.
const DefaultJumpLabel = "↓ Jump to latest message · Ctrl+End"

// Program owns the terminal, the component tree and the UI goroutine.
// Every method except Post, RequestRender and Quit must be called on the
// UI goroutine (inside onEvent, a posted function, a timer callback, or
// before Run).
//
// Event routing, in order, for each decoded event:
//  1. Terminal replies settle the keyboard protocol; a Resize re-lays
//     out the screen; in fullscreen the wheel scrolls the body, a left
//     drag selects, and the keymap's tui.altScreen.* keys scroll (unless
//     an overlay or a ViewportCapturer has focus); these stop here.
//  2. The interceptor (SetInterceptor), when set, sees every event and
//     may consume it: the application's keys that must beat the focused
//     component (interrupt, exit).
//  3. Keys go to the focus target (the topmost capturing overlay, else
//     the component given to SetFocus) when it is an InputHandler;
//     pastes when it is a PasteHandler. Key releases reach only a
//     focused KeyReleaseHandler and are dropped otherwise.
//  4. Whatever nobody consumed goes to onEvent (Focus, Reply, Resize and
//     Mouse events always do).
//
// After every event a frame is requested; the frame after input is drawn
// at once, other frames at most every FrameInterval.
type Program struct {
	term Terminal
	in   io.Reader
	o    ProgramOptions
	dec  EventDecoder

	mu      sync.Mutex
	queue   []func()
	wake    chan struct{}
	dirty   atomic.Bool
	quit    chan struct{}
	quitted sync.Once

	// UI goroutine state.
	body, dock Component
	focus      Component
	intercept  func(Event) bool
	overlays   []*overlay
	width      int
	height     int
	modes      modes
	reg        regularRenderer
	full       fullRenderer
	search     *search // the transcript search, while its box is open
	status     *ProgramStatus
	reprint    bool
	inputSeen  bool
	lastFrame  time.Time
	frameTimer *time.Timer
	timerArmed bool
	running    bool
	released   bool
	stopInput  func()
	stopResize func()
	escGen     uint64
	escTimer   *time.Timer
	buf        bytes.Buffer
	runErr     error
	onEvent    func(Event)
	// Regular mode holds the first frame until the terminal said where
	// the cursor is (or answered DA1 without saying, or a short timer
	// ran out); startRow is the zero-based row, -1 when unknown.
	waitStart bool
	startRow  int
	stopWait  func()
}

// NewProgram builds a Program drawing on term and reading in. in is
// normally the terminal's input file; a *os.File on a terminal is read so
// that suspend and release can stop the reads.
func NewProgram(term Terminal, in io.Reader, o ProgramOptions) *Program {
	if o.WheelLines <= 0 {
		o.WheelLines = 3
	}
	if o.FrameInterval <= 0 {
		o.FrameInterval = 16 * time.Millisecond
	}
	if o.EscapeTimeout <= 0 {
		o.EscapeTimeout = EscTimeout(nil)
	}
	if o.JumpLabel == "" {
		o.JumpLabel = DefaultJumpLabel
	}
	p := &Program{term: term, in: in, o: o, wake: make(chan struct{}, 1), quit: make(chan struct{})}
	p.dec = o.Decoder
	if p.dec == nil {
		p.dec = NewDecoder()
	}
	p.full.follow = true
	p.startRow = -1
	return p
}

// Keymap is the keymap the Program was built with (may be nil).
func (p *Program) Keymap() *Keymap { return p.o.Keymap }

// Fullscreen reports which renderer the Program uses.
func (p *Program) Fullscreen() bool { return p.o.Fullscreen }

// Size is the terminal size the last frame was laid out for.
func (p *Program) Size() (w, h int) { return p.width, p.height }

// SetBody sets the transcript: in fullscreen it scrolls inside the window
// above the dock, in regular mode its top scrolls into the terminal's
// scrollback. A body implementing Windowed is rendered only where it is
// in view.
func (p *Program) SetBody(c Component) { p.body = c; p.reprint = true; p.RequestRender() }

// SetDock sets what is pinned at the bottom (queue, widgets, editor,
// footer). It is rendered whole every frame, so keep it short.
func (p *Program) SetDock(c Component) { p.dock = c; p.RequestRender() }

// SetFocus gives keyboard focus to c (nil: nobody). Focusable components
// are told when they become, or stop being, the focus target.
func (p *Program) SetFocus(c Component) {
	if p.focus == c {
		return
	}
	// While a capturing overlay is on top, c gets focus only when the
	// overlay goes.
	before := p.focusTarget()
	p.focus = c
	p.refocus(before)
	p.RequestRender()
}

// Focused is the component SetFocus last chose.
func (p *Program) Focused() Component { return p.focus }

// SetInterceptor installs fn, which sees every event before the focused
// component and consumes it by returning true.
func (p *Program) SetInterceptor(fn func(Event) bool) { p.intercept = fn }

// Post runs fn on the UI goroutine and then requests a frame. It never
// blocks and is safe from any goroutine, the UI goroutine included (fn
// then runs after the current work).
func (p *Program) Post(fn func()) {
	p.mu.Lock()
	p.queue = append(p.queue, fn)
	p.mu.Unlock()
	select {
	case p.wake <- struct{}{}:
	default:
	}
}

// RequestRender asks for a frame. Requests are coalesced; safe from any
// goroutine.
func (p *Program) RequestRender() {
	if p.dirty.CompareAndSwap(false, true) {
		select {
		case p.wake <- struct{}{}:
		default:
		}
	}
}

// Reprint asks for the whole document to be drawn again: in regular mode
// the screen and scrollback are cleared and the document reprinted (for
// changes above the visible rows: expanding tool output, a theme or
// session switch); in fullscreen every row is rewritten.
func (p *Program) Reprint() { p.reprint = true; p.RequestRender() }

// Quit makes Run return nil after restoring the terminal. Safe from any
// goroutine.
func (p *Program) Quit() { p.quitted.Do(func() { close(p.quit) }) }

// Run takes the terminal, runs the UI loop on the calling goroutine
// until Quit, ctx's end, input EOF, SIGTERM/SIGHUP or a panic, and
// restores every terminal mode it set on each of those paths (a panic is
// re-raised after the restore).
func (p *Program) Run(ctx context.Context, onEvent func(Event)) (err error) {
	if onEvent == nil {
		onEvent = func(Event) {}
	}
	if p.running {
		return errors.New("tui: Program.Run called twice")
	}
	if err := p.acquire(); err != nil {
		p.release()
		return err
	}
	p.running = true
	p.onEvent = onEvent
	sigs, stopSigs := notifyTermSignals(p.term)
	defer func() {
		stopSigs()
		if r := recover(); r != nil {
			p.release()
			p.running = false
			panic(r)
		}
		p.finalFrame()
		p.release()
		p.running = false
	}()
	p.frameTimer = time.NewTimer(time.Hour)
	p.frameTimer.Stop()
	defer p.frameTimer.Stop()
	p.reprint = true
	p.dirty.Store(true)
	p.inputSeen = true
	if !p.o.Fullscreen && !p.reg.started {
		p.waitStart = true
		p.stopWait = p.After(startReplyWait, func() { p.waitStart = false; p.inputSeen = true })
	}
	p.maybeRender()
	for {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-p.quit:
			return nil
		case s := <-sigs:
			return &SignalError{Signal: s}
		case <-p.wake:
			p.drain()
		case <-p.frameTimer.C:
			p.timerArmed = false
		}
		if p.runErr != nil {
			return p.runErr
		}
		select {
		case <-p.quit:
			return nil
		default:
		}
		p.maybeRender()
	}
}

// drain runs every queued function.
func (p *Program) drain() {
	for {
		p.mu.Lock()
		q := p.queue
		p.queue = nil
		p.mu.Unlock()
		if len(q) == 0 {
			return
		}
		for _, fn := range q {
			fn()
		}
		// Posted work nearly always changes what is shown; asking for the
		// frame here means no caller can forget to (frames are coalesced,
		// and one that changes nothing writes nothing).
		p.dirty.Store(true)
	}
}

// maybeRender draws a frame when one was requested and either input just
// arrived (typing must echo at once) or the frame interval has passed;
// otherwise it arms the frame timer.
func (p *Program) maybeRender() {
	if !p.dirty.Load() || p.released || p.waitStart {
		return
	}
	now := time.Now()
	if p.inputSeen || now.Sub(p.lastFrame) >= p.o.FrameInterval {
		p.inputSeen = false
		p.Render()
		return
	}
	if !p.timerArmed {
		p.timerArmed = true
		p.frameTimer.Reset(p.o.FrameInterval - now.Sub(p.lastFrame))
	}
}

// Render draws a frame now (UI goroutine). Normally RequestRender is
// enough; Render is for code that must know the frame is out, such as
// tests.
func (p *Program) Render() {
	if !p.running || p.released {
		return
	}
	p.dirty.Store(false)
	p.lastFrame = time.Now()
	if err := p.updateSize(); err != nil {
		return
	}
	p.buf.Reset()
	if p.o.Fullscreen {
		p.renderFull(&p.buf)
	} else {
		p.renderRegular(&p.buf)
	}
	p.reprint = false
	if p.buf.Len() > 0 {
		_, _ = p.term.Write(p.buf.Bytes())
	}
}

// updateSize reads the terminal size and notes a change for the
// renderers (which lay out again from scratch on any change).
func (p *Program) updateSize() error {
	w, h, err := p.term.Size()
	if err != nil {
		return err
	}
	if w <= 0 || h <= 0 {
		return ErrNoTerminalSize
	}
	if w != p.width || h != p.height {
		p.width, p.height = w, h
		p.reprint = true
	}
	return nil
}

// write sends s to the terminal outside a frame.
func (p *Program) write(s string) { _, _ = io.WriteString(p.term, s) }

// ErrInputClosed is what Run returns when its input reached EOF (the
// terminal hung up).
var ErrInputClosed = errors.New("tui: input closed")
