package config

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/pi-go/pi/engine"
	"github.com/pi-go/pi/internal/jsonx"
)

// anthropicBearerEnv is a token sent as "Authorization: Bearer", not as an
// API key: it makes the provider available but never is the key itself.
const anthropicBearerEnv = "ANTHROPIC_AUTH_TOKEN"

// providerConfig is one entry of models.json "providers".
type providerConfig struct {
	Name           string                     `json:"name"`
	BaseURL        string                     `json:"baseUrl"`
	APIKey         *string                    `json:"apiKey"`
	API            string                     `json:"api"`
	OAuth          string                     `json:"oauth"`
	Headers        map[string]string          `json:"headers"`
	Compat         json.RawMessage            `json:"compat"`
	AuthHeader     *bool                      `json:"authHeader"`
	Models         []modelDef                 `json:"models"`
	ModelOverrides map[string]json.RawMessage `json:"modelOverrides"`
	// HeaderKeys is the order of Headers in the file (header_order.go).
	HeaderKeys []string `json:"-"`
}

// modelDef is one model of a models.json provider.
type modelDef struct {
	ID               string            `json:"id"`
	Name             string            `json:"name"`
	API              string            `json:"api"`
	BaseURL          string            `json:"baseUrl"`
	Reasoning        *bool             `json:"reasoning"`
	ThinkingLevelMap json.RawMessage   `json:"thinkingLevelMap"`
	Input            []string          `json:"input"`
	InputLimits      json.RawMessage   `json:"inputLimits"`
	PromptCache      json.RawMessage   `json:"promptCache"`
	Cost             *engine.ModelCost `json:"cost"`
	ContextWindow    *float64          `json:"contextWindow"`
	MaxTokens        *float64          `json:"maxTokens"`
	Headers          map[string]string `json:"headers"`
	Compat           json.RawMessage   `json:"compat"`
	// The sampling fields stay raw: their keys and order go into the
	// request body as written.
	SamplingParams                json.RawMessage `json:"samplingParams"`
	SamplingParamsByThinkingLevel json.RawMessage `json:"samplingParamsByThinkingLevel"`
	// HeaderKeys is the order of Headers in the file.
	HeaderKeys []string `json:"-"`
}

// modelOverride is a partial model from "modelOverrides".
type modelOverride struct {
	Name             *string           `json:"name"`
	Reasoning        *bool             `json:"reasoning"`
	ThinkingLevelMap json.RawMessage   `json:"thinkingLevelMap"`
	Input            []string          `json:"input"`
	InputLimits      json.RawMessage   `json:"inputLimits"`
	PromptCache      json.RawMessage   `json:"promptCache"`
	Cost             *partialCost      `json:"cost"`
	ContextWindow    *float64          `json:"contextWindow"`
	MaxTokens        *float64          `json:"maxTokens"`
	Headers          map[string]string `json:"headers"`
	Compat           json.RawMessage   `json:"compat"`
	// HeaderKeys is the order of Headers in the file.
	HeaderKeys []string `json:"-"`
}

type partialCost struct {
	Input, Output, CacheRead, CacheWrite *float64
	Tiers                                []engine.ModelCostTier
}

func (p *partialCost) UnmarshalJSON(b []byte) error {
	var raw struct {
		Input      *float64               `json:"input"`
		Output     *float64               `json:"output"`
		CacheRead  *float64               `json:"cacheRead"`
		CacheWrite *float64               `json:"cacheWrite"`
		Tiers      []engine.ModelCostTier `json:"tiers"`
	}
	if err := json.Unmarshal(b, &raw); err != nil {
		return err
	}
	*p = partialCost{raw.Input, raw.Output, raw.CacheRead, raw.CacheWrite, raw.Tiers}
	return nil
}

// compatNested are the compat keys merged one level deep.
var compatNested = []string{"openRouterRouting", "vercelGatewayRouting", "chatTemplateKwargs", "chatTemplateArgs"}

// providerAuth is what the registry knows about one provider's credentials.
type providerAuth struct {
	builtin bool
	// name is models.json's display name for the provider, if it gave one.
	name      string
	apiKey    *string // models.json apiKey, unresolved
	headers   map[string]string
	modelHdrs map[string]map[string]string
	// headerKeys and modelHdrKeys are the order of headers and of each
	// model's headers as models.json gives them (RequestHeaderOrder).
	headerKeys   []string
	modelHdrKeys map[string][]string
	authHeader   bool
	// radiusGateway is the gateway of a provider with "oauth": "radius"
	// (its baseUrl without a trailing /v1): it signs in, refreshes and
	// lists its models there (radius.go).
	radiusGateway string
}

// Registry holds every known model (built-in catalog patched by
// models.json, then custom providers) and resolves credentials.
type Registry struct {
	// mu guards everything below: extensions may register providers
	// while a session reads the registry.
	mu sync.RWMutex
	// groups are the models, one group per provider in order: built-in
	// providers first (catalog_registry.go keeps untouched ones as
	// pointers into the static catalog), then models.json's own.
	groups []*modelGroup
	auth   map[string]*providerAuth
	// radiusGateways are the gateways of models.json's "oauth": "radius"
	// providers; set at load and never changed, so it is read without mu.
	radiusGateways map[string]string
	authFile       map[string]authCredential
	overrides      map[string]string
	getenv         func(string) string
	modelsPath     string
	// ext holds extension provider registrations (registered.go).
	ext map[string]*extProvider
	// version counts changes to the model list (ModelsVersion).
	version uint64
}

// LoadModels builds the registry from the built-in catalog,
// <agentDir>/models.json and <agentDir>/auth.json. Problems are returned
// as errors (for a "Warning: errors loading models.json" line) and never
// stop the load: a broken file contributes nothing, a broken provider
// keeps its built-in form.
func LoadModels(agentDir string) (*Registry, []error) {
	return loadModels(agentDir, os.Getenv)
}

// loadModels is LoadModels with an injectable environment, for tests.
func loadModels(agentDir string, getenv func(string) string) (*Registry, []error) {
	r := &Registry{
		auth:       map[string]*providerAuth{},
		overrides:  map[string]string{},
		getenv:     getenv,
		modelsPath: filepath.Join(agentDir, "models.json"),
	}
	var errs []error
	cfg, cfgOrder, err := readModelsJSON(r.modelsPath)
	if err != nil {
		errs = append(errs, err)
	}
	// One allocation each for the built-in providers' groups and auth
	// records: the catalog's size must not show in the start's cost.
	r.groups = make([]*modelGroup, 0, len(catalogProviders)+len(cfgOrder))
	builtinGroups := make([]modelGroup, len(catalogProviders))
	builtinAuth := make([]providerAuth, len(catalogProviders))
	r.auth = make(map[string]*providerAuth, len(catalogProviders)+len(cfgOrder))
	for ci := range catalogProviders {
		id := catalogProviders[ci].id
		builtinAuth[ci].builtin = true
		r.auth[id] = &builtinAuth[ci]
		builtinGroups[ci] = modelGroup{provider: id, cat: ci}
		pc, ok := cfg[id]
		if !ok {
			r.groups = append(r.groups, &builtinGroups[ci])
			continue
		}
		pa := &providerAuth{builtin: true}
		ms, err := applyProviderConfig(id, catalogModels(ci), pc, pa)
		if err != nil {
			errs = append(errs, fmt.Errorf("Provider %q: %w", id, err))
			r.groups = append(r.groups, &modelGroup{provider: id, cat: ci})
			continue
		}
		r.auth[id] = pa
		r.groups = append(r.groups, &modelGroup{provider: id, cat: -1, models: ms})
	}
	for _, id := range cfgOrder {
		if catalogProviderIndex(id) >= 0 {
			continue
		}
		pa := &providerAuth{}
		ms, err := applyProviderConfig(id, nil, cfg[id], pa)
		if err != nil {
			errs = append(errs, fmt.Errorf("Provider %q: %w", id, err))
			continue
		}
		r.auth[id] = pa
		if g := r.group(id); g != nil {
			g.models = ms
		} else {
			r.groups = append(r.groups, &modelGroup{provider: id, cat: -1, models: ms})
		}
	}
	for id, pa := range r.auth {
		if pa.radiusGateway != "" {
			if r.radiusGateways == nil {
				r.radiusGateways = map[string]string{}
			}
			r.radiusGateways[id] = pa.radiusGateway
		}
	}
	af, err := readAuthFile(filepath.Join(agentDir, "auth.json"))
	if err != nil {
		errs = append(errs, err)
	}
	r.authFile = af
	return r, errs
}

// readModelsJSON parses models.json. A missing file is no error; any
// other problem drops the whole file, as the reference does.
func readModelsJSON(path string) (map[string]providerConfig, []string, error) {
	b, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil, nil
	}
	if err != nil {
		return nil, nil, fmt.Errorf("Failed to load models.json: %w\n\nFile: %s", err, path)
	}
	b = stripJSONComments(bytes.TrimPrefix(b, []byte("\xef\xbb\xbf")))
	var top struct {
		Providers map[string]json.RawMessage `json:"providers"`
	}
	var generic any
	if err := json.Unmarshal(b, &generic); err != nil {
		return nil, nil, fmt.Errorf("Failed to parse models.json: %w\n\nFile: %s", err, path)
	}
	if problems := validateModelsJSON(generic); len(problems) > 0 {
		return nil, nil, fmt.Errorf("Invalid models.json schema:\n  - %s\n\nFile: %s", strings.Join(problems, "\n  - "), path)
	}
	if err := json.Unmarshal(b, &top); err != nil {
		return nil, nil, fmt.Errorf("Invalid models.json schema:\n  - %v\n\nFile: %s", err, path)
	}
	out := map[string]providerConfig{}
	for id, raw := range top.Providers {
		var pc providerConfig
		if err := json.Unmarshal(raw, &pc); err != nil {
			return nil, nil, fmt.Errorf("Invalid models.json schema:\n  - providers.%s: %v\n\nFile: %s", id, err, path)
		}
		out[id] = pc
	}
	return out, objectKeyOrder(b, "providers"), nil
}

// applyProviderConfig applies one models.json provider to its built-in
// models (nil for a new provider) and fills in its credentials.
func applyProviderConfig(id string, base []*engine.Model, pc providerConfig, pa *providerAuth) ([]*engine.Model, error) {
	if pc.OAuth != "" && pc.BaseURL == "" {
		return nil, fmt.Errorf(`Provider %s: "baseUrl" is required when "oauth" is set.`, id)
	}
	if len(pc.Models) == 0 && pc.BaseURL == "" && pc.Headers == nil && len(pc.Compat) == 0 &&
		len(pc.ModelOverrides) == 0 && pc.APIKey == nil && pc.OAuth == "" && pc.AuthHeader == nil {
		return nil, fmt.Errorf(`Provider %s: must specify "baseUrl", "headers", "compat", "modelOverrides", or "models".`, id)
	}
	models := make([]*engine.Model, 0, len(base)+len(pc.Models))
	for _, b := range base {
		m := *b
		if pc.BaseURL != "" && pc.OAuth == "" {
			m.BaseURL = pc.BaseURL
		}
		m.Compat = mergeRawObjects(m.Compat, pc.Compat, compatNested...)
		if len(m.Raw) > 0 && (m.BaseURL != b.BaseURL || len(pc.Compat) > 0) {
			// The reference spreads the changes over the catalog object,
			// so its keys keep their places.
			kvs := [][2]any{{"baseUrl", m.BaseURL}}
			if len(m.Compat) > 0 {
				kvs = append(kvs, [2]any{"compat", m.Compat})
			}
			m.Raw = setRawKeys(m.Raw, kvs)
		}
		models = append(models, &m)
	}
	modelHdrs := map[string]map[string]string{}
	modelHdrKeys := map[string][]string{}
	for _, d := range pc.Models {
		m, err := modelFromDef(id, d, pc, findDefaults(models, d.ID, firstNonEmpty(d.API, pc.API)))
		if err != nil {
			return nil, err
		}
		if d.Headers != nil {
			modelHdrs[d.ID] = d.Headers
			modelHdrKeys[d.ID] = d.HeaderKeys
		}
		replaced := false
		for i, old := range models {
			if old.ID == d.ID {
				models[i] = m
				replaced = true
				break
			}
		}
		if !replaced {
			models = append(models, m)
		}
	}
	for i, m := range models {
		raw, ok := pc.ModelOverrides[m.ID]
		if !ok {
			continue
		}
		var ov modelOverride
		if err := json.Unmarshal(raw, &ov); err != nil {
			return nil, fmt.Errorf("modelOverrides.%s: %w", m.ID, err)
		}
		models[i] = applyOverride(m, ov)
		if ov.Headers != nil {
			// The reference spreads a definition's headers over its
			// override's: the definition's values win, the override's
			// names come first.
			def := modelHdrs[m.ID]
			h := make(map[string]string, len(ov.Headers)+len(def))
			maps.Copy(h, ov.Headers)
			maps.Copy(h, def)
			keys := headerKeysIn(ov.Headers, ov.HeaderKeys)
			for _, k := range headerKeysIn(def, modelHdrKeys[m.ID]) {
				if !slices.Contains(keys, k) {
					keys = append(keys, k)
				}
			}
			modelHdrs[m.ID], modelHdrKeys[m.ID] = h, keys
		}
	}
	pa.apiKey = pc.APIKey
	pa.name = pc.Name
	pa.headers = pc.Headers
	pa.modelHdrs = modelHdrs
	pa.headerKeys = pc.HeaderKeys
	pa.modelHdrKeys = modelHdrKeys
	pa.authHeader = pc.AuthHeader != nil && *pc.AuthHeader
	if pc.OAuth == "radius" {
		pa.radiusGateway = radiusGatewayOf(pc.BaseURL)
	}
	return models, nil
}

// findDefaults picks the model whose api/baseUrl a definition inherits:
// the same id, else one with the same api, else an openai-completions
// model, else the first.
func findDefaults(models []*engine.Model, id, api string) *engine.Model {
	for _, m := range models {
		if m.ID == id {
			return m
		}
	}
	if api != "" {
		for _, m := range models {
			if m.API == api {
				return m
			}
		}
	}
	for _, m := range models {
		if m.API == engine.APIOpenAICompletions {
			return m
		}
	}
	if len(models) > 0 {
		return models[0]
	}
	return nil
}

func firstNonEmpty(ss ...string) string {
	for _, s := range ss {
		if s != "" {
			return s
		}
	}
	return ""
}

// modelFromDef builds a model from its definition and the reference's
// defaults.
func modelFromDef(provider string, d modelDef, pc providerConfig, def *engine.Model) (*engine.Model, error) {
	var defAPI, defURL string
	if def != nil {
		defAPI, defURL = def.API, def.BaseURL
	}
	api := firstNonEmpty(d.API, pc.API, defAPI)
	if api == "" {
		return nil, fmt.Errorf(`Provider %s, model %s: no "api" specified. Set at provider or model level.`, provider, d.ID)
	}
	baseURL := firstNonEmpty(d.BaseURL, pc.BaseURL, defURL)
	if baseURL == "" {
		return nil, fmt.Errorf(`Provider %s: "baseUrl" is required when defining custom models.`, provider)
	}
	m := &engine.Model{
		ID:               d.ID,
		Name:             firstNonEmpty(d.Name, d.ID),
		API:              api,
		Provider:         provider,
		BaseURL:          baseURL,
		Input:            d.Input,
		ContextWindow:    128000,
		MaxTokens:        16384,
		ThinkingLevelMap: compactRaw(d.ThinkingLevelMap),
		InputLimits:      compactRaw(d.InputLimits),
		PromptCache:      compactRaw(d.PromptCache),
		Compat:           mergeRawObjects(compactRaw(pc.Compat), compactRaw(d.Compat), compatNested...),

		SamplingParams:                compactRaw(d.SamplingParams),
		SamplingParamsByThinkingLevel: compactRaw(d.SamplingParamsByThinkingLevel),
	}
	if d.Reasoning != nil {
		m.Reasoning = *d.Reasoning
	}
	if m.Input == nil {
		m.Input = []string{"text"}
	}
	if d.Cost != nil {
		m.Cost = *d.Cost
	}
	if d.ContextWindow != nil {
		if *d.ContextWindow <= 0 {
			return nil, fmt.Errorf("Provider %s, model %s: invalid contextWindow", provider, d.ID)
		}
		m.ContextWindow = int(*d.ContextWindow)
	}
	if d.MaxTokens != nil {
		if *d.MaxTokens <= 0 {
			return nil, fmt.Errorf("Provider %s, model %s: invalid maxTokens", provider, d.ID)
		}
		m.MaxTokens = int(*d.MaxTokens)
	}
	return m, nil
}

// applyOverride patches a model with a modelOverrides entry.
func applyOverride(m *engine.Model, ov modelOverride) *engine.Model {
	out := *m
	if ov.Name != nil {
		out.Name = *ov.Name
	}
	if ov.Reasoning != nil {
		out.Reasoning = *ov.Reasoning
	}
	if len(ov.ThinkingLevelMap) > 0 {
		out.ThinkingLevelMap = mergeRawObjects(m.ThinkingLevelMap, compactRaw(ov.ThinkingLevelMap))
	}
	if ov.Input != nil {
		out.Input = ov.Input
	}
	if len(ov.InputLimits) > 0 {
		out.InputLimits = mergeRawObjects(m.InputLimits, compactRaw(ov.InputLimits), "images")
	}
	if len(ov.PromptCache) > 0 {
		// The model's cache lifetimes, per retention tier (cache warming).
		out.PromptCache = mergeRawObjects(m.PromptCache, compactRaw(ov.PromptCache))
	}
	if ov.Cost != nil {
		pick := func(p *float64, d float64) float64 {
			if p != nil {
				return *p
			}
			return d
		}
		out.Cost = engine.ModelCost{
			Input:      pick(ov.Cost.Input, m.Cost.Input),
			Output:     pick(ov.Cost.Output, m.Cost.Output),
			CacheRead:  pick(ov.Cost.CacheRead, m.Cost.CacheRead),
			CacheWrite: pick(ov.Cost.CacheWrite, m.Cost.CacheWrite),
			Tiers:      m.Cost.Tiers,
		}
		if ov.Cost.Tiers != nil {
			out.Cost.Tiers = ov.Cost.Tiers
		}
	}
	if ov.ContextWindow != nil && *ov.ContextWindow > 0 {
		out.ContextWindow = int(*ov.ContextWindow)
	}
	if ov.MaxTokens != nil && *ov.MaxTokens > 0 {
		out.MaxTokens = int(*ov.MaxTokens)
	}
	out.Compat = mergeRawObjects(m.Compat, compactRaw(ov.Compat), compatNested...)
	if len(out.Raw) > 0 {
		// The reference spreads the override over the catalog object:
		// changed keys keep their places, new ones go last.
		var kvs [][2]any
		add := func(set bool, k string, v any) {
			if set {
				kvs = append(kvs, [2]any{k, v})
			}
		}
		add(ov.Name != nil, "name", out.Name)
		add(ov.Reasoning != nil, "reasoning", out.Reasoning)
		add(len(ov.ThinkingLevelMap) > 0, "thinkingLevelMap", out.ThinkingLevelMap)
		add(ov.Input != nil, "input", out.Input)
		add(len(ov.InputLimits) > 0, "inputLimits", out.InputLimits)
		add(len(ov.PromptCache) > 0, "promptCache", out.PromptCache)
		add(ov.Cost != nil, "cost", out.Cost)
		add(ov.ContextWindow != nil && *ov.ContextWindow > 0, "contextWindow", out.ContextWindow)
		add(ov.MaxTokens != nil && *ov.MaxTokens > 0, "maxTokens", out.MaxTokens)
		add(len(ov.Compat) > 0 && len(out.Compat) > 0, "compat", out.Compat)
		out.Raw = setRawKeys(out.Raw, kvs)
	}
	return &out
}

// objectKeyOrder returns the keys of the object at top-level key k, in
// file order.
func objectKeyOrder(b []byte, k string) []string {
	dec := json.NewDecoder(bytes.NewReader(b))
	var top map[string]json.RawMessage
	if dec.Decode(&top) != nil {
		return nil
	}
	var keys []string
	// A broken object gives the keys before the break.
	_ = jsonx.EachMember(top[k], func(key string, _ json.RawMessage) error {
		keys = append(keys, key)
		return nil
	})
	return keys
}

// validateModelsJSON checks the shape the reference's schema enforces
// and returns "path: problem" lines.
func validateModelsJSON(v any) []string {
	var out []string
	top, ok := v.(map[string]any)
	if !ok {
		return []string{"root: Expected object"}
	}
	provs, ok := top["providers"].(map[string]any)
	if !ok {
		if _, has := top["providers"]; !has {
			return []string{"providers: Expected required property"}
		}
		return []string{"providers: Expected object"}
	}
	ids := make([]string, 0, len(provs))
	for id := range provs {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	for _, id := range ids {
		p, ok := provs[id].(map[string]any)
		base := "providers." + id
		if !ok {
			out = append(out, base+": Expected object")
			continue
		}
		for _, f := range []string{"name", "baseUrl", "apiKey", "api"} {
			if x, has := p[f]; has {
				if s, ok := x.(string); !ok || s == "" {
					out = append(out, base+"."+f+": Expected non-empty string")
				}
			}
		}
		if x, has := p["authHeader"]; has {
			if _, ok := x.(bool); !ok {
				out = append(out, base+".authHeader: Expected boolean")
			}
		}
		if x, has := p["headers"]; has {
			out = append(out, checkHeaders(base+".headers", x)...)
		}
		if x, has := p["models"]; has {
			list, ok := x.([]any)
			if !ok {
				out = append(out, base+".models: Expected array")
				continue
			}
			for i, e := range list {
				mp := fmt.Sprintf("%s.models.%d", base, i)
				m, ok := e.(map[string]any)
				if !ok {
					out = append(out, mp+": Expected object")
					continue
				}
				if s, ok := m["id"].(string); !ok || s == "" {
					out = append(out, mp+".id: Expected non-empty string")
				}
				if c, has := m["cost"]; has {
					cm, ok := c.(map[string]any)
					if !ok {
						out = append(out, mp+".cost: Expected object")
					} else {
						for _, f := range []string{"input", "output", "cacheRead", "cacheWrite"} {
							if _, ok := cm[f].(float64); !ok {
								out = append(out, mp+".cost."+f+": Expected number")
							}
						}
					}
				}
				if x, has := m["headers"]; has {
					out = append(out, checkHeaders(mp+".headers", x)...)
				}
			}
		}
	}
	return out
}

func checkHeaders(path string, v any) []string {
	m, ok := v.(map[string]any)
	if !ok {
		return []string{path + ": Expected object"}
	}
	var out []string
	for k, x := range m {
		if _, ok := x.(string); !ok {
			out = append(out, path+"."+k+": Expected string")
		}
	}
	return out
}
