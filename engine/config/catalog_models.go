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
