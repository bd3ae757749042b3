package main

import (
	"fmt"

	"github.com/pi-go/pi/engine"
	"github.com/pi-go/pi/engine/llm/anthropic"
	"github.com/pi-go/pi/engine/llm/openai"
	"github.com/pi-go/pi/engine/llm/openairesponses"
)

// providerFor returns the adapter for a wire API.
func providerFor(api string) (engine.Provider, error) {
	switch api {
	case engine.APIAnthropicMessages:
		return anthropic.New(), nil
	case engine.APIOpenAICompletions:
		return openai.New(), nil
	case engine.APIOpenAIResponses:
		return openairesponses.New(), nil
	}
	return nil, fmt.Errorf("no provider for API %q", api)
}
