package providers

import (
	"context"
	"fmt"

	"github.com/pi-go/pi/engine"
	"github.com/pi-go/pi/engine/llm"
	"github.com/pi-go/pi/engine/llm/anthropic"
	"github.com/pi-go/pi/engine/llm/bedrock"
	"github.com/pi-go/pi/engine/llm/google"
	"github.com/pi-go/pi/engine/llm/mistral"
	"github.com/pi-go/pi/engine/llm/openai"
	"github.com/pi-go/pi/engine/llm/openairesponses"
	"github.com/pi-go/pi/engine/llm/pimessages"
)

// For returns the adapter for a wire API (engine.API*). An API we lack (a
// models.json typo) gets a provider that fails each request with the
// reference's "No API provider registered for api: X", as the reference's
// API registry does, instead of stopping the prompt before it runs.
func For(api string) engine.Provider {
	switch api {
	case engine.APIAnthropicMessages:
		return anthropic.New()
	case engine.APIOpenAICompletions:
		return openai.New()
	case engine.APIOpenAIResponses:
		return openairesponses.New()
	case engine.APIAzureOpenAIResponses:
		return openairesponses.NewAzure()
	case engine.APIOpenAICodexResponses:
		return openairesponses.NewCodex()
	case engine.APIGoogleGenerativeAI:
		return google.New()
	case engine.APIGoogleVertex:
		return google.NewVertex()
	case engine.APIMistralConversations:
		return mistral.New()
	case engine.APIBedrockConverseStream:
		return bedrock.New()
	case engine.APIPiMessages:
		return pimessages.New()
	}
	return engine.ProviderFunc(func(_ context.Context, req *engine.LLMRequest, emit func(engine.AssistantEvent)) *engine.Message {
		return llm.FailRequest(req, fmt.Errorf("No API provider registered for api: %s", api), emit, true)
	})
}
