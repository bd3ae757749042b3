package config

import (
	"encoding/json"
	"slices"
	"strings"

	"github.com/pi-go/pi/engine"
)

// models.json decodes headers into maps, which lose the order the file
// gives them; the reference hands them to before_provider_headers in that
// order. These decoders keep the header names' order beside the maps.

// UnmarshalJSON decodes a models.json provider and the order of its
// headers.
func (pc *providerConfig) UnmarshalJSON(b []byte) error {
	type plain providerConfig
	if err := json.Unmarshal(b, (*plain)(pc)); err != nil {
		return err
	}
	pc.HeaderKeys = objectKeys(b, "headers")
	return nil
}

// UnmarshalJSON decodes a models.json model and the order of its headers.
func (d *modelDef) UnmarshalJSON(b []byte) error {
	type plain modelDef
	if err := json.Unmarshal(b, (*plain)(d)); err != nil {
		return err
	}
	d.HeaderKeys = objectKeys(b, "headers")
	return nil
}

// UnmarshalJSON decodes a model override and the order of its headers.
func (o *modelOverride) UnmarshalJSON(b []byte) error {
	type plain modelOverride
	if err := json.Unmarshal(b, (*plain)(o)); err != nil {
		return err
	}
	o.HeaderKeys = objectKeys(b, "headers")
	return nil
}

// mergeHeaderKeys appends the names of a later header set to an earlier
// one's the way the reference merges headers: a name already present in
// any case is removed and the new one goes to the end. keys gives the
// later set's order; names of h it lacks follow, sorted.
func mergeHeaderKeys(order []string, h map[string]string, keys []string) []string {
	for _, k := range headerKeysIn(h, keys) {
		order = slices.DeleteFunc(order, func(o string) bool { return strings.EqualFold(o, k) })
		order = append(order, k)
	}
	return order
}

// headerKeysIn lists the names of h in the order keys gives, then any
// others sorted.
func headerKeysIn(h map[string]string, keys []string) []string {
	out := make([]string, 0, len(h))
	for _, k := range keys {
		if _, ok := h[k]; ok && !slices.Contains(out, k) {
			out = append(out, k)
		}
	}
	var rest []string
	for k := range h {
		if !slices.Contains(out, k) {
			rest = append(rest, k)
		}
	}
	slices.Sort(rest)
	return append(out, rest...)
}

// mergeHeaders returns base with over's headers merged in, in the
// reference's way (see mergeHeaderKeys): a name present in another case
// is replaced.
func mergeHeaders(base, over map[string]string) map[string]string {
	out := make(map[string]string, len(base)+len(over))
	for k, v := range base {
		out[k] = v
	}
	for k, v := range over {
		for o := range out {
			if o != k && strings.EqualFold(o, k) {
				delete(out, o)
			}
		}
		out[k] = v
	}
	return out
}

// RequestHeaderOrder is the order of the header names a request to m
// carries: the model's own headers (the catalog's, GitHub Copilot's) as
// its definition lists them, then the provider's configured headers as
// models.json (or the registering extension) wrote them, then the
// model's configured ones, a name given again moving to its later place,
// and last the Authorization header an authHeader provider gets.
func (r *Registry) RequestHeaderOrder(m *engine.Model) []string {
	if m == nil {
		return nil
	}
	var own []string
	if len(m.Headers) > 0 {
		own = mergeHeaderKeys(nil, m.Headers, objectKeys(m.Raw, "headers"))
	}
	r.mu.RLock()
	defer r.mu.RUnlock()
	pa := r.auth[m.Provider]
	if pa == nil {
		return append(own, "Authorization")
	}
	keys := pa.headerKeys
	if ep := r.ext[m.Provider]; ep != nil && len(ep.headerKeys) > 0 {
		keys = append(slices.Clone(keys), ep.headerKeys...)
	}
	order := mergeHeaderKeys(own, pa.headers, keys)
	order = mergeHeaderKeys(order, pa.modelHdrs[m.ID], pa.modelHdrKeys[m.ID])
	return append(order, "Authorization")
}
