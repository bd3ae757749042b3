package llm

import (
	"testing"

	"github.com/pi-go/pi/engine"
	"github.com/stretchr/testify/assert"
)

func TestSystemText(t *testing.T) {
	t.Parallel()
	str := func(s string) *string { return &s }
	sys := &engine.Message{Role: engine.RoleSystem, Content: engine.StringContents("base"),
		Sections: engine.Sections{{Name: "a", Value: str("one")}, {Name: "b", Value: str("")}, {Name: "c"}, {Name: "d", Value: str("two")}}}
	user := &engine.Message{Role: engine.RoleUser, Content: engine.StringContents("hi")}
	tests := []struct {
		name string
		req  engine.LLMRequest
		want string
	}{
		{"system prompt wins", engine.LLMRequest{SystemPrompt: "p", Messages: []*engine.Message{sys}}, "p"},
		{"leading system message", engine.LLMRequest{Messages: []*engine.Message{sys, user}}, "base\n\none\n\ntwo"},
		{"system message not first", engine.LLMRequest{Messages: []*engine.Message{user, sys}}, ""},
		{"nil first message", engine.LLMRequest{Messages: []*engine.Message{nil}}, ""},
		{"nothing", engine.LLMRequest{}, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			assert.Equal(t, tc.want, SystemText(&tc.req))
		})
	}
}
