package anthropic

import (
	"context"
	"encoding/json"
	"net/http"
	"sort"
	"strings"
	"testing"

	"github.com/pi-go/pi/engine"
)

// TestAuthModesGolden records the headers and body each way of
// authenticating sends (API key, Claude Pro/Max OAuth token, GitHub
// Copilot token), compared with what the reference sent to a capture
// server, and checks that an OAuth reply's Claude Code tool names map
// back to the request's tools.
func TestAuthModesGolden(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name     string
		key      string
		provider string
		headers  map[string]string
		last     string
		wantTool string
	}{
		{name: "api_key", key: "sk-ant-api03-k", provider: "anthropic", wantTool: "Read"},
		{name: "oauth", key: "sk-ant-oat01-tok", provider: "anthropic", wantTool: "read"},
		{name: "copilot", key: "tid=1;proxy-ep=proxy.x;", provider: "github-copilot", last: engine.RoleToolResult, wantTool: "Read",
			headers: map[string]string{"User-Agent": "GitHubCopilotChat/0.35.0", "Editor-Version": "vscode/1.107.0",
				"Editor-Plugin-Version": "copilot-chat/0.35.0", "Copilot-Integration-Id": "vscode-chat"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			fs := newFakeServer(t, turn{ToolCalls: []call{{Name: "Read", Args: `{"path":"a"}`}}})
			req := textRequest(fs.URL, true)
			req.ThinkingLevel = engine.ThinkingMedium
			req.APIKey = tc.key
			req.Model.Provider = tc.provider
			req.Model.Headers = tc.headers
			req.Tools = []engine.ToolInfo{{Name: "read", Description: "Read a file.", Parameters: json.RawMessage(`{"type":"object","properties":{"path":{"type":"string"}},"required":["path"]}`)},
				{Name: "todo", Description: "Other.", Parameters: json.RawMessage(`{"type":"object"}`)}}
			req.Messages = append(req.Messages,
				&engine.Message{Role: engine.RoleAssistant, API: engine.APIAnthropicMessages, Provider: tc.provider, Model: "mock-model",
					Content: engine.Blocks(engine.Content{Type: engine.ContentToolCall, ID: "toolu_1", Name: "read", Arguments: json.RawMessage(`{"path":"x"}`)})},
				&engine.Message{Role: engine.RoleToolResult, ToolCallID: "toolu_1", ToolName: "read", Content: engine.Blocks(engine.TextContent("x"))})
			if tc.last != engine.RoleToolResult {
				req.Messages = append(req.Messages, &engine.Message{Role: engine.RoleUser, Content: engine.Blocks(engine.TextContent("again")), Timestamp: 2})
			}
			_, msg := run(context.Background(), req)
			if msg.StopReason != engine.StopToolUse {
				t.Fatalf("stop %s: %s", msg.StopReason, msg.ErrorMessage)
			}
			if got := msg.Content.Blocks[0].Name; got != tc.wantTool {
				t.Errorf("tool call name %q, want %q", got, tc.wantTool)
			}
			reqs := fs.requests()
			if len(reqs) != 1 {
				t.Fatalf("%d requests", len(reqs))
			}
			golden(t, "auth_"+tc.name, headerLines(reqs[0].Header)+"\n"+string(reqs[0].Body))
		})
	}
}

// headerLines lists the headers sorted, with the Go-version part of our
// own user agent and the transport's headers left out.
func headerLines(h http.Header) string {
	var lines []string
	for k, v := range h {
		switch k {
		case "Content-Length", "Accept-Encoding":
			continue
		}
		val := strings.Join(v, ",")
		if strings.HasPrefix(val, "pi/") {
			val = "pi/VERSION"
		}
		lines = append(lines, strings.ToLower(k)+": "+val)
	}
	sort.Strings(lines)
	return strings.Join(lines, "\n")
}

func TestClaudeCodeNames(t *testing.T) {
	t.Parallel()
	tools := []engine.ToolInfo{{Name: "read"}, {Name: "my_tool"}}
	cases := []struct{ in, wire, back string }{
		{"read", "Read", "read"},
		{"todowrite", "TodoWrite", "TodoWrite"},
		{"my_tool", "my_tool", "my_tool"},
		{"WEBFETCH", "WebFetch", "WebFetch"},
	}
	for _, c := range cases {
		if got := toClaudeCodeName(c.in); got != c.wire {
			t.Errorf("toClaudeCodeName(%q) = %q, want %q", c.in, got, c.wire)
		}
		if got := fromClaudeCodeName(c.wire, tools); got != c.back {
			t.Errorf("fromClaudeCodeName(%q) = %q, want %q", c.wire, got, c.back)
		}
	}
	if !isOAuthToken("sk-ant-oat01-x") || isOAuthToken("sk-ant-api03-x") {
		t.Error("isOAuthToken")
	}
}
