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
}

func getCompat(m *engine.Model) compat {
	c := compat{
		SupportsStore:            true,
		SupportsDeveloperRole:    strings.Contains(m.BaseURL, "api.openai.com"),
		SupportsReasoningEffort:  true,
		SupportsUsageInStreaming: true,
		SupportsFinishReason:     true,
		MaxTokensField:           "max_completion_tokens",
		ThinkingFormat:           "openai",
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
	if w.MaxTokensField != nil {
		c.MaxTokensField = *w.MaxTokensField
	}
	if w.ThinkingFormat != nil {
		c.ThinkingFormat = *w.ThinkingFormat
	}
	return c
}
