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
