package openai

import (
	"bytes"
	"encoding/json"
	"os"
	"sort"
	"strings"
	"testing"

	"github.com/pi-go/pi/engine"
)

// liveCase is one run of pi 1.6.0 against a local capture server, the
// provider's baseUrl pointed at it: "hi", one ls call answered with
// "(empty directory)", then the answer. The "c-" cases are a models.json
// model of our own whose compat exercises the flags no catalog model sets. The prose the reference sends
// (system prompt, tool descriptions) is replaced by placeholders, and
// only the headers beyond the SDK's own are kept.
type liveCase struct {
	Name  string               `json:"name"`
	Level engine.ThinkingLevel `json:"level"`
	Model json.RawMessage      `json:"model"`
	// ToolParams are the schemas as declared, for the tools the capture
	// shows converted to strict ones.
	ToolParams map[string]json.RawMessage `json:"toolParams"`
	Requests   []struct {
		Headers [][2]string     `json:"headers"`
		Body    json.RawMessage `json:"body"`
	} `json:"requests"`
}

// liveTranscript is the conversation of each request of a live case: the
// first has the prompt alone, the second the tool round trip too.
func liveTranscript(m *engine.Model, n int) []*engine.Message {
	msgs := []*engine.Message{{Role: engine.RoleUser, Content: engine.Blocks(engine.TextContent("hi"))}}
	if n == 0 {
		return msgs
	}
	return append(msgs,
		&engine.Message{Role: engine.RoleAssistant, API: m.API, Provider: m.Provider, Model: m.ID, StopReason: engine.StopToolUse,
			Content: engine.Blocks(
				engine.Content{Type: engine.ContentThinking, Thinking: "think", ThinkingSignature: "reasoning_content"},
				engine.TextContent("ok"),
				engine.Content{Type: engine.ContentToolCall, ID: "call_1", Name: "ls", Arguments: json.RawMessage(`{"path":"."}`)})},
		&engine.Message{Role: engine.RoleToolResult, ToolCallID: "call_1", ToolName: "ls", Content: engine.Blocks(engine.TextContent("(empty directory)"))})
}

// TestLiveRequestBodies compares our request bodies and extra headers
// with the reference's for each captured provider, thinking on and off.
// The level is clamped to the model's as the session does before a
// request; max_tokens is taken from the capture: the loop computes it from the
// context estimate, which depends on the prose.
func TestLiveRequestBodies(t *testing.T) {
	t.Parallel()
	data, err := os.ReadFile("testdata/live_bodies.json")
	if err != nil {
		t.Fatal(err)
	}
	var cases []liveCase
	if err := json.Unmarshal(data, &cases); err != nil {
		t.Fatal(err)
	}
	for _, tc := range cases {
		t.Run(tc.Name, func(t *testing.T) {
			t.Parallel()
			var m engine.Model
			if err := json.Unmarshal(tc.Model, &m); err != nil {
				t.Fatal(err)
			}
			c := getCompat(&m)
			for i, r := range tc.Requests {
				var ref struct {
					MaxTokens  int `json:"max_tokens"`
					MaxTokens2 int `json:"max_completion_tokens"`
					Tools      []struct {
						Function struct {
							Name       string          `json:"name"`
							Parameters json.RawMessage `json:"parameters"`
						} `json:"function"`
					} `json:"tools"`
				}
				if err := json.Unmarshal(r.Body, &ref); err != nil {
					t.Fatal(err)
				}
				req := &engine.LLMRequest{Model: &m, ThinkingLevel: engine.ClampThinkingLevel(&m, tc.Level), SystemPrompt: "SYS", SessionID: "0123abcd-0000-4000-8000-000000000001",
					MaxTokens: max(ref.MaxTokens, ref.MaxTokens2), Messages: liveTranscript(&m, i),
				}
				for _, tl := range ref.Tools {
					params := tl.Function.Parameters
					if p, ok := tc.ToolParams[tl.Function.Name]; ok {
						params = p
					}
					req.Tools = append(req.Tools, engine.ToolInfo{Name: tl.Function.Name, Description: "DESC", Parameters: params})
				}
				body, err := buildBody(req, c)
				if err != nil {
					t.Fatal(err)
				}
				got, err := body.MarshalJSON()
				if err != nil {
					t.Fatal(err)
				}
				var want bytes.Buffer
				if err := json.Compact(&want, r.Body); err != nil {
					t.Fatal(err)
				}
				if string(got) != want.String() {
					t.Errorf("request %d body:\n got  %s\n want %s", i, got, want.String())
				}
				if g, w := extraHeaders(req, c), sortedHeaders(r.Headers); g != w {
					t.Errorf("request %d headers:\n got  %s\n want %s", i, g, w)
				}
			}
		})
	}
}

// extraHeaders are our headers past the User-Agent, lower-cased and
// sorted as the capture lists them.
func extraHeaders(req *engine.LLMRequest, c compat) string {
	var h [][2]string
	for _, kv := range requestHeaders(req, c) {
		if !strings.EqualFold(kv[0], "User-Agent") {
			h = append(h, [2]string{strings.ToLower(kv[0]), kv[1]})
		}
	}
	return sortedHeaders(h)
}

func sortedHeaders(h [][2]string) string {
	var s []string
	for _, kv := range h {
		s = append(s, strings.ToLower(kv[0])+": "+kv[1])
	}
	sort.Strings(s)
	return strings.Join(s, "; ")
}
