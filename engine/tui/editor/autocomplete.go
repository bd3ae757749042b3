package editor

import (
	"regexp"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/pi-go/pi/engine/tui"
)

// Item is one autocomplete suggestion: Value is what Apply inserts,
// Label what the list shows (Value when empty), Description the
// dimmed text beside it.
type Item struct {
	Value       string
	Label       string
	Description string
}

func (it Item) label() string {
	if it.Label != "" {
		return it.Label
	}
	return it.Value
}

// Request is the editor state a provider completes: the lines, the
// cursor (byte column), and Force when the user pressed Tab (complete a
// path even where nothing looks like one).
type Request struct {
	Lines []string
	Line  int
	Col   int
	Force bool
}

// BeforeCursor is the current line up to the cursor.
func (r Request) BeforeCursor() string {
	if r.Line < 0 || r.Line >= len(r.Lines) {
		return ""
	}
	l := r.Lines[r.Line]
	return l[:min(r.Col, len(l))]
}

// Suggestions are a provider's answer: the items and the text before the
// cursor they replace.
type Suggestions struct {
	Items  []Item
	Prefix string
}

// Provider completes what is typed. Suggest returns nil when it has
// nothing for this position (the next provider of the chain is asked);
// Apply returns the lines and cursor after accepting item.
type Provider interface {
	Suggest(r Request) *Suggestions
	Apply(r Request, item Item, prefix string) (lines []string, line, col int)
}

// TriggerProvider is a Provider with extra characters that open the list
// when typed at the start of a token (pi always has "@" and "#").
type TriggerProvider interface {
	TriggerChars() []string
}

// ForceFilter is a Provider that may refuse Tab completion at a position
// (no path completion while a slash command name is typed).
type ForceFilter interface {
	AllowForce(r Request) bool
}

// SetProviders sets the autocomplete chain, asked in order.
func (e *Editor) SetProviders(ps ...Provider) {
	e.closeAutocomplete()
	e.providers = ps
	triggers := []string{"@", "#"}
	for _, p := range ps {
		tp, ok := p.(TriggerProvider)
		if !ok {
			continue
		}
		for _, c := range tp.TriggerChars() {
			if utf8.RuneCountInString(c) == 1 && c != "/" && !isSpace(c) && !contains(triggers, c) {
				triggers = append(triggers, c)
			}
		}
	}
	e.setTriggers(triggers)
}

// setTriggers sets the trigger characters and the pattern that finds one
// at the start of the token before the cursor: a trigger (or @") at the
// start of the line or after a space, possibly behind an opening bracket
// or backquote.
func (e *Editor) setTriggers(triggers []string) {
	e.triggers = triggers
	var cls strings.Builder
	for _, t := range triggers {
		cls.WriteString(regexp.QuoteMeta(t))
	}
	e.trigRe = regexp.MustCompile("(?:^|\\s)[(\\[{<`]*(?:@\"[^\"]*|[" + cls.String() + "]\\S*)$")
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// acState is an open autocomplete list.
type acState struct {
	items    []Item
	prefix   string
	selected int
	provider Provider
	force    bool
}

func (a *acState) move(d int) {
	n := len(a.items)
	a.selected = ((a.selected+d)%n + n) % n
}

func (a *acState) page(d, size int) {
	a.selected = max(0, min(len(a.items)-1, a.selected+d*size))
}

func (e *Editor) request(force bool) Request {
	return Request{Lines: e.lines, Line: e.line, Col: e.col, Force: force}
}

func (e *Editor) slashContext(before string) bool {
	return e.line == 0 && strings.HasPrefix(strings.TrimLeft(before, " \t"), "/")
}

func (e *Editor) slashNameContext(before string) bool {
	return e.slashContext(before) && !strings.Contains(strings.TrimLeft(before, " \t"), " ")
}

func (e *Editor) atMessageStart() bool {
	if e.line != 0 {
		return false
	}
	t := strings.TrimSpace(e.cur()[:e.col])
	return t == "" || t == "/"
}

var acWordChar = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[a-zA-Z0-9.\-_]$`) })

// afterType opens or refreshes the list after a typed character, where pi does.
func (e *Editor) afterType(ch string) {
	if e.ac != nil {
		e.refreshAutocomplete()
		return
	}
	before := e.cur()[:e.col]
	switch {
	case ch == "/" && e.atMessageStart():
		e.openAutocomplete(false, false)
	case contains(e.triggers, ch):
		if e.trigRe.MatchString(before) {
			e.openAutocomplete(false, false)
		}
	case acWordChar().MatchString(ch) || isCJK(ch):
		if e.slashContext(before) || e.trigRe.MatchString(before) {
			e.openAutocomplete(false, false)
		}
	}
}

// afterDelete refreshes the list, or reopens it where typing would.
func (e *Editor) afterDelete() {
	if e.ac != nil {
		e.refreshAutocomplete()
		return
	}
	before := e.cur()[:e.col]
	if e.slashContext(before) || e.trigRe.MatchString(before) {
		e.openAutocomplete(false, false)
	}
}

func (e *Editor) refreshAutocomplete() {
	if e.ac != nil {
		e.openAutocomplete(e.ac.force, false)
	}
}

func (e *Editor) tabComplete() {
	if len(e.providers) == 0 {
		return
	}
	if e.slashNameContext(e.cur()[:e.col]) {
		e.openAutocomplete(false, true)
		return
	}
	e.openAutocomplete(true, true)
}

// openAutocomplete asks the chain for suggestions and opens (or closes)
// the list. An explicit Tab with a single path suggestion applies it at
// once.
func (e *Editor) openAutocomplete(force, explicitTab bool) {
	e.acSeq++
	r := e.request(force)
	if force {
		for _, p := range e.providers {
			if f, ok := p.(ForceFilter); ok && !f.AllowForce(r) {
				return
			}
		}
	}
	e.askFrom(0, r, e.acSeq, explicitTab)
}

// askFrom asks providers[i:] in turn; the first with items wins. An
// AsyncProvider answers later: the rest of the chain then continues from
// its callback, if the request is still current.
func (e *Editor) askFrom(i int, r Request, seq int, explicitTab bool) {
	for ; i < len(e.providers); i++ {
		p := e.providers[i]
		if ap, ok := p.(AsyncProvider); ok {
			e.askAsync(ap, i, r, seq, explicitTab)
			return
		}
		if s := p.Suggest(r); s != nil && len(s.Items) > 0 {
			e.show(p, s, r.Force, explicitTab)
			return
		}
	}
	e.show(nil, nil, r.Force, explicitTab)
}

// show opens the list of sug (closing it when sug is nil). An explicit
// Tab with a single path suggestion applies it at once.
func (e *Editor) show(prov Provider, sug *Suggestions, force, explicitTab bool) {
	if sug == nil {
		e.closeAutocomplete()
		return
	}
	if force && explicitTab && len(sug.Items) == 1 {
		e.closeAutocomplete()
		e.applyItem(prov, sug.Items[0], sug.Prefix)
		return
	}
	e.ac = &acState{items: sug.Items, prefix: sug.Prefix, provider: prov, force: force}
	if i := bestMatch(sug.Items, sug.Prefix); i >= 0 {
		e.ac.selected = i
	}
	e.changedView()
}

// bestMatch is the item whose value is the prefix, else the first that
// starts with it, else -1.
func bestMatch(items []Item, prefix string) int {
	if prefix == "" {
		return -1
	}
	first := -1
	for i, it := range items {
		if it.Value == prefix {
			return i
		}
		if first < 0 && strings.HasPrefix(it.Value, prefix) {
			first = i
		}
	}
	return first
}

func (e *Editor) acceptAutocomplete() {
	a := e.ac
	if a == nil || len(a.items) == 0 {
		return
	}
	e.ac = nil
	e.applyItem(a.provider, a.items[a.selected], a.prefix)
}

func (e *Editor) applyItem(p Provider, it Item, prefix string) {
	e.pushUndo()
	e.last = actNone
	lines, line, col := p.Apply(e.request(false), it, prefix)
	e.lines = lines
	if len(e.lines) == 0 {
		e.lines = []string{""}
	}
	e.line = max(0, min(line, len(e.lines)-1))
	e.setCol(max(0, min(col, len(e.lines[e.line]))))
	e.changed()
}

func (e *Editor) closeAutocomplete() {
	e.acSeq++ // an answer still on its way is for an older state
	if e.ac != nil {
		e.ac = nil
		e.changedView()
	}
}

// AutocompleteOpen reports whether the suggestion list is showing.
func (e *Editor) AutocompleteOpen() bool { return e.ac != nil }

// renderList draws the open list: "→ " marks the selection, a primary
// column of labels (12..32 cells for commands, 32 otherwise) then the
// description, and "(i/n)" when the list scrolls.
func (e *Editor) renderList(width int) []string {
	a := e.ac
	maxVis := e.opt.AutocompleteMaxVisible
	minCol, maxCol := 32, 32
	if strings.HasPrefix(a.prefix, "/") {
		minCol, maxCol = 12, 32
	}
	col := 0
	for _, it := range a.items {
		col = max(col, tui.Width(it.label())+2)
	}
	col = max(minCol, min(col, maxCol))
	start := max(0, min(a.selected-maxVis/2, len(a.items)-maxVis))
	end := min(start+maxVis, len(a.items))
	st := e.opt.Styles
	var rows []string
	for i := start; i < end; i++ {
		it := a.items[i]
		sel := i == a.selected
		prefix := "  "
		if sel {
			prefix = "→ "
		}
		desc := strings.TrimSpace(strings.Join(strings.FieldsFunc(it.Description, func(r rune) bool { return r == '\n' || r == '\r' }), " "))
		row := ""
		if desc != "" && width > 40 {
			eff := max(1, min(col, width-2-4))
			label := tui.Truncate(it.label(), max(1, eff-2), "")
			spacing := strings.Repeat(" ", max(1, eff-tui.Width(label)))
			remaining := width - 2 - tui.Width(label) - len(spacing) - 2
			if remaining > 10 {
				d := tui.Truncate(desc, remaining, "")
				if sel {
					row = style(st.Selected, prefix+label+spacing+d)
				} else {
					row = prefix + label + style(st.Description, spacing+d)
				}
				rows = append(rows, row)
				continue
			}
		}
		label := tui.Truncate(it.label(), max(1, width-2-2), "")
		if sel {
			row = style(st.Selected, prefix+label)
		} else {
			row = prefix + label
		}
		rows = append(rows, row)
	}
	if start > 0 || end < len(a.items) {
		info := "  (" + itoa(a.selected+1) + "/" + itoa(len(a.items)) + ")"
		rows = append(rows, style(st.ScrollInfo, tui.Truncate(info, max(0, width-2), "")))
	}
	return rows
}

func itoa(n int) string {
	if n == 0 {
		return "0"
	}
	var b [20]byte
	i := len(b)
	for n > 0 {
		i--
		b[i] = byte('0' + n%10)
		n /= 10
	}
	return string(b[i:])
}
