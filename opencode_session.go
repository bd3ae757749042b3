package pi

import (
	"maps"
	"slices"

	"github.com/pi-go/pi/engine"
	"github.com/pi-go/pi/engine/config"
	"github.com/pi-go/pi/engine/llm"
)

// withHeaderOrder gives the request the order of its model's and
// configured headers (config RequestHeaderOrder), the order the
// before_provider_headers handlers see them in.
func withHeaderOrder(reg *config.Registry, req *engine.LLMRequest) *engine.LLMRequest {
	order := reg.RequestHeaderOrder(req.Model)
	if len(order) == 0 {
		return req
	}
	r := *req
	r.HeaderOrder = order
	return &r
}

// withOpenCodeSession adds OpenCode's x-opencode-session header (the
// request's routing id) to a request to an OpenCode provider, below the
// credentials' and the request's own headers and first in the order the
// before_provider_headers handlers see, as the reference's model registry
// does before it runs them. Summaries carry their own routing id, so they
// get one too.
func withOpenCodeSession(req *engine.LLMRequest) *engine.LLMRequest {
	if req.SessionID == "" || req.Model == nil || !llm.IsOpenCode(req.Model) {
		return req
	}
	const name = "x-opencode-session"
	r := *req
	r.Headers = make(map[string]string, len(req.Headers)+1)
	r.Headers[name] = req.SessionID
	maps.Copy(r.Headers, req.Headers)
	var rest []string
	for k := range req.Headers {
		if k != name && !slices.Contains(req.HeaderOrder, k) {
			rest = append(rest, k)
		}
	}
	slices.Sort(rest)
	order := append([]string{name}, rest...)
	for _, k := range req.HeaderOrder {
		if k != name {
			order = append(order, k)
		}
	}
	r.HeaderOrder = order
	return &r
}
