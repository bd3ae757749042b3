package dialogs

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"strings"
	"time"

	"github.com/pi-go/pi/engine"
	"github.com/pi-go/pi/engine/session"
	"github.com/pi-go/pi/engine/tui"
)

// TreeFilters are the /tree filter modes in cycling order (the
// treeFilterMode setting's values).
var TreeFilters = []string{"default", "no-tools", "user-only", "labeled-only", "all"}

var filterBadge = map[string]string{"no-tools": " [no-tools]", "user-only": " [user]", "labeled-only": " [labeled]", "all": " [all]"}

// TreeSelectorOptions configure the /tree selector.
type TreeSelectorOptions struct {
	Tree   []*session.TreeNode // session.File.Tree()
	LeafID string              // the current position
	// Selected is the entry to open on ("" is the leaf).
	Selected string
	// Filter is the initial filter mode ("" is "default").
	Filter string
	// Rows is how many entry rows show at once (default 15).
	Rows int
	// OnSelect gets the chosen entry; the caller navigates to it.
	OnSelect func(entryID string)
	OnCancel func()
	// OnCopy copies the selected entry's text (app.message.copy); nil
	// leaves the key out.
	OnCopy func(text string)
	// OnLabel sets (label "") or clears an entry's label; nil leaves
	// Shift+L out.
	OnLabel func(entryID, label string) error
}

// treeRow is one flattened entry with its place in the drawing.
type treeRow struct {
	node     *session.TreeNode
	parent   *treeRow
	children int
	// The drawing of the filtered view: the nearest shown ancestor, the
	// connector levels, whether the row has a ├─/└─ connector and is its
	// parent's last shown child, and its shown children.
	vparent *treeRow
	depth   int
	conn    bool
	last    bool
	vkids   int
}

// TreeSelector is the /tree selector: every entry of the session as a
// row with branch art, "• " on the active path, "› " on the selection,
// labels, filters (app.tree.filter.*), folding of branch points and
// search.
type TreeSelector struct {
	home    string // the home directory, shortened to ~ in tool rows
	rc      renderCache
	st      Style
	o       TreeSelectorOptions
	all     []*treeRow
	byID    map[string]*treeRow
	calls   map[string]engine.Content // tool call id → the call
	active  map[string]bool
	folded  map[string]bool
	filter  int
	query   string
	shown   []*treeRow
	sel     int
	stamps  bool
	editing *Line
	editID  string
	errMsg  string
	done    bool
}

// NewTreeSelector builds the selector on the current leaf.
func NewTreeSelector(st Style, o TreeSelectorOptions) *TreeSelector {
	ts := &TreeSelector{home: os.Getenv("HOME"), st: st, o: o, byID: map[string]*treeRow{}, calls: map[string]engine.Content{},
		active: map[string]bool{}, folded: map[string]bool{}}
	for i, f := range TreeFilters {
		if f == o.Filter {
			ts.filter = i
		}
	}
	ts.flatten()
	for id := o.LeafID; id != ""; {
		r := ts.byID[id]
		if r == nil || ts.active[id] {
			break
		}
		ts.active[id] = true
		if r.parent == nil {
			break
		}
		id = r.parent.node.EntryValue().ID
	}
	start := o.Selected
	if start == "" {
		start = o.LeafID
	}
	ts.refilter(start)
	return ts
}

// flatten walks the forest depth first. A chain of single children stays
// in one column; the children of a branch point are drawn one level in,
// each with a connector.
func (ts *TreeSelector) flatten() {
	var walk func(n *session.TreeNode, parent *treeRow)
	walk = func(n *session.TreeNode, parent *treeRow) {
		e := n.EntryValue()
		if e == nil {
			return
		}
		r := &treeRow{node: n, parent: parent, children: len(n.Children)}
		ts.all = append(ts.all, r)
		ts.byID[e.ID] = r
		if e.Type == engine.EntryMessage && e.Message != nil && e.Message.Role == engine.RoleAssistant {
			for _, c := range e.Message.Content.Blocks {
				if c.Type == engine.ContentToolCall {
					ts.calls[c.ID] = c
				}
			}
		}
		for _, c := range n.Children {
			walk(c, r)
		}
	}
	for _, n := range ts.o.Tree {
		walk(n, nil)
	}
}

// layout draws the shown rows as a tree of their own: each row hangs
// under its nearest shown ancestor, so a branch whose first entry is
// filtered out still gets its connector.
func (ts *TreeSelector) layout() {
	shown := map[*treeRow]bool{}
	for _, r := range ts.shown {
		shown[r] = true
		r.vkids = 0
	}
	kids := map[*treeRow][]*treeRow{}
	var roots []*treeRow
	for _, r := range ts.shown {
		r.vparent = nil
		for p := r.parent; p != nil; p = p.parent {
			if shown[p] {
				r.vparent = p
				break
			}
		}
		if r.vparent == nil {
			roots = append(roots, r)
		} else {
			kids[r.vparent] = append(kids[r.vparent], r)
			r.vparent.vkids++
		}
	}
	var place func(list []*treeRow, depth int, branch bool)
	place = func(list []*treeRow, depth int, branch bool) {
		for i, r := range list {
			r.conn, r.last = branch, i == len(list)-1
			r.depth = depth
			if branch {
				r.depth = depth + 1
			}
			k := kids[r]
			place(k, r.depth, len(k) > 1)
		}
	}
	place(roots, 0, len(roots) > 1)
}

// FilterMode is the current filter.
func (ts *TreeSelector) FilterMode() string { return TreeFilters[ts.filter] }

func settingsEntry(t string) bool {
	switch t {
	case engine.EntryLabel, engine.EntryContextEdit, engine.EntryCustom, engine.EntryModelChange,
		engine.EntryThinkingLevelChange, engine.EntrySessionInfo:
		return true
	}
	return false
}

func (ts *TreeSelector) passes(r *treeRow) bool {
	e := r.node.EntryValue()
	if e.Type == engine.EntryUsage {
		return false
	}
	msg := e.Message
	role := ""
	if e.Type == engine.EntryMessage && msg != nil {
		role = msg.Role
	}
	// An assistant turn that only called tools says nothing on its own;
	// the tool rows stand for it. Errors, aborts and the current
	// position always show.
	if role == engine.RoleAssistant && e.ID != ts.o.LeafID && strings.TrimSpace(textOf(msg.Content)) == "" &&
		(msg.StopReason == engine.StopStop || msg.StopReason == engine.StopToolUse || msg.StopReason == "") {
		return false
	}
	switch TreeFilters[ts.filter] {
	case "user-only":
		return role == engine.RoleUser
	case "no-tools":
		return !settingsEntry(e.Type) && role != engine.RoleToolResult
	case "labeled-only":
		return r.node.Label != ""
	case "all":
		return true
	}
	return !settingsEntry(e.Type)
}

func (ts *TreeSelector) hidden(r *treeRow) bool {
	for p := r.parent; p != nil; p = p.parent {
		if ts.folded[p.node.EntryValue().ID] {
			return true
		}
	}
	return false
}

func (ts *TreeSelector) refilter(keep string) {
	if keep == "" {
		if r := ts.current(); r != nil {
			keep = r.node.EntryValue().ID
		}
	}
	toks := strings.Fields(strings.ToLower(ts.query))
	ts.shown = ts.shown[:0]
	for _, r := range ts.all {
		if !ts.passes(r) || ts.hidden(r) {
			continue
		}
		if len(toks) > 0 {
			text := strings.ToLower(ts.text(r) + " " + r.node.Label)
			ok := true
			for _, t := range toks {
				ok = ok && strings.Contains(text, t)
			}
			if !ok {
				continue
			}
		}
		ts.shown = append(ts.shown, r)
	}
	ts.layout()
	ts.sel = len(ts.shown) - 1
	// Keep the selection on keep, or on its nearest shown ancestor.
	for id := keep; id != ""; {
		for i, r := range ts.shown {
			if r.node.EntryValue().ID == id {
				ts.sel = i
				return
			}
		}
		r := ts.byID[id]
		if r == nil || r.parent == nil {
			break
		}
		id = r.parent.node.EntryValue().ID
	}
	ts.sel = max(ts.sel, 0)
}

func (ts *TreeSelector) current() *treeRow {
	if ts.sel < 0 || ts.sel >= len(ts.shown) {
		return nil
	}
	return ts.shown[ts.sel]
}

func textOf(c engine.Contents) string {
	if c.IsString {
		return c.Text()
	}
	var parts []string
	for _, b := range c.Blocks {
		if b.Type == engine.ContentText {
			parts = append(parts, b.Text)
		}
	}
	return strings.Join(parts, " ")
}

// toolSummary is what a tool result's row says about its call, as the
// reference words it per tool: paths shortened to ~, bash commands cut at
// 50 characters and other tools' JSON arguments at 40.
func toolSummary(c engine.Content, home string) string {
	var args map[string]any
	_ = json.Unmarshal(c.Arguments, &args)
	str := func(keys ...string) string {
		for _, k := range keys {
			if v, ok := args[k]; ok && v != nil {
				if s, ok := v.(string); ok {
					return s
				}
				return fmt.Sprint(v)
			}
		}
		return ""
	}
	short := func(p string) string {
		if home != "" && (p == home || strings.HasPrefix(p, home+"/")) {
			return "~" + p[len(home):]
		}
		return p
	}
	orDot := func(p string) string {
		if p == "" {
			return "."
		}
		return p
	}
	switch c.Name {
	case "read":
		rng := ""
		off, hasOff := args["offset"].(float64)
		lim, hasLim := args["limit"].(float64)
		switch {
		case hasOff && hasLim:
			rng = fmt.Sprintf(":%d-%d", int(off), int(off)+int(lim)-1)
		case hasOff:
			rng = fmt.Sprintf(":%d", int(off))
		case hasLim:
			rng = fmt.Sprintf(":1-%d", int(lim))
		}
		return "[read: " + short(str("path", "file_path")) + rng + "]"
	case "write", "edit":
		return "[" + c.Name + ": " + short(str("path", "file_path")) + "]"
	case "bash":
		raw := str("command")
		cmd := []rune(strings.TrimSpace(strings.NewReplacer("\n", " ", "\t", " ").Replace(raw)))
		more := ""
		if len([]rune(raw)) > 50 {
			more = "..."
		}
		if len(cmd) > 50 {
			cmd = cmd[:50]
		}
		return "[bash: " + string(cmd) + more + "]"
	case "grep":
		return "[grep: /" + str("pattern") + "/ in " + short(orDot(str("path"))) + "]"
	case "find":
		return "[find: " + str("pattern") + " in " + short(orDot(str("path"))) + "]"
	case "ls":
		return "[ls: " + short(orDot(str("path"))) + "]"
	}
	js := string(c.Arguments)
	if js == "" {
		js = "{}"
	}
	r := []rune(js)
	more := ""
	if len(r) > 40 {
		r, more = r[:40], "..."
	}
	return "[" + c.Name + ": " + string(r) + more + "]"
}

// text is what a row says about its entry.
func (ts *TreeSelector) text(r *treeRow) string {
	e := r.node.EntryValue()
	switch e.Type {
	case engine.EntryMessage:
		m := e.Message
		if m == nil {
			return "(no content)"
		}
		switch m.Role {
		case engine.RoleUser:
			return "user: " + orEmpty(oneLine(textOf(m.Content)))
		case engine.RoleAssistant:
			t := oneLine(textOf(m.Content))
			switch {
			case m.StopReason == engine.StopAborted && t == "":
				t = "(aborted)"
			case m.ErrorMessage != "" && t == "":
				t = oneLine(m.ErrorMessage)
				if r := []rune(t); len(r) > 80 {
					t = string(r[:80])
				}
			case t == "":
				t = "(no content)"
			}
			return "assistant: " + t
		case engine.RoleToolResult:
			if c, ok := ts.calls[m.ToolCallID]; ok {
				return toolSummary(c, ts.home)
			}
			return "[" + m.ToolName + "]"
		case engine.RoleBashExecution:
			return "[bash]: " + oneLine(m.Command)
		case engine.RoleCustom:
			return "[" + m.CustomType + "]: " + oneLine(textOf(m.Content))
		case engine.RoleSystem:
			return "[system]"
		}
		return "[" + m.Role + "]"
	case engine.EntryCompaction:
		return fmt.Sprintf("[compaction: %dk tokens]", int(math.Round(float64(e.TokensBefore)/1000)))
	case engine.EntryBranchSummary:
		return "[branch summary]: " + oneLine(e.Summary)
	case engine.EntryCustomMessage:
		t := ""
		if e.Content != nil {
			t = oneLine(textOf(*e.Content))
		}
		return "[" + e.CustomType + "]: " + t
	case engine.EntryCustom:
		return "[custom: " + e.CustomType + "]"
	case engine.EntryModelChange:
		return "[model: " + e.Provider + "/" + e.ModelID + "]"
	case engine.EntryThinkingLevelChange:
		return "[thinking: " + e.ThinkingLevel + "]"
	case engine.EntrySessionInfo:
		n := ""
		if e.Name != nil {
			n = *e.Name
		}
		return "[title: " + n + "]"
	case engine.EntryLabel:
		l := ""
		if e.Label != nil {
			l = *e.Label
		}
		return "[label: " + l + "]"
	case engine.EntryContextEdit:
		return "[context edit]"
	}
	return "[" + e.Type + "]"
}

// copyText is the text of a message entry ("" for the rest).
func (ts *TreeSelector) copyText(r *treeRow) string {
	e := r.node.EntryValue()
	if e.Type != engine.EntryMessage || e.Message == nil {
		return ""
	}
	switch e.Message.Role {
	case engine.RoleUser, engine.RoleAssistant, engine.RoleCustom:
		return strings.TrimSpace(textOf(e.Message.Content))
	case engine.RoleBashExecution:
		return e.Message.Command
	}
	return ""
}

func orEmpty(s string) string {
	if s == "" {
		return "(no content)"
	}
	return s
}

// Done reports whether the selector has resolved.
func (ts *TreeSelector) Done() bool { return ts.done }

// foldable rows are branch points (and roots of several children).
func (ts *TreeSelector) foldable(r *treeRow) bool { return r.children > 1 }

// HandleKey handles navigation, filters, folding, labels and search.
func (ts *TreeSelector) HandleKey(k tui.Key) bool {
	ts.rc.bump()
	if ts.done || k.Release {
		return false
	}
	if ts.editing != nil {
		switch {
		case ts.st.Is(k, "tui.select.confirm"):
			label, id := strings.TrimSpace(ts.editing.Text()), ts.editID
			ts.editing = nil
			if err := ts.o.OnLabel(id, label); err != nil {
				ts.errMsg = "Failed to set label: " + err.Error()
				return true
			}
			if r := ts.byID[id]; r != nil {
				r.node.Label = label
				r.node.LabelTimestamp = time.Now().UTC().Format("2006-01-02T15:04:05.000Z")
			}
			ts.refilter(id)
		case ts.st.Is(k, "tui.select.cancel"):
			ts.editing = nil
		default:
			ts.editing.HandleKey(k)
		}
		return true
	}
	ts.errMsg = ""
	n := len(ts.shown)
	setFilter := func(i int) {
		ts.filter = (i + len(TreeFilters)) % len(TreeFilters)
		ts.refilter("")
	}
	// The filter keys other than default toggle: pressed again, they go
	// back to the default view.
	toggle := func(i int) {
		if ts.filter == i {
			i = 0
		}
		setFilter(i)
	}
	switch {
	case ts.st.Is(k, "tui.select.up"):
		if n > 0 {
			ts.sel = (ts.sel - 1 + n) % n
		}
	case ts.st.Is(k, "tui.select.down"):
		if n > 0 {
			ts.sel = (ts.sel + 1) % n
		}
	case ts.st.Is(k, "tui.select.pageUp") || k.Is("left"):
		ts.sel = max(ts.sel-ts.rows(), 0)
	case ts.st.Is(k, "tui.select.pageDown") || k.Is("right"):
		ts.sel = max(min(ts.sel+ts.rows(), n-1), 0)
	case ts.o.OnCopy != nil && ts.st.Is(k, "app.message.copy"):
		if r := ts.current(); r != nil {
			ts.o.OnCopy(ts.copyText(r))
		}
	case ts.st.Is(k, "tui.select.confirm"):
		if r := ts.current(); r != nil {
			ts.done = true
			if ts.o.OnSelect != nil {
				ts.o.OnSelect(r.node.EntryValue().ID)
			}
		}
	case ts.st.Is(k, "tui.select.cancel"):
		if ts.query != "" {
			ts.query = ""
			ts.refilter("")
			return true
		}
		ts.done = true
		if ts.o.OnCancel != nil {
			ts.o.OnCancel()
		}
	case ts.st.Is(k, "app.tree.foldOrUp"):
		r := ts.current()
		if r == nil {
			return true
		}
		if id := r.node.EntryValue().ID; ts.foldable(r) && !ts.folded[id] {
			ts.folded[id] = true
			ts.refilter(id)
			return true
		}
		// Otherwise jump to the branch point above.
		for p := r.parent; p != nil; p = p.parent {
			if ts.foldable(p) {
				ts.refilter(p.node.EntryValue().ID)
				return true
			}
		}
	case ts.st.Is(k, "app.tree.unfoldOrDown"):
		r := ts.current()
		if r == nil {
			return true
		}
		if id := r.node.EntryValue().ID; ts.folded[id] {
			delete(ts.folded, id)
			ts.refilter(id)
			return true
		}
		// Otherwise jump to the next branch point below.
		for i := ts.sel + 1; i < n; i++ {
			if ts.foldable(ts.shown[i]) {
				ts.sel = i
				break
			}
		}
	case ts.st.Is(k, "app.tree.filter.default"):
		setFilter(0)
	case ts.st.Is(k, "app.tree.filter.noTools"):
		toggle(1)
	case ts.st.Is(k, "app.tree.filter.userOnly"):
		toggle(2)
	case ts.st.Is(k, "app.tree.filter.labeledOnly"):
		toggle(3)
	case ts.st.Is(k, "app.tree.filter.all"):
		toggle(4)
	case ts.st.Is(k, "app.tree.filter.cycleForward"):
		setFilter(ts.filter + 1)
	case ts.st.Is(k, "app.tree.filter.cycleBackward"):
		setFilter(ts.filter - 1)
	case ts.st.Is(k, "app.tree.toggleLabelTimestamp"):
		ts.stamps = !ts.stamps
	case ts.o.OnLabel != nil && ts.st.Is(k, "app.tree.editLabel"):
		if r := ts.current(); r != nil {
			ts.editing = &Line{}
			ts.editing.SetText(r.node.Label)
			ts.editID = r.node.EntryValue().ID
		}
	case k.Is("backspace"):
		if q := []rune(ts.query); len(q) > 0 {
			ts.query = string(q[:len(q)-1])
			ts.refilter("")
		}
	case k.Text != "" && k.Mod&(tui.ModCtrl|tui.ModAlt|tui.ModSuper) == 0:
		ts.query += k.Text
		ts.refilter("")
	case k.Is("space"):
		ts.query += " "
	default:
		return false
	}
	return true
}

func (ts *TreeSelector) rows() int {
	if ts.o.Rows > 0 {
		return ts.o.Rows
	}
	return 15
}

// prefix draws a row's branch art: "│  " where an ancestor's siblings
// continue below, and the row's own "├─ "/"└─ " (its middle character ⊟
// or ⊞ on a foldable branch point).
func (ts *TreeSelector) prefix(r *treeRow) string {
	if r.depth == 0 || !r.conn {
		return ts.gutters(r, r.depth)
	}
	var b strings.Builder
	b.WriteString(ts.gutters(r, r.depth-1))
	mid := "─"
	if ts.foldable(r) {
		mid = "⊟"
		if ts.folded[r.node.EntryValue().ID] {
			mid = "⊞"
		}
	}
	if r.last {
		b.WriteString("└" + mid + " ")
	} else {
		b.WriteString("├" + mid + " ")
	}
	return b.String()
}

// gutters are the columns of levels 1..levels above r: a bar where the
// ancestor that opened the level has siblings after it.
func (ts *TreeSelector) gutters(r *treeRow, levels int) string {
	cols := make([]string, levels)
	for i := range cols {
		cols[i] = "   "
	}
	// Walk up from r: each connector-drawn ancestor at depth d (or r
	// itself, for the levels below its own) decides the column d-1.
	for a := r; a != nil; a = a.vparent {
		if a.conn && a.depth-1 < levels && a.depth >= 1 && a != r {
			if !a.last {
				cols[a.depth-1] = "│  "
			}
		}
	}
	return strings.Join(cols, "")
}

// Render draws the title, hints, search, rows and the counter.
// The rows are cached by width until the dialog changes.
func (ts *TreeSelector) Render(width int) []string { return ts.rc.get(width, ts.render) }

// Invalidate drops the cached rows (after a theme change).
func (ts *TreeSelector) Invalidate() { ts.rc.bump() }

func (ts *TreeSelector) render(width int) []string {
	st := ts.st
	f := &frame{w: width}
	// A blank row above the top rule, as the reference's selector has.
	f.blank()
	f.line(st.border(width))
	f.line(st.title("   Session Tree"))
	// The help row is all muted, the keys as they are written in the
	// bindings, and the filter keys after their label, as the reference's.
	hints := []string{"↑/↓ move", "←/→ page", "ctrl+←/→ branch"}
	if ts.o.OnCopy != nil {
		hints = append(hints, st.RawKeyText("app.message.copy")+" copy")
	}
	if ts.o.OnLabel != nil {
		hints = append(hints, st.RawKeyText("app.tree.editLabel")+" label")
	}
	hints = append(hints, st.RawKeyText("app.tree.toggleLabelTimestamp")+" label time",
		"filters "+compactKeys(st.RawKeyText("app.tree.filter.default"), st.RawKeyText("app.tree.filter.noTools"),
			st.RawKeyText("app.tree.filter.userOnly"), st.RawKeyText("app.tree.filter.labeledOnly"), st.RawKeyText("app.tree.filter.all")),
		"cycle "+compactKeys(st.RawKeyText("app.tree.filter.cycleForward"), st.RawKeyText("app.tree.filter.cycleBackward")))
	for _, r := range helpRows(hints, width) {
		f.line(st.muted(r))
	}
	if ts.editing != nil {
		f.line("  " + st.muted("Label (empty to remove):"))
		f.line("  " + ts.editing.Render(max(width-2, 1))[0])
		f.line("  " + st.Hint("tui.select.confirm", "save") + "  " + st.Hint("tui.select.cancel", "cancel"))
		f.line(st.border(width))
		return f.rows
	}
	f.line("  " + st.muted("Type to search:") + " " + st.accent(ts.query))
	f.line(st.border(width))
	f.blank()
	badge := filterBadge[TreeFilters[ts.filter]]
	if len(ts.shown) == 0 {
		f.line(st.muted("  No entries found"))
		f.line(st.muted("  (0/0)" + badge))
	} else {
		v := ts.rows()
		start := max(0, min(ts.sel-v/2, len(ts.shown)-v))
		end := min(start+v, len(ts.shown))
		for i := start; i < end; i++ {
			// Cut at the width without an ellipsis, as the reference's.
			f.rows = append(f.rows, tui.Truncate(ts.row(ts.shown[i], i == ts.sel), width, ""))
		}
		f.line(st.muted(fmt.Sprintf("  (%d/%d)%s", ts.sel+1, len(ts.shown), badge)))
	}
	if ts.errMsg != "" {
		f.pad(st.fg("error", ts.errMsg))
	}
	f.blank()
	f.line(st.border(width))
	return f.rows
}

func (ts *TreeSelector) row(r *treeRow, selected bool) string {
	st := ts.st
	e := r.node.EntryValue()
	cursor := "  "
	if selected {
		cursor = st.accent("› ")
	}
	body := st.dim(ts.prefix(r))
	if (r.depth == 0 || !r.conn) && ts.folded[e.ID] {
		body += st.accent("⊞ ")
	}
	if ts.active[e.ID] {
		body += st.accent("• ")
	}
	if r.node.Label != "" {
		body += st.fg("warning", "["+r.node.Label+"] ")
		if ts.stamps && r.node.LabelTimestamp != "" {
			body += st.muted(labelTime(r.node.LabelTimestamp) + " ")
		}
	}
	text := ts.text(r)
	switch {
	case e.ID == ts.o.LeafID:
		text = st.accent(text)
	case e.Type == engine.EntryMessage && e.Message != nil && e.Message.Role == engine.RoleUser:
		text = st.text(text)
	default:
		text = st.muted(text)
	}
	line := cursor + body + text
	if selected {
		line = st.Theme.Bg("selectedBg", line)
	}
	return line
}

// labelTime shows a label's time as "15:04" today, "01/02 15:04" this
// year, else "2006/01/02 15:04", in local time.
func labelTime(iso string) string {
	t, err := time.Parse(time.RFC3339Nano, iso)
	if err != nil {
		return iso
	}
	t, now := t.Local(), time.Now()
	switch {
	case t.Year() == now.Year() && t.YearDay() == now.YearDay():
		return t.Format("15:04")
	case t.Year() == now.Year():
		return t.Format("01/02 15:04")
	}
	return t.Format("2006/01/02 15:04")
}

// compactKeys joins keys, sharing their modifier prefix when they all
// have the same one: "ctrl+d/t/u/l/a".
func compactKeys(keys ...string) string {
	var ks []string
	for _, k := range keys {
		if k != "" {
			ks = append(ks, k)
		}
	}
	if len(ks) < 2 {
		return strings.Join(ks, "/")
	}
	cut := func(k string) (string, string) {
		i := strings.LastIndexByte(k, '+')
		return k[:i+1], k[i+1:]
	}
	prefix, _ := cut(ks[0])
	suffixes := make([]string, len(ks))
	for i, k := range ks {
		p, s := cut(k)
		if p != prefix || prefix == "" {
			return strings.Join(ks, "/")
		}
		suffixes[i] = s
	}
	return prefix + strings.Join(suffixes, "/")
}

// helpRows wraps help items joined by " · " into rows indented by two
// cells; an item that does not fit starts the next row.
func helpRows(items []string, width int) []string {
	avail := max(1, width)
	const indent, sep = "  ", " · "
	var rows []string
	cur := ""
	for _, it := range items {
		cand := indent + it
		if cur != "" {
			cand = cur + sep + it
		}
		if tui.Width(cand) <= avail {
			cur = cand
			continue
		}
		if cur != "" {
			rows = append(rows, tui.Wrap(strings.TrimRight(cur, " "), avail)...)
		}
		cur = indent + it
		if tui.Width(cur) > avail {
			cur = it
		}
	}
	if cur != "" {
		rows = append(rows, tui.Wrap(strings.TrimRight(cur, " "), avail)...)
	}
	return rows
}
