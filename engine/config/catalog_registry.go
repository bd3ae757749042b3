package config

import (
	"strings"
	"sync"

	"github.com/pi-go/pi/engine"
)

// catalogProvider is one built-in provider: its id, display name and the
// span catalog[start:end] of its models. headers marks a provider whose
// models carry request headers (catalog_gen.go leaves maps out).
type catalogProvider struct {
	id, name   string
	start, end int
	headers    bool
}

// catalogHeader is one catalog model's request headers, as name/value
// pairs.
type catalogHeader struct {
	model int
	kv    []string
}

// catalogProviderIndex returns the index of a built-in provider in
// catalogProviders, or -1. It reads only the small provider table, never
// the models.
func catalogProviderIndex(id string) int {
	for i := range catalogProviders {
		if catalogProviders[i].id == id {
			return i
		}
	}
	return -1
}

// builtinLists caches each built-in provider's model pointers. The
// pointers go straight into the static catalog (no copy), except for the
// models with headers, which get a copy with their Headers map filled in.
var builtinLists struct {
	mu    sync.Mutex
	lists [len(catalogProviders)][]*engine.Model
}

// catalogModels returns the built-in models of catalogProviders[ci]. The
// slice and the models are shared by every registry: callers copy a model
// before changing it and never append to or write the slice.
func catalogModels(ci int) []*engine.Model {
	builtinLists.mu.Lock()
	defer builtinLists.mu.Unlock()
	if l := builtinLists.lists[ci]; l != nil {
		return l
	}
	p := &catalogProviders[ci]
	l := make([]*engine.Model, 0, p.end-p.start)
	for i := p.start; i < p.end; i++ {
		l = append(l, &catalog[i])
	}
	if p.headers {
		for _, h := range catalogHeaders {
			if h.model < p.start || h.model >= p.end {
				continue
			}
			cp := catalog[h.model]
			cp.Headers = make(map[string]string, len(h.kv)/2)
			for j := 0; j+1 < len(h.kv); j += 2 {
				cp.Headers[h.kv[j]] = h.kv[j+1]
			}
			l[h.model-p.start] = &cp
		}
	}
	builtinLists.lists[ci] = l
	return l
}

// modelGroup is one provider's models in a registry. A built-in provider
// nothing has changed keeps cat >= 0 and no list of its own: its models
// are the shared catalog ones, and a registry that is only asked about
// one provider never touches the others' models. Any change (models.json,
// an extension, AddModels) gives the group its own list.
type modelGroup struct {
	provider string
	cat      int
	models   []*engine.Model
}

// list returns the group's models; the caller must not modify the slice.
func (g *modelGroup) list() []*engine.Model {
	if g.cat >= 0 {
		return catalogModels(g.cat)
	}
	return g.models
}

// own gives the group a list of its own, so it can be changed.
func (g *modelGroup) own() {
	if g.cat >= 0 {
		g.models = append([]*engine.Model(nil), catalogModels(g.cat)...)
		g.cat = -1
	}
}

// group returns the provider's group, or nil.
func (r *Registry) group(provider string) *modelGroup {
	for _, g := range r.groups {
		if g.provider == provider {
			return g
		}
	}
	return nil
}

// All returns every model: the built-in catalog (patched by models.json)
// followed by custom providers, in file order.
func (r *Registry) All() []*engine.Model {
	r.mu.RLock()
	defer r.mu.RUnlock()
	n := 0
	for _, g := range r.groups {
		n += len(g.list())
	}
	out := make([]*engine.Model, 0, n)
	for _, g := range r.groups {
		out = append(out, g.list()...)
	}
	return out
}

// Find returns the model with this provider and id, or nil. Only that
// provider's models are looked at.
func (r *Registry) Find(provider, id string) *engine.Model {
	r.mu.RLock()
	defer r.mu.RUnlock()
	g := r.group(provider)
	if g == nil {
		return nil
	}
	for _, m := range g.list() {
		if m.ID == id {
			return m
		}
	}
	return nil
}

// HasProvider reports whether the registry has models of the provider.
func (r *Registry) HasProvider(provider string) bool {
	r.mu.RLock()
	defer r.mu.RUnlock()
	g := r.group(provider)
	// A models.json Radius provider exists before its first model list.
	return g != nil && len(g.list()) > 0 || r.radiusGateways[provider] != ""
}

// Available returns the models whose provider has credentials, the list
// get_available_models and --list-models show. Providers without
// credentials are skipped whole, their models untouched.
func (r *Registry) Available() []*engine.Model {
	r.mu.RLock()
	defer r.mu.RUnlock()
	var out []*engine.Model
	for _, g := range r.groups {
		if r.hasConfiguredAuth(g.provider) {
			out = append(out, r.filterByOAuthCredential(g.provider, g.list())...)
		}
	}
	return out
}

// ModelsVersion changes whenever the model list does (AddModels, a
// provider's models replaced by an extension's registration or refresh),
// so a reader can keep what it built from the list until then.
func (r *Registry) ModelsVersion() uint64 {
	r.mu.RLock()
	defer r.mu.RUnlock()
	return r.version
}

// AddModels appends models (from an extension's registerProvider, or a
// test) and records how their provider authenticates. apiKey may be nil.
// A model with the provider and id of an existing one replaces it.
func (r *Registry) AddModels(provider string, apiKey *string, models ...*engine.Model) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.version++
	pa := r.auth[provider]
	if pa == nil {
		pa = &providerAuth{}
		r.auth[provider] = pa
	}
	if apiKey != nil {
		pa.apiKey = apiKey
	}
	for _, m := range models {
		g := r.group(m.Provider)
		if g == nil {
			g = &modelGroup{provider: m.Provider, cat: -1}
			r.groups = append(r.groups, g)
		}
		g.own()
		replaced := false
		for i, old := range g.models {
			if old.ID == m.ID {
				g.models[i] = m
				replaced = true
				break
			}
		}
		if !replaced {
			g.models = append(g.models, m)
		}
	}
}

// providerModels returns the provider's current models, in order.
func (r *Registry) providerModels(name string) []*engine.Model {
	if g := r.group(name); g != nil {
		return append([]*engine.Model(nil), g.list()...)
	}
	return nil
}

// replaceProviderModels puts models where the provider's models were, or
// at the end for a new provider. A provider left without models drops
// out of the order, as it does from the reference's list.
func (r *Registry) replaceProviderModels(name string, models []*engine.Model) {
	r.version++
	for i, g := range r.groups {
		if g.provider != name {
			continue
		}
		if len(models) == 0 {
			r.groups = append(r.groups[:i:i], r.groups[i+1:]...)
			return
		}
		g.cat, g.models = -1, models
		return
	}
	if len(models) > 0 {
		r.groups = append(r.groups, &modelGroup{provider: name, cat: -1, models: models})
	}
}

// CatalogProviderName is a built-in provider's display name ("OpenRouter"
// for openrouter), or "" for a provider the catalog does not have.
func CatalogProviderName(provider string) string {
	if i := catalogProviderIndex(provider); i >= 0 {
		return catalogProviders[i].name
	}
	return ""
}

// catalogIDMatches returns the catalog indexes of the models whose
// lowercased id is lower, reading only catalogLowerIDs.
func catalogIDMatches(lower string) []int {
	if lower == "" || strings.ContainsRune(lower, '\n') {
		return nil
	}
	var out []int
	needle := "\n" + lower + "\n"
	for from := 0; ; {
		i := strings.Index(catalogLowerIDs[from:], needle)
		if i < 0 {
			return out
		}
		at := from + i
		out = append(out, strings.Count(catalogLowerIDs[:at], "\n"))
		from = at + 1
	}
}

// providerPrefixes reports whether provider names the start of a
// "provider/id" reference (lowered): the test splitProviderPrefix makes.
func providerPrefixes(provider, lower string) bool {
	prefix := strings.ToLower(strings.TrimSpace(provider))
	if prefix == "" || len(prefix) > len(lower) {
		return false
	}
	slash := strings.IndexByte(lower[len(prefix):], '/')
	return slash >= 0 && strings.TrimSpace(lower[:len(prefix)+slash]) == prefix
}

// exactCandidates returns, in registry order, the only models an exact
// reference (an id, or "provider/id") can resolve to: every model of a
// provider the text starts with, and every model whose id is the text,
// case aside. A reference resolved among these resolves the same among
// all models, and built-in providers are searched through
// catalogLowerIDs, so --model provider/id does not read the whole
// catalog.
func (r *Registry) exactCandidates(text string) []*engine.Model {
	r.mu.RLock()
	defer r.mu.RUnlock()
	lower := strings.ToLower(text)
	matches := catalogIDMatches(lower)
	var out []*engine.Model
	for _, g := range r.groups {
		switch {
		case providerPrefixes(g.provider, lower):
			out = append(out, g.list()...)
		case g.cat >= 0:
			p := catalogProviders[g.cat]
			for _, i := range matches {
				if i >= p.start && i < p.end {
					out = append(out, g.list()[i-p.start])
				}
			}
		default:
			for _, m := range g.list() {
				if strings.ToLower(m.ID) == lower {
					out = append(out, m)
				}
			}
		}
	}
	return out
}
