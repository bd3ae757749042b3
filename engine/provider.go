package engine

import (
	"context"
	"encoding/json"
	"os"
)

// LLMRequest is everything a provider needs for one streamed request.
type LLMRequest struct {
	Model         *Model
	SystemPrompt  string
	Messages      []*Message // already converted for the LLM (see ConvertToLLM)
	Tools         []ToolInfo
	ThinkingLevel ThinkingLevel
	// MaxTokens is the output cap computed by the loop; 0 means the model's.
	MaxTokens   int
	Temperature *float64
	APIKey      string
	// Headers are extra HTTP headers (model headers are applied by the
	// provider itself).
	Headers   map[string]string
	SessionID string
	// ThinkingBudgets are the settings' thinkingBudgets: only the levels
	// the user set (minimal, low, medium, high), so that an adapter can
	// tell a custom budget from its own defaults, as the reference's
	// streamSimple option does. Nil means none set.
	ThinkingBudgets map[ThinkingLevel]int
	// CacheRetention is the request's prompt-cache preference: "none",
	// "short" or "long"; empty defers to PI_CACHE_RETENTION (see
	// ResolvedCacheRetention). Summary requests set "none", as the
	// reference does for one-off requests: no cache markers, no prompt
	// cache key and no session-affinity headers.
	CacheRetention string
	// OnPayload, when set, sees the request body before it is sent and may
	// return a replacement (extension provider-request hooks).
	OnPayload func(body json.RawMessage) json.RawMessage
	// OnResponse, when set, is told the HTTP status and headers as soon as
	// a response arrives, before its body is read, whatever the status
	// (extension after_provider_response hooks). Header names are lower
	// case; repeated headers are joined with ", ".
	OnResponse func(status int, headers map[string]string)
	// OnHeaders, when set, runs the before_provider_headers hooks on the
	// request's extra headers; providers call WithHeaderHook first thing,
	// once the credentials' headers are merged in, as the reference runs
	// the hook after resolving auth and before building the body.
	OnHeaders func(headers map[string]string) (map[string]*string, bool)
	// HeaderOrder is the order of the configured names among Headers
	// (models.json's provider headers, then the model's): the order the
	// reference hands before_provider_headers. Names it lacks go first,
	// sorted.
	HeaderOrder []string
	// orderedHeaders is OnHeaders told the names' order too; the engine
	// sets both (providerhooks.go).
	orderedHeaders func(order []string, headers map[string]string) (map[string]*string, bool)
	// DropHeaders are header names an extension's before_provider_headers
	// handler deleted (set to null): the provider sends none of them,
	// its own defaults included. Matched without regard to case.
	DropHeaders []string
	// OnStreamEvent, when set, sees each parsed event of the response
	// stream (the event's JSON data) before the provider normalizes it
	// (extension provider_stream_event hooks). It must not keep data.
	OnStreamEvent func(data json.RawMessage)
}

// ResolvedCacheRetention is CacheRetention when set, else "long" when the
// PI_CACHE_RETENTION environment variable says so, else "short".
func (r *LLMRequest) ResolvedCacheRetention() string {
	if r.CacheRetention != "" {
		return r.CacheRetention
	}
	if os.Getenv("PI_CACHE_RETENTION") == "long" {
		return "long"
	}
	return "short"
}

// CacheSessionID is the session id the adapters may use for prompt
// caching and session affinity (prompt_cache_key, x-affinity, session
// headers): empty when caching is off for the request.
func (r *LLMRequest) CacheSessionID() string {
	if r.ResolvedCacheRetention() == "none" {
		return ""
	}
	return r.SessionID
}

// Provider streams one assistant message from one wire API. It never
// fails with a Go error: every failure, including cancellation of ctx,
// ends the stream with a message whose stopReason is "error" or "aborted"
// and whose ErrorMessage is set. emit is called on the caller's goroutine
// for every event, in order, ending with "done" or "error".
type Provider interface {
	Stream(ctx context.Context, req *LLMRequest, emit func(AssistantEvent)) *Message
}

// ProviderFunc adapts a function to Provider.
type ProviderFunc func(ctx context.Context, req *LLMRequest, emit func(AssistantEvent)) *Message

// Stream calls f.
func (f ProviderFunc) Stream(ctx context.Context, req *LLMRequest, emit func(AssistantEvent)) *Message {
	return f(ctx, req, emit)
}
