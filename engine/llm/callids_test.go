package llm

import (
	"testing"

	"github.com/pi-go/pi/engine"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestRenameToolCallIDs(t *testing.T) {
	t.Parallel()
	model := &engine.Model{ID: "m", API: engine.APIOpenAICompletions, Provider: "p"}
	call := func(id string) engine.Content {
		return engine.Content{Type: engine.ContentToolCall, ID: id, Name: "bash"}
	}
	result := func(id string) *engine.Message { return &engine.Message{Role: engine.RoleToolResult, ToolCallID: id} }
	own := &engine.Message{Role: engine.RoleAssistant, API: model.API, Provider: "p", Model: "m", Content: engine.Blocks(call("a|1"))}
	foreign := &engine.Message{Role: engine.RoleAssistant, API: model.API, Provider: "q", Model: "m",
		Content: engine.Blocks(engine.TextContent("hi"), call("b|2"), call("ok"))}
	user := &engine.Message{Role: engine.RoleUser, Content: engine.Blocks(engine.TextContent("u"))}

	tests := []struct {
		name string
		msgs []*engine.Message
		want []string // per message: the first tool-call id, or the result's id
	}{
		{"own model keeps its ids", []*engine.Message{own, result("a|1")}, []string{"a|1", "a|1"}},
		{"foreign calls and results renamed", []*engine.Message{foreign, result("b|2"), result("ok")}, []string{"b_2", "b_2", "ok"}},
		{"unmatched result untouched", []*engine.Message{user, result("b|2")}, []string{"", "b|2"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			out := RenameToolCallIDs(model, tc.msgs, func(src *engine.Message, id string) string {
				assert.Equal(t, engine.RoleAssistant, src.Role)
				return SanitizeID(id)
			})
			require.Len(t, out, len(tc.msgs))
			for i, m := range out {
				got := m.ToolCallID
				if m.Role == engine.RoleAssistant {
					for _, b := range m.Content.Blocks {
						if b.Type == engine.ContentToolCall {
							got = b.ID
							break
						}
					}
				}
				assert.Equal(t, tc.want[i], got, "message %d", i)
			}
		})
	}
	assert.Equal(t, "b|2", foreign.Content.Blocks[1].ID, "input is not modified")
}
