package config

import (
	"context"
	"net/http"
	"sync"
	"time"
)

// CatalogRefresher loads a provider's own model list with its credential
// (after a login, or when the list is due), keeps it where the next start
// finds it, and puts it in place of the provider's models.
type CatalogRefresher func(ctx context.Context, r *Registry, provider string) error

var catalogRefreshers sync.Map // provider -> CatalogRefresher

// RegisterCatalogRefresher installs the model-list refresh of a provider
// whose catalog depends on the account (a package that serves the
// provider registers it from its init or its setup). Radius providers need
// none: RefreshProviderCatalog knows them.
//
// TODO: OpenRouter narrows its catalog to what the key may use, and
// llama.cpp's router lists the models it serves; neither refresh exists in
// this build yet, so after their logins the shipped catalog stays. The
// llama.cpp provider's package is where its refresher belongs.
func RegisterCatalogRefresher(provider string, f CatalogRefresher) {
	catalogRefreshers.Store(provider, f)
}

// RefreshProviderCatalog refreshes the provider's account-specific model
// list: a Radius provider's from its gateway, another provider's through
// its registered refresher. It reports false when the provider has none.
// client nil uses the default client.
func (r *Registry) RefreshProviderCatalog(ctx context.Context, client *http.Client, provider string) (bool, error) {
	if _, ok := r.RadiusGateway(provider); ok {
		return true, r.RefreshRadiusCatalog(ctx, client, provider, "", time.Now())
	}
	if f, ok := catalogRefreshers.Load(provider); ok {
		return true, f.(CatalogRefresher)(ctx, r, provider)
	}
	return false, nil
}

// DefaultModelID is the model a login to the provider selects when no
// model is selected yet (the reference's defaultModelPerProvider).
func DefaultModelID(provider string) (string, bool) {
	for _, d := range defaultModelPerProvider {
		if d.provider == provider {
			return d.id, true
		}
	}
	return "", false
}
