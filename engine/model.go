package engine

import "encoding/json"

// Wire API identifiers, as used by models.json's "api" field.
const (
	APIOpenAICompletions = "openai-completions"
	APIOpenAIResponses   = "openai-responses"
	APIAnthropicMessages = "anthropic-messages"

	APIGoogleGenerativeAI    = "google-generative-ai"
	APIGoogleVertex          = "google-vertex"
	APIMistralConversations  = "mistral-conversations"
	APIAzureOpenAIResponses  = "azure-openai-responses"
	APIOpenAICodexResponses  = "openai-codex-responses"
	APIBedrockConverseStream = "bedrock-converse-stream"
	APIPiMessages            = "pi-messages"
)

// ModelCost is the price per million tokens. Tiers, when present, are
// request-wide prices: the tier with the highest InputTokensAbove that the
// request's input (fresh, cache-read and cache-write tokens together)
// exceeds prices every token kind of that request.
type ModelCost struct {
	Input      float64         `json:"input"`
	Output     float64         `json:"output"`
	CacheRead  float64         `json:"cacheRead"`
	CacheWrite float64         `json:"cacheWrite"`
	Tiers      []ModelCostTier `json:"tiers,omitempty"`
}

// ModelCostTier is one request-wide price tier of a ModelCost, in the
// reference's key order.
type ModelCostTier struct {
	InputTokensAbove float64 `json:"inputTokensAbove"`
	Input            float64 `json:"input"`
	Output           float64 `json:"output"`
	CacheRead        float64 `json:"cacheRead"`
	CacheWrite       float64 `json:"cacheWrite"`
}

// Model describes one model of one provider. The JSON form is the one
// get_state and get_available_models return; the order of the fields is
// the reference's.
type Model struct {
	ID               string            `json:"id"`
	Name             string            `json:"name"`
	API              string            `json:"api"`
	Provider         string            `json:"provider"`
	BaseURL          string            `json:"baseUrl"`
	Reasoning        bool              `json:"reasoning"`
	Input            []string          `json:"input"`
	Cost             ModelCost         `json:"cost"`
	ContextWindow    int               `json:"contextWindow"`
	MaxTokens        int               `json:"maxTokens"`
	Headers          map[string]string `json:"headers,omitempty"`
	Compat           json.RawMessage   `json:"compat,omitempty"`
	ThinkingLevelMap json.RawMessage   `json:"thinkingLevelMap,omitempty"`
	InputLimits      json.RawMessage   `json:"inputLimits,omitempty"`
	PromptCache      json.RawMessage   `json:"promptCache,omitempty"`
	// SamplingParams are models.json fields merged into every request
	// body of the OpenAI-compatible APIs; SamplingParamsByThinkingLevel
	// maps a thinking level to more of them, merged over these.
	SamplingParams                json.RawMessage `json:"samplingParams,omitempty"`
	SamplingParamsByThinkingLevel json.RawMessage `json:"samplingParamsByThinkingLevel,omitempty"`
	// Catalog marks a model of the built-in catalog. The reference lays
	// out catalog models and models.json models with different key orders
	// (see MarshalJSON in model_json.go); it is not serialised itself.
	Catalog bool `json:"-"`
	// Raw, when set, is the model's whole JSON form. A model an extension
	// registers (pi.registerProvider) is the extension's own definition
	// object with api, provider and baseUrl filled in, so its keys and
	// their order are the extension's; the fields above still drive
	// requests.
	Raw json.RawMessage `json:"-"`
	// Placeholder marks the stand-in model RPC mode starts with when no
	// model is configured. It is never recorded in a session file: the
	// reference writes no model_change for it.
	Placeholder bool `json:"-"`
}

// SupportsImages reports whether the model accepts image input.
func (m *Model) SupportsImages() bool {
	for _, in := range m.Input {
		if in == "image" {
			return true
		}
	}
	return false
}

// Ref is "provider/id".
func (m *Model) Ref() string { return m.Provider + "/" + m.ID }
