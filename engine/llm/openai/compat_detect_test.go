package openai

import (
	"testing"

	"github.com/pi-go/pi/engine"
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
