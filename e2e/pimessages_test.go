package e2e_test

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
)

// TestPiMessagesToolRoundTrip runs the binary in JSON mode against a
// pi-messages backend standing in for Radius: the model thinks and calls
// bash, pi runs it and sends the whole transcript back (its system message
// first, the assistant turn with its response metadata), and the answer ends
// the run with the backend's usage.
func TestPiMessagesToolRoundTrip(t *testing.T) {
	t.Parallel()
	usage := `{"input":10,"output":5,"cacheRead":0,"cacheWrite":0,"totalTokens":15,"cost":{"input":0,"output":0,"cacheRead":0,"cacheWrite":0,"total":0}}`
	sse := func(events ...string) string {
		var b strings.Builder
		for _, e := range events {
			b.WriteString("data: " + e + "\n\n")
		}
		return b.String()
	}
	streams := []string{
		sse(`{"type":"start"}`, `{"type":"thinking_start","contentIndex":0}`, `{"type":"thinking_delta","contentIndex":0,"delta":"hmm"}`,
			`{"type":"thinking_end","contentIndex":0,"content":"hmm","contentSignature":"sig1"}`,
			`{"type":"toolcall_start","contentIndex":1,"id":"call_1","toolName":"bash"}`,
			`{"type":"toolcall_delta","contentIndex":1,"delta":"{\"command\":\"echo hi\"}"}`,
			`{"type":"toolcall_end","contentIndex":1,"toolCall":{"type":"toolCall","id":"call_1","name":"bash","arguments":{"command":"echo hi"}}}`,
			`{"type":"done","reason":"toolUse","usage":`+usage+`,"responseId":"resp_1","responseModel":"up-model"}`),
		sse(`{"type":"start"}`, `{"type":"text_start","contentIndex":0}`, `{"type":"text_delta","contentIndex":0,"delta":"It printed hi."}`,
			`{"type":"text_end","contentIndex":0,"content":"It printed hi."}`, `{"type":"done","reason":"stop","usage":`+usage+`,"responseId":"resp_2"}`),
	}
	srv := startCanned(t, "text/event-stream", streams...)
	e := newEnv(t, "openai-completions", `[]`, map[string]any{"defaultProvider": "radius", "defaultModel": "cheap"})
	e.writeJSON(filepath.Join(e.agentDir, "models.json"), map[string]any{"providers": map[string]any{
		"radius": map[string]any{"baseUrl": srv.URL + "/v1", "apiKey": "rk-test"},
	}})
	r := e.run("", "--mode", "json", "--no-session", "--provider", "radius", "--model", "cheap", "run echo hi")
	if r.code != 0 {
		t.Fatalf("exit %d\nstderr: %s\nstdout: %s", r.code, r.stderr, r.stdout)
	}
	final := lastAssistant(records(t, r.stdout))
	if final == nil || final["stopReason"] != "stop" || final["api"] != "pi-messages" || final["responseId"] != "resp_2" {
		t.Fatalf("final message: %v\nstderr: %s", final, r.stderr)
	}
	reqs := srv.requests()
	if len(reqs) != 2 {
		t.Fatalf("want 2 requests, got %d", len(reqs))
	}
	if line := reqs[0].EscapedPath + " " + reqs[0].Header.Get("authorization"); line != "/v1/messages Bearer rk-test" {
		t.Errorf("request line: %q", line)
	}
	var second struct {
		Model   string `json:"model"`
		Context struct {
			Messages []map[string]any `json:"messages"`
		} `json:"context"`
	}
	if err := json.Unmarshal([]byte(reqs[1].Body), &second); err != nil {
		t.Fatal(err)
	}
	var roles []string
	for _, m := range second.Context.Messages {
		roles = append(roles, m["role"].(string))
	}
	if second.Model != "cheap" || strings.Join(roles, ",") != "system,user,assistant,toolResult" {
		t.Fatalf("model %q roles %v", second.Model, roles)
	}
	if second.Context.Messages[2]["responseModel"] != "up-model" {
		t.Errorf("assistant turn lost its metadata: %v", second.Context.Messages[2])
	}
	if !strings.Contains(reqs[1].Body, `"thinkingSignature":"sig1"`) || !strings.Contains(reqs[1].Body, `"toolsAdded"`) {
		t.Errorf("second body: %s", reqs[1].Body)
	}
}
