package openai

import (
	"bytes"
	"encoding/json"
	"os"
	"testing"

	"github.com/pi-go/pi/engine"
	"github.com/pi-go/pi/engine/llm"
)

// TestDetectCompat: the defaults the reference's detectCompat derives
// from a catalog provider's id and base URL, before the model's compat.
func TestDetectCompat(t *testing.T) {
	t.Parallel()
	type want struct {
		store, developer, effort bool
		maxField, format         string
		longCache                bool
	}
	tests := []struct {
		provider, baseURL string
		want              want
	}{
		{"openai", "https://proxy.example/v1", want{true, true, true, "max_completion_tokens", "openai", true}},
		{"groq", "https://api.groq.com/openai/v1", want{true, false, true, "max_completion_tokens", "openai", true}},
		{"openrouter", "https://openrouter.ai/api/v1", want{true, false, true, "max_completion_tokens", "openrouter", true}},
		{"deepseek", "https://api.deepseek.com", want{false, false, true, "max_tokens", "deepseek", true}},
		{"zai", "https://api.z.ai/api/coding/paas/v4", want{false, false, false, "max_tokens", "zai", true}},
		{"zai-coding-cn", "https://open.bigmodel.cn/api/coding/paas/v4", want{false, false, false, "max_tokens", "zai", true}},
		{"together", "https://api.together.ai/v1", want{false, false, false, "max_tokens", "together", false}},
		{"moonshotai", "https://api.moonshot.ai/v1", want{false, false, false, "max_tokens", "openai", true}},
		{"kimi-coding", "https://api.kimi.com/coding/v1", want{true, false, true, "max_completion_tokens", "openai", true}},
		{"cerebras", "https://api.cerebras.ai/v1", want{false, false, true, "max_completion_tokens", "openai", true}},
		{"xai", "https://api.x.ai/v1", want{false, false, false, "max_completion_tokens", "openai", true}},
		{"nvidia", "https://integrate.api.nvidia.com/v1", want{false, false, false, "max_tokens", "openai", false}},
		{"ant-ling", "https://api.ant-ling.com/v1", want{false, false, false, "max_tokens", "ant-ling", false}},
		{"huggingface", "https://router.huggingface.co/v1", want{true, false, true, "max_completion_tokens", "openai", true}},
		{"fireworks", "https://api.fireworks.ai/inference/v1", want{true, false, true, "max_completion_tokens", "openai", true}},
		{"opencode", "https://opencode.ai/zen/v1", want{false, false, true, "max_completion_tokens", "openai", true}},
		{"cloudflare-workers-ai", "https://api.cloudflare.com/client/v4/accounts/a/ai/v1", want{false, false, true, "max_completion_tokens", "openai", false}},
		{"cloudflare-ai-gateway", "https://gateway.ai.cloudflare.com/v1/a/g/compat", want{false, false, false, "max_tokens", "openai", false}},
		{"github-copilot", "https://api.individual.githubcopilot.com", want{true, false, true, "max_completion_tokens", "openai", true}},
		{"custom", "https://llm.chutes.ai/v1", want{false, false, true, "max_tokens", "openai", true}},
	}
	for _, tt := range tests {
		c := detectCompat(&engine.Model{Provider: tt.provider, BaseURL: tt.baseURL})
		got := want{c.SupportsStore, c.SupportsDeveloperRole, c.SupportsReasoningEffort, c.MaxTokensField, c.ThinkingFormat, c.SupportsLongCacheRetention}
		if got != tt.want {
			t.Errorf("%s %s:\n got  %+v\n want %+v", tt.provider, tt.baseURL, got, tt.want)
		}
	}
}

// TestCatalogRequestBodies: request bodies for catalog models, compared
// with the ones the reference sent for the same model at the same level
// (captured from pi 1.6.0 with the provider's baseUrl pointed at a local
// server; messages left out, as their system prompt is prose).
func TestCatalogRequestBodies(t *testing.T) {
	t.Parallel()
	b, err := os.ReadFile("testdata/catalog_bodies.json")
	if err != nil {
		t.Fatal(err)
	}
	var cases []struct {
		Level engine.ThinkingLevel `json:"level"`
		Model json.RawMessage      `json:"model"`
		Body  json.RawMessage      `json:"body"`
	}
	if err := json.Unmarshal(b, &cases); err != nil {
		t.Fatal(err)
	}
	for _, tc := range cases {
		var m engine.Model
		if err := json.Unmarshal(tc.Model, &m); err != nil {
			t.Fatal(err)
		}
		body, err := buildBody(&engine.LLMRequest{Model: &m, ThinkingLevel: tc.Level}, getCompat(&m))
		if err != nil {
			t.Fatal(err)
		}
		kept := llm.Object{}
		for _, kv := range body {
			if kv.Key != "messages" {
				kept = kept.Set(kv.Key, kv.Value)
			}
		}
		got, err := kept.MarshalJSON()
		if err != nil {
			t.Fatal(err)
		}
		var want bytes.Buffer
		if err := json.Compact(&want, tc.Body); err != nil {
			t.Fatal(err)
		}
		if string(got) != want.String() {
			t.Errorf("%s/%s:\n got  %s\n want %s", m.Provider, m.ID, got, want.String())
		}
	}
}
