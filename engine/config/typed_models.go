package config

import (
	"encoding/json"
	"slices"
)

// Models of other kinds than chat: classifiers (a llama.cpp router's
// models, for now). They are not in All or Available (chat only, what
// /model and get_available_models list); ctx.modelRegistry's
// getModelsOfType, getAvailableOfType and findOfType reach them. Each is
// kept as its JSON form, type key included.

// SetTypedModels replaces a provider's models of one kind.
func (r *Registry) SetTypedModels(provider, kind string, models []json.RawMessage) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.typed == nil {
		r.typed = map[string]map[string][]json.RawMessage{}
	}
	if r.typed[kind] == nil {
		r.typed[kind] = map[string][]json.RawMessage{}
	}
	if len(models) == 0 {
		delete(r.typed[kind], provider)
		return
	}
	r.typed[kind][provider] = slices.Clone(models)
}

// TypedModels are the models of one kind, providers in name order; with
// available set, only those whose provider has credentials.
func (r *Registry) TypedModels(kind string, available bool) []json.RawMessage {
	r.mu.RLock()
	defer r.mu.RUnlock()
	byProvider := r.typed[kind]
	providers := make([]string, 0, len(byProvider))
	for p := range byProvider {
		providers = append(providers, p)
	}
	slices.Sort(providers)
	var out []json.RawMessage
	for _, p := range providers {
		if available && !r.hasConfiguredAuth(p) {
			continue
		}
		out = append(out, byProvider[p]...)
	}
	return out
}
