package engine

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestSystemPromptAfterHooks(t *testing.T) {
	t.Parallel()
	s := func(v string) *string { return &v }
	sys := &Message{Role: RoleSystem, Sections: Sections{{Name: "preamble", Value: s("P")}, {Name: "tools", Value: s("T")}}}
	edited := &Message{Role: RoleSystem, Sections: Sections{{Name: "preamble", Value: s("E")}, {Name: "tools", Value: s("T")}}}
	user := &Message{Role: RoleUser, Content: StringContents("hi")}
	tests := []struct {
		name          string
		before, after []*Message
		want          string
	}{
		{"unchanged system keeps the prompt (a forced one too)", []*Message{sys, user}, []*Message{sys}, "forced"},
		{"edited section", []*Message{sys, user}, []*Message{edited, user}, "E\n\nT"},
		{"added system text", []*Message{sys, user}, []*Message{sys, user, {Role: RoleSystem, Content: StringContents("X")}}, "X\n\nP\n\nT"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			assert.Equal(t, tt.want, systemPromptAfterHooks("forced", tt.before, tt.after))
		})
	}
}
