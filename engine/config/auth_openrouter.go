package config

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/pi-go/pi/engine"
)

const (
	openRouterBaseURL = "https://openrouter.ai/api/v1"
	// openRouterUserModelsTimeout bounds the key's model listing.
	openRouterUserModelsTimeout = 15 * time.Second
)

// openRouterUserModel is one entry of OpenRouter's GET /models/user: the
// models the key may use, with the key's limits and prices.
type openRouterUserModel struct {
	ID            string   `json:"id"`
	ContextLength *float64 `json:"context_length"`
	TopProvider   *struct {
		ContextLength       *float64 `json:"context_length"`
		MaxCompletionTokens *float64 `json:"max_completion_tokens"`
	} `json:"top_provider"`
	Pricing *openRouterPricing `json:"pricing"`
}

type openRouterPricing struct {
	Prompt          any `json:"prompt"`
	Completion      any `json:"completion"`
	InputCacheRead  any `json:"input_cache_read"`
	InputCacheWrite any `json:"input_cache_write"`
	Overrides       []struct {
		MinPromptTokens *float64 `json:"min_prompt_tokens"`
		UTCStart        any      `json:"utc_start"`
		UTCEnd          any      `json:"utc_end"`
		UTCDays         any      `json:"utc_days"`
		Prompt          any      `json:"prompt"`
		Completion      any      `json:"completion"`
		InputCacheRead  any      `json:"input_cache_read"`
		InputCacheWrite any      `json:"input_cache_write"`
	} `json:"overrides"`
}

// perMillion turns OpenRouter's $/token price (a string) into $/1M
// tokens, rounded to six decimals; a missing, invalid or negative price
// (router models report -1) is the fallback.
func perMillion(v any, fallback float64) float64 {
	var s string
	switch x := v.(type) {
	case string:
		s = x
	case float64:
		s = strconv.FormatFloat(x, 'g', -1, 64)
	default:
		return fallback
	}
	f, err := strconv.ParseFloat(strings.TrimSpace(leadingNumber(s)), 64)
	if err != nil || f < 0 || math.IsNaN(f) {
		return fallback
	}
	r, _ := strconv.ParseFloat(strconv.FormatFloat(f*1_000_000, 'f', 6, 64), 64)
	return r
}

// leadingNumber is the numeric prefix parseFloat reads ("0.5abc" is 0.5).
func leadingNumber(s string) string {
	s = strings.TrimSpace(s)
	end := 0
	for i, c := range s {
		if (c >= '0' && c <= '9') || c == '.' || c == 'e' || c == 'E' || ((c == '-' || c == '+') && (i == 0 || s[i-1] == 'e' || s[i-1] == 'E')) {
			end = i + 1
			continue
		}
		break
	}
	return s[:end]
}

type openRouterTier struct {
	InputTokensAbove float64 `json:"inputTokensAbove"`
	Input            float64 `json:"input"`
	Output           float64 `json:"output"`
	CacheRead        float64 `json:"cacheRead"`
	CacheWrite       float64 `json:"cacheWrite"`
}

type openRouterModelCost struct {
	Input      float64          `json:"input"`
	Output     float64          `json:"output"`
	CacheRead  float64          `json:"cacheRead"`
	CacheWrite float64          `json:"cacheWrite"`
	Tiers      []openRouterTier `json:"tiers,omitempty"`
}

// openRouterCost converts the key's prices to pi's; prompt-length
// overrides become tiers, time-of-day ones are skipped.
func openRouterCost(p *openRouterPricing) openRouterModelCost {
	c := openRouterModelCost{
		Input: perMillion(p.Prompt, 0), Output: perMillion(p.Completion, 0),
		CacheRead: perMillion(p.InputCacheRead, 0), CacheWrite: perMillion(p.InputCacheWrite, 0),
	}
	for _, o := range p.Overrides {
		if o.MinPromptTokens == nil || o.UTCStart != nil || o.UTCEnd != nil || o.UTCDays != nil {
			continue
		}
		c.Tiers = append(c.Tiers, openRouterTier{
			InputTokensAbove: *o.MinPromptTokens,
			Input:            perMillion(o.Prompt, c.Input), Output: perMillion(o.Completion, c.Output),
			CacheRead: perMillion(o.InputCacheRead, c.CacheRead), CacheWrite: perMillion(o.InputCacheWrite, c.CacheWrite),
		})
	}
	return c
}

// truthy is JavaScript's || on a number: nil and 0 fall through.
func truthy(v *float64) bool { return v != nil && *v != 0 && !math.IsNaN(*v) }

// RefreshOpenRouterCatalog narrows OpenRouter's models to those the key
// (an API key, or the OAuth sign-in's) may use, with the key's context
// windows, output limits and prices, as the reference's catalog refresh
// does: it asks the provider's base URL for /models/user, keeps the list
// in models-store.json and puts it in place of the provider's models. A
// key the endpoint refuses (401, 403) or an endpoint without it (404, a
// proxy) leaves the catalog as it is.
func (r *Registry) RefreshOpenRouterCatalog(ctx context.Context, client *http.Client) error {
	const provider = "openrouter"
	key, ok, err := r.ResolveOAuthKey(ctx, provider)
	if err != nil {
		return err
	}
	if !ok {
		key, _ = r.APIKey(provider)
	}
	var current []*engine.Model
	for _, m := range r.All() {
		if m.Provider == provider {
			current = append(current, m)
		}
	}
	if key == "" {
		return nil
	}
	// The provider's base URL (models.json may move it: a regional
	// endpoint filters for its region) is its chat-completions models';
	// the Anthropic-API ones sit one level up.
	base := openRouterBaseURL
	for _, m := range current {
		if m.API == "openai-completions" && m.BaseURL != "" {
			base = m.BaseURL
			break
		}
	}
	ctx, cancel := context.WithTimeout(ctx, openRouterUserModelsTimeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, strings.TrimRight(base, "/")+"/models/user", nil)
	if err != nil {
		return err
	}
	req.Header.Set("Accept", "application/json")
	req.Header.Set("Authorization", "Bearer "+key)
	resp, err := clientOr(client).Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(io.LimitReader(resp.Body, 32<<20))
	if err != nil {
		return err
	}
	models := make([]json.RawMessage, 0, len(current))
	switch {
	case resp.StatusCode == 401 || resp.StatusCode == 403 || resp.StatusCode == 404:
		for _, m := range current {
			models = append(models, m.Raw)
		}
	case resp.StatusCode < 200 || resp.StatusCode > 299:
		return fmt.Errorf("OpenRouter model list request failed: %d", resp.StatusCode)
	default:
		var body struct {
			Data []json.RawMessage `json:"data"`
		}
		if json.Unmarshal(b, &body) != nil || body.Data == nil {
			return fmt.Errorf("Invalid OpenRouter model list response")
		}
		allowed := map[string]openRouterUserModel{}
		for _, raw := range body.Data {
			var e openRouterUserModel
			if json.Unmarshal(raw, &e) == nil && e.ID != "" {
				allowed[e.ID] = e
			}
		}
		for _, m := range current {
			e, ok := allowed[m.ID]
			if !ok {
				continue
			}
			window, maxOut := float64(m.ContextWindow), float64(m.MaxTokens)
			switch {
			case e.TopProvider != nil && truthy(e.TopProvider.ContextLength):
				window = *e.TopProvider.ContextLength
			case truthy(e.ContextLength):
				window = *e.ContextLength
			}
			if e.TopProvider != nil && truthy(e.TopProvider.MaxCompletionTokens) {
				maxOut = *e.TopProvider.MaxCompletionTokens
			}
			kvs := [][2]any{{"contextWindow", window}, {"maxTokens", maxOut}}
			if e.Pricing != nil {
				kvs = append(kvs, [2]any{"cost", openRouterCost(e.Pricing)})
			}
			raw := m.Raw
			if len(raw) == 0 {
				raw, _ = engine.MarshalJSON(m)
			}
			if next := setRawKeys(raw, kvs); next != nil {
				models = append(models, next)
			}
		}
	}
	entry, err := json.Marshal(storedCatalog{Models: models, CheckedAt: time.Now().UnixMilli()})
	if err != nil {
		return err
	}
	if err := r.WriteModelsStore(provider, entry); err != nil {
		return err
	}
	return r.SetProviderModels(provider, models)
}
