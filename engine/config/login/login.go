package login

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"time"
)

// ErrCancelled is the reference's message for a login the user stopped.
var ErrCancelled = errors.New("Login cancelled")

// Option is one choice of a select prompt.
type Option struct {
	ID, Label, Description string
}

// Prompt is a question a flow asks. Kind is "select" (pick an Option's
// ID), "text", "manual_code" (a pasted code or redirect URL) or "secret"
// (read without echo).
type Prompt struct {
	Kind        string
	Message     string
	Placeholder string
	Options     []Option
}

// Event is a notice a flow shows. Kind is "auth_url" (URL, Instructions),
// "device_code" (URL is the verification URI, UserCode), "info"
// (Message, Links) or "progress" (Message).
type Event struct {
	Kind         string
	URL          string
	Instructions string
	UserCode     string
	Message      string
	Links        []Link
}

// Link is a labelled URL of an "info" notice.
type Link struct{ Label, URL string }

// Interaction is the person signing in. Ask blocks until an answer or
// ctx's end; a flow cancels a pending Ask (a pasted code) by cancelling
// the ctx it passed.
type Interaction interface {
	Ask(ctx context.Context, p Prompt) (string, error)
	Notify(e Event)
}

// Endpoints are the URLs a flow reaches. Zero fields take the provider's
// real endpoints; tests set them to local servers.
type Endpoints struct {
	AnthropicAuthorize string
	AnthropicToken     string
	// AnthropicCallbackPort is the local callback port tried first; 0
	// means the reference's 53692, a negative one any free port. A busy port falls back to any free one.
	AnthropicCallbackPort int
	// GitHubDomain replaces github.com (and api.github.com) for the
	// Copilot device flow; GitHubBase, when set, is the base URL of both
	// (a test server) instead of https://<domain>.
	GitHubBase string
	// CopilotTokenURL and CopilotModelsBase replace the Copilot token
	// exchange and models listing that follow the device flow.
	CopilotTokenURL   string
	CopilotModelsBase string
	// CopilotKnownModel reports whether the catalog has a Copilot model;
	// only those are enabled by policy during the sign-in. nil enables none.
	CopilotKnownModel func(id string) bool
	// CodexAuthBase replaces https://auth.openai.com for the OpenAI
	// Codex sign-in; CodexCallbackPort is its local callback port (0: the
	// reference's 1455, negative: any free port).
	CodexAuthBase     string
	CodexCallbackPort int
	// OpenRouterAuthorize and OpenRouterKeys replace OpenRouter's sign-in
	// page and key exchange.
	OpenRouterAuthorize string
	OpenRouterKeys      string
	// XAIAuthBase replaces https://auth.x.ai for the xAI device flow.
	XAIAuthBase string
	// KimiHost replaces the Kimi Code OAuth host (after the
	// KIMI_CODE_OAUTH_HOST and KIMI_OAUTH_HOST variables).
	KimiHost string
	// MetaAuthBase replaces https://auth.meta.com and MetaMintURL the
	// Model API key endpoint of the Meta sign-in.
	MetaAuthBase string
	MetaMintURL  string
	// OpenAIAuthBase replaces https://auth.openai.com for the ChatGPT
	// sign-in of the openai provider, OpenAICallbackPort its callback port
	// (0: 1455, negative: any free one).
	OpenAIAuthBase     string
	OpenAICallbackPort int
	// DeviceID returns this installation's device id (a UUID kept in
	// settings.json), which the ChatGPT sign-in names the agent host by.
	DeviceID func() (string, error)
	// RadiusGateway replaces https://radius.pi.dev for the Radius
	// sign-in (a custom gateway from models.json, or a test server);
	// RadiusCallbackPort is its callback port (0: 1456, negative: any).
	RadiusGateway      string
	RadiusCallbackPort int
	// Client sends the requests; nil uses a client with a 30s timeout.
	Client *http.Client
	// Now is the clock the stored expiry is computed from; nil is time.Now.
	Now func() time.Time
	// Sleep waits between device-code polls; nil waits on a timer (tests
	// record the intervals instead).
	Sleep func(ctx context.Context, d time.Duration) error
}

func (e *Endpoints) client() *http.Client {
	if e.Client != nil {
		return e.Client
	}
	return &http.Client{Timeout: 30 * time.Second}
}

func (e *Endpoints) now() time.Time {
	if e.Now != nil {
		return e.Now()
	}
	return time.Now()
}

func (e *Endpoints) sleep(ctx context.Context, d time.Duration) error {
	if e.Sleep != nil {
		return e.Sleep(ctx, d)
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ErrCancelled
	case <-t.C:
		return nil
	}
}

// Flow is a provider's account sign-in.
type Flow struct {
	// Name is how the provider's OAuth login is shown.
	Name string
	// Run performs the sign-in and returns the auth.json credential.
	Run func(ctx context.Context, ui Interaction, ep *Endpoints) (json.RawMessage, error)
}

// OAuthFlow returns the provider's account sign-in, or false when this
// build has none for it.
func OAuthFlow(provider string) (Flow, bool) {
	switch provider {
	case "anthropic":
		return Flow{Name: "Anthropic (Claude Pro/Max)", Run: loginAnthropic}, true
	case "openai-codex":
		return Flow{Name: "OpenAI (ChatGPT Plus/Pro)", Run: loginCodex}, true
	case "github-copilot":
		return Flow{Name: "GitHub Copilot", Run: loginCopilot}, true
	case "xai":
		return Flow{Name: "xAI (Grok/X subscription)", Run: loginXAI}, true
	case "kimi-coding":
		return Flow{Name: "Kimi Code (subscription)", Run: loginKimi}, true
	case "meta":
		return Flow{Name: "Meta (Muse subscription)", Run: loginMeta}, true
	case "openai":
		return Flow{Name: "OpenAI (ChatGPT subscription)", Run: loginChatGPT}, true
	case "openrouter":
		return Flow{Name: "OpenRouter OAuth", Run: loginOpenRouter}, true
	case "radius":
		return Flow{Name: "Radius", Run: loginRadius}, true
	}
	return Flow{}, false
}

// oauthProviders are the reference's providers with an account sign-in;
// OAuthFlow serves some of them, the others fail with a clear error.
var oauthProviders = map[string]bool{
	"anthropic": true, "openai-codex": true, "github-copilot": true, "xai": true,
	"openrouter": true, "kimi-coding": true, "meta": true, "openai": true, "radius": true,
}

// HasOAuth reports whether the reference offers an account sign-in for
// the provider (whether or not this build implements it).
func HasOAuth(provider string) bool { return oauthProviders[provider] }
