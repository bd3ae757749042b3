package config

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"time"

	"github.com/pi-go/pi/engine"
)

// radiusConfig is the gateway's /v1/config answer: where to send requests
// and the models this account may use (an organisation can disable some,
// so the list replaces the shipped catalog rather than adding to it).
type radiusConfig struct {
	BaseURL string            `json:"baseUrl"`
	Models  []json.RawMessage `json:"models"`
}

// radiusModel is what a gateway model must carry to be kept.
type radiusModel struct {
	ID            *string          `json:"id"`
	Name          *string          `json:"name"`
	Reasoning     *bool            `json:"reasoning"`
	Input         []string         `json:"input"`
	Cost          *json.RawMessage `json:"cost"`
	ContextWindow *float64         `json:"contextWindow"`
	MaxTokens     *float64         `json:"maxTokens"`
}

func (m radiusModel) valid() bool {
	return m.ID != nil && m.Name != nil && m.Reasoning != nil && m.Input != nil && m.Cost != nil &&
		len(*m.Cost) > 0 && (*m.Cost)[0] == '{' && m.ContextWindow != nil && m.MaxTokens != nil
}

// LoadRadiusCatalog reads the gateway's model list with the account's key
// and returns whole model objects for the provider (api "pi-messages",
// the gateway's baseUrl), dropping entries that lack a required field.
func LoadRadiusCatalog(ctx context.Context, client *http.Client, gateway, provider, apiKey string) ([]json.RawMessage, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, gateway+"/v1/config", nil)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Accept", "application/json")
	if apiKey != "" {
		req.Header.Set("Authorization", "Bearer "+apiKey)
	}
	resp, err := clientOr(client).Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(io.LimitReader(resp.Body, 16<<20))
	if err != nil {
		return nil, err
	}
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		body := engine.RedactSecrets(string(b), apiKey)
		if len(body) > 512 {
			body = body[:512] + "…"
		}
		return nil, fmt.Errorf("Could not load Radius config from %s: %d: %s", gateway, resp.StatusCode, body)
	}
	var cfg radiusConfig
	if err := json.Unmarshal(b, &cfg); err != nil || cfg.BaseURL == "" || cfg.Models == nil {
		return nil, fmt.Errorf("Invalid Radius config from %s", gateway)
	}
	out := make([]json.RawMessage, 0, len(cfg.Models))
	for _, raw := range cfg.Models {
		var m radiusModel
		if json.Unmarshal(raw, &m) != nil || !m.valid() {
			continue
		}
		// The reference spreads the gateway's object and adds three keys:
		// its keys keep their order (and a repeated key its place).
		m2 := setRawKeys(raw, [][2]any{{"api", "pi-messages"}, {"provider", provider}, {"baseUrl", cfg.BaseURL}})
		if m2 == nil {
			continue
		}
		out = append(out, m2)
	}
	return out, nil
}

// storedCatalog is a models-store.json entry.
type storedCatalog struct {
	Models    []json.RawMessage `json:"models"`
	CheckedAt int64             `json:"checkedAt"`
}

// ApplyStoredCatalog replaces the provider's models with the catalog a
// refresh kept in models-store.json, as the reference does at start (so
// a Radius account's own list works offline). It reports whether there
// was one.
func (r *Registry) ApplyStoredCatalog(provider string) bool {
	raw := r.ReadModelsStore(provider)
	if raw == nil {
		return false
	}
	var sc storedCatalog
	if json.Unmarshal(raw, &sc) != nil || sc.Models == nil {
		return false
	}
	return r.SetProviderModels(provider, sc.Models) == nil
}

// ApplyStoredRadiusCatalogs applies the stored catalog of every Radius
// provider (the built-in one and models.json's "oauth": "radius" ones).
func (r *Registry) ApplyStoredRadiusCatalogs() {
	for _, id := range r.RadiusProviders() {
		r.ApplyStoredCatalog(id)
	}
}

// RefreshRadiusCatalog loads the account's model list from the provider's
// Radius gateway (gateway, when set, replaces it: a test server) with the
// stored credential, keeps it in models-store.json (checked at now) and
// puts it in place of the provider's models.
func (r *Registry) RefreshRadiusCatalog(ctx context.Context, client *http.Client, provider, gateway string, now time.Time) error {
	if gateway == "" {
		gw, ok := r.RadiusGateway(provider)
		if !ok {
			return fmt.Errorf("Provider %s does not sign in to a Radius gateway", provider)
		}
		gateway = gw
	}
	key, ok, err := r.ResolveOAuthKey(ctx, provider)
	if err != nil {
		return err
	}
	if !ok {
		key, _ = r.APIKey(provider)
	}
	models, err := LoadRadiusCatalog(ctx, client, NormalizeRadiusGateway(gateway), provider, key)
	if err != nil {
		return err
	}
	entry, err := json.Marshal(storedCatalog{Models: models, CheckedAt: now.UnixMilli()})
	if err != nil {
		return err
	}
	if err := r.WriteModelsStore(provider, entry); err != nil {
		return err
	}
	return r.SetProviderModels(provider, models)
}
