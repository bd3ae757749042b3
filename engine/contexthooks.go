package engine

import (
	"strings"
)

// replayedSystemText is the prompt text a transcript's system messages
// give once replayed, as providers without mid-conversation system
// messages send it: the messages' own texts, then the sections in
// effect, joined by blank lines.
func replayedSystemText(msgs []*Message) string {
	var parts []string
	for _, m := range msgs {
		if m.Role == RoleSystem {
			if t := m.Content.Text(); t != "" {
				parts = append(parts, t)
			}
		}
	}
	secs, _, _ := foldSystem(msgs)
	if t := SectionsText(secs); t != "" {
		parts = append(parts, t)
	}
	return strings.Join(parts, "\n\n")
}

// systemPromptAfterHooks returns the system prompt to send after the
// context_with_system handlers turned before into after: the prompt
// stays unless they changed what the system messages replay to, in which
// case the request carries their version, as the reference builds the
// request from the messages the hook returned.
func systemPromptAfterHooks(prompt string, before, after []*Message) string {
	was, now := replayedSystemText(before), replayedSystemText(after)
	if was == now {
		return prompt
	}
	return now
}

// currentToolDecls is the tool set a transcript's system messages
// declare once replayed in order (the reference's getCurrentTools): a
// removal deletes the name, and an addition puts the tool last, replacing
// an earlier declaration of the same name.
func currentToolDecls(msgs []*Message) []ToolDecl {
	out := []ToolDecl{}
	drop := func(name string) {
		for i, d := range out {
			if d.Name == name {
				out = append(out[:i:i], out[i+1:]...)
				return
			}
		}
	}
	for _, m := range msgs {
		if m.Role != RoleSystem {
			continue
		}
		for _, t := range m.ToolsRemoved {
			drop(t.Name)
		}
		for _, t := range m.ToolsAdded {
			replaced := false
			for i, d := range out {
				if d.Name == t.Name {
					out[i], replaced = t, true
				}
			}
			if !replaced {
				out = append(out, t)
			}
		}
	}
	return out
}

// sameToolDecls reports whether two replayed tool sets name the same
// tools in the same order.
func sameToolDecls(a, b []ToolDecl) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].Name != b[i].Name {
			return false
		}
	}
	return true
}

// toolsAfterHooks is the tool list of a request whose context_with_system
// handlers changed the declared tools: the reference sends the tools the
// returned transcript declares, so a dropped leading system message drops
// its tool declarations too. A tool still declared keeps its full info;
// one the handlers declared themselves is sent as they wrote it.
func toolsAfterHooks(infos []ToolInfo, decls []ToolDecl) []ToolInfo {
	byName := make(map[string]ToolInfo, len(infos))
	for _, in := range infos {
		byName[in.Name] = in
	}
	out := make([]ToolInfo, 0, len(decls))
	for _, d := range decls {
		if in, ok := byName[d.Name]; ok {
			out = append(out, in)
			continue
		}
		out = append(out, ToolInfo{Name: d.Name, Description: d.Description, Parameters: d.Parameters})
	}
	return out
}
