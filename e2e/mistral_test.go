package e2e_test

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
)

func mistralChunk(delta, finish string) string {
	f := "null"
	if finish != "" {
		f = `"` + finish + `"`
	}
	return `data: {"id":"cmpl-e2e","object":"chat.completion.chunk","model":"mistral-e2e","choices":[{"index":0,"delta":` + delta + `,"finish_reason":` + f + `}]}` + "\n\n"
}

// TestMistralToolRoundTrip runs the binary in JSON mode against a Mistral
// endpoint: the model calls bash, pi runs it and sends the result back in
// Mistral's shapes (prefix:false, tool_calls, a tool message with its name
// and tool_call_id), and the final answer ends the run.
func TestMistralToolRoundTrip(t *testing.T) {
	t.Parallel()
	srv := startCanned(t, "text/event-stream",
		mistralChunk(`{"role":"assistant","content":"Running."}`, "")+
			mistralChunk(`{"tool_calls":[{"id":"Ab3De6Gh9","index":0,"function":{"name":"bash","arguments":"{\"command\":\"echo hi\"}"}}]}`, "tool_calls")+
			"data: [DONE]\n\n",
		mistralChunk(`{"content":[{"type":"thinking","thinking":[{"type":"text","text":"done"}]},{"type":"text","text":"It printed hi."}]}`, "")+
			`data: {"id":"cmpl-e2e","choices":[{"index":0,"delta":{},"finish_reason":"stop"}],"usage":{"prompt_tokens":50,"completion_tokens":5,"total_tokens":55}}`+"\n\n"+
			"data: [DONE]\n\n")
	e := newEnv(t, "openai-completions", `[]`, map[string]any{"defaultProvider": "mistral", "defaultModel": "mistral-e2e"})
	e.writeJSON(filepath.Join(e.agentDir, "models.json"), map[string]any{"providers": map[string]any{"mistral": map[string]any{
		"baseUrl": srv.URL, "api": "mistral-conversations", "apiKey": "mkey",
		"models": []any{map[string]any{"id": "mistral-e2e", "reasoning": true, "input": []string{"text"}, "maxTokens": 1000, "contextWindow": 100000}},
	}}})
	r := e.run("", "--mode", "json", "--no-session", "--thinking", "high", "run echo hi")
	if r.code != 0 {
		t.Fatalf("exit %d\nstderr: %s\nstdout: %s", r.code, r.stderr, r.stdout)
	}
	recs := records(t, r.stdout)
	final := lastAssistant(recs)
	if final == nil {
		t.Fatalf("no assistant message_end in %v", types(recs))
	}
	if final["stopReason"] != "stop" || final["api"] != "mistral-conversations" || final["responseId"] != "cmpl-e2e" {
		t.Errorf("final message: %v", final)
	}
	content, _ := final["content"].([]any)
	if len(content) != 2 || content[0].(map[string]any)["thinking"] != "done" || content[1].(map[string]any)["text"] != "It printed hi." {
		t.Errorf("final content: %v", content)
	}

	reqs := srv.requests()
	if len(reqs) != 2 {
		t.Fatalf("got %d requests, want 2", len(reqs))
	}
	for i, q := range reqs {
		if q.URI != "/v1/chat/completions" || q.Header.Get("Authorization") != "Bearer mkey" {
			t.Errorf("request %d: path %q auth %q", i, q.URI, q.Header.Get("Authorization"))
		}
	}
	var body struct {
		Messages   []json.RawMessage `json:"messages"`
		PromptMode string            `json:"prompt_mode"`
		MaxTokens  int               `json:"max_tokens"`
	}
	if err := json.Unmarshal([]byte(reqs[1].Body), &body); err != nil {
		t.Fatal(err)
	}
	if body.PromptMode != "reasoning" || body.MaxTokens != 1000 {
		t.Errorf("prompt_mode %q max_tokens %d", body.PromptMode, body.MaxTokens)
	}
	n := len(body.Messages)
	if n < 3 {
		t.Fatalf("messages: %s", reqs[1].Body)
	}
	wantAssistant := `{"role":"assistant","prefix":false,"content":[{"type":"text","text":"Running."}],"tool_calls":[{"id":"Ab3De6Gh9","type":"function","function":{"name":"bash","arguments":"{\"command\":\"echo hi\"}"},"index":0}]}`
	wantTool := `{"role":"tool","name":"bash","content":[{"type":"text","text":"hi"}],"tool_call_id":"Ab3De6Gh9"}`
	if got := string(body.Messages[n-2]); got != wantAssistant {
		t.Errorf("assistant message:\n got %s\nwant %s", got, wantAssistant)
	}
	if got := string(body.Messages[n-1]); got != wantTool {
		t.Errorf("tool message:\n got %s\nwant %s", got, wantTool)
	}
	if !strings.Contains(reqs[0].Body, `"stream":true`) {
		t.Errorf("first body: %s", reqs[0].Body)
	}
}
