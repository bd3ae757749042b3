package openai

import (
	"bytes"
	"encoding/json"
	"os"
	"testing"

	"github.com/pi-go/pi/engine"
)

// TestConvertMessagesReference replays one transcript (empty and blank
// text, thinking from two reasoning fields, images in a user turn and a
// tool result, a blank assistant turn) under several compat settings and
// compares with the messages pi-ai 1.6.0's convertMessages returned for
// it (testdata/convert_cases.json).
func TestConvertMessagesReference(t *testing.T) {
	t.Parallel()
	data, err := os.ReadFile("testdata/convert_cases.json")
	if err != nil {
		t.Fatal(err)
	}
	var cases []struct {
		Name     string          `json:"name"`
		Compat   json.RawMessage `json:"compat"`
		Input    []string        `json:"input"`
		Messages json.RawMessage `json:"messages"`
	}
	if err := json.Unmarshal(data, &cases); err != nil {
		t.Fatal(err)
	}
	assistant := func(blocks ...engine.Content) *engine.Message {
		return &engine.Message{Role: engine.RoleAssistant, API: engine.APIOpenAICompletions, Provider: "p", Model: "m",
			StopReason: engine.StopToolUse, Content: engine.Blocks(blocks...)}
	}
	img := func(data string) engine.Content {
		return engine.Content{Type: engine.ContentImage, MimeType: "image/png", Data: data}
	}
	think := func(text, sig string) engine.Content {
		return engine.Content{Type: engine.ContentThinking, Thinking: text, ThinkingSignature: sig}
	}
	msgs := []*engine.Message{
		{Role: engine.RoleUser, Content: engine.Blocks(engine.TextContent(""), engine.TextContent("q"), img("AAA"))},
		assistant(think("t1", "reasoning"), think(" ", "reasoning"), think("t2", "reasoning_content"),
			engine.TextContent("  "), engine.TextContent("a"), engine.TextContent("b"),
			engine.Content{Type: engine.ContentToolCall, ID: "c1", Name: "ls", Arguments: json.RawMessage(`{"x":1}`)}),
		{Role: engine.RoleToolResult, ToolCallID: "c1", ToolName: "ls", Content: engine.Blocks(engine.TextContent("  "), img("BBB"))},
		{Role: engine.RoleUser, Content: engine.StringContents("next")},
		assistant(engine.TextContent(" ")),
		{Role: engine.RoleUser, Content: engine.StringContents("again")},
	}
	for _, tc := range cases {
		t.Run(tc.Name, func(t *testing.T) {
			t.Parallel()
			m := &engine.Model{ID: "m", API: engine.APIOpenAICompletions, Provider: "p", BaseURL: "http://x/v1", Reasoning: true,
				Input: tc.Input, Compat: tc.Compat}
			got, err := engine.MarshalJSON(convertMessages(&engine.LLMRequest{Model: m, Messages: msgs}, getCompat(m)))
			if err != nil {
				t.Fatal(err)
			}
			var want bytes.Buffer
			if err := json.Compact(&want, tc.Messages); err != nil {
				t.Fatal(err)
			}
			if string(got) != want.String() {
				t.Errorf("\n got  %s\n want %s", got, want.String())
			}
		})
	}
}
