package jsruntime

import (
	"context"
	"encoding/json"
	"errors"
	"sort"

	"github.com/pi-go/pi/engine"
)

var ()

// BeforeProviderHeaders runs "before_provider_headers": the handlers
// change event.headers in place, a null value deleting a header, and the
// headers they leave are what the request sends.
func (h hooks) BeforeProviderHeaders(ctx context.Context, headers map[string]string) (map[string]*string, bool) {
	a := h.api()
	if !a.HasHandlers("before_provider_headers") {
		return nil, false
	}
	// The handlers see the headers in the reference's order: models.json's
	// (provider, then model) after the others.
	names := engine.OrderHeaderNames(headers, engine.HeaderOrderFrom(ctx))
	hs := make(ordered, 0, len(names))
	for _, k := range names {
		hs = append(hs, Field{k, headers[k]})
	}
	out, err := a.dispatch(ctx, "before_provider_headers", ordered{{"type", "before_provider_headers"}, {"headers", hs}})
	if err != nil || out == "" {
		return nil, false
	}
	var r struct {
		Headers map[string]*string `json:"headers"`
	}
	if json.Unmarshal([]byte(out), &r) != nil || r.Headers == nil {
		return nil, false
	}
	return r.Headers, true
}

// WantsProviderStreamEvents reports whether a provider_stream_event
// handler is registered.
func (h hooks) WantsProviderStreamEvents() bool { return h.api().HasHandlers("provider_stream_event") }

// ProviderStreamEvent runs "provider_stream_event" for one parsed stream
// event. The reference builds this event with data first, before type.
func (h hooks) ProviderStreamEvent(ctx context.Context, model *engine.Model, data json.RawMessage) {
	a := h.api()
	if model == nil || !a.HasHandlers("provider_stream_event") {
		return
	}
	ev := ordered{{"data", data}, {"type", "provider_stream_event"}, {"provider", model.Provider}, {"api", model.API}, {"model", model.ID}}
	if _, err := a.dispatch(ctx, "provider_stream_event", ev); err != nil && !errors.Is(err, context.Canceled) {
		a.reportError("", "provider_stream_event", err.Error())
	}
}

// BeforeProviderRequest runs "before_provider_request": each handler sees
// the current payload and any value it returns replaces it for the next.
func (h hooks) BeforeProviderRequest(ctx context.Context, body json.RawMessage) json.RawMessage {
	a := h.api()
	if !a.HasHandlers("before_provider_request") {
		return nil
	}
	out, err := a.dispatch(ctx, "before_provider_request", ordered{{"type", "before_provider_request"}, {"payload", body}})
	if err != nil || out == "" {
		return nil
	}
	var r struct {
		Payload json.RawMessage `json:"payload"`
	}
	if json.Unmarshal([]byte(out), &r) != nil || len(r.Payload) == 0 || jsonEqual(r.Payload, body) {
		return nil
	}
	return r.Payload
}

// AfterProviderResponse runs "after_provider_response" with the status and
// the response headers (lower-case names, in sorted order since HTTP
// headers have none).
func (h hooks) AfterProviderResponse(ctx context.Context, status int, headers map[string]string) {
	a := h.api()
	if !a.HasHandlers("after_provider_response") {
		return
	}
	names := make([]string, 0, len(headers))
	for k := range headers {
		names = append(names, k)
	}
	sort.Strings(names)
	hs := make(ordered, 0, len(names))
	for _, k := range names {
		hs = append(hs, Field{k, headers[k]})
	}
	a.Emit(ctx, "after_provider_response", Field{"status", status}, Field{"headers", hs})
}

// ResourcePath is one path a resources_discover handler returned.
type ResourcePath struct {
	Path          string `json:"path"`
	ExtensionPath string `json:"extensionPath"`
}

// DiscoveredResources are the extra resources extensions contribute.
type DiscoveredResources struct {
	SkillPaths  []ResourcePath `json:"skillPaths"`
	PromptPaths []ResourcePath `json:"promptPaths"`
	ThemePaths  []ResourcePath `json:"themePaths"`
}

// DiscoverResources runs "resources_discover" (reason "startup" or
// "reload") and returns the paths the handlers contributed; a handler
// that throws is reported and skipped.
func (a *API) DiscoverResources(ctx context.Context, cwd, reason string) DiscoveredResources {
	var out DiscoveredResources
	if !a.HasHandlers("resources_discover") {
		return out
	}
	res, err := a.dispatch(ctx, "resources_discover", ordered{{"type", "resources_discover"}, {"cwd", cwd}, {"reason", reason}})
	if err != nil || res == "" {
		return out
	}
	_ = json.Unmarshal([]byte(res), &out)
	return out
}

// CacheWarmingDecision runs "cache_warming_decision" before a prompt-cache
// refresh: the handlers see pi's estimates and decision, and the last one
// that returns an action decides (engine.CacheWarmingHooks).
func (h hooks) CacheWarmingDecision(ctx context.Context, ev engine.CacheWarmingDecision) (string, error) {
	a := h.api()
	if !a.HasHandlers("cache_warming_decision") {
		return ev.Action, nil
	}
	out, err := a.dispatch(ctx, "cache_warming_decision", ordered{{"type", "cache_warming_decision"},
		{"warmCost", ev.WarmCost}, {"missCost", ev.MissCost}, {"continuationProbability", ev.ContinuationProbability},
		{"action", ev.Action}})
	if err != nil {
		return ev.Action, err
	}
	var r struct {
		Action *string `json:"action"`
	}
	if out == "" || json.Unmarshal([]byte(out), &r) != nil || r.Action == nil {
		return ev.Action, nil
	}
	return *r.Action, nil
}
