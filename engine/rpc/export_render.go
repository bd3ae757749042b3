package rpc

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"fmt"
	"html/template"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/pi-go/pi/engine"
)

//go:embed export_template.html
var exportTemplateText string

// exportTemplate is parsed on first use, not at package init: parsing costs
// about a thousand allocations and every `pi --mode rpc` start would pay
// for it, while few sessions are ever exported.
var exportTemplate = sync.OnceValue(func() *template.Template {
	return template.Must(template.New("export").Parse(exportTemplateText))
})

// exportPage is what the template renders.
type exportPage struct {
	Title        string
	SessionName  string
	Header       engine.Header
	Started      string
	LeafID       string
	SystemPrompt string
	Tools        []ExportTool
	Stats        exportStats
	Outline      []outlineRow
	Active       []exportBlock
	Branches     []exportBranch
}

type exportStats struct {
	Entries, Messages, User, Assistant, ToolCalls int
	Input, Output, CacheRead, CacheWrite          int
	Cost                                          float64
}

// outlineRow is one line of the tree outline: an entry, indented by the
// number of forks above it.
type outlineRow struct {
	ID, Label, Kind string
	Depth           int
	OnActive, Leaf  bool
	Fork            bool // more than one child
}

// exportBranch is a run of entries off the current branch, starting at a
// fork.
type exportBranch struct {
	ForkAt string // parent of the first entry ("" for a second root)
	Blocks []exportBlock
}

// exportBlock is one rendered entry.
type exportBlock struct {
	ID, ParentID string
	Class        string // CSS class: user, assistant, tool, bash, system, meta, summary, custom, error
	Title        string
	Time         string
	Meta         string
	Parts        []exportPart
	Collapsed    bool
}

// exportPart is one piece of a block's body.
type exportPart struct {
	Kind  string // text, thinking, image, call, pre, json
	Text  string
	Name  string
	Image template.URL
	Error bool
}

// RenderHTML returns the export page for a session. It is deterministic
// for given inputs (no clock, no randomness) so it can be golden-tested.
func RenderHTML(header engine.Header, entries []*engine.Entry, o ExportOptions) ([]byte, error) {
	page := buildPage(header, entries, o)
	var b bytes.Buffer
	if err := exportTemplate().Execute(&b, page); err != nil {
		return nil, fmt.Errorf("render export: %w", err)
	}
	return b.Bytes(), nil
}

func buildPage(header engine.Header, entries []*engine.Entry, o ExportOptions) exportPage {
	byID := map[string]*engine.Entry{}
	for _, e := range entries {
		if e != nil {
			byID[e.ID] = e
		}
	}
	leaf := o.LeafID
	if _, ok := byID[leaf]; !ok && len(entries) > 0 {
		leaf = entries[len(entries)-1].ID
	}
	onPath := map[string]bool{}
	var path []*engine.Entry
	for id := leaf; id != ""; {
		e, ok := byID[id]
		if !ok || onPath[id] {
			break // a missing parent or a cycle ends the walk
		}
		onPath[id] = true
		path = append(path, e)
		id = parentOf(e)
	}
	for i, j := 0, len(path)-1; i < j; i, j = i+1, j-1 {
		path[i], path[j] = path[j], path[i]
	}

	p := exportPage{Header: header, LeafID: leaf, SystemPrompt: o.SystemPrompt, Tools: o.Tools, Started: header.Timestamp}
	for _, e := range entries {
		if e == nil {
			continue
		}
		if e.Type == engine.EntrySessionInfo && e.Name != nil {
			p.SessionName = *e.Name // the latest one wins
		}
		p.Stats.add(e)
	}
	p.Title = "Session " + header.ID
	if p.SessionName != "" {
		p.Title = p.SessionName
	}
	for _, e := range path {
		p.Active = append(p.Active, renderEntry(e))
	}
	// Entries off the current branch, in append order, grouped into runs
	// that each start where they leave a previously shown entry.
	var cur *exportBranch
	var last string
	for _, e := range entries {
		if e == nil || onPath[e.ID] {
			continue
		}
		parent := parentOf(e)
		if cur == nil || parent != last {
			p.Branches = append(p.Branches, exportBranch{ForkAt: parent})
			cur = &p.Branches[len(p.Branches)-1]
		}
		cur.Blocks = append(cur.Blocks, renderEntry(e))
		last = e.ID
	}
	p.Outline = outline(entries, byID, onPath, leaf)
	return p
}

func parentOf(e *engine.Entry) string {
	if e.ParentID == nil || *e.ParentID == e.ID {
		return ""
	}
	return *e.ParentID
}

func (s *exportStats) add(e *engine.Entry) {
	s.Entries++
	if e.Type != engine.EntryMessage || e.Message == nil {
		return
	}
	m := e.Message
	s.Messages++
	switch m.Role {
	case engine.RoleUser:
		s.User++
	case engine.RoleAssistant:
		s.Assistant++
		s.ToolCalls += len(m.ToolCalls())
		s.Input += m.Usage.Input
		s.Output += m.Usage.Output
		s.CacheRead += m.Usage.CacheRead
		s.CacheWrite += m.Usage.CacheWrite
		s.Cost += m.Usage.Cost.Total
	}
}

// outline lists every entry in tree order: children follow their parent,
// siblings in append order; depth grows only below a fork so a long
// conversation stays flat.
func outline(entries []*engine.Entry, byID map[string]*engine.Entry, onPath map[string]bool, leaf string) []outlineRow {
	children := map[string][]*engine.Entry{}
	var roots []*engine.Entry
	for _, e := range entries {
		if e == nil {
			continue
		}
		parent := parentOf(e)
		if _, ok := byID[parent]; parent == "" || !ok {
			roots = append(roots, e)
			continue
		}
		children[parent] = append(children[parent], e)
	}
	// Show the current branch first among siblings so the outline reads
	// like the page.
	for _, list := range children {
		sort.SliceStable(list, func(i, j int) bool { return onPath[list[i].ID] && !onPath[list[j].ID] })
	}
	sort.SliceStable(roots, func(i, j int) bool { return onPath[roots[i].ID] && !onPath[roots[j].ID] })

	type item struct {
		e     *engine.Entry
		depth int
	}
	var rows []outlineRow
	seen := map[string]bool{}
	stack := make([]item, 0, len(roots))
	for i := len(roots) - 1; i >= 0; i-- {
		stack = append(stack, item{roots[i], 0})
	}
	for len(stack) > 0 {
		it := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if seen[it.e.ID] {
			continue
		}
		seen[it.e.ID] = true
		kids := children[it.e.ID]
		kind, label := outlineLabel(it.e)
		rows = append(rows, outlineRow{ID: it.e.ID, Label: label, Kind: kind, Depth: it.depth,
			OnActive: onPath[it.e.ID], Leaf: it.e.ID == leaf, Fork: len(kids) > 1})
		d := it.depth
		if len(kids) > 1 {
			d++
		}
		for i := len(kids) - 1; i >= 0; i-- {
			stack = append(stack, item{kids[i], d})
		}
	}
	return rows
}

func outlineLabel(e *engine.Entry) (kind, label string) {
	if e.Type == engine.EntryMessage && e.Message != nil {
		m := e.Message
		text := m.Content.Text()
		switch m.Role {
		case engine.RoleBashExecution:
			text = "$ " + m.Command
		case engine.RoleToolResult:
			text = m.ToolName + " result"
		case engine.RoleAssistant:
			if strings.TrimSpace(text) == "" {
				var names []string
				for _, c := range m.ToolCalls() {
					names = append(names, c.Name)
				}
				text = strings.Join(names, ", ")
			}
		case engine.RoleBranchSummary, engine.RoleCompactionSummary:
			text = m.Summary
		}
		return m.Role, clip(text, 80)
	}
	switch e.Type {
	case engine.EntryModelChange:
		return e.Type, e.Provider + "/" + e.ModelID
	case engine.EntryThinkingLevelChange:
		return e.Type, e.ThinkingLevel
	case engine.EntryCompaction, engine.EntryBranchSummary:
		return e.Type, clip(e.Summary, 80)
	case engine.EntrySessionInfo:
		if e.Name != nil {
			return e.Type, *e.Name
		}
	case engine.EntryCustom, engine.EntryCustomMessage:
		return e.Type, e.CustomType
	case engine.EntryLabel:
		if e.Label != nil {
			return e.Type, *e.Label + " → " + e.TargetID
		}
		return e.Type, "cleared → " + e.TargetID
	}
	return e.Type, ""
}

func clip(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > n {
		return string(r[:n-1]) + "…"
	}
	return s
}

// renderEntry turns one entry into a block; unknown entry types still
// show their JSON so nothing in the file is lost.
func renderEntry(e *engine.Entry) exportBlock {
	b := exportBlock{ID: e.ID, ParentID: parentOf(e), Time: e.Timestamp, Class: "meta", Title: e.Type}
	switch e.Type {
	case engine.EntryMessage:
		if e.Message != nil {
			renderMessage(&b, e.Message)
		}
	case engine.EntryModelChange:
		b.Title = "Model changed"
		b.Meta = e.Provider + "/" + e.ModelID
	case engine.EntryThinkingLevelChange:
		b.Title = "Thinking level"
		b.Meta = e.ThinkingLevel
	case engine.EntrySessionInfo:
		b.Title = "Session name"
		if e.Name != nil {
			b.Meta = *e.Name
		}
	case engine.EntryCompaction:
		b.Class, b.Title = "summary", "Compaction"
		b.Meta = fmt.Sprintf("%d tokens before, first kept entry %s", e.TokensBefore, e.FirstKeptEntryID)
		b.Parts = append(b.Parts, exportPart{Kind: "text", Text: e.Summary})
	case engine.EntryBranchSummary:
		b.Class, b.Title = "summary", "Branch summary"
		b.Meta = "from " + e.FromID
		b.Parts = append(b.Parts, exportPart{Kind: "text", Text: e.Summary})
	case engine.EntryCustomMessage:
		b.Class, b.Title = "custom", "Extension message: "+e.CustomType
		if e.Content != nil {
			b.Parts = append(b.Parts, contentParts(*e.Content)...)
		}
		if !e.Display {
			b.Meta = "hidden from the conversation view"
		}
	case engine.EntryLabel:
		b.Title = "Label"
		if e.Label != nil {
			b.Meta = fmt.Sprintf("%q on %s", *e.Label, e.TargetID)
		} else {
			b.Meta = "cleared on " + e.TargetID
		}
	default:
		// custom (extension state), usage, context_edit and types from
		// newer versions: their JSON is the most faithful rendering.
		raw, err := engine.MarshalJSON(e)
		if err == nil {
			b.Parts = append(b.Parts, exportPart{Kind: "json", Text: prettyJSON(raw)})
		}
		b.Collapsed = true
		if e.CustomType != "" {
			b.Title = e.Type + ": " + e.CustomType
		}
	}
	return b
}

func renderMessage(b *exportBlock, m *engine.Message) {
	if m.Timestamp > 0 {
		b.Time = time.UnixMilli(m.Timestamp).UTC().Format("2006-01-02T15:04:05.000Z")
	}
	switch m.Role {
	case engine.RoleUser:
		b.Class, b.Title = "user", "User"
		b.Parts = contentParts(m.Content)
	case engine.RoleAssistant:
		b.Class, b.Title = "assistant", "Assistant"
		b.Meta = assistantMeta(m)
		b.Parts = contentParts(m.Content)
		if m.ErrorMessage != "" {
			b.Parts = append(b.Parts, exportPart{Kind: "pre", Text: m.ErrorMessage, Error: true})
		}
	case engine.RoleToolResult:
		b.Class, b.Title = "tool", "Tool result: "+m.ToolName
		if m.IsError {
			b.Class, b.Title = "tool error", "Tool error: "+m.ToolName
		}
		b.Meta = "call " + m.ToolCallID
		for _, p := range contentParts(m.Content) {
			if p.Kind == "text" {
				p.Kind = "pre"
			}
			b.Parts = append(b.Parts, p)
		}
		if len(m.Details) > 0 && string(m.Details) != "null" {
			b.Parts = append(b.Parts, exportPart{Kind: "json", Name: "details", Text: prettyJSON(m.Details)})
		}
	case engine.RoleBashExecution:
		b.Class, b.Title = "bash", "$ "+m.Command
		var meta []string
		if m.ExitCode != nil {
			meta = append(meta, fmt.Sprintf("exit code %d", *m.ExitCode))
		}
		if m.Cancelled {
			meta = append(meta, "cancelled")
		}
		if m.Truncated {
			meta = append(meta, "truncated")
		}
		if m.FullOutputPath != "" {
			meta = append(meta, "full output: "+m.FullOutputPath)
		}
		if m.ExcludeFromContext {
			meta = append(meta, "not sent to the model")
		}
		b.Meta = strings.Join(meta, " · ")
		b.Parts = []exportPart{{Kind: "pre", Text: m.Output}}
	case engine.RoleSystem:
		b.Class, b.Title, b.Collapsed = "system", "System prompt", true
		text := m.Content.Text()
		if text == "" {
			var parts []string
			for _, s := range m.Sections {
				if s.Value != nil {
					parts = append(parts, *s.Value)
				}
			}
			text = strings.Join(parts, "\n\n")
		}
		b.Parts = []exportPart{{Kind: "pre", Text: text}}
		for _, t := range m.ToolsAdded {
			b.Parts = append(b.Parts, exportPart{Kind: "call", Name: "tool " + t.Name, Text: t.Description})
		}
	case engine.RoleCompactionSummary:
		b.Class, b.Title = "summary", "Compaction summary"
		b.Meta = fmt.Sprintf("%d tokens before", m.TokensBefore)
		b.Parts = []exportPart{{Kind: "text", Text: m.Summary}}
	case engine.RoleBranchSummary:
		b.Class, b.Title = "summary", "Branch summary"
		b.Meta = "from " + m.FromID
		b.Parts = []exportPart{{Kind: "text", Text: m.Summary}}
	case engine.RoleCustom:
		b.Class, b.Title = "custom", "Extension message: "+m.CustomType
		b.Parts = contentParts(m.Content)
	default:
		b.Title = m.Role
		raw, err := engine.MarshalJSON(m)
		if err == nil {
			b.Parts = []exportPart{{Kind: "json", Text: prettyJSON(raw)}}
		}
	}
}

func assistantMeta(m *engine.Message) string {
	var meta []string
	if m.Model != "" {
		meta = append(meta, m.Provider+"/"+m.Model)
	}
	if m.ThinkingLevel != "" && m.ThinkingLevel != "off" {
		meta = append(meta, "thinking "+m.ThinkingLevel)
	}
	if m.StopReason != "" && m.StopReason != engine.StopStop {
		meta = append(meta, "stop: "+string(m.StopReason))
	}
	if u := m.Usage; u.TotalTokens > 0 || u.Input > 0 || u.Output > 0 {
		meta = append(meta, fmt.Sprintf("%d in · %d out", u.Input, u.Output))
		if u.CacheRead > 0 || u.CacheWrite > 0 {
			meta = append(meta, fmt.Sprintf("cache %d read · %d write", u.CacheRead, u.CacheWrite))
		}
		if u.Cost.Total > 0 {
			meta = append(meta, fmt.Sprintf("$%.4f", u.Cost.Total))
		}
	}
	return strings.Join(meta, " · ")
}

func contentParts(c engine.Contents) []exportPart {
	var out []exportPart
	for _, blk := range c.Blocks {
		switch blk.Type {
		case engine.ContentText:
			out = append(out, exportPart{Kind: "text", Text: blk.Text})
		case engine.ContentThinking:
			text := blk.Thinking
			if blk.Redacted && text == "" {
				text = "(redacted)"
			}
			out = append(out, exportPart{Kind: "thinking", Text: text})
		case engine.ContentImage:
			// Only well-formed image MIME types become data URLs; the
			// template would otherwise refuse the URL anyway.
			mime := blk.MimeType
			if !strings.HasPrefix(mime, "image/") || strings.ContainsAny(mime, ";,\" <>") {
				mime = "application/octet-stream"
			}
			out = append(out, exportPart{Kind: "image", Name: blk.MimeType,
				Image: template.URL("data:" + mime + ";base64," + blk.Data)})
		case engine.ContentToolCall:
			out = append(out, exportPart{Kind: "call", Name: blk.Name, Text: prettyJSON(blk.Arguments)})
		}
	}
	return out
}

// prettyJSON indents raw JSON, keeping its key order; invalid input is
// shown as it is.
func prettyJSON(raw json.RawMessage) string {
	if len(raw) == 0 {
		return ""
	}
	var b bytes.Buffer
	if err := json.Indent(&b, raw, "", "  "); err != nil {
		return string(raw)
	}
	return b.String()
}
