package engine

import (
	"context"
	"encoding/json"
	"maps"
	"slices"
	"strings"
)

// ProviderHooksNop is implemented by a Hooks that wraps NopHooks for
// everything but a few events of its own (the built-in MCP support's
// /mcp command): its provider requests go out as built, as NopHooks'
// do.
type ProviderHooksNop interface{ ProviderHooksNop() bool }

func nopProviderHooks(h Hooks) bool {
	if _, none := h.(NopHooks); none {
		return true
	}
	n, ok := h.(ProviderHooksNop)
	return ok && n.ProviderHooksNop()
}

// attachProviderHooks wires the provider hooks of h, if any, into one
// request. The provider calls them on the run's goroutine, so the
// handlers finish before the request is sent or its body read, as the
// reference awaits them.
func attachProviderHooks(ctx context.Context, h Hooks, req *LLMRequest) {
	applyHeaderHooks(ctx, h, req)
	if h.WantsProviderStreamEvents() {
		model := req.Model
		req.OnStreamEvent = func(data json.RawMessage) { h.ProviderStreamEvent(ctx, model, data) }
	}
	if nopProviderHooks(h) {
		// Without extensions the request is sent as built.
		return
	}
	req.OnPayload = func(body json.RawMessage) json.RawMessage { return h.BeforeProviderRequest(ctx, body) }
	req.OnResponse = func(status int, headers map[string]string) { h.AfterProviderResponse(ctx, status, headers) }
}

// applyHeaderHooks arranges for before_provider_headers to run for one
// request (see WithHeaderHook).
func applyHeaderHooks(ctx context.Context, h Hooks, req *LLMRequest) {
	hh := h
	if nopProviderHooks(h) {
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
	if none := nopProviderHooks(h); none || p == nil {
		return p
	}
	return ProviderFunc(func(ctx context.Context, req *LLMRequest, emit func(AssistantEvent)) *Message {
		r := *req
		applyHeaderHooks(ctx, h, &r)
		return p.Stream(ctx, &r, emit)
	})
}
