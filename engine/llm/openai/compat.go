package openai

import (
	"encoding/json"
	"strings"

	"github.com/pi-go/pi/engine"
)

// compat holds the models.json compat flags this provider honours, with
// the defaults the reference uses for a host it does not recognise.
type compat struct {
	SupportsStore            bool
	SupportsDeveloperRole    bool
	SupportsReasoningEffort  bool
	SupportsUsageInStreaming bool
	SupportsFinishReason     bool
	MaxTokensField           string // "max_completion_tokens" or "max_tokens"
	ThinkingFormat           string // "openai" (default), "openrouter", "deepseek", "zai", "qwen"
	RequiresToolResultName   bool
	// SupportsLongCacheRetention allows prompt_cache_retention "24h" when
	// PI_CACHE_RETENTION is "long"; PromptCacheKeyMode ("auto",
	// "enabled", "disabled") decides when prompt_cache_key is sent.
	SupportsLongCacheRetention bool
	PromptCacheKeyMode         string
}

// detectLongCacheRetention is the reference's guess from the provider and
// base URL: hosts known to reject a long retention get none.
func detectLongCacheRetention(m *engine.Model) bool {
	p, u := m.Provider, m.BaseURL
	switch {
	case p == "together" || strings.Contains(u, "api.together.ai") || strings.Contains(u, "api.together.xyz"),
		p == "cloudflare-workers-ai" || strings.Contains(u, "api.cloudflare.com"),
		p == "cloudflare-ai-gateway" || strings.Contains(u, "gateway.ai.cloudflare.com"),
		p == "nvidia" || strings.Contains(u, "integrate.api.nvidia.com"),
		p == "ant-ling" || strings.Contains(u, "api.ant-ling.com"):
		return false
	}
	return true
}

func getCompat(m *engine.Model) compat {
	c := compat{
		SupportsStore:              true,
		SupportsDeveloperRole:      strings.Contains(m.BaseURL, "api.openai.com"),
		SupportsReasoningEffort:    true,
		SupportsUsageInStreaming:   true,
		SupportsFinishReason:       true,
		MaxTokensField:             "max_completion_tokens",
		ThinkingFormat:             "openai",
		SupportsLongCacheRetention: detectLongCacheRetention(m),
		PromptCacheKeyMode:         "auto",
	}
	if len(m.Compat) == 0 {
		return c
	}
	var w struct {
		SupportsStore            *bool   `json:"supportsStore"`
		SupportsDeveloperRole    *bool   `json:"supportsDeveloperRole"`
		SupportsReasoningEffort  *bool   `json:"supportsReasoningEffort"`
		SupportsUsageInStreaming *bool   `json:"supportsUsageInStreaming"`
		SupportsFinishReason     *bool   `json:"supportsFinishReason"`
		MaxTokensField           *string `json:"maxTokensField"`
		ThinkingFormat           *string `json:"thinkingFormat"`
		RequiresToolResultName   *bool   `json:"requiresToolResultName"`
		SupportsLongCache        *bool   `json:"supportsLongCacheRetention"`
		PromptCacheKeyMode       *string `json:"promptCacheKeyMode"`
	}
	if json.Unmarshal(m.Compat, &w) != nil {
		return c
	}
	setB := func(dst *bool, v *bool) {
		if v != nil {
			*dst = *v
		}
	}
	setB(&c.SupportsStore, w.SupportsStore)
	setB(&c.SupportsDeveloperRole, w.SupportsDeveloperRole)
	setB(&c.SupportsReasoningEffort, w.SupportsReasoningEffort)
	setB(&c.SupportsUsageInStreaming, w.SupportsUsageInStreaming)
	setB(&c.SupportsFinishReason, w.SupportsFinishReason)
	setB(&c.RequiresToolResultName, w.RequiresToolResultName)
	setB(&c.SupportsLongCacheRetention, w.SupportsLongCache)
	if w.PromptCacheKeyMode != nil {
		c.PromptCacheKeyMode = *w.PromptCacheKeyMode
	}
	if w.MaxTokensField != nil {
		c.MaxTokensField = *w.MaxTokensField
	}
	if w.ThinkingFormat != nil {
		c.ThinkingFormat = *w.ThinkingFormat
	}
	return c
}
