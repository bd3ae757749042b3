package config

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/pi-go/pi/engine"
)

// authCredential is one entry of auth.json. Only "api_key" credentials are
// used; OAuth entries are kept so the provider still counts as configured.
type authCredential struct {
	Type string            `json:"type"`
	Key  *string           `json:"key"`
	Env  map[string]string `json:"env"`
}

// readAuthFile reads <agentDir>/auth.json: {"provider": {"type":"api_key",
// "key":"..."}}. A missing file is empty.
func readAuthFile(path string) (map[string]authCredential, error) {
	b, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return map[string]authCredential{}, nil
	}
	if err != nil {
		return map[string]authCredential{}, fmt.Errorf("Failed to read auth.json: %w", err)
	}
	b = bytes.TrimPrefix(b, []byte("\xef\xbb\xbf"))
	if len(bytes.TrimSpace(b)) == 0 {
		return map[string]authCredential{}, nil
	}
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(b, &raw); err != nil || raw == nil {
		return map[string]authCredential{}, fmt.Errorf("Invalid auth.json: expected an object")
	}
	out := map[string]authCredential{}
	for id, r := range raw {
		var c authCredential
		if err := json.Unmarshal(r, &c); err != nil || (c.Type != "api_key" && c.Type != "oauth") {
			return map[string]authCredential{}, fmt.Errorf("Invalid auth.json credential for provider %q", id)
		}
		out[id] = c
	}
	return out, nil
}

// SetAPIKeyOverride installs a runtime key for one provider (--api-key).
// It wins over every other source and is never written anywhere.
func (r *Registry) SetAPIKeyOverride(provider, key string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.overrides[provider] = key
}

// envValue resolves a value with the credential's own env first.
func (r *Registry) resolve(v string, env map[string]string) (string, bool) {
	if strings.HasPrefix(v, "!") {
		return runValueCommand(v)
	}
	return expandTemplate(v, func(n string) string {
		if x := env[n]; x != "" {
			return x
		}
		return r.getenv(n)
	})
}

// APIKey resolves the provider's key in the reference's order: the
// --api-key override, auth.json, models.json apiKey, then the provider's
// environment variables. ok is false when none yields a key.
func (r *Registry) APIKey(provider string) (string, bool) {
	r.mu.RLock()
	defer r.mu.RUnlock()
	return r.apiKey(provider)
}

func (r *Registry) apiKey(provider string) (string, bool) {
	if k, ok := r.overrides[provider]; ok && k != "" {
		return k, true
	}
	if c, ok := r.authFile[provider]; ok && c.Type == "api_key" && c.Key != nil && *c.Key != "" {
		if k, ok := r.resolve(*c.Key, c.Env); ok && k != "" {
			return k, true
		}
		return "", false
	}
	pa := r.auth[provider]
	if pa != nil && pa.apiKey != nil {
		if k, ok := r.resolve(*pa.apiKey, nil); ok && k != "" {
			return k, true
		}
		return "", false
	}
	if r.customRadius(provider) {
		// A models.json Radius provider takes the Radius key variable.
		if v := r.getenv("RADIUS_API_KEY"); v != "" {
			return v, true
		}
	}
	if pa != nil && pa.builtin {
		for _, name := range builtinEnvVars[provider] {
			if name == anthropicBearerEnv {
				continue
			}
			if v := r.getenv(name); v != "" {
				return v, true
			}
		}
		if k, ok := ambientKey(provider, r.getenv, r.authFile[provider].Env); ok {
			return k, true
		}
	}
	return "", false
}

// HasConfiguredAuth reports whether the provider has credentials, without
// running "!command" values: a command counts as configured, an env
// reference counts when its variables are set. This is the test for
// "available" models.
func (r *Registry) HasConfiguredAuth(provider string) bool {
	r.mu.RLock()
	defer r.mu.RUnlock()
	return r.hasConfiguredAuth(provider)
}

func (r *Registry) hasConfiguredAuth(provider string) bool {
	if k, ok := r.overrides[provider]; ok && k != "" {
		return true
	}
	if c, ok := r.authFile[provider]; ok {
		if c.Type == "oauth" {
			// An OAuth credential needs the provider's OAuth code: a
			// provider only an extension defines has it when the
			// registration brought oauth.
			if ep := r.ext[provider]; ep != nil && ep.baseAuth == nil && r.OAuthHandlerFor(provider) == nil {
				return false
			}
			return true
		}
		if c.Key != nil && *c.Key != "" {
			if pa := r.auth[provider]; pa == nil || !pa.builtin {
				return true
			}
			return storedKeyUsable(provider, c, r.getenv)
		}
	}
	pa := r.auth[provider]
	if pa == nil {
		return false
	}
	if pa.apiKey != nil {
		if strings.HasPrefix(*pa.apiKey, "!") {
			return true
		}
		_, ok := expandTemplate(*pa.apiKey, r.getenv)
		return ok
	}
	if r.customRadius(provider) && r.getenv("RADIUS_API_KEY") != "" {
		return true
	}
	if pa.builtin {
		// A stored credential without a key (an AWS profile or Vertex
		// project picked at login) still lends its env.
		_, ok := builtinEnvAuth(provider, r.getenv, r.authFile[provider].Env)
		return ok
	}
	return false
}

// RequestAuth returns what a request to model m must carry: the API key
// and the resolved headers (provider headers, then model headers, plus
// "Authorization: Bearer <key>" when the provider sets authHeader, or for
// ANTHROPIC_AUTH_TOKEN). A header value that cannot be resolved is an
// error, as is authHeader without a key.
//
// A provider whose requests use a stored OAuth credential (UsesOAuth) has
// no key here: RequestAuthContext resolves it when the request is made.
func (r *Registry) RequestAuth(m *engine.Model) (apiKey string, headers map[string]string, err error) {
	return r.requestAuth(m, "", r.UsesOAuth(m.Provider))
}

// RequestAuthContext is RequestAuth for the request about to be sent: a
// provider with an OAuth handler and an OAuth credential in auth.json
// takes its key from the credential, refreshed first when it expires soon
// (auth_oauth.go), and a failure there is the request's error.
func (r *Registry) RequestAuthContext(ctx context.Context, m *engine.Model) (apiKey string, headers map[string]string, err error) {
	oauthKey, viaOAuth, err := r.ResolveOAuthKey(ctx, m.Provider)
	if err != nil {
		return "", nil, err
	}
	return r.requestAuth(m, oauthKey, viaOAuth)
}

func (r *Registry) requestAuth(m *engine.Model, oauthKey string, viaOAuth bool) (apiKey string, headers map[string]string, err error) {
	r.mu.RLock()
	defer r.mu.RUnlock()
	apiKey, _ = r.apiKey(m.Provider)
	if viaOAuth {
		apiKey = oauthKey
	}
	pa := r.auth[m.Provider]
	// The model's headers replace the provider's, a name in another case
	// included, as the reference merges them.
	raw := map[string]string{}
	var order []string
	if pa != nil {
		raw = mergeHeaders(pa.headers, pa.modelHdrs[m.ID])
		order = mergeHeaderKeys(mergeHeaderKeys(nil, pa.headers, pa.headerKeys), pa.modelHdrs[m.ID], pa.modelHdrKeys[m.ID])
	}
	for _, k := range order {
		v, ok := r.resolve(raw[k], nil)
		if !ok {
			return "", nil, fmt.Errorf("Failed to resolve provider %q header %q", m.Provider, k)
		}
		if headers == nil {
			headers = map[string]string{}
		}
		headers[k] = v
	}
	bearer := ""
	if pa != nil && pa.authHeader {
		if apiKey == "" && !viaOAuth {
			return "", nil, fmt.Errorf("No API key found for %q", m.Provider)
		}
		bearer = apiKey
	} else if apiKey == "" && m.Provider == "anthropic" && (pa == nil || pa.apiKey == nil) {
		bearer = r.getenv(anthropicBearerEnv)
	}
	if bearer != "" {
		if headers == nil {
			headers = map[string]string{}
		}
		headers["Authorization"] = "Bearer " + bearer
	}
	return apiKey, headers, nil
}
