package pi

import (
	"github.com/pi-go/pi/engine"
	"github.com/pi-go/pi/engine/config"
)

// The reference's built-in OAuth providers (anthropic, openai-codex,
// github-copilot, xai, openrouter) use the credentials its TUI /login
// stored in auth.json; the registry's built-in handlers refresh them
// (engine/config/auth_builtin*.go). enableBuiltinOAuth turns them on for
// the registry this process serves.
func enableBuiltinOAuth(reg *config.Registry) {
	if reg != nil {
		reg.EnableBuiltinOAuth()
	}
}

// withOAuthBaseURL points a request at the endpoint its provider's stored
// OAuth credential names (GitHub Copilot's per-account API), as the
// reference's auth.baseUrl replaces the model's base URL.
func withOAuthBaseURL(reg *config.Registry, req *engine.LLMRequest) *engine.LLMRequest {
	if reg == nil || req.Model == nil {
		return req
	}
	u := reg.OAuthBaseURL(req.Model.Provider)
	if u == "" || u == req.Model.BaseURL {
		return req
	}
	r := *req
	m := *req.Model
	m.BaseURL = u
	r.Model = &m
	return &r
}
