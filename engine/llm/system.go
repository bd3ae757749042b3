package llm

import (
	"strings"

	"github.com/pi-go/pi/engine"
)

// SystemText is the system prompt an adapter sends in its API's system
// slot: the request's system prompt or, when it has none, the text of a
// leading system message (its content, then its non-empty sections,
// joined by blank lines).
func SystemText(req *engine.LLMRequest) string {
	if req.SystemPrompt != "" {
		return req.SystemPrompt
	}
	if len(req.Messages) == 0 || req.Messages[0] == nil || req.Messages[0].Role != engine.RoleSystem {
		return ""
	}
	sys := req.Messages[0]
	var parts []string
	if t := sys.Content.Text(); t != "" {
		parts = append(parts, t)
	}
	for _, sec := range sys.Sections {
		if sec.Value != nil && *sec.Value != "" {
			parts = append(parts, *sec.Value)
		}
	}
	return strings.Join(parts, "\n\n")
}
