package e2e_test

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
)

func geminiSSE(chunks ...string) string {
	var b strings.Builder
	for _, c := range chunks {
		b.WriteString("data: " + c + "\r\n\r\n")
	}
	return b.String()
}

// TestGeminiToolRoundTrip runs the binary in JSON mode against a Gemini
// endpoint: the model thinks, calls bash with a thought signature, pi runs
// it and replays the call (signature included) with its function
// response, and the final answer ends the run with Gemini's usage.
func TestGeminiToolRoundTrip(t *testing.T) {
	t.Parallel()
	srv := startCanned(t, "text/event-stream",
		geminiSSE(
			`{"candidates":[{"content":{"parts":[{"text":"Plan.","thought":true,"thoughtSignature":"c2lnMQ=="}],"role":"model"},"index":0}],"responseId":"r1"}`,
			`{"candidates":[{"content":{"parts":[{"functionCall":{"name":"bash","args":{"command":"echo hi"}},"thoughtSignature":"c2lnMg=="}],"role":"model"},"finishReason":"STOP","index":0}],"usageMetadata":{"promptTokenCount":100,"candidatesTokenCount":10,"thoughtsTokenCount":5,"totalTokenCount":115}}`),
		geminiSSE(
			`{"candidates":[{"content":{"parts":[{"text":"It printed hi."}],"role":"model"},"finishReason":"STOP","index":0}],"usageMetadata":{"promptTokenCount":200,"candidatesTokenCount":4,"cachedContentTokenCount":50,"totalTokenCount":204},"responseId":"r2"}`))
	e := newEnv(t, "openai-completions", `[]`, map[string]any{"defaultProvider": "google", "defaultModel": "gemini-2.5-pro"})
	e.writeJSON(filepath.Join(e.agentDir, "models.json"), map[string]any{"providers": map[string]any{"google": map[string]any{
		"baseUrl": srv.URL + "/v1beta", "api": "google-generative-ai", "apiKey": "gkey",
		"models": []any{map[string]any{"id": "gemini-2.5-pro", "reasoning": true, "input": []string{"text", "image"},
			"maxTokens": 1000, "contextWindow": 100000, "cost": map[string]any{"input": 1, "output": 10, "cacheRead": 0.5, "cacheWrite": 0}}},
	}}})
	r := e.run("", "--mode", "json", "--no-session", "--thinking", "medium", "run echo hi")
	if r.code != 0 {
		t.Fatalf("exit %d\nstderr: %s\nstdout: %s", r.code, r.stderr, r.stdout)
	}
	recs := records(t, r.stdout)
	final := lastAssistant(recs)
	if final == nil {
		t.Fatalf("no assistant message in %v", types(recs))
	}
	usage, _ := final["usage"].(map[string]any)
	if final["stopReason"] != "stop" || final["api"] != "google-generative-ai" || final["responseId"] != "r2" ||
		usage["input"] != 150.0 || usage["cacheRead"] != 50.0 || usage["output"] != 4.0 {
		t.Errorf("final message: %v", final)
	}

	reqs := srv.requests()
	if len(reqs) != 2 {
		t.Fatalf("got %d requests, want 2", len(reqs))
	}
	for i, q := range reqs {
		if q.URI != "/v1beta/models/gemini-2.5-pro:streamGenerateContent?alt=sse" || q.Header.Get("x-goog-api-key") != "gkey" {
			t.Errorf("request %d: path %q key %q", i, q.URI, q.Header.Get("x-goog-api-key"))
		}
	}
	var body struct {
		Contents         []json.RawMessage `json:"contents"`
		GenerationConfig json.RawMessage   `json:"generationConfig"`
	}
	if err := json.Unmarshal([]byte(reqs[1].Body), &body); err != nil {
		t.Fatal(err)
	}
	if want := `{"maxOutputTokens":1000,"thinkingConfig":{"includeThoughts":true,"thinkingBudget":8192}}`; string(body.GenerationConfig) != want {
		t.Errorf("generationConfig %s, want %s", body.GenerationConfig, want)
	}
	if len(body.Contents) != 3 {
		t.Fatalf("contents: %s", reqs[1].Body)
	}
	wantModel := `{"parts":[{"text":"Plan.","thought":true,"thoughtSignature":"c2lnMQ=="},{"functionCall":{"args":{"command":"echo hi"},"name":"bash"},"thoughtSignature":"c2lnMg=="}],"role":"model"}`
	wantResult := `{"parts":[{"functionResponse":{"name":"bash","response":{"output":"hi\n"}}}],"role":"user"}`
	if string(body.Contents[1]) != wantModel || string(body.Contents[2]) != wantResult {
		t.Errorf("replayed turns:\n got %s\n     %s\nwant %s\n     %s", body.Contents[1], body.Contents[2], wantModel, wantResult)
	}
}
