package dialogs

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"time"

	"github.com/pi-go/pi/engine/session"
	"github.com/pi-go/pi/engine/tui"
)

// SessionPickerOptions configure the /resume (and -r) picker.
type SessionPickerOptions struct {
	// Current are the sessions of the current folder (session.List).
	Current []session.Info
	// LoadAll lists every project's sessions (session.ListAll), the
	// first time Tab switches to "All". It may take a while: it calls
	// deliver, on the UI goroutine, when done (the picker shows
	// "Loading sessions…" until then).
	LoadAll func(deliver func([]session.Info, error))
	// CurrentPath is the active session's file, which cannot be deleted.
	CurrentPath string
	// Home shortens paths to "~" (default: $HOME).
	Home string
	Now  func() time.Time
	// OnSelect resumes the chosen session.
	OnSelect func(info session.Info)
	OnCancel func()
	// OnRename names a session; nil leaves Ctrl+R out.
	OnRename func(info session.Info, name string) error
	// OnDelete removes a session file after the confirmation; nil leaves
	// Ctrl+D out.
	OnDelete func(info session.Info) error
}

type sortMode int

const (
	sortThreaded sortMode = iota
	sortRecent
	sortRelevance
)

func (m sortMode) String() string { return [...]string{"Threaded", "Recent", "Fuzzy"}[m] }

// sessionRow is one row: a session and, in threaded order, its place in
// the fork tree.
type sessionRow struct {
	info      session.Info
	depth     int
	continues []bool // per ancestor level: more siblings follow below
	last      bool
}

// SessionPicker is the /resume picker: current folder or all projects
// (Tab), three orders (Ctrl+S), a named-only filter (Ctrl+N), paths
// (Ctrl+P), search with "re:" regular expressions and "quoted" phrases,
// rename (Ctrl+R) and delete with confirmation (Ctrl+D).
type SessionPicker struct {
	rc       renderCache
	st       Style
	o        SessionPickerOptions
	search   Line
	all      bool
	allInfos []session.Info
	loaded   bool
	loading  bool
	sort     sortMode
	named    bool
	paths    bool
	rows     []sessionRow
	sel      int
	confirm  string // path awaiting delete confirmation
	sub      tui.Component
	status   string
	statusOK bool
	done     bool
}

// NewSessionPicker builds the picker on the current folder's sessions.
func NewSessionPicker(st Style, o SessionPickerOptions) *SessionPicker {
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.Home == "" {
		o.Home, _ = os.UserHomeDir()
	}
	p := &SessionPicker{st: st, o: o, search: Line{Prompt: "> "}}
	p.rebuild()
	return p
}

// Selected is the selected session, if any.
func (p *SessionPicker) Selected() (session.Info, bool) {
	if p.sel < 0 || p.sel >= len(p.rows) {
		return session.Info{}, false
	}
	return p.rows[p.sel].info, true
}

func (p *SessionPicker) source() []session.Info {
	if p.all {
		return p.allInfos
	}
	return p.o.Current
}

// sessionQuery is a parsed search: a regular expression, a phrase, or
// fuzzy tokens.
type sessionQuery struct {
	re     *regexp.Regexp
	phrase string
	fuzzy  string
	err    error
}

func parseSessionQuery(q string) sessionQuery {
	q = strings.TrimSpace(q)
	switch {
	case strings.HasPrefix(q, "re:"):
		re, err := regexp.Compile("(?i)" + strings.TrimPrefix(q, "re:"))
		return sessionQuery{re: re, err: err}
	case len(q) >= 2 && strings.HasPrefix(q, `"`) && strings.HasSuffix(q, `"`):
		return sessionQuery{phrase: strings.ToLower(q[1 : len(q)-1])}
	}
	return sessionQuery{fuzzy: q}
}

func (sq sessionQuery) empty() bool {
	return sq.re == nil && sq.phrase == "" && sq.fuzzy == "" && sq.err == nil
}

func (sq sessionQuery) match(text string) bool {
	switch {
	case sq.err != nil:
		return false
	case sq.re != nil:
		return sq.re.MatchString(text)
	case sq.phrase != "":
		return strings.Contains(strings.ToLower(text), sq.phrase)
	}
	return fuzzyMatch(text, sq.fuzzy)
}

// matchInfo matches a regular expression or phrase against the name and
// the first message each (so "^" anchors at either's start), and fuzzy
// tokens against all the text of the session.
func (sq sessionQuery) matchInfo(in session.Info) bool {
	if sq.fuzzy != "" {
		return sq.match(sessionText(in))
	}
	for _, f := range []string{in.Name, in.FirstMessage, in.Cwd} {
		if f != "" && sq.match(f) {
			return true
		}
	}
	return false
}

func sessionText(in session.Info) string {
	return strings.Join([]string{in.Name, in.FirstMessage, in.Cwd, in.ID}, " ")
}

// rebuild recomputes the rows from the source, filter, search and order.
func (p *SessionPicker) rebuild() {
	keep := p.selectedPath()
	sq := parseSessionQuery(p.search.Text())
	var infos []session.Info
	for _, in := range p.source() {
		if p.named && in.Name == "" {
			continue
		}
		if !sq.empty() && !sq.matchInfo(in) {
			continue
		}
		infos = append(infos, in)
	}
	p.rows = p.rows[:0]
	switch {
	case p.sort == sortThreaded && sq.empty():
		p.rows = threaded(infos)
	case p.sort == sortRelevance && sq.fuzzy != "":
		// Rows whose text holds the query literally first, then by age.
		q := strings.ToLower(sq.fuzzy)
		sort.SliceStable(infos, func(i, j int) bool {
			a := strings.Contains(strings.ToLower(sessionText(infos[i])), q)
			b := strings.Contains(strings.ToLower(sessionText(infos[j])), q)
			if a != b {
				return a
			}
			return infos[i].Modified.After(infos[j].Modified)
		})
		for _, in := range infos {
			p.rows = append(p.rows, sessionRow{info: in})
		}
	default:
		sort.SliceStable(infos, func(i, j int) bool { return infos[i].Modified.After(infos[j].Modified) })
		for _, in := range infos {
			p.rows = append(p.rows, sessionRow{info: in})
		}
	}
	p.sel = 0
	for i, r := range p.rows {
		if r.info.Path == keep {
			p.sel = i
		}
	}
}

func (p *SessionPicker) selectedPath() string {
	if in, ok := p.Selected(); ok {
		return in.Path
	}
	return ""
}

// threaded orders sessions as a forest of forks: a session whose parent
// is listed goes under it; roots and siblings newest first.
func threaded(infos []session.Info) []sessionRow {
	byPath := map[string]bool{}
	for _, in := range infos {
		byPath[filepath.Clean(in.Path)] = true
	}
	children := map[string][]session.Info{}
	var roots []session.Info
	for _, in := range infos {
		parent := filepath.Clean(in.ParentSession)
		if in.ParentSession != "" && byPath[parent] && parent != filepath.Clean(in.Path) {
			children[parent] = append(children[parent], in)
		} else {
			roots = append(roots, in)
		}
	}
	newest := func(s []session.Info) {
		sort.SliceStable(s, func(i, j int) bool { return s[i].Modified.After(s[j].Modified) })
	}
	var out []sessionRow
	seen := map[string]bool{}
	var walk func(list []session.Info, depth int, cont []bool)
	walk = func(list []session.Info, depth int, cont []bool) {
		newest(list)
		for i, in := range list {
			key := filepath.Clean(in.Path)
			if seen[key] {
				continue
			}
			seen[key] = true
			last := i == len(list)-1
			out = append(out, sessionRow{info: in, depth: depth, continues: append([]bool(nil), cont...), last: last})
			walk(children[key], depth+1, append(cont[:len(cont):len(cont)], !last && depth > 0))
		}
	}
	walk(roots, 0, nil)
	return out
}

// Done reports whether the picker has resolved.
func (p *SessionPicker) Done() bool { return p.done }

func (p *SessionPicker) fail(msg string) { p.status, p.statusOK = msg, false }

// HandleKey handles the picker's keys; see SessionPicker.
func (p *SessionPicker) HandleKey(k tui.Key) bool {
	p.rc.bump()
	if p.done || k.Release {
		return false
	}
	if p.sub != nil {
		if h, ok := p.sub.(tui.InputHandler); ok {
			h.HandleKey(k)
		}
		return true
	}
	if p.confirm != "" {
		// The confirmation takes every key: Enter deletes, anything
		// else keeps the session.
		path := p.confirm
		p.confirm = ""
		if p.st.Is(k, "tui.select.confirm") {
			p.delete(path)
		}
		return true
	}
	p.status = ""
	switch {
	case p.st.Is(k, "tui.select.up"):
		if len(p.rows) > 0 {
			p.sel = (p.sel - 1 + len(p.rows)) % len(p.rows)
		}
	case p.st.Is(k, "tui.select.down"):
		if len(p.rows) > 0 {
			p.sel = (p.sel + 1) % len(p.rows)
		}
	case p.st.Is(k, "tui.select.pageUp"):
		p.sel = max(p.sel-10, 0)
	case p.st.Is(k, "tui.select.pageDown"):
		p.sel = max(min(p.sel+10, len(p.rows)-1), 0)
	case p.st.Is(k, "tui.select.confirm"):
		if in, ok := p.Selected(); ok {
			p.done = true
			if p.o.OnSelect != nil {
				p.o.OnSelect(in)
			}
		}
	case p.st.Is(k, "tui.select.cancel"):
		p.done = true
		if p.o.OnCancel != nil {
			p.o.OnCancel()
		}
	case k.Is("tab"):
		p.all = !p.all
		if p.all && !p.loaded && !p.loading && p.o.LoadAll != nil {
			p.loading = true
			p.o.LoadAll(p.deliverAll)
		}
		p.rebuild()
	case p.st.Is(k, "app.session.toggleSort"):
		p.sort = (p.sort + 1) % 3
		p.rebuild()
	case p.st.Is(k, "app.session.toggleNamedFilter"):
		p.named = !p.named
		p.rebuild()
	case p.st.Is(k, "app.session.togglePath"):
		p.paths = !p.paths
	case p.o.OnRename != nil && p.st.Is(k, "app.session.rename"):
		in, ok := p.Selected()
		if !ok {
			return true
		}
		p.sub = NewInput(p.st, InputOptions{Title: "Rename Session", Value: in.Name,
			OnCancel: func() { p.sub = nil },
			OnSubmit: func(name string) {
				p.sub = nil
				name = strings.TrimSpace(name)
				if name == "" {
					return
				}
				if err := p.o.OnRename(in, name); err != nil {
					p.fail("Failed to rename: " + err.Error())
					return
				}
				p.setName(in.Path, name)
			}})
	case p.o.OnDelete != nil && (p.st.Is(k, "app.session.delete") ||
		p.st.Is(k, "app.session.deleteNoninvasive") && p.search.Text() == ""):
		// The non-invasive delete (Ctrl+Backspace) only acts while the
		// search is empty, so it never surprises someone erasing a query.
		in, ok := p.Selected()
		if !ok {
			return true
		}
		if samePath(in.Path, p.o.CurrentPath) {
			p.fail("Cannot delete the currently active session")
			return true
		}
		p.confirm = in.Path
	default:
		if !p.search.HandleKey(k) {
			return false
		}
		p.rebuild()
	}
	return true
}

// deliverAll takes the listing LoadAll produced.
func (p *SessionPicker) deliverAll(infos []session.Info, err error) {
	p.rc.bump()
	p.allInfos, p.loaded, p.loading = infos, true, false
	if err != nil {
		p.fail("Failed to load sessions: " + err.Error())
	}
	if p.all {
		p.rebuild()
	}
}

// HandlePaste types into the search or the rename field.
func (p *SessionPicker) HandlePaste(text string) {
	p.rc.bump()
	if ph, ok := p.sub.(tui.PasteHandler); ok && p.sub != nil {
		ph.HandlePaste(text)
		return
	}
	p.search.HandlePaste(text)
	p.rebuild()
}

func (p *SessionPicker) setName(path, name string) {
	for _, list := range []*[]session.Info{&p.o.Current, &p.allInfos} {
		for i := range *list {
			if (*list)[i].Path == path {
				(*list)[i].Name = name
			}
		}
	}
	p.rebuild()
}

func (p *SessionPicker) delete(path string) {
	var target session.Info
	for _, r := range p.rows {
		if r.info.Path == path {
			target = r.info
		}
	}
	if err := p.o.OnDelete(target); err != nil {
		p.fail("Failed to delete: " + err.Error())
		return
	}
	drop := func(list []session.Info) []session.Info {
		out := list[:0:0]
		for _, in := range list {
			if in.Path != path {
				out = append(out, in)
			}
		}
		return out
	}
	p.o.Current, p.allInfos = drop(p.o.Current), drop(p.allInfos)
	sel := p.sel
	p.rebuild()
	p.sel = max(min(sel, len(p.rows)-1), 0)
	p.status, p.statusOK = "Session deleted", true
}

func samePath(a, b string) bool {
	if a == "" || b == "" {
		return false
	}
	ra, err1 := filepath.EvalSymlinks(a)
	rb, err2 := filepath.EvalSymlinks(b)
	if err1 != nil || err2 != nil {
		return filepath.Clean(a) == filepath.Clean(b)
	}
	return ra == rb
}

// Age is how long ago t was, as the picker shows it: now, 5m, 3h, 2d, 1w,
// 4mo, 2y.
func Age(now, t time.Time) string {
	d := now.Sub(t)
	mins, hours, days := int(d/time.Minute), int(d/time.Hour), int(d/(24*time.Hour))
	switch {
	case mins < 1:
		return "now"
	case mins < 60:
		return fmt.Sprintf("%dm", mins)
	case hours < 24:
		return fmt.Sprintf("%dh", hours)
	case days < 7:
		return fmt.Sprintf("%dd", days)
	case days < 30:
		return fmt.Sprintf("%dw", days/7)
	case days < 365:
		return fmt.Sprintf("%dmo", days/30)
	}
	return fmt.Sprintf("%dy", days/365)
}

func (p *SessionPicker) short(path string) string {
	if p.o.Home != "" && (path == p.o.Home || strings.HasPrefix(path, p.o.Home+string(filepath.Separator))) {
		return "~" + path[len(p.o.Home):]
	}
	return path
}

func controlToSpace(s string) string {
	return strings.TrimSpace(strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f {
			return ' '
		}
		return r
	}, s))
}

// Render draws the header, hints, search and session rows.
// The rows are cached by width until the dialog changes.
func (p *SessionPicker) Render(width int) []string { return p.rc.get(width, p.render) }

// Invalidate drops the cached rows (after a theme change).
func (p *SessionPicker) Invalidate() { p.rc.bump() }

func (p *SessionPicker) render(width int) []string {
	if p.sub != nil {
		return p.sub.Render(width)
	}
	st := p.st
	f := &frame{w: width}
	// A blank row above the top rule, as the reference's selector has.
	f.blank()
	f.line(st.border(width))
	f.blank()
	title := "Resume Session (Current Folder)"
	scope := st.accent("◉ Current Folder") + st.muted(" | ○ All")
	if p.all {
		title = "Resume Session (All)"
		scope = st.muted("○ Current Folder | ") + st.accent("◉ All")
	}
	name := "All"
	if p.named {
		name = "Named"
	}
	// The title sits on the left and the scope, filter and order on the
	// right of one row, which wraps when the two do not fit.
	left := st.title(title)
	right := scope + "  " + st.muted("Name: ") + name + "  " + st.muted("Sort: ") + p.sort.String()
	if gap := width - tui.Width(left) - tui.Width(right); gap >= 2 {
		f.line(left + strings.Repeat(" ", gap) + right)
	} else {
		f.hint2(left + "  " + right)
	}
	pathState := "(off)"
	if p.paths {
		pathState = "(on)"
	}
	hints := []string{st.RawHint("tab", "scope"), st.RawHint("re:<pattern>", "regex"), st.RawHint(`"phrase"`, "exact")}
	f.hint2(strings.Join(hints, st.muted(" · ")))
	hints = []string{st.Hint("app.session.toggleSort", "sort"), st.Hint("app.session.toggleNamedFilter", "named")}
	if p.o.OnDelete != nil {
		hints = append(hints, st.Hint("app.session.delete", "delete"))
	}
	hints = append(hints, st.Hint("app.session.togglePath", "path "+pathState))
	if p.o.OnRename != nil {
		hints = append(hints, st.Hint("app.session.rename", "rename"))
	}
	f.hint2(strings.Join(hints, st.muted(" · ")))
	f.blank()
	f.line(p.search.Render(width)[0])
	if sq := parseSessionQuery(p.search.Text()); sq.err != nil {
		f.line(st.fg("error", "  Invalid regular expression: "+sq.err.Error()))
	}
	f.blank()
	if p.all && p.loading {
		f.line(st.muted("  Loading sessions…"))
	} else if len(p.rows) == 0 {
		msg := "  No sessions in current folder. Press Tab to view all."
		switch {
		case p.named && p.all:
			msg = "  No named sessions found. Press " + st.KeyText("app.session.toggleNamedFilter") + " to show all."
		case p.named:
			msg = "  No named sessions in current folder. Press " + st.KeyText("app.session.toggleNamedFilter") + " to show all, or Tab to view all."
		case p.all:
			msg = "  No sessions found"
		}
		f.line(st.muted(msg))
	}
	const visible = 10
	start := max(0, min(p.sel-visible/2, len(p.rows)-visible))
	end := min(start+visible, len(p.rows))
	now := p.o.Now()
	for i := start; i < end; i++ {
		f.line(p.row(p.rows[i], i == p.sel, width, now))
	}
	if start > 0 || end < len(p.rows) {
		f.line(st.muted(fmt.Sprintf("  (%d/%d)", p.sel+1, len(p.rows))))
	}
	f.blank()
	switch {
	case p.confirm != "":
		f.hint2(st.fg("error", "Delete session? ") + st.Hint("tui.select.confirm", "confirm") + st.muted(" · ") + st.Hint("tui.select.cancel", "cancel"))
		f.blank()
	case p.status != "" && p.statusOK:
		f.hint2(st.fg("success", p.status))
		f.blank()
	case p.status != "":
		f.hint2(st.fg("error", p.status))
		f.blank()
	}
	f.line(st.border(width))
	return f.rows
}

func (p *SessionPicker) row(r sessionRow, selected bool, width int, now time.Time) string {
	st := p.st
	in := r.info
	prefix := ""
	if r.depth > 0 {
		for _, c := range r.continues[min(1, len(r.continues)):] {
			if c {
				prefix += "│  "
			} else {
				prefix += "   "
			}
		}
		if r.last {
			prefix += "└─ "
		} else {
			prefix += "├─ "
		}
	}
	text := in.Name
	if text == "" {
		text = in.FirstMessage
	}
	text = controlToSpace(text)
	if text == "" {
		text = "(empty)"
	}
	right := fmt.Sprintf("%d %s", in.MessageCount, Age(now, in.Modified))
	if p.all && in.Cwd != "" {
		right = p.short(in.Cwd) + " " + right
	}
	if p.paths {
		right = p.short(in.Path) + " " + right
	}
	cursor := "  "
	if selected {
		cursor = st.accent("› ")
	}
	avail := max(10, width-2-tui.Width(prefix)-tui.Width(right)-2)
	msg := tui.Truncate(text, avail, "…")
	deleting := in.Path == p.confirm
	switch {
	case deleting:
		msg = st.fg("error", msg)
	case samePath(in.Path, p.o.CurrentPath):
		msg = st.accent(msg)
	case in.Name != "":
		msg = st.fg("warning", msg)
	}
	left := cursor + st.dim(prefix) + msg
	gap := max(1, width-tui.Width(left)-tui.Width(right))
	rightStyled := st.dim(right)
	if deleting {
		rightStyled = st.fg("error", right)
	}
	line := left + strings.Repeat(" ", gap) + rightStyled
	if selected {
		line = st.Theme.Bg("selectedBg", line)
	}
	return tui.Truncate(line, width, "")
}
