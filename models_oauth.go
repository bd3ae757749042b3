package pi

import "github.com/pi-go/pi/engine"

// UsesOAuth reports whether the provider's requests use a stored OAuth
// credential, built-in handlers included (ctx.modelRegistry.isUsingOAuth).
func (m registryModels) UsesOAuth(provider string) bool { return m.r.UsesOAuth(provider) }

// OAuthBaseURL is the endpoint the provider's stored OAuth credential
// points at (GitHub Copilot's token-derived proxy), or "".
func (m registryModels) OAuthBaseURL(provider string) string { return m.r.OAuthBaseURL(provider) }

// RequestHeaderOrder is the order of the model's configured headers, as
// models.json gives them.
func (m registryModels) RequestHeaderOrder(model *engine.Model) []string {
	return m.r.RequestHeaderOrder(model)
}
