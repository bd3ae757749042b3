package openai

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/pi-go/pi/engine"
	"github.com/pi-go/pi/internal/mockllm"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestPromptCacheFields checks when prompt_cache_key and
// prompt_cache_retention go out (PI_CACHE_RETENTION unset: short
// retention), and that they follow "stream" in the body.
func TestPromptCacheFields(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("é", 70)
	tests := []struct {
		name    string
		baseURL string
		compat  string
		session string
		wantKey string
	}{
		{"other host sends none", "http://127.0.0.1:1/v1", "", "sess", ""},
		{"api.openai.com sends the session id", "https://api.openai.com/v1", "", "sess", "sess"},
		{"compat enabled", "http://127.0.0.1:1/v1", `{"promptCacheKeyMode":"enabled"}`, "sess", "sess"},
		{"compat disabled", "https://api.openai.com/v1", `{"promptCacheKeyMode":"disabled"}`, "sess", ""},
		{"long ids are cut to 64 characters", "https://api.openai.com/v1", "", long, strings.Repeat("é", 64)},
		{"no session, no key", "https://api.openai.com/v1", "", "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			m := &engine.Model{ID: "gpt", BaseURL: tt.baseURL, Compat: json.RawMessage(tt.compat)}
			if tt.compat == "" {
				m.Compat = nil
			}
			req := &engine.LLMRequest{Model: m, SessionID: tt.session}
			body, err := buildBody(req, getCompat(m))
			require.NoError(t, err)
			var keys []string
			got := ""
			for _, f := range body {
				keys = append(keys, f.Key)
				if f.Key == "prompt_cache_key" {
					got, _ = f.Value.(string)
				}
			}
			assert.Equal(t, tt.wantKey, got)
			assert.NotContains(t, keys, "prompt_cache_retention")
			if tt.wantKey != "" {
				assert.Equal(t, []string{"model", "messages", "stream", "prompt_cache_key"}, keys[:4])
			}
		})
	}
}

func TestLongCacheRetentionDetection(t *testing.T) {
	t.Parallel()
	tests := []struct {
		provider, baseURL string
		want              bool
	}{
		{"mock", "http://127.0.0.1:1/v1", true},
		{"together", "https://x/v1", false},
		{"x", "https://integrate.api.nvidia.com/v1", false},
		{"x", "https://gateway.ai.cloudflare.com/v1", false},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, detectLongCacheRetention(&engine.Model{Provider: tt.provider, BaseURL: tt.baseURL}), tt.provider+" "+tt.baseURL)
	}
}

// TestProviderHookStages checks the header and stream stages against the
// mock: the header hook sees the model's headers, its additions are sent
// and its deletions removed (the SDK's own headers too), and every
// parsed chunk reaches OnStreamEvent.
func TestProviderHookStages(t *testing.T) {
	t.Parallel()
	srv := mockllm.Start(t, mockllm.Script{Turns: []mockllm.Turn{{Text: "hi there"}}})
	m := model(srv.URL())
	m.Headers = map[string]string{"x-team": "t1"}
	var seen map[string]string
	var chunks int
	req := &engine.LLMRequest{Model: m, APIKey: "mock-key",
		Messages: []*engine.Message{{Role: engine.RoleUser, Content: engine.Blocks(engine.TextContent("hello"))}},
		OnHeaders: func(h map[string]string) (map[string]*string, bool) {
			seen = h
			added := "yes"
			return map[string]*string{"x-added": &added, "x-team": nil, "X-Stainless-Lang": nil}, true
		},
		OnStreamEvent: func(data json.RawMessage) {
			chunks++
			assert.True(t, json.Valid(data))
		},
	}
	_, msg := run(context.Background(), t, req, nil)
	require.Equal(t, engine.StopStop, msg.StopReason, msg.ErrorMessage)
	assert.Equal(t, map[string]string{"x-team": "t1"}, seen)
	reqs := srv.Requests()
	require.Len(t, reqs, 1)
	assert.Equal(t, "yes", reqs[0].Headers["x-added"])
	assert.NotContains(t, reqs[0].Headers, "x-team")
	assert.NotContains(t, reqs[0].Headers, "x-stainless-lang")
	assert.Greater(t, chunks, 1)
}
