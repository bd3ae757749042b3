package interactive

import (
	"sort"
	"strings"

	"github.com/pi-go/pi/engine"
	"github.com/pi-go/pi/engine/cachewarm"
	"github.com/pi-go/pi/engine/tui"
)

// Transcript is the scrolling part of the screen: the start-up header,
// then one item per message, tool call, user command, summary and notice,
// one blank row between items.
//
// It keeps each item's height at the current width and the row where each
// item starts, recomputed only from the first item that changed, so a
// frame that shows a window of a long session renders the items in that
// window and nothing else (RenderRange), and a frame in which nothing
// changed costs nothing.
type Transcript struct {
	v     *view
	items []tui.Component
	index map[tui.Component]int

	width  int
	starts []int // starts[i] is the first row of item i (its separator included)
	rows   []int // rows[i] is item i's height including its separator
	dirty  int   // items from here on have unknown heights
	total  int

	streaming *assistantItem
	pending   map[string]*toolItem
	costs     *costNotices // showCacheMissNotices' lines; nil: none

	version uint64 // bumped on every change, for the dock's and renderers' caches
	all     cache  // Render's concatenation
}

func newTranscript(v *view) *Transcript {
	return &Transcript{v: v, index: map[tui.Component]int{}, pending: map[string]*toolItem{}}
}

// Len is the number of items.
func (t *Transcript) Len() int { return len(t.items) }

// Version changes whenever any row may have changed.
func (t *Transcript) Version() uint64 { return t.version + t.v.gen<<32 }

// add appends an item.
func (t *Transcript) add(c tui.Component) {
	t.index[c] = len(t.items)
	t.items = append(t.items, c)
	t.version++
}

// touch marks an item's rows as changed.
func (t *Transcript) touch(c tui.Component) {
	if i, ok := t.index[c]; ok && i < t.dirty {
		t.dirty = i
	}
	t.version++
}

// invalidateAll is for a change every item sees (Ctrl+O, Ctrl+T, theme).
func (t *Transcript) invalidateAll() {
	t.dirty = 0
	t.version++
}

// clear drops every item (a session switch rebuilds the transcript).
func (t *Transcript) clear() {
	t.items, t.index = nil, map[tui.Component]int{}
	t.starts, t.rows, t.dirty, t.total = nil, nil, 0, 0
	t.streaming, t.pending = nil, map[string]*toolItem{}
	t.version++
}

// layout brings heights up to date for width.
func (t *Transcript) layout(width int) {
	if width != t.width {
		t.width, t.dirty = width, 0
	}
	if t.dirty > len(t.items) {
		t.dirty = len(t.items)
	}
	t.starts, t.rows = t.starts[:min(len(t.starts), t.dirty)], t.rows[:min(len(t.rows), t.dirty)]
	row := 0
	if t.dirty > 0 {
		row = t.starts[t.dirty-1] + t.rows[t.dirty-1]
	}
	for i := t.dirty; i < len(t.items); i++ {
		n := len(t.items[i].Render(width))
		if _, afterHeader := t.prevItem(i).(*header); n > 0 && row > 0 && !afterHeader {
			n++ // the blank separator row above it (the header ends with its own)
		}
		t.starts = append(t.starts, row)
		t.rows = append(t.rows, n)
		row += n
	}
	t.dirty, t.total = len(t.items), row
}

// prevItem is the item before i, nil for the first.
func (t *Transcript) prevItem(i int) tui.Component {
	if i == 0 {
		return nil
	}
	return t.items[i-1]
}

// Height is the number of rows at width.
func (t *Transcript) Height(width int) int {
	t.layout(width)
	return t.total
}

// RenderRows returns rows [from, to) at width, rendering only the items
// that intersect them.
func (t *Transcript) RenderRange(width, from, to int) []string {
	t.layout(width)
	from, to = max(from, 0), min(to, t.total)
	if from >= to {
		return nil
	}
	out := make([]string, 0, to-from)
	i := sort.Search(len(t.starts), func(i int) bool { return t.starts[i]+t.rows[i] > from })
	for ; i < len(t.items) && t.starts[i] < to; i++ {
		rows := t.itemRows(i, width)
		lo, hi := max(from-t.starts[i], 0), min(to-t.starts[i], len(rows))
		out = append(out, rows[lo:hi]...)
	}
	return out
}

// MarkRows are the first rows of the user messages and replies, where
// the previous/next prompt keys jump to (tui.Marked).
func (t *Transcript) MarkRows(width int) []int {
	t.layout(width)
	var out []int
	for i, it := range t.items {
		switch it.(type) {
		case *userItem, *assistantItem:
		default:
			continue
		}
		if t.rows[i] == 0 {
			continue
		}
		row := t.starts[i]
		if r := it.Render(width); t.rows[i] > len(r) {
			row++ // past the separator
		}
		out = append(out, row)
	}
	return out
}

// itemRows is item i's rows with its separator.
func (t *Transcript) itemRows(i, width int) []string {
	r := t.items[i].Render(width)
	if len(r) > 0 && t.rows[i] > len(r) {
		return append([]string{""}, r...)
	}
	return r
}

// Render returns every row (the regular renderer's document, and the
// transcript printed on leaving fullscreen).
func (t *Transcript) Render(width int) []string {
	if r, ok := t.all.get(width, t.Version(), 0); ok {
		return r
	}
	return t.all.put(width, t.Version(), 0, t.RenderRange(width, 0, t.Height(width)))
}

// Handle turns one agent event into transcript changes. It reports
// whether anything changed.
func (t *Transcript) Handle(e engine.Event) bool {
	switch ev := e.(type) {
	case engine.MessageStart:
		return t.addMessage(ev.Message, true)
	case engine.MessageUpdate:
		if t.streaming == nil || ev.Message == nil {
			return false
		}
		t.streaming.update(ev.Message)
		t.touch(t.streaming)
		t.syncToolCalls(ev.Message)
		return true
	case engine.MessageEnd:
		m := ev.Message
		if m == nil || m.Role != engine.RoleAssistant || t.streaming == nil {
			return false
		}
		t.streaming.update(m)
		t.touch(t.streaming)
		t.syncToolCalls(m)
		if m.StopReason == engine.StopAborted || m.StopReason == engine.StopError {
			// Calls of a failed reply never run: they show its error.
			msg := t.streaming.errorText()
			for id, it := range t.pending {
				it.finish(engine.ToolResult{Content: []engine.Content{engine.TextContent(msg)}}, true, nil)
				t.touch(it)
				delete(t.pending, id)
			}
		}
		t.streaming = nil
		t.assistantEnded(m)
		return true
	case engine.ToolExecutionStart:
		if ev.ParentToolCallID != "" {
			return false
		}
		it := t.tool(ev.ToolCallID, ev.ToolName, ev.Args)
		it.setArgs(ev.Args)
		t.touch(it)
		return true
	case engine.ToolExecutionUpdate:
		if it, ok := t.pending[ev.ToolCallID]; ok {
			it.setPartial(ev.PartialResult)
			t.touch(it)
			return true
		}
	case engine.ToolExecutionEnd:
		if it, ok := t.pending[ev.ToolCallID]; ok {
			it.finish(ev.Result, ev.IsError, ev.DurationMs)
			t.touch(it)
			delete(t.pending, ev.ToolCallID)
			return true
		}
	case engine.EntryAppended:
		if en := ev.Entry; en != nil && en.Type == engine.EntryCustomMessage && en.Display && en.Content != nil {
			t.add(newCustomItem(t.v, en.CustomType, en.Content.Text()))
			return true
		}
		if en := ev.Entry; en != nil && en.Type == engine.EntryUsage && en.Kind == "cache_warm" && t.costs.enabled() {
			t.addWarming(en)
			return true
		}
	case engine.AgentEnd:
		// Calls still pending when the run ends will not finish.
		if t.streaming != nil {
			t.streaming = nil
		}
	}
	return false
}

// tool returns the row of a call, creating it.
func (t *Transcript) tool(id, name string, args []byte) *toolItem {
	if it, ok := t.pending[id]; ok {
		return it
	}
	it := newToolItem(t.v, id, name, args)
	t.pending[id] = it
	t.add(it)
	return it
}

// syncToolCalls gives every tool call of a streaming reply its row, with
// the arguments so far.
func (t *Transcript) syncToolCalls(m *engine.Message) {
	for _, b := range m.Content.Blocks {
		if b.Type != engine.ContentToolCall || b.ID == "" {
			continue
		}
		it := t.tool(b.ID, b.Name, b.Arguments)
		it.setArgs(b.Arguments)
		t.touch(it)
	}
}

// addMessage adds a message's item; live is false during replay.
func (t *Transcript) addMessage(m *engine.Message, live bool) bool {
	if m == nil {
		return false
	}
	switch m.Role {
	case engine.RoleUser:
		text := userText(m)
		if text == "" {
			return false
		}
		t.add(&userItem{v: t.v, text: text})
	case engine.RoleAssistant:
		it := newAssistantItem(t.v, m)
		t.add(it)
		if live {
			t.streaming = it
			return true
		}
		for _, b := range m.Content.Blocks {
			if b.Type == engine.ContentToolCall {
				tool := t.tool(b.ID, b.Name, b.Arguments)
				if m.StopReason == engine.StopAborted || m.StopReason == engine.StopError {
					tool.finish(engine.ToolResult{Content: []engine.Content{engine.TextContent(it.errorText())}}, true, nil)
					delete(t.pending, b.ID)
				}
			}
		}
	case engine.RoleToolResult:
		if it, ok := t.pending[m.ToolCallID]; ok {
			it.finish(engine.ToolResult{Content: m.Content.Blocks, Details: m.Details, IsError: m.IsError}, m.IsError, m.DurationMs)
			delete(t.pending, m.ToolCallID)
			t.touch(it)
		}
	case engine.RoleBashExecution:
		b := &bashItem{v: t.v, command: m.Command, excluded: m.ExcludeFromContext}
		b.append(m.Output)
		b.finish(m.ExitCode, m.Cancelled)
		t.add(b)
	case engine.RoleCustom:
		if !m.Display {
			return false
		}
		t.add(newCustomItem(t.v, m.CustomType, m.Content.Text()))
	case engine.RoleCompactionSummary:
		t.add(newSummaryItem(t.v, false, m.TokensBefore, m.Summary))
	case engine.RoleBranchSummary:
		t.add(newSummaryItem(t.v, true, 0, m.Summary))
	default:
		return false
	}
	return true
}

// userText is a user message's text blocks joined.
func userText(m *engine.Message) string {
	var sb strings.Builder
	for _, b := range m.Content.Blocks {
		if b.Type == engine.ContentText {
			sb.WriteString(b.Text)
		}
	}
	return sb.String()
}

// Replay rebuilds the transcript's messages from a session branch, as
// --continue, --session, a switch, a fork and /tree show history: the
// context after the latest compaction, that compaction as its summary.
// Items added with keep (the header) stay in front.
func (t *Transcript) Replay(branch []*engine.Entry, keep ...tui.Component) {
	t.clear()
	for _, k := range keep {
		t.add(k)
	}
	on := t.costs.enabled()
	var misses map[*engine.Message]*cachewarm.Miss
	if on {
		// Misses are not stored: they are derived again from the entries
		// and shown after the replies that paid for them.
		misses = cachewarm.CollectCacheMisses(t.costs.entries(), t.costs.models)
	}
	for _, ce := range engine.ProjectContext(branch) {
		e := ce.Entry
		if on && e.Type == engine.EntryUsage && e.Kind == "cache_warm" {
			t.addWarming(e)
			continue
		}
		for _, m := range ce.Messages {
			t.addMessage(m, false)
			if on && m.Role == engine.RoleAssistant && m.StopReason != engine.StopAborted && m.StopReason != engine.StopError {
				t.addMiss(misses[m])
			}
		}
		if on && (e.Type == engine.EntryCompaction || e.Type == engine.EntryBranchSummary) && len(ce.Messages) > 0 {
			t.addSummaryUsage(e)
		}
	}
	// Calls without a recorded result stay pending only while a run
	// could still finish them; a replayed one will not.
	t.pending = map[string]*toolItem{}
}

// notice appends a one-line notice in the given theme token.
func (t *Transcript) notice(token, text string) {
	t.add(&noticeItem{v: t.v, token: token, text: text})
}
