package e2e_test

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// mistralServer answers Mistral chat completion requests with canned
// streams, one per request in order, and keeps the request bodies.
type mistralServer struct {
	mu     sync.Mutex
	bodies []string
	paths  []string
	auth   []string
}

func startMistral(t *testing.T, streams ...string) (*httptest.Server, *mistralServer) {
	t.Helper()
	ms := &mistralServer{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		ms.mu.Lock()
		n := len(ms.bodies)
		ms.bodies = append(ms.bodies, string(b))
		ms.paths = append(ms.paths, r.URL.Path)
		ms.auth = append(ms.auth, r.Header.Get("Authorization"))
		ms.mu.Unlock()
		if n >= len(streams) {
			n = len(streams) - 1
		}
		w.Header().Set("content-type", "text/event-stream")
		_, _ = io.WriteString(w, streams[n])
	}))
	t.Cleanup(srv.Close)
	return srv, ms
}

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
	srv, ms := startMistral(t,
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
	var final map[string]any
	for _, rec := range recs {
		if rec["type"] == "message_end" {
			if m, _ := rec["message"].(map[string]any); m["role"] == "assistant" {
				final = m
			}
		}
	}
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

	ms.mu.Lock()
	defer ms.mu.Unlock()
	if len(ms.bodies) != 2 {
		t.Fatalf("got %d requests, want 2", len(ms.bodies))
	}
	for i := range ms.paths {
		if ms.paths[i] != "/v1/chat/completions" || ms.auth[i] != "Bearer mkey" {
			t.Errorf("request %d: path %q auth %q", i, ms.paths[i], ms.auth[i])
		}
	}
	var body struct {
		Messages   []json.RawMessage `json:"messages"`
		PromptMode string            `json:"prompt_mode"`
		MaxTokens  int               `json:"max_tokens"`
	}
	if err := json.Unmarshal([]byte(ms.bodies[1]), &body); err != nil {
		t.Fatal(err)
	}
	if body.PromptMode != "reasoning" || body.MaxTokens != 1000 {
		t.Errorf("prompt_mode %q max_tokens %d", body.PromptMode, body.MaxTokens)
	}
	n := len(body.Messages)
	if n < 3 {
		t.Fatalf("messages: %s", ms.bodies[1])
	}
	wantAssistant := `{"role":"assistant","prefix":false,"content":[{"type":"text","text":"Running."}],"tool_calls":[{"id":"Ab3De6Gh9","type":"function","function":{"name":"bash","arguments":"{\"command\":\"echo hi\"}"},"index":0}]}`
	wantTool := `{"role":"tool","name":"bash","content":[{"type":"text","text":"hi"}],"tool_call_id":"Ab3De6Gh9"}`
	if got := string(body.Messages[n-2]); got != wantAssistant {
		t.Errorf("assistant message:\n got %s\nwant %s", got, wantAssistant)
	}
	if got := string(body.Messages[n-1]); got != wantTool {
		t.Errorf("tool message:\n got %s\nwant %s", got, wantTool)
	}
	if !strings.Contains(ms.bodies[0], `"stream":true`) {
		t.Errorf("first body: %s", ms.bodies[0])
	}
}
