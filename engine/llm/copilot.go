package llm

import "github.com/pi-go/pi/engine"

// CopilotDynamicHeaders are the headers GitHub Copilot reads per request,
// whatever its wire API: who started the request (the user, or the agent
// when the last message is not the user's) and whether it carries images.
// They go after the model's headers and before the request's.
func CopilotDynamicHeaders(m *engine.Model, msgs []*engine.Message) [][2]string {
	if m == nil || m.Provider != "github-copilot" {
		return nil
	}
	initiator := "user"
	if n := len(msgs); n > 0 && msgs[n-1].Role != engine.RoleUser {
		initiator = "agent"
	}
	h := [][2]string{{"X-Initiator", initiator}, {"Openai-Intent", "conversation-edits"}}
	for _, msg := range msgs {
		if msg.Role != engine.RoleUser && msg.Role != engine.RoleToolResult {
			continue
		}
		for _, b := range msg.Content.Blocks {
			if b.Type == engine.ContentImage {
				return append(h, [2]string{"Copilot-Vision-Request", "true"})
			}
		}
	}
	return h
}
