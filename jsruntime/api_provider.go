package jsruntime

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"

	"github.com/pi-go/pi/engine"
)

// ProviderRegistry is what pi.registerProvider and the provider-facing
// members of ctx.modelRegistry need beyond ModelSource. cmd/pi's model
// registry implements both; a ModelSource without it rejects
// registrations.
type ProviderRegistry interface {
	// RegisterProvider applies the configuration form of
	// pi.registerProvider; the error is the reference's message.
	RegisterProvider(name string, config json.RawMessage) error
	UnregisterProvider(name string)
	// RequestAuth is the key and headers a request to m carries.
	RequestAuth(m *engine.Model) (apiKey string, headers map[string]string, err error)
	// APIKey is the provider's resolved key; ok is false without one.
	APIKey(provider string) (string, bool)
	// AuthStatus is getProviderAuthStatus's object ({configured, source?,
	// label?}).
	AuthStatus(provider string) any
	ProviderDisplayName(provider string) string
	RegisteredProviderIDs() []string
	// HeaderOrder sorts a request's header names into the order the
	// configuration gave them.
	HeaderOrder(provider string, names []string) []string
	// KeySource names where the provider's key comes from
	// (getProviderAuth's source).
	KeySource(provider string) string
}

// pendingProvider is a registration made while extensions load. The
// reference queues these until its model registry exists and applies them,
// in order, before the model is chosen; FlushProviders does that here.
type pendingProvider struct {
	path   string
	name   string
	config json.RawMessage
	fns    providerFns
}

// ProviderLoadError is a registration queued during loading that the
// registry refused. The reference stops at start-up on it.
type ProviderLoadError struct {
	Path string
	Err  error
}

func (e *ProviderLoadError) Error() string {
	return fmt.Sprintf("Extension %q error: %s", e.Path, e.Err.Error())
}

func (e *ProviderLoadError) Unwrap() error { return e.Err }

func (a *API) providers() ProviderRegistry {
	p, _ := a.opts.Models.(ProviderRegistry)
	return p
}

// FlushProviders applies the registrations queued while extensions loaded
// and makes later ones take effect at once. It stops at the first one the
// registry refuses and returns it as a *ProviderLoadError. Then, as the
// reference refreshes its registry before choosing the model, the
// providers' refreshModels and oauth.modifyModels run (without network).
func (a *API) FlushProviders() error {
	if err := a.flushProviders(); err != nil {
		return err
	}
	a.RefreshProviderModels(context.Background(), false)
	return nil
}

func (a *API) flushProviders() error {
	a.mu.Lock()
	pending := a.provPending
	a.provPending = nil
	a.provLive = true
	a.mu.Unlock()
	reg := a.providers()
	for _, p := range pending {
		if reg == nil {
			return &ProviderLoadError{Path: p.path, Err: errors.New("provider registration is not available here")}
		}
		if err := reg.RegisterProvider(p.name, p.config); err != nil {
			return &ProviderLoadError{Path: p.path, Err: err}
		}
		a.applyProviderFns(p.name, p.fns)
	}
	return nil
}

// registerProvider queues a registration during loading or applies it.
// Applied registrations refresh the session's model when it belongs to
// the provider, so requests follow a new baseUrl.
func (a *API) registerProvider(path, name string, config json.RawMessage, fns providerFns) error {
	a.mu.Lock()
	if !a.provLive {
		a.provPending = append(a.provPending, pendingProvider{path: path, name: name, config: config, fns: fns})
		a.mu.Unlock()
		return nil
	}
	a.mu.Unlock()
	reg := a.providers()
	if reg == nil {
		return errors.New("provider registration is not available here")
	}
	if err := reg.RegisterProvider(name, config); err != nil {
		return err
	}
	a.applyProviderFns(name, fns)
	a.refreshSessionModel()
	if fns.refreshes() {
		// The reference starts a refresh after each registration and does
		// not wait for it; this one must not run on the loop, which the
		// extension's functions need.
		go func() { _ = a.refreshProvider(context.Background(), name, false) }()
	}
	return nil
}

func (a *API) unregisterProvider(name string) {
	a.mu.Lock()
	if !a.provLive {
		kept := a.provPending[:0]
		for _, p := range a.provPending {
			if p.name != name {
				kept = append(kept, p)
			}
		}
		a.provPending = kept
		a.mu.Unlock()
		return
	}
	a.mu.Unlock()
	if reg := a.providers(); reg != nil {
		reg.UnregisterProvider(name)
		a.dropProviderFns(name)
		a.refreshSessionModel()
	}
}

func (a *API) refreshSessionModel() {
	s := a.session()
	if s == nil || a.opts.Models == nil {
		return
	}
	if cur := s.Model(); cur != nil {
		s.RefreshModel(a.opts.Models.Find(cur.Provider, cur.ID))
	}
}

// providerCall answers pi.registerProvider and ctx.modelRegistry. ok is
// false for other names.
func (a *API) providerCall(name string, av []json.RawMessage) (v any, ok bool, err error) {
	models := a.opts.Models
	model := func() *engine.Model { return a.argModel(av) }
	switch name {
	case "registerProvider":
		var cfg json.RawMessage = json.RawMessage("{}")
		if len(av) > 1 {
			cfg = av[1]
		}
		var fns providerFns
		if len(av) > 4 {
			_ = json.Unmarshal(av[4], &fns)
		}
		if err := a.registerProvider(argString(av, 2), argString(av, 0), cfg, fns); err != nil {
			return nil, true, err
		}
		if len(av) > 3 && string(av[3]) == "true" {
			var c struct {
				API string `json:"api"`
			}
			_ = json.Unmarshal(cfg, &c)
			a.markStreamAPI(c.API)
		}
		return nil, true, nil
	case "unregisterProvider":
		a.unregisterProvider(argString(av, 0))
		return nil, true, nil
	case "models.find":
		if models == nil {
			return nil, true, nil
		}
		if m := models.Find(argString(av, 0), argString(av, 1)); m != nil {
			return extModel{m}, true, nil
		}
		return nil, true, nil
	case "models.getAll":
		if models == nil {
			return []*engine.Model{}, true, nil
		}
		return extModels(models.All()), true, nil
	case "models.version":
		// A registry that counts its changes lets the JS side keep its
		// parsed model list (pi_internal_models.js cachedModels).
		if v, ok := models.(interface{ ModelsVersion() uint64 }); ok {
			return v.ModelsVersion(), true, nil
		}
		return nil, true, nil
	case "models.getAvailableKeys":
		if models == nil {
			return []string{}, true, nil
		}
		avail := models.Available()
		keys := make([]string, len(avail))
		for i, m := range avail {
			keys[i] = m.Provider + "\x00" + m.ID
		}
		return keys, true, nil
	case "models.getAvailable":
		if models == nil {
			return []*engine.Model{}, true, nil
		}
		return extModels(models.Available()), true, nil
	case "models.hasConfiguredAuth":
		m := model()
		return m != nil && models != nil && models.HasAuth(m), true, nil
	case "models.getApiKeyAndHeaders":
		return a.apiKeyAndHeaders(context.Background(), model()), true, nil
	case "models.isUsingOAuth":
		return a.isUsingOAuth(argString(av, 0)), true, nil
	case "models.persistStore":
		reg := a.oauthRegistry()
		if reg == nil {
			return nil, true, nil
		}
		var entry json.RawMessage
		if len(av) > 1 && string(av[1]) != "null" {
			entry = av[1]
		}
		return nil, true, reg.WriteModelsStore(argString(av, 0), entry)
	case "models.getApiKeyForProvider":
		if reg := a.providers(); reg != nil {
			if k, ok := reg.APIKey(argString(av, 0)); ok {
				return k, true, nil
			}
		}
		return nil, true, nil
	case "models.getProviderAuth":
		p := argString(av, 0)
		reg := a.providers()
		if reg == nil {
			return nil, true, nil
		}
		k, ok := reg.APIKey(p)
		if !ok {
			return nil, true, nil
		}
		auth := ordered{{"apiKey", k}}
		if _, hdrs, err := reg.RequestAuth(&engine.Model{Provider: p}); err == nil && len(hdrs) > 0 {
			auth = append(auth, Field{"headers", orderedHeaders(reg, p, hdrs)})
		}
		return ordered{{"auth", auth}, {"source", reg.KeySource(p)}}, true, nil
	case "models.getProviderAuthStatus":
		if reg := a.providers(); reg != nil {
			return reg.AuthStatus(argString(av, 0)), true, nil
		}
		return map[string]bool{"configured": false}, true, nil
	case "models.getProviderDisplayName":
		if reg := a.providers(); reg != nil {
			return reg.ProviderDisplayName(argString(av, 0)), true, nil
		}
		return argString(av, 0), true, nil
	case "models.getProvider":
		return a.providerInfo(argString(av, 0)), true, nil
	case "models.getRegisteredProviderIds":
		if reg := a.providers(); reg != nil {
			return nonNilStrings(reg.RegisteredProviderIDs()), true, nil
		}
		return []string{}, true, nil
	}
	return nil, false, nil
}

// argModel is the model a call's first argument names: the registry's,
// or the object as given.
func (a *API) argModel(av []json.RawMessage) *engine.Model {
	if len(av) == 0 {
		return nil
	}
	var m engine.Model
	if json.Unmarshal(av[0], &m) != nil || m.Provider == "" {
		return nil
	}
	if a.opts.Models != nil {
		if found := a.opts.Models.Find(m.Provider, m.ID); found != nil {
			return found
		}
	}
	return &m
}

// apiKeyAndHeaders is getApiKeyAndHeaders(model): {ok, apiKey?, headers?}
// or {ok: false, error}. A credential failure reports its cause, as the
// reference does.
func (a *API) apiKeyAndHeaders(ctx context.Context, m *engine.Model) any {
	reg := a.providers()
	if m == nil || reg == nil {
		return ordered{{"ok", true}}
	}
	key, hdrs, err := a.requestAuth(ctx, m)
	if err != nil {
		msg := err.Error()
		var c interface{ ModelsCause() string }
		if errors.As(err, &c) {
			msg = c.ModelsCause()
		}
		return ordered{{"ok", false}, {"error", msg}}
	}
	// The model's own headers (the catalog's, GitHub Copilot's) are part
	// of the answer, under the configured ones, as the reference merges
	// them into the credentials' headers.
	if len(m.Headers) > 0 {
		merged := maps.Clone(m.Headers)
		maps.Copy(merged, hdrs)
		hdrs = merged
	}
	out := ordered{{"ok", true}}
	if key != "" {
		out = append(out, Field{"apiKey", key})
	}
	if len(hdrs) > 0 {
		if ro, ok := a.opts.Models.(requestHeaderOrder); ok {
			// models.json's order (provider, then model) after the others.
			var hs ordered
			for _, k := range engine.OrderHeaderNames(hdrs, ro.RequestHeaderOrder(m)) {
				hs = append(hs, Field{k, hdrs[k]})
			}
			out = append(out, Field{"headers", hs})
		} else {
			out = append(out, Field{"headers", orderedHeaders(reg, m.Provider, hdrs)})
		}
	}
	// Read after the key, whose resolution may have refreshed the token
	// the URL is derived from.
	if r, ok := a.opts.Models.(oauthStatus); ok {
		if u := r.OAuthBaseURL(m.Provider); u != "" {
			out = append(out, Field{"baseUrl", u})
		}
	}
	return out
}

// requestHeaderOrder is implemented by a registry that knows the order
// of a model's configured headers (engine/config RequestHeaderOrder).
type requestHeaderOrder interface {
	RequestHeaderOrder(m *engine.Model) []string
}

// oauthStatus is implemented by a registry with built-in OAuth handlers:
// which providers' requests use a stored OAuth credential, and the base
// URL such a credential selects (GitHub Copilot's).
type oauthStatus interface {
	UsesOAuth(provider string) bool
	OAuthBaseURL(provider string) string
}

// orderedHeaders lays headers out in their configured order.
func orderedHeaders(reg ProviderRegistry, provider string, hdrs map[string]string) ordered {
	names := make([]string, 0, len(hdrs))
	for k := range hdrs {
		names = append(names, k)
	}
	var out ordered
	for _, k := range reg.HeaderOrder(provider, names) {
		out = append(out, Field{k, hdrs[k]})
	}
	return out
}

// providerInfo is getProvider(id): a plain description of a provider that
// has models, or undefined. The reference returns its provider object;
// extensions read its id, name and baseUrl.
func (a *API) providerInfo(id string) any {
	if a.opts.Models == nil || id == "" {
		return nil
	}
	for _, m := range a.opts.Models.All() {
		if m.Provider != id {
			continue
		}
		name := id
		if reg := a.providers(); reg != nil {
			name = reg.ProviderDisplayName(id)
		}
		return ordered{{"id", id}, {"name", name}, {"baseUrl", m.BaseURL}}
	}
	return nil
}

func nonNilStrings(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}
