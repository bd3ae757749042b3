package e2e_test

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws/protocol/eventstream"
)

// bedrockFrames encodes ConverseStream events (type, JSON payload pairs)
// as the AWS event stream Bedrock answers with.
func bedrockFrames(t *testing.T, events ...string) []byte {
	t.Helper()
	var buf bytes.Buffer
	enc := eventstream.NewEncoder()
	for i := 0; i+1 < len(events); i += 2 {
		var h eventstream.Headers
		h.Set(":message-type", eventstream.StringValue("event"))
		h.Set(":event-type", eventstream.StringValue(events[i]))
		h.Set(":content-type", eventstream.StringValue("application/json"))
		if err := enc.Encode(&buf, eventstream.Message{Headers: h, Payload: []byte(events[i+1])}); err != nil {
			t.Fatal(err)
		}
	}
	return buf.Bytes()
}

// TestBedrockToolRoundTrip runs the binary in JSON mode against a
// Bedrock endpoint set by a models.json baseUrl override of the built-in
// amazon-bedrock provider, with AWS keys in the environment: the model
// calls bash, pi runs it and sends the result back as a toolResult block,
// and every request is SigV4-signed for us-east-1.
func TestBedrockToolRoundTrip(t *testing.T) {
	t.Parallel()
	streams := [][]byte{
		bedrockFrames(t,
			"messageStart", `{"role":"assistant"}`,
			"contentBlockStart", `{"contentBlockIndex":0,"start":{"toolUse":{"toolUseId":"tooluse_e2e","name":"bash"}}}`,
			"contentBlockDelta", `{"contentBlockIndex":0,"delta":{"toolUse":{"input":"{\"command\":\"echo hi\"}"}}}`,
			"contentBlockStop", `{"contentBlockIndex":0}`,
			"messageStop", `{"stopReason":"tool_use"}`,
			"metadata", `{"usage":{"inputTokens":10,"outputTokens":5,"totalTokens":15}}`),
		bedrockFrames(t,
			"messageStart", `{"role":"assistant"}`,
			"contentBlockDelta", `{"contentBlockIndex":0,"delta":{"text":"It printed hi."}}`,
			"contentBlockStop", `{"contentBlockIndex":0}`,
			"messageStop", `{"stopReason":"end_turn"}`,
			"metadata", `{"usage":{"inputTokens":20,"outputTokens":4,"totalTokens":24,"cacheReadInputTokens":8}}`),
	}
	srv := startCanned(t, "application/vnd.amazon.eventstream", streams...)

	e := newEnv(t, "openai-completions", `[]`, map[string]any{"defaultProvider": "amazon-bedrock", "defaultModel": "anthropic.claude-haiku-4-5-20251001-v1:0"})
	e.writeJSON(filepath.Join(e.agentDir, "models.json"), map[string]any{"providers": map[string]any{
		"amazon-bedrock": map[string]any{"baseUrl": srv.URL},
	}})
	c := e.cmd("", "--mode", "json", "--no-session", "run echo hi")
	c.Env = append(c.Env, "AWS_ACCESS_KEY_ID=AKIDEXAMPLE", "AWS_SECRET_ACCESS_KEY=x", "AWS_REGION=us-east-1")
	var out, errb bytes.Buffer
	c.Stdout, c.Stderr = &out, &errb
	if err := c.Run(); err != nil {
		t.Fatalf("%v\nstderr: %s\nstdout: %s", err, errb.String(), out.String())
	}
	final := lastAssistant(records(t, out.String()))
	if final == nil || final["stopReason"] != "stop" || final["api"] != "bedrock-converse-stream" || final["rawStopReason"] != "end_turn" {
		t.Fatalf("final message: %v\nstderr: %s", final, errb.String())
	}
	if u, _ := final["usage"].(map[string]any); u["cacheRead"] != float64(8) {
		t.Errorf("usage: %v", u)
	}

	reqs := srv.requests()
	if len(reqs) != 2 {
		t.Fatalf("got %d requests, want 2", len(reqs))
	}
	for i, q := range reqs {
		auth := q.Header.Get("Authorization")
		if q.EscapedPath != "/model/anthropic.claude-haiku-4-5-20251001-v1%3A0/converse-stream" ||
			!strings.HasPrefix(auth, "AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/") || !strings.Contains(auth, "/us-east-1/bedrock/aws4_request") {
			t.Errorf("request %d: path %q auth %q", i, q.EscapedPath, auth)
		}
	}
	var body struct {
		Messages []json.RawMessage `json:"messages"`
	}
	if err := json.Unmarshal([]byte(reqs[1].Body), &body); err != nil {
		t.Fatal(err)
	}
	n := len(body.Messages)
	if n < 3 {
		t.Fatalf("messages: %s", reqs[1].Body)
	}
	wantAssistant := `{"role":"assistant","content":[{"toolUse":{"toolUseId":"tooluse_e2e","name":"bash","input":{"command":"echo hi"}}}]}`
	wantResult := `{"role":"user","content":[{"toolResult":{"toolUseId":"tooluse_e2e","content":[{"text":"hi\n"}],"status":"success"}},{"cachePoint":{"type":"default"}}]}`
	if got := string(body.Messages[n-2]); got != wantAssistant {
		t.Errorf("assistant message:\n got %s\nwant %s", got, wantAssistant)
	}
	if got := string(body.Messages[n-1]); got != wantResult {
		t.Errorf("tool result message:\n got %s\nwant %s", got, wantResult)
	}
}
