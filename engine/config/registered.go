package config

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/pi-go/pi/engine"
	"github.com/pi-go/pi/internal/jsonx"
)

// ExtProviderConfig is the configuration form of pi.registerProvider, as
// the extension's JSON carries it. Absent fields are nil: a registration
// that names only baseUrl or headers redirects an existing provider and
// keeps its models.
type ExtProviderConfig struct {
	Name       *string           `json:"name"`
	BaseURL    *string           `json:"baseUrl"`
	APIKey     *string           `json:"apiKey"`
	API        *string           `json:"api"`
	Headers    map[string]string `json:"headers"`
	AuthHeader *bool             `json:"authHeader"`
	// Models, when present, replaces the provider's models. Each entry is
	// kept raw so the model's JSON keeps the extension's key order.
	Models *[]json.RawMessage `json:"models"`
}

// extProvider is one provider an extension registered: its effective
// configuration (later registrations merge their defined fields over
// earlier ones) and what it replaced, so unregistering restores it.
type extProvider struct {
	cfg        ExtProviderConfig
	baseModels []*engine.Model
	baseAuth   *providerAuth // nil when the provider did not exist
	// headerKeys is the order of cfg.Headers as the extension wrote them.
	headerKeys []string
}

// extDef is the part of an extension model definition the registry reads.
type extDef struct {
	Type          string            `json:"type"`
	ID            string            `json:"id"`
	Name          *string           `json:"name"`
	API           string            `json:"api"`
	BaseURL       string            `json:"baseUrl"`
	Reasoning     *bool             `json:"reasoning"`
	Input         []string          `json:"input"`
	Cost          *engine.ModelCost `json:"cost"`
	ContextWindow *float64          `json:"contextWindow"`
	MaxTokens     *float64          `json:"maxTokens"`
	Headers       map[string]string `json:"headers"`
	Compat        json.RawMessage   `json:"compat"`
}

// merge lays the defined fields of next over c, as the reference merges a
// re-registration over the previous one.
func (c ExtProviderConfig) merge(next ExtProviderConfig) ExtProviderConfig {
	if next.Name != nil {
		c.Name = next.Name
	}
	if next.BaseURL != nil {
		c.BaseURL = next.BaseURL
	}
	if next.APIKey != nil {
		c.APIKey = next.APIKey
	}
	if next.API != nil {
		c.API = next.API
	}
	if next.Headers != nil {
		c.Headers = next.Headers
	}
	if next.AuthHeader != nil {
		c.AuthHeader = next.AuthHeader
	}
	if next.Models != nil {
		c.Models = next.Models
	}
	return c
}

// RegisterProvider applies pi.registerProvider(name, config). The models
// are validated before anything changes, so a broken registration returns
// the reference's error and leaves the registry as it was.
func (r *Registry) RegisterProvider(name string, raw json.RawMessage) error {
	if strings.TrimSpace(name) == "" {
		return errors.New("Provider id must not be empty.")
	}
	var next ExtProviderConfig
	if err := json.Unmarshal(raw, &next); err != nil {
		return fmt.Errorf("Provider %s: invalid config: %w", name, err)
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.ext == nil {
		r.ext = map[string]*extProvider{}
	}
	ep := r.ext[name]
	if ep == nil {
		ep = &extProvider{baseModels: r.providerModels(name)}
		if pa := r.auth[name]; pa != nil {
			cp := *pa
			ep.baseAuth = &cp
		}
	}
	// The incoming registration is validated on its own first, then the
	// merged one is what takes effect.
	if _, err := composeExt(name, ep.baseModels, next); err != nil {
		return err
	}
	cfg := ep.cfg.merge(next)
	models, err := composeExt(name, ep.baseModels, cfg)
	if err != nil {
		return err
	}
	ep.cfg = cfg
	if next.Headers != nil {
		ep.headerKeys = objectKeys(raw, "headers")
	}
	r.ext[name] = ep
	r.replaceProviderModels(name, models)
	r.auth[name] = overlayAuth(ep.baseAuth, cfg)
	return nil
}

// UnregisterProvider drops an extension's registration and restores what
// it replaced: the built-in or models.json provider, or nothing.
func (r *Registry) UnregisterProvider(name string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	ep := r.ext[name]
	if ep == nil {
		return
	}
	delete(r.ext, name)
	r.replaceProviderModels(name, ep.baseModels)
	if ep.baseAuth != nil {
		r.auth[name] = ep.baseAuth
	} else {
		delete(r.auth, name)
	}
}

// HeaderOrder orders the header names a request to provider carries:
// names without a configured place first, by name, then the provider's
// configured headers in the order models.json or the registering
// extension wrote them, then Authorization (see RequestHeaderOrder).
func (r *Registry) HeaderOrder(provider string, names []string) []string {
	set := make(map[string]string, len(names))
	for _, n := range names {
		set[n] = ""
	}
	return engine.OrderHeaderNames(set, r.RequestHeaderOrder(&engine.Model{Provider: provider}))
}

// objectKeys returns the keys of the object at key k of a JSON object, in
// order.
func objectKeys(raw json.RawMessage, k string) []string {
	keys, vals, err := engine.SplitObject(raw)
	if err != nil {
		return nil
	}
	i := slices.Index(keys, k)
	if i < 0 {
		return nil
	}
	inner, _, err := engine.SplitObject(vals[i])
	if err != nil {
		return nil
	}
	return inner
}

// RegisteredProviderIDs lists the providers extensions registered.
func (r *Registry) RegisteredProviderIDs() []string {
	r.mu.RLock()
	defer r.mu.RUnlock()
	out := make([]string, 0, len(r.ext))
	for id := range r.ext {
		out = append(out, id)
	}
	slices.Sort(out)
	return out
}

// ProviderDisplayName is the name a registration gave the provider, else
// models.json's "name", else a built-in provider's own name
// ("OpenRouter"), else its id.
func (r *Registry) ProviderDisplayName(provider string) string {
	r.mu.RLock()
	defer r.mu.RUnlock()
	if ep := r.ext[provider]; ep != nil && ep.cfg.Name != nil && *ep.cfg.Name != "" {
		return *ep.cfg.Name
	}
	if pa := r.auth[provider]; pa != nil && pa.name != "" {
		return pa.name
	}
	if name := CatalogProviderName(provider); name != "" {
		return name
	}
	return provider
}

// overlayAuth lays a registration's credentials over the provider's own:
// its apiKey wins over models.json's, its headers over the configured
// ones, and per-model headers come from its model definitions.
func overlayAuth(base *providerAuth, cfg ExtProviderConfig) *providerAuth {
	pa := &providerAuth{}
	if base != nil {
		*pa = *base
	}
	if cfg.APIKey != nil {
		pa.apiKey = cfg.APIKey
	}
	if cfg.Headers != nil {
		h := map[string]string{}
		for k, v := range pa.headers {
			h[k] = v
		}
		for k, v := range cfg.Headers {
			h[k] = v
		}
		pa.headers = h
	}
	if cfg.AuthHeader != nil {
		pa.authHeader = *cfg.AuthHeader
	}
	if cfg.Models != nil {
		hdrs := map[string]map[string]string{}
		for id, h := range pa.modelHdrs {
			hdrs[id] = h
		}
		for _, raw := range *cfg.Models {
			var d extDef
			if json.Unmarshal(raw, &d) == nil && len(d.Headers) > 0 && (d.Type == "" || d.Type == "chat") {
				hdrs[d.ID] = d.Headers
			}
		}
		pa.modelHdrs = hdrs
	}
	return pa
}

// composeExt builds the provider's chat models from a registration over
// base, the way the reference does: without "models" the base models stay
// (redirected to baseUrl when given); with "models" the definitions
// replace them, each taking api and baseUrl from itself, the registration,
// or the closest base model. Image and classifier models are not chat
// models and are left out.
func composeExt(name string, base []*engine.Model, cfg ExtProviderConfig) ([]*engine.Model, error) {
	if cfg.Models == nil {
		out := make([]*engine.Model, 0, len(base))
		for _, m := range base {
			if cfg.BaseURL != nil {
				cp := *m
				cp.BaseURL = *cfg.BaseURL
				if len(cp.Raw) > 0 {
					cp.Raw = setRawKeys(cp.Raw, [][2]any{{"baseUrl", cp.BaseURL}})
				}
				m = &cp
			}
			out = append(out, m)
		}
		return out, nil
	}
	var out []*engine.Model
	for _, raw := range *cfg.Models {
		var d extDef
		if err := json.Unmarshal(raw, &d); err != nil {
			return nil, fmt.Errorf("Provider %s: invalid model definition: %w", name, err)
		}
		chat := d.Type == "" || d.Type == "chat"
		var defs *engine.Model
		if chat {
			defs = findDefaults(base, d.ID, d.API)
		}
		api := d.API
		if api == "" && chat && cfg.API != nil {
			api = *cfg.API
		}
		if api == "" && defs != nil {
			api = defs.API
		}
		if api == "" {
			where := "model level"
			if chat {
				where += " or provider level"
			}
			return nil, fmt.Errorf("Provider %s, model %s: no \"api\" specified. Set it at %s.", name, d.ID, where)
		}
		baseURL := d.BaseURL
		if baseURL == "" && cfg.BaseURL != nil {
			baseURL = *cfg.BaseURL
		}
		if baseURL == "" && defs != nil {
			baseURL = defs.BaseURL
		}
		if baseURL == "" {
			return nil, fmt.Errorf("Provider %s: \"baseUrl\" is required when defining custom models.", name)
		}
		if !chat {
			continue
		}
		m := &engine.Model{
			ID: d.ID, Name: d.ID, API: api, Provider: name, BaseURL: baseURL,
			Input: []string{"text"}, ContextWindow: 128000, MaxTokens: 16384, Compat: d.Compat,
		}
		if d.Name != nil {
			m.Name = *d.Name
		}
		if d.Reasoning != nil {
			m.Reasoning = *d.Reasoning
		}
		if d.Input != nil {
			m.Input = d.Input
		}
		if d.Cost != nil {
			m.Cost = *d.Cost
		}
		// Requests need limits even when the definition leaves them out;
		// the JSON form (Raw) still shows only what the extension gave.
		if d.ContextWindow != nil && *d.ContextWindow > 0 {
			m.ContextWindow = int(*d.ContextWindow)
		}
		if d.MaxTokens != nil && *d.MaxTokens > 0 {
			m.MaxTokens = int(*d.MaxTokens)
		}
		m.Raw = setRawKeys(raw, [][2]any{{"api", api}, {"provider", name}, {"baseUrl", baseURL}, {"headers", nil}})
		out = append(out, m)
	}
	return out, nil
}

// setRawKeys rewrites a JSON object as JS's {...obj, k: v} would: an
// existing key keeps its place and takes the new value, a new key goes at
// the end, and a nil value (undefined) drops the key.
func setRawKeys(raw json.RawMessage, kvs [][2]any) json.RawMessage {
	fields, err := jsonx.Members(raw)
	if err != nil {
		return nil
	}
	for _, kv := range kvs {
		k := kv[0].(string)
		if kv[1] == nil {
			fields = fields.Delete(k)
			continue
		}
		v, err := engine.MarshalJSON(kv[1])
		if err != nil {
			return nil
		}
		fields = fields.Put(k, json.RawMessage(v))
	}
	b, _ := fields.MarshalJSON()
	return b
}

// AuthStatus is modelRegistry.getProviderAuthStatus(provider): whether
// the provider has credentials and where they come from, with the
// reference's source names.
type AuthStatus struct {
	Configured bool   `json:"configured"`
	Source     string `json:"source,omitempty"`
	Label      string `json:"label,omitempty"`
}

// ProviderAuthStatus reports where the provider's credentials come from:
// a --api-key override ("runtime"), auth.json ("stored"), a configured
// apiKey (a command, environment variables, or a literal from models.json
// or an extension), or the provider's environment variables.
func (r *Registry) ProviderAuthStatus(provider string) AuthStatus {
	r.mu.RLock()
	defer r.mu.RUnlock()
	if k, ok := r.overrides[provider]; ok && k != "" {
		return AuthStatus{Configured: true, Source: "runtime"}
	}
	if _, ok := r.authFile[provider]; ok {
		return AuthStatus{Configured: true, Source: "stored"}
	}
	if pa := r.auth[provider]; pa != nil && pa.apiKey != nil {
		v := *pa.apiKey
		if strings.HasPrefix(v, "!") {
			return AuthStatus{Configured: true, Source: "models_json_command"}
		}
		if names := templateEnvNames(v); len(names) > 0 {
			if _, ok := expandTemplate(v, r.getenv); ok {
				return AuthStatus{Configured: true, Source: "environment", Label: strings.Join(names, ", ")}
			}
			return AuthStatus{}
		}
		if ep := r.ext[provider]; ep != nil && ep.cfg.APIKey != nil {
			return AuthStatus{Configured: true, Source: "fallback"}
		}
		return AuthStatus{Configured: true, Source: "models_json_key"}
	}
	if pa := r.auth[provider]; pa != nil && pa.builtin {
		if label, ok := builtinEnvAuth(provider, r.getenv, nil); ok {
			return AuthStatus{Configured: true, Source: "environment", Label: label}
		}
	}
	return AuthStatus{}
}

// templateEnvNames lists the environment variables a "$NAME" / "${NAME}"
// value refers to, in order.
func templateEnvNames(v string) []string {
	var names []string
	_, _ = expandTemplate(v, func(n string) string {
		if !slices.Contains(names, n) {
			names = append(names, n)
		}
		return "x"
	})
	return names
}

// KeySource names where the provider's API key comes from, as
// getProviderAuth reports it: a stored credential, a configured apiKey
// (models.json or an extension), or the environment variable it was read
// from. It is "" when there is no key.
func (r *Registry) KeySource(provider string) string {
	r.mu.RLock()
	defer r.mu.RUnlock()
	if k, ok := r.overrides[provider]; ok && k != "" {
		return "runtime API key"
	}
	if c, ok := r.authFile[provider]; ok && c.Type == "api_key" && c.Key != nil && *c.Key != "" {
		return "stored credential"
	}
	pa := r.auth[provider]
	if pa != nil && pa.apiKey != nil {
		return "configured API key"
	}
	if pa != nil && pa.builtin {
		for _, name := range builtinEnvVars[provider] {
			if name != anthropicBearerEnv && r.getenv(name) != "" {
				return name
			}
		}
	}
	return ""
}
