package engine

import (
	"context"
	"encoding/json"
)

// ProviderHooks is implemented by Hooks that dispatch the extension
// events around a provider request: before_provider_request may replace
// the request body, after_provider_response sees the status and headers.
// It is a separate interface so that Hooks implementations without
// provider events (NopHooks, test doubles) need not change.
type ProviderHooks interface {
	// BeforeProviderRequest returns the body to send; nil keeps body.
	BeforeProviderRequest(ctx context.Context, body json.RawMessage) json.RawMessage
	// AfterProviderResponse is told the response's status and headers.
	AfterProviderResponse(ctx context.Context, status int, headers map[string]string)
}

// attachProviderHooks wires the provider hooks of h, if any, into one
// request. The provider calls them on the run's goroutine, so the
// handlers finish before the request is sent or its body read, as the
// reference awaits them.
func attachProviderHooks(ctx context.Context, h Hooks, req *LLMRequest) {
	ph, ok := h.(ProviderHooks)
	if !ok {
		return
	}
	req.OnPayload = func(body json.RawMessage) json.RawMessage { return ph.BeforeProviderRequest(ctx, body) }
	req.OnResponse = func(status int, headers map[string]string) { ph.AfterProviderResponse(ctx, status, headers) }
}
