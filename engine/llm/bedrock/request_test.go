package bedrock

import (
	"encoding/base64"
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/pi-go/pi/engine"
)

// okStream is a minimal successful response.
func okStream(t *testing.T) []byte {
	return encodeFrames(t, []frame{ev("messageStart", `{"role":"assistant"}`), ev("messageStop", `{"stopReason":"end_turn"}`)})
}

var png = base64.StdEncoding.EncodeToString([]byte("\x89PNG fake"))

func user(text string) *engine.Message {
	return &engine.Message{Role: engine.RoleUser, Content: engine.StringContents(text)}
}

// transcript is a tool round trip with thinking, an image, an error
// result carrying an image and a blank user turn.
func transcript(m *engine.Model) []*engine.Message {
	return []*engine.Message{
		{Role: engine.RoleSystem, Content: engine.StringContents("You are a test.")},
		{Role: engine.RoleUser, Content: engine.Blocks(engine.TextContent("look"), engine.Content{Type: engine.ContentImage, MimeType: "image/png", Data: png}, engine.TextContent("  "))},
		{Role: engine.RoleAssistant, API: m.API, Provider: m.Provider, Model: m.ID, StopReason: engine.StopToolUse, Content: engine.Blocks(
			engine.Content{Type: engine.ContentThinking, Thinking: "plan", ThinkingSignature: "sig-1"},
			engine.Content{Type: engine.ContentThinking, Thinking: "unsigned"},
			engine.TextContent("Reading."),
			engine.TextContent(" "),
			engine.Content{Type: engine.ContentToolCall, ID: "tooluse_1", Name: "read", Arguments: json.RawMessage(`{"path":"a.txt","":1,"opts":{"":2,"z":[{"":3}]}}`)},
			engine.Content{Type: engine.ContentToolCall, ID: "tooluse_2", Name: "bash", Arguments: json.RawMessage(`{"command":"ls"}`)},
		)},
		{Role: engine.RoleToolResult, ToolCallID: "tooluse_1", ToolName: "read", Content: engine.Blocks(engine.TextContent("file body"))},
		{Role: engine.RoleToolResult, ToolCallID: "tooluse_2", ToolName: "bash", IsError: true, Content: engine.Blocks(
			engine.TextContent("failed"), engine.Content{Type: engine.ContentImage, MimeType: "image/jpeg", Data: png},
			engine.Content{Type: engine.ContentImage, MimeType: "image/jpeg", Data: png})},
		{Role: engine.RoleAssistant, API: m.API, Provider: m.Provider, Model: m.ID, StopReason: engine.StopStop, Content: engine.Blocks(engine.TextContent("Done."))},
		user(""),
	}
}

func tools() []engine.ToolInfo {
	return []engine.ToolInfo{
		{Name: "read", Description: "Read a file.", Parameters: json.RawMessage(`{"type":"object","properties":{"path":{"type":"string"},"limit":{"type":"number"}},"required":["path"]}`)},
		{Name: "ext", Description: "An extension tool.", OwnSampling: true, Parameters: json.RawMessage(`{"type":"object","properties":{"q":{"type":"string"}}}`)},
	}
}

func TestRequestBodies(t *testing.T) {
	t.Parallel()
	half := 0.5
	tests := []struct {
		name  string
		model func(base string) *engine.Model
		env   map[string]string
		edit  func(r *engine.LLMRequest)
	}{
		{"claude_budget", claudeModel, nil, func(r *engine.LLMRequest) {
			r.ThinkingLevel = engine.ThinkingMedium
			r.Temperature = &half
			r.Tools = tools()
		}},
		{"claude_budget_custom_xhigh", claudeModel, nil, func(r *engine.LLMRequest) {
			r.ThinkingLevel = engine.ThinkingXHigh
			r.ThinkingBudgets = map[engine.ThinkingLevel]int{engine.ThinkingHigh: 5000}
			r.MaxTokens = 4000
		}},
		{"claude_adaptive_binding", func(base string) *engine.Model {
			m := claudeModel(base)
			m.ID, m.Name = "us.anthropic.claude-opus-4-7", "Claude Opus 4.7"
			return m
		}, map[string]string{"PI_CACHE_RETENTION": "long"}, func(r *engine.LLMRequest) { r.ThinkingLevel = engine.ThinkingXHigh }},
		{"claude_adaptive_govcloud", func(base string) *engine.Model {
			m := claudeModel(base)
			m.ID, m.Name = "us-gov.anthropic.claude-sonnet-4-6", "Claude Sonnet 4.6"
			return m
		}, nil, func(r *engine.LLMRequest) { r.ThinkingLevel = engine.ThinkingLow; r.CacheRetention = "none" }},
		{"claude_off", claudeModel, nil, nil},
		{"gpt_oss", func(base string) *engine.Model {
			return &engine.Model{ID: "openai.gpt-oss-120b-1:0", Name: "gpt-oss-120b", API: engine.APIBedrockConverseStream,
				Provider: "amazon-bedrock", BaseURL: base, Reasoning: true, Input: []string{"text"}, ContextWindow: 128000, MaxTokens: 16384}
		}, nil, func(r *engine.LLMRequest) { r.ThinkingLevel = engine.ThinkingXHigh }},
		{"gpt5_minimal", func(base string) *engine.Model {
			return &engine.Model{ID: "openai.gpt-5.6", Name: "GPT-5.6", API: engine.APIBedrockConverseStream,
				Provider: "amazon-bedrock", BaseURL: base, Reasoning: true, Input: []string{"text", "image"}, ContextWindow: 400000, MaxTokens: 128000}
		}, map[string]string{"AWS_BEDROCK_FORCE_CACHE": "1"}, func(r *engine.LLMRequest) { r.ThinkingLevel = engine.ThinkingMinimal }},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			srv := newServer(t, http.StatusOK, nil, okStream(t))
			env := map[string]string{"AWS_ACCESS_KEY_ID": "AKIDEXAMPLE", "AWS_SECRET_ACCESS_KEY": "x"}
			for k, v := range tc.env {
				env[k] = v
			}
			m := tc.model(srv.URL)
			req := &engine.LLMRequest{Model: m, Messages: transcript(m)}
			if tc.edit != nil {
				tc.edit(req)
			}
			_, msg := run(t, testProvider(t, env), req)
			if msg.StopReason != engine.StopStop {
				t.Fatalf("request failed: %s", msg.ErrorMessage)
			}
			got := srv.last(t)
			golden(t, "requests/"+tc.name+".json", append([]byte("POST "+got.Path+"\n"), indent(t, got.Body)...))
		})
	}
}

// TestCrossModelReplay checks that another model's turn loses its
// thinking and gets Bedrock-safe tool-call ids, its results renamed too.
func TestCrossModelReplay(t *testing.T) {
	t.Parallel()
	srv := newServer(t, http.StatusOK, nil, okStream(t))
	m := claudeModel(srv.URL)
	req := &engine.LLMRequest{Model: m, Messages: []*engine.Message{
		user("hi"),
		{Role: engine.RoleAssistant, API: "openai-responses", Provider: "openai", Model: "gpt-5", StopReason: engine.StopToolUse, Content: engine.Blocks(
			engine.Content{Type: engine.ContentThinking, Thinking: "secret", ThinkingSignature: "enc"},
			engine.Content{Type: engine.ContentToolCall, ID: "call_1|fc/" + strings.Repeat("x", 70), Name: "read", Arguments: json.RawMessage(`{}`)})},
		{Role: engine.RoleToolResult, ToolCallID: "call_1|fc/" + strings.Repeat("x", 70), ToolName: "read", Content: engine.Blocks(engine.TextContent("ok"))},
	}}
	_, msg := run(t, testProvider(t, map[string]string{"AWS_BEARER_TOKEN_BEDROCK": "tok"}), req)
	if msg.StopReason != engine.StopStop {
		t.Fatalf("request failed: %s", msg.ErrorMessage)
	}
	body := string(srv.last(t).Body)
	id := "call_1_fc_" + strings.Repeat("x", 54) // cut at 64 characters
	want := `{"messages":[{"role":"user","content":[{"text":"hi"}]},{"role":"assistant","content":[{"toolUse":{"toolUseId":"` + id + `","name":"read","input":{}}}]},{"role":"user","content":[{"toolResult":{"toolUseId":"` + id + `","content":[{"text":"ok"}],"status":"success"}},{"cachePoint":{"type":"default"}}]}],"inferenceConfig":{"maxTokens":64000}}`
	if body != want {
		t.Errorf("body\n got: %s\nwant: %s", body, want)
	}
}

// TestPayloadHook checks that a before_provider_request hook sees the
// input with modelId first, and that its replacement is what is sent:
// modelId goes to the path, unknown and null members are dropped.
func TestPayloadHook(t *testing.T) {
	t.Parallel()
	srv := newServer(t, http.StatusOK, nil, okStream(t))
	var seen string
	req := &engine.LLMRequest{Model: claudeModel(srv.URL), Messages: []*engine.Message{user("hi")}, CacheRetention: "none",
		OnPayload: func(body json.RawMessage) json.RawMessage {
			seen = string(body)
			return json.RawMessage(`{"extra":1,"inferenceConfig":{"maxTokens":7},"system":null,"messages":[{"role":"user","content":[{"text":"hooked"}]}],"modelId":"arn:aws:bedrock:eu-west-1:123:inference-profile/x"}`)
		}}
	_, msg := run(t, testProvider(t, map[string]string{"AWS_BEARER_TOKEN_BEDROCK": "tok"}), req)
	if msg.StopReason != engine.StopStop {
		t.Fatalf("request failed: %s", msg.ErrorMessage)
	}
	if want := `{"modelId":"anthropic.claude-haiku-4-5-20251001-v1:0","messages":[{"role":"user","content":[{"text":"hi"}]}],"inferenceConfig":{"maxTokens":64000}}`; seen != want {
		t.Errorf("hook saw\n %s\nwant %s", seen, want)
	}
	got := srv.last(t)
	if want := "/model/arn%3Aaws%3Abedrock%3Aeu-west-1%3A123%3Ainference-profile%2Fx/converse-stream"; got.Path != want {
		t.Errorf("path %s, want %s", got.Path, want)
	}
	if want := `{"messages":[{"role":"user","content":[{"text":"hooked"}]}],"inferenceConfig":{"maxTokens":7}}`; string(got.Body) != want {
		t.Errorf("body %s, want %s", got.Body, want)
	}
}
