package llm

import (
	"reflect"
	"testing"

	"github.com/pi-go/pi/engine"
)

func TestCopilotDynamicHeaders(t *testing.T) {
	t.Parallel()
	copilot := &engine.Model{Provider: "github-copilot"}
	user := &engine.Message{Role: engine.RoleUser, Content: engine.Blocks(engine.TextContent("hi"))}
	img := &engine.Message{Role: engine.RoleToolResult, Content: engine.Blocks(engine.Content{Type: engine.ContentImage, MimeType: "image/png", Data: "x"})}
	asst := &engine.Message{Role: engine.RoleAssistant}
	tests := []struct {
		name  string
		model *engine.Model
		msgs  []*engine.Message
		want  [][2]string
	}{
		{"other provider", &engine.Model{Provider: "anthropic"}, []*engine.Message{user}, nil},
		{"user turn", copilot, []*engine.Message{user}, [][2]string{{"X-Initiator", "user"}, {"Openai-Intent", "conversation-edits"}}},
		{"agent turn with an image", copilot, []*engine.Message{user, asst, img},
			[][2]string{{"X-Initiator", "agent"}, {"Openai-Intent", "conversation-edits"}, {"Copilot-Vision-Request", "true"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			if got := CopilotDynamicHeaders(tt.model, tt.msgs); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got %v, want %v", got, tt.want)
			}
		})
	}
}
