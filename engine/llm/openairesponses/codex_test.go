package openairesponses

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/pi-go/pi/engine"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestCodexURL(t *testing.T) {
	t.Parallel()
	tests := map[string]string{
		"":                                 "https://chatgpt.com/backend-api/codex/responses",
		"https://chatgpt.com/backend-api/": "https://chatgpt.com/backend-api/codex/responses",
		"http://h/x/codex":                 "http://h/x/codex/responses",
		"http://h/x/codex/responses//":     "http://h/x/codex/responses",
	}
	for in, want := range tests {
		assert.Equal(t, want, codexURL(in), in)
	}
}

func TestCodexAccountID(t *testing.T) {
	t.Parallel()
	enc := func(s string) string { return base64.RawStdEncoding.EncodeToString([]byte(s)) }
	tests := []struct {
		name, token, want string
	}{
		{name: "claim", token: "h." + enc(`{"https://api.openai.com/auth":{"chatgpt_account_id":"acct_1"}}`) + ".s", want: "acct_1"},
		{name: "padded", token: "h." + base64.StdEncoding.EncodeToString([]byte(`{"https://api.openai.com/auth":{"chatgpt_account_id":"a"}}`)) + ".s", want: "a"},
		{name: "no claim", token: "h." + enc(`{"sub":"x"}`) + ".s"},
		{name: "empty id", token: "h." + enc(`{"https://api.openai.com/auth":{"chatgpt_account_id":""}}`) + ".s"},
		{name: "not a jwt", token: "sk-abc"},
		{name: "bad json", token: "h." + enc(`{`) + ".s"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, err := codexAccountID(tt.token)
			if tt.want == "" {
				assert.EqualError(t, err, "Failed to extract accountId from token")
				return
			}
			assert.NoError(t, err)
			assert.Equal(t, tt.want, got)
		})
	}
}

// TestCodexHTTPError words error responses as the reference's
// parseErrorResponse does.
func TestCodexHTTPError(t *testing.T) {
	t.Parallel()
	now := time.Unix(1_700_000_000, 0)
	tests := []struct {
		name   string
		status int
		body   string
		want   string
	}{
		{"usage limit with reset", 429, `{"error":{"code":"usage_limit_reached","plan_type":"PRO","resets_at":1700000630}}`,
			"You have hit your ChatGPT usage limit (pro plan). Try again in ~11 min."},
		{"usage code on 400", 400, `{"error":{"type":"usage_not_included","message":"m"}}`, "You have hit your ChatGPT usage limit."},
		{"any 429", 429, `{"error":{"message":"slow"}}`, "You have hit your ChatGPT usage limit."},
		{"message", 400, `{"error":{"message":"bad"}}`, "bad"},
		{"no message", 400, `{"error":{"code":"x"}}`, `{"error":{"code":"x"}}`},
		{"not json", 500, `upstream down`, "upstream down"},
		{"empty", 502, ``, "Bad Gateway"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			assert.Equal(t, tt.want, codexHTTPError(tt.status, "Bad Gateway", []byte(tt.body), now))
		})
	}
}

func TestCodexNoKey(t *testing.T) {
	t.Parallel()
	m := &engine.Model{ID: "m", API: engine.APIOpenAICodexResponses, Provider: "openai-codex", Reasoning: true}
	msg := NewCodex().Stream(t.Context(), &engine.LLMRequest{Model: m}, nil)
	assert.Equal(t, "No API key for provider: openai-codex", msg.ErrorMessage)
	msg = NewCodex().Stream(t.Context(), &engine.LLMRequest{Model: m, APIKey: "sk-x"}, nil)
	assert.Equal(t, "Failed to extract accountId from token", msg.ErrorMessage)
	az := &engine.Model{ID: "m", API: engine.APIAzureOpenAIResponses, Provider: "azure", Headers: map[string]string{"Authorization": "x"}}
	msg = NewAzure().Stream(t.Context(), &engine.LLMRequest{Model: az}, nil)
	assert.Equal(t, "No API key for provider: azure", msg.ErrorMessage)
}

// codexToken is a fake ChatGPT access token for account "acct_123".
const codexToken = "eyJhbGciOiJub25lIn0.eyJodHRwczovL2FwaS5vcGVuYWkuY29tL2F1dGgiOnsiY2hhdGdwdF9hY2NvdW50X2lkIjoiYWNjdF8xMjMifSwiZXhwIjo0MTAyNDQ0ODAwfQ.sig"

func TestCodexConnectionRefused(t *testing.T) {
	t.Parallel()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	addr := ln.Addr().String()
	require.NoError(t, ln.Close())
	m := &engine.Model{ID: "m", API: engine.APIOpenAICodexResponses, Provider: "openai-codex", BaseURL: "http://" + addr}
	msg := NewCodex().Stream(t.Context(), &engine.LLMRequest{Model: m, APIKey: codexToken}, nil)
	assert.Equal(t, engine.StopError, msg.StopReason)
	assert.Equal(t, "fetch failed: connect ECONNREFUSED "+addr, msg.ErrorMessage)
}

// TestCodexAbort cancels a request whose response never comes and one
// cancelled before it starts: both end "aborted" with the reference's
// "Request was aborted".
func TestCodexAbort(t *testing.T) {
	t.Parallel()
	arrived := make(chan struct{}, 1)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		// The server notices the client going away only once the body
		// has been read.
		_, _ = io.Copy(io.Discard, r.Body)
		arrived <- struct{}{}
		<-r.Context().Done()
	}))
	t.Cleanup(srv.Close)
	m := &engine.Model{ID: "m", API: engine.APIOpenAICodexResponses, Provider: "openai-codex", BaseURL: srv.URL}
	ctx, cancel := context.WithCancel(t.Context())
	go func() {
		<-arrived
		cancel()
	}()
	msg := NewCodex().Stream(ctx, &engine.LLMRequest{Model: m, APIKey: codexToken}, nil)
	assert.Equal(t, engine.StopAborted, msg.StopReason)
	assert.Equal(t, "Request was aborted", msg.ErrorMessage)

	done, stop := context.WithCancel(t.Context())
	stop()
	msg = NewCodex().Stream(done, &engine.LLMRequest{Model: m, APIKey: codexToken}, nil)
	assert.Equal(t, engine.StopAborted, msg.StopReason)
	assert.Equal(t, "Request was aborted", msg.ErrorMessage)
}

// TestProviderThinkingLevelOrder checks that providerThinkingLevel sits
// right after model, as the reference builds the message, and keeps that
// place through a session file.
func TestProviderThinkingLevelOrder(t *testing.T) {
	t.Parallel()
	sc := loadScenario(t, "openaieffort")
	got, _ := runScenario(t, sc)
	require.Len(t, got, 1)
	raw := string(got[0].Message)
	assert.Contains(t, raw, `"model":"gpt-mock","providerThinkingLevel":"high","usage":`)
	var m engine.Message
	require.NoError(t, json.Unmarshal(got[0].Message, &m))
	again, err := engine.MarshalJSON(m)
	require.NoError(t, err)
	assert.Equal(t, raw, string(again))
}
