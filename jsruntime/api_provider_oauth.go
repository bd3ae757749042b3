package jsruntime

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"time"

	"github.com/dop251/goja"

	"github.com/pi-go/pi/engine"
)

// A provider an extension registers may bring code beyond streamSimple:
// oauth (refreshToken, getApiKey, modifyModels; login needs the
// interactive /login, which headless modes do not have) and refreshModels.
// The functions stay in JS (pi_internal_models.js); the model registry
// calls them through the ProviderOAuth this file hands it, and the model
// refresh the reference runs after each registration runs here.

// ProviderOAuth is a registered provider's oauth code as the model
// registry uses it. Credentials are auth.json's JSON objects.
type ProviderOAuth interface {
	RefreshToken(ctx context.Context, credential json.RawMessage) (json.RawMessage, error)
	APIKey(ctx context.Context, credential json.RawMessage) (string, error)
}

// OAuthRegistry is what a ProviderRegistry adds for registered providers'
// oauth and refreshModels. cmd/pi's registry implements it.
type OAuthRegistry interface {
	// SetProviderOAuth installs (or, with nil, removes) a provider's
	// OAuth code.
	SetProviderOAuth(provider string, o ProviderOAuth)
	// StoredCredential is the provider's auth.json entry, or nil.
	StoredCredential(provider string) json.RawMessage
	// RefreshedOAuthCredential is the stored OAuth credential, refreshed
	// (and written back) when expired; nil without one.
	RefreshedOAuthCredential(ctx context.Context, provider string) (json.RawMessage, error)
	// ResolveOAuthKey is the request key from the provider's stored OAuth
	// credential; ok is false when OAuth does not apply.
	ResolveOAuthKey(ctx context.Context, provider string) (key string, ok bool, err error)
	// SetProviderModels replaces the provider's models with whole model
	// objects (modifyModels' result).
	SetProviderModels(provider string, models []json.RawMessage) error
	// ReadModelsStore and WriteModelsStore are models-store.json's entry
	// for the provider (refreshModels' context.stored and publish's
	// persist; nil deletes).
	ReadModelsStore(provider string) json.RawMessage
	WriteModelsStore(provider string, entry json.RawMessage) error
}

// providerFns says which functions a registration (merged with the
// earlier ones) has.
type providerFns struct {
	OAuth         bool `json:"oauth"`
	ModifyModels  bool `json:"modifyModels"`
	RefreshModels bool `json:"refreshModels"`
}

func (f providerFns) refreshes() bool { return f.ModifyModels || f.RefreshModels }

func (a *API) oauthRegistry() OAuthRegistry {
	r, _ := a.opts.Models.(OAuthRegistry)
	return r
}

// applyProviderFns records what a provider's registration brought: its
// OAuth code goes to the registry, and the registry's model refresh runs
// its refreshModels and modifyModels.
func (a *API) applyProviderFns(name string, fns providerFns) {
	a.mu.Lock()
	if a.provFns == nil {
		a.provFns = map[string]providerFns{}
	}
	a.provFns[name] = fns
	a.mu.Unlock()
	reg := a.oauthRegistry()
	if reg == nil {
		return
	}
	if fns.OAuth {
		reg.SetProviderOAuth(name, jsOAuth{a: a, name: name})
	} else {
		reg.SetProviderOAuth(name, nil)
	}
}

func (a *API) dropProviderFns(name string) {
	a.mu.Lock()
	delete(a.provFns, name)
	a.mu.Unlock()
	if reg := a.oauthRegistry(); reg != nil {
		reg.SetProviderOAuth(name, nil)
	}
}

func (a *API) providerFnsOf(name string) providerFns {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.provFns[name]
}

// RefreshProviderModels runs the model refresh of every registered
// provider with refreshModels or oauth.modifyModels, as the reference's
// registry refresh does: first with the stored credential and no network,
// then, with network, with a usable credential (an expired OAuth token is
// refreshed and written back first). It waits for the refreshes; failures
// are returned by provider, as ctx.modelRegistry.refresh() reports them.
func (a *API) RefreshProviderModels(ctx context.Context, network bool) map[string]string {
	a.mu.Lock()
	var names []string
	for name, fns := range a.provFns {
		if fns.refreshes() {
			names = append(names, name)
		}
	}
	a.mu.Unlock()
	errs := map[string]string{}
	for _, name := range names {
		err := a.refreshProvider(ctx, name, false)
		if err == nil && network {
			err = a.refreshProvider(ctx, name, true)
		}
		if err != nil {
			errs[name] = err.Error()
		}
	}
	return errs
}

// refreshProvider is one refresh phase of one provider.
func (a *API) refreshProvider(ctx context.Context, name string, network bool) error {
	reg := a.oauthRegistry()
	preg := a.providers()
	fns := a.providerFnsOf(name)
	if reg == nil || preg == nil || !fns.refreshes() || a.onLoop() {
		return nil
	}
	cred := reg.StoredCredential(name)
	if network {
		var err error
		cred, err = a.networkCredential(ctx, reg, preg, name, cred)
		if err != nil || cred == nil {
			return err
		}
	}
	if fns.RefreshModels {
		in := ordered{{"credential", nullable(cred)}, {"stored", nullable(reg.ReadModelsStore(name))}, {"allowNetwork", network}, {"baseUrl", a.providerBaseURL(name)}}
		out, err := a.providerJS(ctx, "refreshModels", name, in)
		if err != nil {
			return err
		}
		// The refreshed definitions replace the registration's models; they
		// take api and baseUrl from it as the registration's own do.
		var r struct {
			Models  json.RawMessage `json:"models"`
			API     json.RawMessage `json:"api"`
			BaseURL json.RawMessage `json:"baseUrl"`
		}
		if json.Unmarshal([]byte(out), &r) == nil && len(r.Models) > 0 && string(r.Models) != "null" {
			var o ordered
			if len(r.API) > 0 {
				o = append(o, Field{"api", r.API})
			}
			if len(r.BaseURL) > 0 {
				o = append(o, Field{"baseUrl", r.BaseURL})
			}
			cfg, _ := engine.MarshalJSON(append(o, Field{"models", r.Models}))
			if err := preg.RegisterProvider(name, cfg); err != nil {
				return err
			}
		}
	}
	if c, ok := oauthType(cred); ok && c && fns.ModifyModels && a.opts.Models != nil {
		var chat []*engine.Model
		for _, m := range a.opts.Models.All() {
			if m.Provider == name {
				chat = append(chat, m)
			}
		}
		out, err := a.providerJS(ctx, "modifyModels", name, ordered{{"models", extModels(chat)}, {"credential", cred}})
		if err != nil {
			return err
		}
		var models []json.RawMessage
		if err := json.Unmarshal([]byte(out), &models); err != nil {
			return fmt.Errorf("Provider %s: modifyModels must return a model list", name)
		}
		if err := reg.SetProviderModels(name, models); err != nil {
			return err
		}
	}
	a.refreshSessionModel()
	return nil
}

// networkCredential is the credential a refresh with network uses: the
// OAuth credential (refreshed when expired), or the provider's API key;
// nil when the provider has no credentials.
func (a *API) networkCredential(ctx context.Context, reg OAuthRegistry, preg ProviderRegistry, name string, stored json.RawMessage) (json.RawMessage, error) {
	if isOAuth, _ := oauthType(stored); isOAuth {
		return reg.RefreshedOAuthCredential(ctx, name)
	}
	key, ok := preg.APIKey(name)
	if !ok {
		return nil, nil
	}
	return engine.MarshalJSON(ordered{{"type", "api_key"}, {"key", key}})
}

// oauthType reports whether a stored credential is an OAuth one.
func oauthType(cred json.RawMessage) (bool, bool) {
	var c struct {
		Type string `json:"type"`
	}
	if len(cred) == 0 || json.Unmarshal(cred, &c) != nil {
		return false, false
	}
	return c.Type == "oauth", true
}

// providerBaseURL is the provider's base URL as a refresh context gives
// it: the registration's, else its first model's.
func (a *API) providerBaseURL(name string) any {
	if a.opts.Models == nil {
		return nil
	}
	for _, m := range a.opts.Models.All() {
		if m.Provider == name && m.BaseURL != "" {
			return m.BaseURL
		}
	}
	return nil
}

func nullable(raw json.RawMessage) any {
	if len(raw) == 0 {
		return nil
	}
	return raw
}

// jsOAuth is a provider's oauth object, called on the loop.
type jsOAuth struct {
	a    *API
	name string
}

func (o jsOAuth) RefreshToken(ctx context.Context, cred json.RawMessage) (json.RawMessage, error) {
	out, err := o.a.providerJS(ctx, "refreshToken", o.name, cred)
	if err != nil {
		return nil, err
	}
	return json.RawMessage(out), nil
}

func (o jsOAuth) APIKey(ctx context.Context, cred json.RawMessage) (string, error) {
	out, err := o.a.providerJS(ctx, "getApiKey", o.name, cred)
	if err != nil {
		return "", err
	}
	var key string
	if out != "" && json.Unmarshal([]byte(out), &key) != nil {
		return "", fmt.Errorf("getApiKey returned %s, not a string", out)
	}
	return key, nil
}

// errOAuthOnLoop refuses a call that would wait for the loop from the loop.
var errOAuthOnLoop = errors.New("provider credentials cannot be resolved synchronously from an extension")

// providerOpTimeout bounds a provider function Go waits for: a refresh has
// its own 15 s timeout in JS, and a function that never settles must not
// hold a request forever.
const providerOpTimeout = 20 * time.Second

// providerJS runs G.providerAuth(op, name, input) and waits for its JSON
// result ("" for undefined).
func (a *API) providerJS(ctx context.Context, op, name string, input any) (string, error) {
	if a.rt == nil {
		return "", errors.New("provider functions are not available here")
	}
	if a.onLoop() {
		return "", errOAuthOnLoop
	}
	b, err := engine.MarshalJSON(input)
	if err != nil {
		return "", err
	}
	ctx, cancel := context.WithTimeout(ctx, providerOpTimeout)
	defer cancel()
	return a.callJS(ctx, func(vm *goja.Runtime, ok, fail goja.Value) error {
		fn, isFn := goja.AssertFunction(a.bridgeObj.Get("providerAuth"))
		if !isFn {
			return errors.New("provider functions are not available here")
		}
		_, err := fn(goja.Undefined(), vm.ToValue(op), vm.ToValue(name), vm.ToValue(string(b)), ok, fail)
		return err
	})
}

// providerCallAsync answers the ctx.modelRegistry calls that may run an
// OAuth refresh, off the loop. ok is false for other names.
func (a *API) providerCallAsync(ctx context.Context, name string, raw json.RawMessage) (v any, ok bool, err error) {
	av := args(raw)
	switch name {
	case "models.getApiKeyAndHeaders":
		return a.apiKeyAndHeaders(ctx, a.argModel(av)), true, nil
	case "models.getApiKeyForProvider":
		p := argString(av, 0)
		if reg := a.oauthRegistry(); reg != nil {
			if k, viaOAuth, err := reg.ResolveOAuthKey(ctx, p); viaOAuth {
				if err != nil {
					return nil, true, nil
				}
				return k, true, nil
			}
		}
		if reg := a.providers(); reg != nil {
			if k, ok := reg.APIKey(p); ok {
				return k, true, nil
			}
		}
		return nil, true, nil
	case "models.getProviderAuth":
		v, err := a.providerAuth(ctx, argString(av, 0))
		return v, true, err
	case "models.refresh":
		// refresh({allowNetwork}) defaults to the network unless
		// PI_OFFLINE is set (--offline sets it), as the reference's does.
		_, offline := os.LookupEnv("PI_OFFLINE")
		network := !offline
		if len(av) > 0 && string(av[0]) != "null" {
			network = string(av[0]) == "true"
		}
		return a.RefreshProviderModels(ctx, network), true, nil
	}
	return nil, false, nil
}

// providerAuth is getProviderAuth(provider): {auth: {apiKey, headers?},
// source} or undefined. An OAuth failure rejects, as the reference's does.
func (a *API) providerAuth(ctx context.Context, p string) (any, error) {
	reg := a.providers()
	if reg == nil {
		return nil, nil
	}
	k, source := "", ""
	if oreg := a.oauthRegistry(); oreg != nil {
		key, viaOAuth, err := oreg.ResolveOAuthKey(ctx, p)
		if err != nil {
			return nil, err
		}
		if viaOAuth {
			k, source = key, "OAuth"
		}
	}
	if source == "" {
		key, ok := reg.APIKey(p)
		if !ok {
			return nil, nil
		}
		k, source = key, reg.KeySource(p)
	}
	auth := ordered{{"apiKey", k}}
	if _, hdrs, err := a.requestAuth(ctx, &engine.Model{Provider: p}); err == nil && len(hdrs) > 0 {
		auth = append(auth, Field{"headers", orderedHeaders(reg, p, hdrs)})
	}
	return ordered{{"auth", auth}, {"source", source}}, nil
}

// requestAuth is the registry's RequestAuth with a context when it takes
// one.
func (a *API) requestAuth(ctx context.Context, m *engine.Model) (string, map[string]string, error) {
	if r, ok := a.opts.Models.(interface {
		RequestAuthContext(context.Context, *engine.Model) (string, map[string]string, error)
	}); ok {
		return r.RequestAuthContext(ctx, m)
	}
	return a.providers().RequestAuth(m)
}

// isUsingOAuth reports whether the provider's requests use a stored OAuth
// credential through its registered oauth code.
func (a *API) isUsingOAuth(provider string) bool {
	if r, ok := a.opts.Models.(oauthStatus); ok && r.UsesOAuth(provider) {
		return true // a built-in handler's (or a registered one's) credential
	}
	reg := a.oauthRegistry()
	if reg == nil || !a.providerFnsOf(provider).OAuth {
		return false
	}
	isOAuth, _ := oauthType(reg.StoredCredential(provider))
	return isOAuth
}
