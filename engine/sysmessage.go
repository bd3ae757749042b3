package engine

import (
	"encoding/json"
	"strings"
)

// The system message records the prompt's sections and the declared tools
// in the transcript, as the reference does since 1.x: in full on a
// session's first prompt, then as patches when either changes.

func toolInfos(tools []Tool) []ToolInfo {
	out := make([]ToolInfo, 0, len(tools))
	for _, t := range tools {
		out = append(out, t.Info())
	}
	return out
}

// constrainedSampling is recorded with every declared tool.
var constrainedSampling = json.RawMessage(`{"type":"json_schema","strict":"prefer"}`)

// foldSystem replays the system messages of a transcript: the sections in
// effect and the declared tools by name.
func foldSystem(msgs []*Message) (Sections, map[string]bool, []string) {
	var secs Sections
	tools := map[string]bool{}
	var order []string
	for _, m := range msgs {
		if m.Role != RoleSystem {
			continue
		}
		for _, sec := range m.Sections {
			idx := -1
			for i, x := range secs {
				if x.Name == sec.Name {
					idx = i
				}
			}
			switch {
			case sec.Value == nil && idx >= 0:
				secs = append(secs[:idx:idx], secs[idx+1:]...)
			case sec.Value != nil && idx >= 0:
				secs[idx] = sec
			case sec.Value != nil:
				secs = append(secs, sec)
			}
		}
		for _, t := range m.ToolsAdded {
			if !tools[t.Name] {
				order = append(order, t.Name)
			}
			tools[t.Name] = true
		}
		for _, t := range m.ToolsRemoved {
			delete(tools, t.Name)
		}
	}
	return secs, tools, order
}

// SectionsText joins section values the way the provider sees the
// prompt: separated by blank lines.
func SectionsText(secs Sections) string {
	parts := make([]string, 0, len(secs))
	for _, s := range secs {
		if s.Value != nil {
			parts = append(parts, *s.Value)
		}
	}
	return strings.Join(parts, "\n\n")
}

// systemMessage returns the system message to record before the next
// prompt (nil when neither the prompt nor the tools changed) and the full
// prompt text.
func (s *Session) systemMessage(history []*Message, infos []ToolInfo) (*Message, string) {
	var want Sections
	if s.opts.SystemPrompt != nil {
		want = s.opts.SystemPrompt(infos)
	}
	return s.systemMessageFor(history, infos, want)
}

// systemMessageFor is systemMessage for given sections (the prompt as
// extensions rebuilt it in before_agent_start).
func (s *Session) systemMessageFor(history []*Message, infos []ToolInfo, want Sections) (*Message, string) {
	cur, declared, _ := foldSystem(history)
	var patch Sections
	for _, w := range want {
		if v, ok := cur.Get(w.Name); !ok || w.Value == nil || v != *w.Value {
			patch = append(patch, w)
		}
	}
	for _, c := range cur {
		if _, ok := want.Get(c.Name); !ok {
			patch = append(patch, Section{Name: c.Name})
		}
	}
	var added, removed []ToolDecl
	active := map[string]bool{}
	for _, in := range infos {
		active[in.Name] = true
		if !declared[in.Name] {
			cs := constrainedSampling
			if in.OwnSampling {
				cs = in.ConstrainedSampling
			}
			added = append(added, ToolDecl{Name: in.Name, Description: in.Description, Parameters: in.Parameters, ConstrainedSampling: cs})
		}
	}
	_, _, order := foldSystem(history)
	for _, name := range order {
		if declared[name] && !active[name] {
			removed = append(removed, ToolDecl{Name: name})
		}
	}
	text := SectionsText(want)
	if len(patch) == 0 && len(added) == 0 && len(removed) == 0 {
		return nil, text
	}
	m := &Message{Role: RoleSystem, Content: StringContents(""), Timestamp: s.now().UnixMilli(), ToolsAdded: added, ToolsRemoved: removed}
	if len(patch) > 0 {
		m.Sections = patch
	}
	return m, text
}
