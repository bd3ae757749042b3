package pi

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"

	"github.com/pi-go/pi/engine"
	"github.com/pi-go/pi/engine/config"
	"github.com/pi-go/pi/engine/llm"
	"github.com/pi-go/pi/engine/llm/providers"
	"github.com/pi-go/pi/engine/rpc"
	"github.com/pi-go/pi/internal/starttrace"
	"github.com/pi-go/pi/jsruntime"
)

// providerFor is providers.For, or an extension's custom stream, with the
// registry's headers on every request: provider and model headers from models.json or an extension's
// registerProvider, resolved per request as the reference does.
func (app *Agent) providerFor(api string) (engine.Provider, error) {
	if api == config.VirtualModelAPI {
		// A virtual model's requests are routed first (virtual_models.go).
		return app.virtualProvider(), nil
	}
	if app.ext.Active() {
		// An extension's streamSimple serves the API it registered. The
		// generation that serves it is the one current at each request:
		// a reload or session replacement registers the provider again.
		h := app.ext
		cur, _ := h.Current()
		if p, ok := cur.StreamProvider(api); ok {
			reg := app.registry
			return engine.ProviderFunc(func(ctx context.Context, req *engine.LLMRequest, emit func(engine.AssistantEvent)) *engine.Message {
				// streamSimple gets the key of a stored OAuth credential in
				// its options, as the reference resolves it first.
				if reg != nil && req.APIKey == "" && reg.UsesOAuth(req.Model.Provider) {
					key, _, err := reg.RequestAuthContext(ctx, req.Model)
					if err != nil {
						return failedRequest(req, err, emit)
					}
					r := *req
					r.APIKey = key
					req = &r
				}
				if now, _ := h.Current(); now != cur {
					if np, ok := now.StreamProvider(api); ok {
						return np.Stream(ctx, req, emit)
					}
				}
				return p.Stream(ctx, req, emit)
			}), nil
		}
	}
	p := providers.For(api)
	if app.registry == nil {
		return p, nil
	}
	reg := app.registry
	return engine.ProviderFunc(func(ctx context.Context, req *engine.LLMRequest, emit func(engine.AssistantEvent)) *engine.Message {
		// A stored OAuth credential is resolved (and refreshed) here, per
		// request: the reference does it as the request starts, so a
		// failure is this request's error message.
		oauth := reg.UsesOAuth(req.Model.Provider)
		key, hdrs, err := reg.RequestAuthContext(ctx, req.Model)
		if err != nil && oauth {
			return failedRequest(req, err, emit)
		}
		if err == nil && (len(hdrs) > 0 || (oauth && req.APIKey == "")) {
			r := *req
			if oauth && r.APIKey == "" {
				r.APIKey = key
			}
			if len(hdrs) > 0 {
				r.Headers = mergeHeaders(hdrs, req.Headers)
			}
			req = &r
		}
		if oauth {
			req = withOAuthBaseURL(reg, req)
		}
		return p.Stream(ctx, withOpenCodeSession(withHeaderOrder(reg, req)), emit)
	}), nil
}

// mergeHeaders is the registry's resolved headers with the request's own
// over them.
func mergeHeaders(registry, own map[string]string) map[string]string {
	out := make(map[string]string, len(registry)+len(own))
	for k, v := range registry {
		out[k] = v
	}
	for k, v := range own {
		out[k] = v
	}
	return out
}

// failedRequest ends a request that failed before it was sent.
func failedRequest(req *engine.LLMRequest, err error, emit func(engine.AssistantEvent)) *engine.Message {
	return llm.FailRequest(req, err, emit, true)
}

// resolveModel applies the providers extensions registered while loading,
// then chooses the model and thinking level, as the reference does: a
// provider an extension registers can be the default or --model's. A
// registration the registry refuses stops the start.
func (app *Agent) resolveModel() error {
	if err := app.flushProviders(); err != nil {
		return err
	}
	a := app.opts
	// Credential hints name our own guides (providers.md, models.md), as
	// the reference's name its docs folder.
	if d := docsRoot(app.agentDir); d != "" {
		config.SetDocsDir(d)
	}
	model, level, warnings, err := config.Resolve(app.registry, app.settings, config.SelectFlags{
		Provider: a.Provider, Model: a.Model, Thinking: string(a.Thinking), APIKey: a.APIKey, Models: a.Models,
	})
	for _, w := range warnings {
		fmt.Fprintln(app.stderr, "Warning:", w)
	}
	if nm := (config.NoModelsError{}); err != nil && errors.As(err, &nm) {
		// Every mode starts anyway, as the reference does: the session
		// gets a placeholder model, prompts fail with "No API key found
		// for the selected model" and extension commands run; in the
		// interactive mode the warning heads the screen and /login is
		// one command away.
		fmt.Fprintln(app.stderr, "Warning:", err.Error())
		model, level, err = rpc.PlaceholderModel(), engine.ThinkingOff, nil
	}
	if err != nil {
		return err
	}
	app.model, app.thinking = model, level
	starttrace.Step("resolve")
	if app.store != nil {
		app.restoreSessionModel(app.store)
	}
	return nil
}

// flushProviders applies the provider registrations queued while
// extensions loaded.
func (app *Agent) flushProviders() error {
	if !app.ext.Active() {
		return nil
	}
	api, _ := app.ext.Current()
	if err := api.FlushProviders(); err != nil {
		return fmt.Errorf("Error: %w", err)
	}
	if app.opts.Offline {
		// As the reference does, so that everything started later (a
		// model refresh an extension asks for, child processes) sees it.
		_ = os.Setenv("PI_OFFLINE", "1")
	}
	if app.mode == ModeRPC && !app.opts.Offline {
		if _, set := os.LookupEnv("PI_OFFLINE"); !set {
			// RPC mode refreshes the model catalogs in the background,
			// with network: a provider's refreshModels runs with a usable
			// credential, an expired OAuth token being refreshed (and
			// written back) for it.
			go api.RefreshProviderModels(context.Background(), true)
		}
	}
	return nil
}

// The model registry is also what pi.registerProvider and the provider
// members of ctx.modelRegistry work on.
var _ jsruntime.ProviderRegistry = registryModels{}

func (m registryModels) RegisterProvider(name string, cfg json.RawMessage) error {
	return m.r.RegisterProvider(name, cfg)
}
func (m registryModels) UnregisterProvider(name string) { m.r.UnregisterProvider(name) }
func (m registryModels) RequestAuth(model *engine.Model) (string, map[string]string, error) {
	return m.r.RequestAuth(model)
}
func (m registryModels) APIKey(provider string) (string, bool) { return m.r.APIKey(provider) }
func (m registryModels) AuthStatus(provider string) any        { return m.r.ProviderAuthStatus(provider) }
func (m registryModels) ProviderDisplayName(provider string) string {
	return m.r.ProviderDisplayName(provider)
}
func (m registryModels) RegisteredProviderIDs() []string { return m.r.RegisteredProviderIDs() }

func (m registryModels) HeaderOrder(provider string, names []string) []string {
	return m.r.HeaderOrder(provider, names)
}

// Complete runs one request for ctx.modelRegistry.complete and stream,
// with the registry's key and headers unless the extension gave a key.
func (m registryModels) Complete(ctx context.Context, req *engine.LLMRequest, emit func(engine.AssistantEvent)) *engine.Message {
	fail := func(err error) *engine.Message { return llm.FailRequest(req, err, emit, false) }
	if !m.r.HasProvider(req.Model.Provider) {
		return fail(fmt.Errorf("Unknown provider: %s", req.Model.Provider))
	}
	p := providers.For(req.Model.API)
	key, hdrs, err := m.r.RequestAuthContext(ctx, req.Model)
	if err != nil {
		return fail(err)
	}
	r := *req
	if r.APIKey == "" {
		if key == "" {
			return fail(errors.New(config.NoAPIKeyMessage(req.Model.Provider)))
		}
		r.APIKey = key
	}
	if len(hdrs) > 0 {
		r.Headers = mergeHeaders(hdrs, req.Headers)
	}
	return p.Stream(ctx, withOAuthBaseURL(m.r, &r), emit)
}

func (m registryModels) KeySource(provider string) string { return m.r.KeySource(provider) }

// The registry also runs registered providers' OAuth credentials and
// model refresh (jsruntime/api_provider_oauth.go).
var _ jsruntime.OAuthRegistry = registryModels{}

func (m registryModels) SetProviderOAuth(provider string, o jsruntime.ProviderOAuth) {
	if o == nil {
		m.r.SetOAuthHandler(provider, nil)
		return
	}
	m.r.SetOAuthHandler(provider, o)
}
func (m registryModels) StoredCredential(provider string) json.RawMessage {
	return m.r.StoredCredential(provider)
}
func (m registryModels) RefreshedOAuthCredential(ctx context.Context, provider string) (json.RawMessage, error) {
	return m.r.RefreshedOAuthCredential(ctx, provider)
}
func (m registryModels) ResolveOAuthKey(ctx context.Context, provider string) (string, bool, error) {
	return m.r.ResolveOAuthKey(ctx, provider)
}
func (m registryModels) SetProviderModels(provider string, models []json.RawMessage) error {
	return m.r.SetProviderModels(provider, models)
}
func (m registryModels) ReadModelsStore(provider string) json.RawMessage {
	return m.r.ReadModelsStore(provider)
}
func (m registryModels) WriteModelsStore(provider string, entry json.RawMessage) error {
	return m.r.WriteModelsStore(provider, entry)
}
func (m registryModels) RequestAuthContext(ctx context.Context, model *engine.Model) (string, map[string]string, error) {
	return m.r.RequestAuthContext(ctx, model)
}
