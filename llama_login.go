package pi

import (
	"context"
	"encoding/json"
	"os"
	"strings"

	"github.com/pi-go/pi/engine/config/login"
	"github.com/pi-go/pi/engine/llm/llamacpp"
	"github.com/pi-go/pi/internal/jsonx"
)

// /login llama.cpp: the router's URL and an optional key, checked by
// listing the router's models, stored as the reference stores them
// ({"type":"api_key","key"?,"env":{"LLAMA_BASE_URL":…}}). The provider
// is configured at once and its catalog refreshed.

// llamaLogin asks for the router and its key and checks them.
func (app *Agent) llamaLogin(ctx context.Context, ui login.Interaction) (json.RawMessage, error) {
	placeholder := os.Getenv("LLAMA_BASE_URL")
	if placeholder == "" {
		placeholder = llamacpp.DefaultServerURL
	}
	entered, err := ui.Ask(ctx, login.Prompt{Kind: "text", Message: "llama.cpp server URL", Placeholder: placeholder})
	if err != nil {
		return nil, err
	}
	raw := strings.TrimSpace(entered)
	if raw == "" {
		raw = placeholder
	}
	serverURL, err := llamacpp.NormalizeServerURL(raw)
	if err != nil {
		return nil, err
	}
	key, err := ui.Ask(ctx, login.Prompt{Kind: "secret", Message: "API key (optional)"})
	if err != nil {
		return nil, err
	}
	key = strings.TrimSpace(key)
	c, err := llamacpp.NewClient(serverURL, key)
	if err != nil {
		return nil, err
	}
	if _, err := c.List(ctx, false); err != nil {
		return nil, err
	}
	env, _ := jsonx.NewBuilder().Set("LLAMA_BASE_URL", serverURL).Bytes()
	b := jsonx.NewBuilder().Set("type", "api_key")
	if key != "" {
		b.Set("key", key)
	}
	return b.Set("env", json.RawMessage(env)).Bytes()
}

// llamaLoggedIn configures the provider from the credential just stored
// and refreshes its catalog from the router.
func (app *Agent) llamaLoggedIn(ctx context.Context) {
	serverURL, key, ok := app.llamaConnection()
	if !ok {
		return
	}
	app.registry.AddModels(llamacpp.ProviderID, &key)
	app.llama.mu.Lock()
	app.llama.serverURL, app.llama.key = serverURL, key
	app.llama.mu.Unlock()
	_ = app.refreshLlama(ctx)
}
