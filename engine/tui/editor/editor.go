package editor

import (
	"maps"
	"regexp"
	"strings"

	"github.com/pi-go/pi/engine/tui"
)

// CursorMarker is the zero-width string put where the cursor is while
// the editor is focused, so the renderer can place the terminal's own
// cursor there (IME candidate windows follow it): tui.CursorMarker.
const CursorMarker = tui.CursorMarker

// Styles colour the editor's parts; a nil func leaves text as it is.
type Styles struct {
	Border      func(string) string // the two rules (SetBorderStyle changes it)
	Selected    func(string) string // the selected autocomplete row
	Description func(string) string // autocomplete descriptions
	ScrollInfo  func(string) string // the "(i/n)" row of the list
}

// Options configure an Editor.
type Options struct {
	// PaddingX is the blank columns left and right of the text.
	PaddingX int
	// AutocompleteMaxVisible is the rows the list shows (3..20, default 5).
	AutocompleteMaxVisible int
	// TerminalRows is the terminal's height; the editor shows at most
	// max(5, 30% of it) rows of text and scrolls the rest. Nil means 24.
	TerminalRows func() int
	Styles       Styles
	// Post runs fn on the UI goroutine (tui.Program.Post); an
	// AsyncProvider's answer arrives through it. Nil runs fn directly,
	// for callers that answer on the UI goroutine themselves.
	Post func(fn func())
	// RequestRender asks for a frame after an asynchronous change (an
	// AsyncProvider's list arriving).
	RequestRender func()
	// AppKeys lets the application take keys before the editor's own
	// actions, in pi's order: an open list's keys and the history
	// actions (when bound) come first, then AppKeys, then editing. It
	// reports whether the application handled the key (HandleKey then
	// reports true). This is how app.message.followUp gets Alt+Enter,
	// which the editor would otherwise take as a newline.
	AppKeys func(k tui.Key) bool
}

// snapshot is one undo step.
type snapshot struct {
	lines      []string
	line, col  int
	pastes     map[int]string
	pasteCount int
}

type lastAction uint8

const (
	actNone lastAction = iota
	actType            // typing a word: one undo step per word
	actKill            // Ctrl+K/U/W, Alt+D: kills accumulate in one ring entry
	actYank            // Alt+Y may replace what was yanked
)

// maxHistory is how many submitted prompts Up/Down browse.
const maxHistory = 100

// Editor is pi's prompt editor. Create it with New.
type Editor struct {
	km  *tui.Keymap
	opt Options

	lines     []string
	line, col int
	focused   bool

	border   func(string) string
	topLabel string
	topShort string

	history   []string // newest first
	histIdx   int      // -1: not browsing
	histDraft *snapshot

	ring   []string
	last   lastAction
	jump   int // 0 off, 1 forward, -1 backward: waiting for the character
	prefer int // sticky visual column for Up/Down, -1 none
	undo   []snapshot

	pastes     map[int]string
	pasteCount int

	scroll    int
	lastWidth int

	wrapCache  map[string][]chunk
	wrapWidth  int
	wrapPastes int

	providers []Provider
	triggers  []string
	trigRe    *regexp.Regexp
	ac        *acState
	acSeq     int // bumped by every request and close; async answers must match

	// DisableSubmit makes Enter do nothing (while a command runs).
	DisableSubmit bool
	// OnSubmit receives the submitted text, paste markers expanded and
	// trimmed; the editor is empty again when it runs.
	OnSubmit func(string)
	// OnChange runs after every change of the text.
	OnChange func()

	version    int
	cacheKey   [4]int
	cacheRows  []string
	cacheValid bool
}

// New returns an empty editor matching keys through km (the tui.* ids).
func New(km *tui.Keymap, o Options) *Editor {
	if o.PaddingX < 0 {
		o.PaddingX = 0
	}
	switch {
	case o.AutocompleteMaxVisible == 0:
		o.AutocompleteMaxVisible = 5
	case o.AutocompleteMaxVisible < 3:
		o.AutocompleteMaxVisible = 3
	case o.AutocompleteMaxVisible > 20:
		o.AutocompleteMaxVisible = 20
	}
	e := &Editor{km: km, opt: o, lines: []string{""}, histIdx: -1, prefer: -1, lastWidth: 80, border: o.Styles.Border}
	e.setTriggers([]string{"@", "#"})
	return e
}

func style(f func(string) string, s string) string {
	if f == nil {
		return s
	}
	return f(s)
}

// SetBorderStyle sets the colour of the two rules (pi colours them by
// thinking level, and green in bash mode).
func (e *Editor) SetBorderStyle(f func(string) string) { e.border = f; e.changedView() }

// SetTopLabel puts a label into the top rule ("⠋ Working"); "" removes it.
func (e *Editor) SetTopLabel(label string) { e.SetTopLabels(label, "") }

// SetTopLabels sets the label and a short form for rows too narrow for
// it, or for it beside the "↑ N more" indicator (the spinner alone).
func (e *Editor) SetTopLabels(label, short string) {
	if label != e.topLabel || short != e.topShort {
		e.topLabel, e.topShort = label, short
		e.changedView()
	}
}

// SetPaddingX sets the blank columns left and right of the text.
func (e *Editor) SetPaddingX(n int) {
	if n = max(0, n); n != e.opt.PaddingX {
		e.opt.PaddingX = n
		e.changedView()
	}
}

// SetAutocompleteMaxVisible sets how many rows the list shows (3..20).
func (e *Editor) SetAutocompleteMaxVisible(n int) {
	if n = max(3, min(20, n)); n != e.opt.AutocompleteMaxVisible {
		e.opt.AutocompleteMaxVisible = n
		e.changedView()
	}
}

// SetFocused shows or hides the cursor.
func (e *Editor) SetFocused(f bool) {
	if f != e.focused {
		e.focused = f
		e.changedView()
	}
}

// Invalidate drops the cached rows (after a theme change).
func (e *Editor) Invalidate() { e.changedView() }

func (e *Editor) changedView() { e.version++ }

// changed marks a text change: the view is stale and OnChange runs.
func (e *Editor) changed() {
	e.version++
	if e.OnChange != nil {
		e.OnChange()
	}
}

// Text is the editor's text with paste markers expanded.
func (e *Editor) Text() string { return e.expand(strings.Join(e.lines, "\n")) }

// RawText is the text as shown, paste markers unexpanded.
func (e *Editor) RawText() string { return strings.Join(e.lines, "\n") }

// Lines returns a copy of the logical lines.
func (e *Editor) Lines() []string { return append([]string(nil), e.lines...) }

// Cursor is the cursor's logical line and byte column.
func (e *Editor) Cursor() (line, col int) { return e.line, e.col }

// IsEmpty reports whether the editor holds no text.
func (e *Editor) IsEmpty() bool { return len(e.lines) == 1 && e.lines[0] == "" }

// SetText replaces the text (undoable), leaves the cursor at its end and
// forgets earlier pastes.
func (e *Editor) SetText(text string) {
	e.closeAutocomplete()
	e.last = actNone
	e.exitHistory()
	norm := normalize(text)
	if norm != e.RawText() {
		e.pushUndo()
	}
	e.pastes, e.pasteCount = nil, 0
	e.setTextInternal(norm, false)
}

// InsertText inserts text at the cursor as one undo step.
func (e *Editor) InsertText(text string) {
	if text == "" {
		return
	}
	e.closeAutocomplete()
	e.pushUndo()
	e.last = actNone
	e.exitHistory()
	e.insert(text)
}

// AddHistory records a submitted prompt for Up/Down (blank and repeated
// prompts are skipped; the newest 100 are kept).
func (e *Editor) AddHistory(text string) {
	t := strings.TrimSpace(text)
	if t == "" || len(e.history) > 0 && e.history[0] == t {
		return
	}
	e.history = append([]string{t}, e.history...)
	if len(e.history) > maxHistory {
		e.history = e.history[:maxHistory]
	}
}

// normalize turns CRLF and CR into LF and tabs into four spaces, as the
// editor stores text.
func normalize(s string) string {
	s = strings.ReplaceAll(s, "\r\n", "\n")
	s = strings.ReplaceAll(s, "\r", "\n")
	return strings.ReplaceAll(s, "\t", "    ")
}

func (e *Editor) setTextInternal(text string, cursorAtStart bool) {
	e.lines = strings.Split(text, "\n")
	if cursorAtStart {
		e.line = 0
		e.setCol(0)
	} else {
		e.line = len(e.lines) - 1
		e.setCol(len(e.lines[e.line]))
	}
	e.scroll = 0
	e.changed()
}

func (e *Editor) setCol(c int) {
	e.col = c
	e.prefer = -1
}

func (e *Editor) cur() string { return e.lines[e.line] }

func (e *Editor) segs(line string) []seg { return segments(line, e.pastes) }

// insert puts text (normalized) at the cursor.
func (e *Editor) insert(text string) {
	ins := strings.Split(normalize(text), "\n")
	line := e.cur()
	before, after := line[:e.col], line[e.col:]
	if len(ins) == 1 {
		e.lines[e.line] = before + ins[0] + after
		e.setCol(e.col + len(ins[0]))
	} else {
		out := make([]string, 0, len(e.lines)+len(ins)-1)
		out = append(out, e.lines[:e.line]...)
		out = append(out, before+ins[0])
		out = append(out, ins[1:len(ins)-1]...)
		out = append(out, ins[len(ins)-1]+after)
		out = append(out, e.lines[e.line+1:]...)
		e.lines = out
		e.line += len(ins) - 1
		e.setCol(len(ins[len(ins)-1]))
	}
	e.changed()
}

func (e *Editor) pushUndo() {
	e.undo = append(e.undo, snapshot{
		lines: append([]string(nil), e.lines...), line: e.line, col: e.col,
		pastes: maps.Clone(e.pastes), pasteCount: e.pasteCount,
	})
	if len(e.undo) > 1000 {
		e.undo = e.undo[1:]
	}
}

func (e *Editor) doUndo() {
	e.exitHistory()
	if len(e.undo) == 0 {
		return
	}
	s := e.undo[len(e.undo)-1]
	e.undo = e.undo[:len(e.undo)-1]
	e.lines, e.line, e.col = s.lines, s.line, s.col
	e.pastes, e.pasteCount = s.pastes, s.pasteCount
	e.last = actNone
	e.prefer = -1
	e.changed()
}

// expand replaces the markers of known pastes by their text.
func (e *Editor) expand(s string) string {
	if len(e.pastes) == 0 {
		return s
	}
	return pasteMarkerRe().ReplaceAllStringFunc(s, func(m string) string {
		sub := pasteMarkerRe().FindStringSubmatch(m)
		id := atoi(sub[1])
		if t, ok := e.pastes[id]; ok {
			return t
		}
		return m
	})
}

func atoi(s string) int {
	n := 0
	for _, c := range s {
		n = n*10 + int(c-'0')
	}
	return n
}

func (e *Editor) submit() {
	e.closeAutocomplete()
	text := strings.TrimSpace(e.Text())
	e.lines, e.line, e.col = []string{""}, 0, 0
	e.pastes, e.pasteCount = nil, 0
	e.exitHistory()
	e.scroll = 0
	e.undo = nil
	e.last = actNone
	e.changed()
	if e.OnSubmit != nil {
		e.OnSubmit(text)
	}
}
