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
	// ThinkingFormat is "openai" (default), "openrouter", "deepseek",
	// "zai", "qwen", "qwen-chat-template", "chat-template", "baseten",
	// "ant-ling", "together" or "string-thinking".
	ThinkingFormat         string
	RequiresToolResultName bool
	// SupportsLongCacheRetention allows prompt_cache_retention "24h" when
	// PI_CACHE_RETENTION is "long"; PromptCacheKeyMode ("auto",
	// "enabled", "disabled") decides when prompt_cache_key is sent.
	SupportsLongCacheRetention bool
	PromptCacheKeyMode         string

	RequiresAssistantAfterToolResult            bool
	RequiresNonNullAssistantContent             bool
	RequiresToolsWithToolHistory                bool
	RequiresThinkingAsText                      bool
	RequiresReasoningContentOnAssistantMessages bool
	ZaiToolStream                               bool
	SupportsThinkingTokenBudget                 bool
	ThinkingTokenBudgetField                    string
	// SupportsStrictMode adds "strict" to every function tool (and strict
	// schemas for the tools that ask for them); hosts that reject unknown
	// fields leave it off.
	SupportsStrictMode bool
	// CacheControlFormat "anthropic" marks the system prompt, the last
	// tool and the last conversation message with cache_control, as
	// OpenRouter's Anthropic models take them.
	CacheControlFormat         string
	SendSessionAffinityHeaders bool
	SessionAffinityFormat      string // "openrouter" or "openai"
	// The routing objects and chat-template values pass through as the
	// model's compat gives them (raw JSON, key order kept); VllmPriority
	// is the "priority" field.
	OpenRouterRouting    json.RawMessage
	VercelGatewayRouting json.RawMessage
	ChatTemplateKwargs   json.RawMessage
	ChatTemplateArgs     json.RawMessage
	VllmPriority         json.RawMessage
}

// hostFlags is what the reference's detectCompat recognises from a
// model's provider id and base URL.
type hostFlags struct {
	zai, together, moonshot, openRouter, cfWorkers, cfGateway, nvidia, antLing, cerebras, deepSeek, grok, openAI bool
}

func detectHost(m *engine.Model) hostFlags {
	p, u := m.Provider, m.BaseURL
	return hostFlags{
		zai:        p == "zai" || p == "zai-coding-cn" || strings.Contains(u, "api.z.ai") || strings.Contains(u, "open.bigmodel.cn"),
		together:   p == "together" || strings.Contains(u, "api.together.ai") || strings.Contains(u, "api.together.xyz"),
		moonshot:   p == "moonshotai" || p == "moonshotai-cn" || strings.Contains(u, "api.moonshot."),
		openRouter: p == "openrouter" || strings.Contains(u, "openrouter.ai"),
		cfWorkers:  p == "cloudflare-workers-ai" || strings.Contains(u, "api.cloudflare.com"),
		cfGateway:  p == "cloudflare-ai-gateway" || strings.Contains(u, "gateway.ai.cloudflare.com"),
		nvidia:     p == "nvidia" || strings.Contains(u, "integrate.api.nvidia.com"),
		antLing:    p == "ant-ling" || strings.Contains(u, "api.ant-ling.com"),
		cerebras:   p == "cerebras" || strings.Contains(u, "cerebras.ai"),
		deepSeek:   p == "deepseek" || strings.Contains(strings.ToLower(u), "deepseek.com"),
		grok:       p == "xai" || strings.Contains(u, "api.x.ai"),
		openAI:     p == "openai" || strings.Contains(u, "api.openai.com"),
	}
}

// detectLongCacheRetention is the reference's guess from the provider and
// base URL: hosts known to reject a long retention get none.
func detectLongCacheRetention(m *engine.Model) bool {
	h := detectHost(m)
	return !(h.together || h.cfWorkers || h.cfGateway || h.nvidia || h.antLing)
}

// detectCompat is the reference's default compat for a model before its
// own compat object applies: hosts that reject "store", want max_tokens,
// lack reasoning_effort or take a thinking parameter of their own are
// known by provider id or base URL.
func detectCompat(m *engine.Model) compat {
	h := detectHost(m)
	u := m.BaseURL
	chutes := strings.Contains(u, "chutes.ai")
	nonStandard := h.nvidia || h.cerebras || h.grok || h.together || chutes || h.deepSeek || h.zai || h.moonshot ||
		m.Provider == "opencode" || strings.Contains(u, "opencode.ai") || h.cfWorkers || h.cfGateway || h.antLing
	useMaxTokens := chutes || h.deepSeek || h.moonshot || h.cfGateway || h.together || h.nvidia || h.antLing || h.zai
	c := compat{
		SupportsStore:                               !nonStandard,
		SupportsDeveloperRole:                       h.openAI,
		SupportsReasoningEffort:                     !h.grok && !h.zai && !h.moonshot && !h.together && !h.cfGateway && !h.nvidia && !h.antLing,
		SupportsUsageInStreaming:                    true,
		SupportsFinishReason:                        true,
		MaxTokensField:                              "max_completion_tokens",
		ThinkingFormat:                              "openai",
		SupportsLongCacheRetention:                  detectLongCacheRetention(m),
		PromptCacheKeyMode:                          "auto",
		RequiresReasoningContentOnAssistantMessages: h.deepSeek,
		SendSessionAffinityHeaders:                  h.openRouter,
		SessionAffinityFormat:                       "openai",
	}
	if h.openRouter {
		c.SessionAffinityFormat = "openrouter"
	}
	if m.Provider == "openrouter" && strings.HasPrefix(m.ID, "anthropic/") {
		c.CacheControlFormat = "anthropic"
	}
	if useMaxTokens {
		c.MaxTokensField = "max_tokens"
	}
	switch {
	case h.deepSeek:
		c.ThinkingFormat = "deepseek"
	case h.zai:
		c.ThinkingFormat = "zai"
	case h.together:
		c.ThinkingFormat = "together"
	case h.antLing:
		c.ThinkingFormat = "ant-ling"
	case h.openRouter:
		c.ThinkingFormat = "openrouter"
	}
	return c
}

func getCompat(m *engine.Model) compat {
	c := detectCompat(m)
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

		RequiresAssistantAfterToolResult            *bool           `json:"requiresAssistantAfterToolResult"`
		RequiresNonNullAssistantContent             *bool           `json:"requiresNonNullAssistantContent"`
		RequiresToolsWithToolHistory                *bool           `json:"requiresToolsWithToolHistory"`
		RequiresThinkingAsText                      *bool           `json:"requiresThinkingAsText"`
		RequiresReasoningContentOnAssistantMessages *bool           `json:"requiresReasoningContentOnAssistantMessages"`
		ZaiToolStream                               *bool           `json:"zaiToolStream"`
		SupportsThinkingTokenBudget                 *bool           `json:"supportsThinkingTokenBudget"`
		ThinkingTokenBudgetField                    *string         `json:"thinkingTokenBudgetField"`
		SupportsStrictMode                          *bool           `json:"supportsStrictMode"`
		CacheControlFormat                          *string         `json:"cacheControlFormat"`
		SendSessionAffinityHeaders                  *bool           `json:"sendSessionAffinityHeaders"`
		SessionAffinityFormat                       *string         `json:"sessionAffinityFormat"`
		OpenRouterRouting                           json.RawMessage `json:"openRouterRouting"`
		VercelGatewayRouting                        json.RawMessage `json:"vercelGatewayRouting"`
		ChatTemplateKwargs                          json.RawMessage `json:"chatTemplateKwargs"`
		ChatTemplateArgs                            json.RawMessage `json:"chatTemplateArgs"`
		VllmPriority                                json.RawMessage `json:"vllmPriority"`
	}
	if json.Unmarshal(m.Compat, &w) != nil {
		return c
	}
	setB := func(dst *bool, v *bool) {
		if v != nil {
			*dst = *v
		}
	}
	setS := func(dst *string, v *string) {
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
	setB(&c.RequiresAssistantAfterToolResult, w.RequiresAssistantAfterToolResult)
	setB(&c.RequiresNonNullAssistantContent, w.RequiresNonNullAssistantContent)
	setB(&c.RequiresToolsWithToolHistory, w.RequiresToolsWithToolHistory)
	setB(&c.RequiresThinkingAsText, w.RequiresThinkingAsText)
	setB(&c.RequiresReasoningContentOnAssistantMessages, w.RequiresReasoningContentOnAssistantMessages)
	setB(&c.ZaiToolStream, w.ZaiToolStream)
	setB(&c.SupportsThinkingTokenBudget, w.SupportsThinkingTokenBudget)
	setB(&c.SupportsStrictMode, w.SupportsStrictMode)
	setB(&c.SendSessionAffinityHeaders, w.SendSessionAffinityHeaders)
	setS(&c.PromptCacheKeyMode, w.PromptCacheKeyMode)
	setS(&c.MaxTokensField, w.MaxTokensField)
	setS(&c.ThinkingFormat, w.ThinkingFormat)
	setS(&c.ThinkingTokenBudgetField, w.ThinkingTokenBudgetField)
	setS(&c.CacheControlFormat, w.CacheControlFormat)
	setS(&c.SessionAffinityFormat, w.SessionAffinityFormat)
	// JSON null counts as unset, as the reference's "??" treats it.
	keep := func(r json.RawMessage) json.RawMessage {
		if hasValue(r) {
			return r
		}
		return nil
	}
	c.OpenRouterRouting = keep(w.OpenRouterRouting)
	c.VercelGatewayRouting = keep(w.VercelGatewayRouting)
	c.ChatTemplateKwargs = keep(w.ChatTemplateKwargs)
	c.ChatTemplateArgs = keep(w.ChatTemplateArgs)
	c.VllmPriority = keep(w.VllmPriority)
	return c
}
