package config

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/pi-go/pi/engine"
	"github.com/pi-go/pi/internal/jsonx"
)

// Virtual models (pi.registerVirtualModel): catalog entries that a router
// maps to a physical model for each request. The registry lists them as
// models of their provider with the API "pi-virtual"; the request side
// (the root package) asks the router and sends the request to the model
// it picked.

// VirtualModelAPI is the API of a virtual model's catalog entry; no
// provider serves it, requests are routed first.
const VirtualModelAPI = "pi-virtual"

// VirtualModelStateEntry is the custom entry type that keeps a router's
// state on the session branch.
const VirtualModelStateEntry = "pi.virtual-model-state"

// virtualKey is the placeholder key of a provider that only has virtual
// models: it needs no credentials, but the session asks for a key before
// each request (the routed model's own key is resolved after routing).
const virtualKey = "pi-virtual"

// VirtualDef is what an extension's definition says about the catalog
// entry (its route function stays in the extension).
type VirtualDef struct {
	Provider       string   `json:"provider"`
	ID             string   `json:"id"`
	Name           *string  `json:"name"`
	ThinkingLevels []string `json:"thinkingLevels"`
	Input          []string `json:"input"`
	ContextWindow  *float64 `json:"contextWindow"`
	MaxTokens      *float64 `json:"maxTokens"`
}

// IsVirtual reports whether m is a virtual model's entry (a message that
// names one is a request whose routing failed).
func IsVirtual(m *engine.Model) bool { return m != nil && m.API == VirtualModelAPI }

// VirtualModel builds the catalog entry of a definition, in the
// reference's key order: every thinking level is in the map, null unless
// the definition offers it; input defaults to text and images; unset
// limits are 0 (unknown).
func VirtualModel(def VirtualDef) *engine.Model {
	levels := def.ThinkingLevels
	if levels == nil {
		levels = []string{"off"}
	}
	input := def.Input
	if input == nil {
		input = []string{"text", "image"}
	}
	tm := jsonx.NewBuilder()
	reasoning := false
	for _, l := range engine.AllThinkingLevels {
		if slices.Contains(levels, string(l)) {
			tm.Set(string(l), string(l))
		} else {
			tm.Set(string(l), nil)
		}
	}
	for _, l := range levels {
		reasoning = reasoning || l != "off"
	}
	tmb, _ := tm.Bytes()
	num := func(p *float64) int {
		if p == nil {
			return 0
		}
		return int(*p)
	}
	m := &engine.Model{ID: def.ID, API: VirtualModelAPI, Provider: def.Provider, Reasoning: reasoning,
		ThinkingLevelMap: tmb, Input: input, ContextWindow: num(def.ContextWindow), MaxTokens: num(def.MaxTokens)}
	b := jsonx.NewBuilder().Set("id", def.ID)
	if def.Name != nil {
		m.Name = *def.Name
		b.Set("name", *def.Name)
	} else {
		m.Name = def.ID
	}
	b.Set("api", VirtualModelAPI).Set("provider", def.Provider).Set("baseUrl", "").Set("reasoning", reasoning).
		Set("thinkingLevelMap", json.RawMessage(tmb)).Set("input", input).
		Set("cost", json.RawMessage(`{"input":0,"output":0,"cacheRead":0,"cacheWrite":0}`)).
		Set("contextWindow", m.ContextWindow).Set("maxTokens", m.MaxTokens)
	m.Raw, _ = b.Bytes()
	return m
}

// RegisterVirtualModel lists a virtual model under its provider, or
// replaces the one with its id. Its id must not be a physical model's. A
// provider of only virtual models needs no credentials; under a physical
// provider the model is available when that provider is.
func (r *Registry) RegisterVirtualModel(def VirtualDef) (*engine.Model, error) {
	if strings.TrimSpace(def.Provider) == "" || strings.TrimSpace(def.ID) == "" {
		return nil, errors.New("Virtual model provider and id must not be empty.")
	}
	m := VirtualModel(def)
	r.mu.Lock()
	defer r.mu.Unlock()
	g := r.group(def.Provider)
	if g != nil {
		for _, old := range g.list() {
			if old.ID == def.ID && !IsVirtual(old) {
				return nil, fmt.Errorf("Virtual model %s/%s conflicts with a physical model.", def.Provider, def.ID)
			}
		}
	}
	if pa := r.auth[def.Provider]; pa == nil && (g == nil || len(g.list()) == 0) {
		key := virtualKey
		r.auth[def.Provider] = &providerAuth{apiKey: &key}
	}
	r.version++
	if g == nil {
		g = &modelGroup{provider: def.Provider, cat: -1}
		r.groups = append(r.groups, g)
	}
	g.own()
	for i, old := range g.models {
		if old.ID == def.ID {
			g.models[i] = m
			return m, nil
		}
	}
	g.models = append(g.models, m)
	return m, nil
}

// UnregisterVirtualModel removes a virtual model; a physical model of the
// same provider and id is left alone.
func (r *Registry) UnregisterVirtualModel(provider, id string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	g := r.group(provider)
	if g == nil {
		return
	}
	i := slices.IndexFunc(g.list(), func(m *engine.Model) bool { return m.ID == id && IsVirtual(m) })
	if i < 0 {
		return
	}
	g.own()
	kept := slices.Delete(slices.Clone(g.models), i, i+1)
	r.replaceProviderModels(provider, kept)
	if len(kept) == 0 {
		if pa := r.auth[provider]; pa != nil && pa.apiKey != nil && *pa.apiKey == virtualKey {
			delete(r.auth, provider)
		}
	}
}

// PhysicalModel is a catalog model that is not virtual, or nil.
func (r *Registry) PhysicalModel(provider, id string) *engine.Model {
	m := r.Find(provider, id)
	if m == nil || IsVirtual(m) {
		return nil
	}
	return m
}

// HasVirtualModels reports whether a virtual model is registered. A
// virtual model always lives in a provider group of its own models (see
// RegisterVirtualModel's g.own), so only those are looked at, not the
// static catalog.
func (r *Registry) HasVirtualModels() bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, g := range r.groups {
		for _, m := range g.models {
			if IsVirtual(m) {
				return true
			}
		}
	}
	return false
}
