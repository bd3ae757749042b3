package engine

import (
	"context"
	"encoding/json"
	"maps"
	"slices"
	"strings"
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

// ProviderHeaderHooks is implemented by Hooks that dispatch
// before_provider_headers, which runs once per request (summaries
// included) on the extra headers assembled for it: the model's headers,
// then the request's.
type ProviderHeaderHooks interface {
	// BeforeProviderHeaders returns the headers after the handlers'
	// changes, a nil value marking one they deleted; ok is false when
	// nobody listens and the headers stay as they are.
	BeforeProviderHeaders(ctx context.Context, headers map[string]string) (out map[string]*string, ok bool)
}

// ProviderStreamHooks is implemented by Hooks that dispatch
// provider_stream_event, the raw parsed events of a response stream.
type ProviderStreamHooks interface {
	// WantsProviderStreamEvents reports whether any handler listens; the
	// stream hook is attached only then, so a stream nobody watches pays
	// nothing per event.
	WantsProviderStreamEvents() bool
	// ProviderStreamEvent is told one event's data, before the provider
	// normalizes it; the provider waits for the handlers.
	ProviderStreamEvent(ctx context.Context, model *Model, data json.RawMessage)
}

// attachProviderHooks wires the provider hooks of h, if any, into one
// request. The provider calls them on the run's goroutine, so the
// handlers finish before the request is sent or its body read, as the
// reference awaits them.
func attachProviderHooks(ctx context.Context, h Hooks, req *LLMRequest) {
	applyHeaderHooks(ctx, h, req)
	if sh, ok := h.(ProviderStreamHooks); ok && sh.WantsProviderStreamEvents() {
		model := req.Model
		req.OnStreamEvent = func(data json.RawMessage) { sh.ProviderStreamEvent(ctx, model, data) }
	}
	ph, ok := h.(ProviderHooks)
	if !ok {
		return
	}
	req.OnPayload = func(body json.RawMessage) json.RawMessage { return ph.BeforeProviderRequest(ctx, body) }
	req.OnResponse = func(status int, headers map[string]string) { ph.AfterProviderResponse(ctx, status, headers) }
}

// applyHeaderHooks arranges for before_provider_headers to run for one
// request (see WithHeaderHook).
func applyHeaderHooks(ctx context.Context, h Hooks, req *LLMRequest) {
	hh, ok := h.(ProviderHeaderHooks)
	if !ok {
		return
	}
	req.OnHeaders = func(headers map[string]string) (map[string]*string, bool) {
		return hh.BeforeProviderHeaders(ctx, headers)
	}
	req.orderedHeaders = func(order []string, headers map[string]string) (map[string]*string, bool) {
		return hh.BeforeProviderHeaders(context.WithValue(ctx, headerOrderKey{}, order), headers)
	}
}

type headerOrderKey struct{}

// HeaderOrderFrom is the order of the header names a
// before_provider_headers dispatch got in ctx (see OrderHeaderNames), or
// nil.
func HeaderOrderFrom(ctx context.Context) []string {
	order, _ := ctx.Value(headerOrderKey{}).([]string)
	return order
}

// OrderHeaderNames lists the names of headers for an extension: those
// order lacks first, sorted, then the others in order's order.
func OrderHeaderNames(headers map[string]string, order []string) []string {
	var listed, rest []string
	for _, k := range order {
		if _, ok := headers[k]; ok && !slices.Contains(listed, k) {
			listed = append(listed, k)
		}
	}
	for k := range headers {
		if !slices.Contains(listed, k) {
			rest = append(rest, k)
		}
	}
	slices.Sort(rest)
	return append(rest, listed...)
}

// WithHeaderHook runs the request's OnHeaders hook, if any, and returns
// the request to send: the handlers see the model's headers and the
// request's merged, and what they leave becomes the request's headers,
// which providers apply last (the model's are cleared on a copy of the
// model, being part of them now); the names they deleted become
// DropHeaders. The hook runs once: the result carries no OnHeaders.
func (r *LLMRequest) WithHeaderHook() *LLMRequest {
	if r == nil || r.OnHeaders == nil || r.Model == nil {
		return r
	}
	c := *r
	c.OnHeaders, c.orderedHeaders = nil, nil
	merged := make(map[string]string, len(r.Model.Headers)+len(r.Headers))
	maps.Copy(merged, r.Model.Headers)
	maps.Copy(merged, r.Headers)
	var out map[string]*string
	var ok bool
	if r.orderedHeaders != nil {
		out, ok = r.orderedHeaders(OrderHeaderNames(merged, r.HeaderOrder), merged)
	} else {
		out, ok = r.OnHeaders(merged)
	}
	if !ok {
		return &c
	}
	kept := make(map[string]string, len(out))
	var dropped []string
	for k, v := range out {
		if v == nil {
			dropped = append(dropped, k)
			continue
		}
		kept[k] = *v
	}
	m := *r.Model
	m.Headers = nil
	c.Model = &m
	c.Headers = kept
	c.DropHeaders = append(append([]string(nil), r.DropHeaders...), dropped...)
	return &c
}

// HeaderDropped reports whether name is one of the request's DropHeaders.
func (r *LLMRequest) HeaderDropped(name string) bool {
	for _, d := range r.DropHeaders {
		if strings.EqualFold(d, name) {
			return true
		}
	}
	return false
}

// withHeaderHooks wraps p so that each request it streams carries the
// before_provider_headers hooks: the summaries of a compaction or a tree
// navigation go through it, as the reference's request options carry the
// header hook to every request it makes.
func withHeaderHooks(h Hooks, p Provider) Provider {
	if _, ok := h.(ProviderHeaderHooks); !ok || p == nil {
		return p
	}
	return ProviderFunc(func(ctx context.Context, req *LLMRequest, emit func(AssistantEvent)) *Message {
		r := *req
		applyHeaderHooks(ctx, h, &r)
		return p.Stream(ctx, &r, emit)
	})
}
