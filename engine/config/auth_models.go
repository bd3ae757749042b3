package config

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"

	"github.com/pi-go/pi/engine"
)

// ModelsStorePath is models-store.json next to models.json: the provider
// catalogs a model refresh chose to keep (refreshModels' publish({persist})).
func (r *Registry) ModelsStorePath() string {
	return filepath.Join(filepath.Dir(r.modelsPath), "models-store.json")
}

// ReadModelsStore returns the provider's models-store.json entry, or nil.
func (r *Registry) ReadModelsStore(provider string) json.RawMessage {
	return readProviderEntry(r.ModelsStorePath(), provider)
}

// readProviderEntry returns the provider's entry of a JSON object file
// keyed by provider (auth.json, models-store.json), as stored; nil when
// the file or the entry is missing or the file does not parse.
func readProviderEntry(path, provider string) json.RawMessage {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil
	}
	keys, vals, err := splitAuthObject(b)
	if err != nil {
		return nil
	}
	if i := slices.Index(keys, provider); i >= 0 {
		return vals[i]
	}
	return nil
}

// WriteModelsStore sets (nil: deletes) the provider's models-store.json
// entry, under the same lock and in the same layout as auth.json.
func (r *Registry) WriteModelsStore(provider string, entry json.RawMessage) error {
	_, _, err := modifyJSONEntry(context.Background(), r.ModelsStorePath(), provider, true,
		func(json.RawMessage) (json.RawMessage, error) { return entry, nil })
	return err
}

// modelObject is the part of a whole model object the registry reads.
type modelObject struct {
	ID               string            `json:"id"`
	Name             string            `json:"name"`
	API              string            `json:"api"`
	Provider         string            `json:"provider"`
	BaseURL          string            `json:"baseUrl"`
	Reasoning        bool              `json:"reasoning"`
	Input            []string          `json:"input"`
	Cost             engine.ModelCost  `json:"cost"`
	ContextWindow    float64           `json:"contextWindow"`
	MaxTokens        float64           `json:"maxTokens"`
	Headers          map[string]string `json:"headers"`
	Compat           json.RawMessage   `json:"compat"`
	ThinkingLevelMap json.RawMessage   `json:"thinkingLevelMap"`
	InputLimits      json.RawMessage   `json:"inputLimits"`
	PromptCache      json.RawMessage   `json:"promptCache"`
	Type             string            `json:"type"`
}

// SetProviderModels replaces the provider's models with whole model
// objects, as an OAuth provider's modifyModels returns them; each keeps
// its JSON as given. Non-chat models are left out, as elsewhere.
func (r *Registry) SetProviderModels(provider string, raws []json.RawMessage) error {
	models := make([]*engine.Model, 0, len(raws))
	for _, raw := range raws {
		var o modelObject
		if err := json.Unmarshal(raw, &o); err != nil || o.ID == "" {
			return fmt.Errorf("Provider %s: invalid model from modifyModels", provider)
		}
		if o.Type != "" && o.Type != "chat" {
			continue
		}
		m := &engine.Model{
			ID: o.ID, Name: o.Name, API: o.API, Provider: o.Provider, BaseURL: o.BaseURL,
			Reasoning: o.Reasoning, Input: o.Input, Cost: o.Cost,
			ContextWindow: int(o.ContextWindow), MaxTokens: int(o.MaxTokens), Headers: o.Headers,
			Compat: o.Compat, ThinkingLevelMap: o.ThinkingLevelMap, InputLimits: o.InputLimits, PromptCache: o.PromptCache,
			Raw: raw,
		}
		if m.Provider == "" {
			m.Provider = provider
		}
		if m.Name == "" {
			m.Name = m.ID
		}
		if m.Input == nil {
			m.Input = []string{"text"}
		}
		models = append(models, m)
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.replaceProviderModels(provider, models)
	return nil
}

// EnsureModelsStoreFile creates models-store.json ("{}", mode 0600) when
// it is missing, as the reference's file-backed models store does when
// it opens.
func (r *Registry) EnsureModelsStoreFile() error { return ensureAuthFile(r.ModelsStorePath()) }
