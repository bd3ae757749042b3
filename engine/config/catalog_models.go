package config

import "github.com/pi-go/pi/engine"

// CatalogModels returns copies of the built-in models in catalog order,
// for callers that need the catalog itself rather than a registry patched
// by models.json (pi-ai's getModel/getModels/getProviders in extensions).
func CatalogModels() []engine.Model {
	out := make([]engine.Model, 0, len(catalog))
	for ci := range catalogProviders {
		for _, m := range catalogModels(ci) {
			out = append(out, *m)
		}
	}
	return out
}

// CatalogProviderIDs returns the built-in providers in catalog order. It
// reads only the provider table.
func CatalogProviderIDs() []string {
	out := make([]string, len(catalogProviders))
	for i := range catalogProviders {
		out[i] = catalogProviders[i].id
	}
	return out
}

// CatalogProviderModels returns copies of one built-in provider's models
// in catalog order (nil for a provider the catalog does not hold), reading
// only that provider's part of the table.
func CatalogProviderModels(provider string) []engine.Model {
	ci := catalogProviderIndex(provider)
	if ci < 0 {
		return nil
	}
	ms := catalogModels(ci)
	out := make([]engine.Model, len(ms))
	for i, m := range ms {
		out[i] = *m
	}
	return out
}
