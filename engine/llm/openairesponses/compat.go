package openairesponses

import (
	"encoding/json"
	"strings"

	"github.com/pi-go/pi/engine"
)

// compat holds the models.json compat flags this provider honours, with
// the reference's defaults for each flavor.
type compat struct {
	Flavor                          flavor
	SupportsDeveloperRole           bool
	SessionAffinityFormat           string // "openai" or "openrouter"
	PromptCacheKeyMode              string // "auto" or "disabled"
	SupportsLongCacheRetention      bool
	SupportsStrictMode              bool
	SupportsExplicitPromptCacheMode bool
	SupportsMaxOutputTokens         bool
	SupportsMidConvoSystemMessages  bool
	SupportsAdditionalTools         bool
	SupportsMidConvoEffort          bool
	SupportsOpenAIGrammarTools      bool
}

func getCompat(m *engine.Model, f flavor) compat {
	c := compat{
		Flavor: f,
		// Azure and Codex send tools with "strict" unless told not to.
		SupportsStrictMode:         f != flavorOpenAI,
		SupportsDeveloperRole:      true,
		SessionAffinityFormat:      "openai",
		PromptCacheKeyMode:         "auto",
		SupportsLongCacheRetention: true,
		SupportsMaxOutputTokens:    true,
	}
	if m.Provider == "openrouter" || strings.Contains(m.BaseURL, "openrouter.ai") {
		c.SessionAffinityFormat = "openrouter"
	}
	if len(m.Compat) == 0 {
		return c
	}
	var w struct {
		SupportsDeveloperRole           *bool   `json:"supportsDeveloperRole"`
		SessionAffinityFormat           *string `json:"sessionAffinityFormat"`
		PromptCacheKeyMode              *string `json:"promptCacheKeyMode"`
		SupportsLongCacheRetention      *bool   `json:"supportsLongCacheRetention"`
		SupportsStrictMode              *bool   `json:"supportsStrictMode"`
		SupportsExplicitPromptCacheMode *bool   `json:"supportsExplicitPromptCacheMode"`
		SupportsMaxOutputTokens         *bool   `json:"supportsMaxOutputTokens"`
		SupportsMidConvoSystemMessages  *bool   `json:"supportsMidConvoSystemMessages"`
		SupportsAdditionalTools         *bool   `json:"supportsAdditionalTools"`
		SupportsMidConvoEffort          *bool   `json:"supportsMidConvoEffort"`
		SupportsOpenAIGrammarTools      *bool   `json:"supportsOpenAIGrammarTools"`
	}
	if json.Unmarshal(m.Compat, &w) != nil {
		return c
	}
	set := func(dst *bool, v *bool) {
		if v != nil {
			*dst = *v
		}
	}
	set(&c.SupportsDeveloperRole, w.SupportsDeveloperRole)
	set(&c.SupportsLongCacheRetention, w.SupportsLongCacheRetention)
	set(&c.SupportsStrictMode, w.SupportsStrictMode)
	set(&c.SupportsExplicitPromptCacheMode, w.SupportsExplicitPromptCacheMode)
	set(&c.SupportsMaxOutputTokens, w.SupportsMaxOutputTokens)
	set(&c.SupportsMidConvoSystemMessages, w.SupportsMidConvoSystemMessages)
	set(&c.SupportsAdditionalTools, w.SupportsAdditionalTools)
	set(&c.SupportsMidConvoEffort, w.SupportsMidConvoEffort)
	set(&c.SupportsOpenAIGrammarTools, w.SupportsOpenAIGrammarTools)
	if w.SessionAffinityFormat != nil {
		c.SessionAffinityFormat = *w.SessionAffinityFormat
	}
	if w.PromptCacheKeyMode != nil {
		c.PromptCacheKeyMode = *w.PromptCacheKeyMode
	}
	if f == flavorAzure {
		// The Azure adapter has no cache retention fields, always sends
		// max_output_tokens and never moves the effort into the input.
		c.SupportsMaxOutputTokens = true
		c.SupportsMidConvoEffort = false
	}
	return c
}
