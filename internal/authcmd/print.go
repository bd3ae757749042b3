package authcmd

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/pi-go/pi/engine"
	"github.com/pi-go/pi/engine/config"
)

type target struct {
	id    string
	model *engine.Model
}

// printCredential resolves the one credential print-api-key or
// print-bearer-token prints, as the reference does: --provider names the
// provider, a --model alone is looked up among the providers with stored
// credentials and must match exactly one of them.
func printCredential(ctx context.Context, e *env, r *request) (string, error) {
	if err := r.validate(); err != nil {
		return "", err
	}
	reg, _ := loadRegistry(e)
	if reg == nil {
		return "", errResolve
	}
	types, err := reg.StoredCredentialTypes()
	if err != nil {
		return "", err
	}
	var targets []target
	if r.provider != "" {
		id := matchProvider(reg, r.provider, false)
		if id == "" {
			return "", fail(fmt.Sprintf("Unknown provider %q. Use --list-models to see available providers.", r.provider))
		}
		t := target{id: id}
		if r.model != "" {
			m, err := config.ResolveAuthModel(reg, id, r.model, true)
			if err != nil || m == nil {
				msg := "Unable to resolve the requested provider/model"
				if err != nil {
					msg = err.Error()
				}
				return "", fail(msg)
			}
			t.model = m
		}
		targets = append(targets, t)
	} else {
		for _, id := range providerOrder(reg) {
			if _, ok := types[id]; !ok {
				continue
			}
			if m := config.ResolveProviderModel(reg, id, r.model); m != nil {
				targets = append(targets, target{id: id, model: m})
			}
		}
		if len(targets) == 0 {
			return "", fail(fmt.Sprintf("Model %q not found. Use --list-models to see available models.", r.model))
		}
	}
	minExpiry := defaultBearerMinExpiry
	if r.hasMinExpiry {
		minExpiry = r.minExpiry
	}
	type found struct{ id, value string }
	var creds []found
	for _, t := range targets {
		typ := types[t.id]
		if (r.kind == kindAPIKey && typ == "oauth") || (r.kind == kindBearer && typ != "oauth") {
			continue
		}
		var v string
		var err error
		if r.kind == kindBearer {
			v, err = bearerToken(ctx, reg, t.id, minExpiry)
		} else {
			v, err = resolveAuth(ctx, reg, t.id, t.model)
		}
		if err != nil {
			return "", err
		}
		if v != "" {
			creds = append(creds, found{t.id, v})
		}
	}
	switch len(creds) {
	case 1:
		return creds[0].value, nil
	case 0:
		id := targets[0].id
		typ := types[id]
		if r.provider != "" && r.kind == kindAPIKey && typ == "oauth" {
			return "", fail(fmt.Sprintf("Provider %q is configured with OAuth, not an API key", id))
		}
		if r.provider != "" && r.kind == kindBearer && typ != "oauth" {
			return "", fail(fmt.Sprintf("Provider %q is not configured with an OAuth bearer token", id))
		}
		what := "API key"
		if r.kind == kindBearer {
			what = "OAuth bearer token"
		}
		return "", fail("No usable " + what + " is configured")
	}
	ids := make([]string, len(creds))
	for i, c := range creds {
		ids[i] = c.id
	}
	return "", fail(fmt.Sprintf("Multiple configured providers matched (%s). Specify --provider.", strings.Join(ids, ", ")))
}

// bearerToken is the provider's OAuth access token, refreshed first (under
// the auth.json lock, checking again there) when it is valid for less
// than minValidity.
func bearerToken(ctx context.Context, reg *config.Registry, provider string, minValidity time.Duration) (string, error) {
	h := reg.OAuthHandlerFor(provider)
	if h == nil {
		return "", nil
	}
	stale := func(raw json.RawMessage) bool {
		var c struct {
			Type    string  `json:"type"`
			Expires float64 `json:"expires"`
		}
		return json.Unmarshal(raw, &c) == nil && c.Type == "oauth" && float64(time.Now().Add(minValidity).UnixMilli()) >= c.Expires
	}
	stored := reg.StoredCredential(provider)
	if stale(stored) {
		var err error
		stored, err = reg.ModifyCredential(ctx, provider, func(current json.RawMessage) (json.RawMessage, error) {
			if !stale(current) {
				return nil, nil
			}
			return h.RefreshToken(ctx, current)
		})
		if err != nil {
			return "", err
		}
	}
	if len(stored) == 0 {
		return "", errors.New("credential removed")
	}
	return h.APIKey(ctx, stored)
}

// providerOrder lists the registry's providers in model order.
func providerOrder(reg *config.Registry) []string {
	seen := map[string]bool{}
	var out []string
	for _, m := range reg.All() {
		if !seen[m.Provider] {
			seen[m.Provider] = true
			out = append(out, m.Provider)
		}
	}
	return out
}

// matchProvider finds a provider by id, then (byName) by id or display
// name in any case.
func matchProvider(reg *config.Registry, ref string, byName bool) string {
	if reg.HasProvider(ref) {
		return ref
	}
	if !byName {
		return ""
	}
	for _, id := range providerOrder(reg) {
		if strings.EqualFold(id, ref) || strings.EqualFold(reg.ProviderDisplayName(id), ref) {
			return id
		}
	}
	return ""
}
