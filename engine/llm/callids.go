package llm

import "github.com/pi-go/pi/engine"

// RenameToolCallIDs rewrites the tool-call ids of assistant turns that
// another model produced, and the ids of the tool results that answer
// them, so that a transcript replayed to this model only carries ids its
// API accepts. Turns of this same provider, API and model keep their ids:
// they came from this API and already fit it.
//
// rename maps one call id (with the assistant message that made it) to
// the id to send; the rules are the adapter's own. It is called once per
// tool call, in transcript order, so a stateful renamer (one that resolves
// collisions) sees the calls in a stable order. The input is not
// modified: changed messages are shallow copies.
func RenameToolCallIDs(m *engine.Model, msgs []*engine.Message, rename func(source *engine.Message, id string) string) []*engine.Message {
	var renamed map[string]string
	out := make([]*engine.Message, len(msgs))
	for i, msg := range msgs {
		out[i] = msg
		switch msg.Role {
		case engine.RoleAssistant:
			if msg.Provider == m.Provider && msg.API == m.API && msg.Model == m.ID {
				continue
			}
			var blocks []engine.Content
			for j, b := range msg.Content.Blocks {
				if b.Type != engine.ContentToolCall {
					continue
				}
				id := rename(msg, b.ID)
				if id == b.ID {
					continue
				}
				if blocks == nil {
					blocks = append([]engine.Content(nil), msg.Content.Blocks...)
				}
				if renamed == nil {
					renamed = map[string]string{}
				}
				renamed[b.ID] = id
				blocks[j].ID = id
			}
			if blocks != nil {
				cp := *msg
				cp.Content = engine.Contents{Blocks: blocks}
				out[i] = &cp
			}
		case engine.RoleToolResult:
			if id, ok := renamed[msg.ToolCallID]; ok {
				cp := *msg
				cp.ToolCallID = id
				out[i] = &cp
			}
		}
	}
	return out
}
