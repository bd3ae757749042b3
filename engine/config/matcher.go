package config

import (
	"fmt"
	"regexp"
	"sort"
	"strings"
	"sync"

	"github.com/pi-go/pi/engine"
)

// suffixMode says how a ":level" suffix in a model pattern is treated.
type suffixMode int

const (
	suffixNone    suffixMode = iota // no suffix parsing at all
	suffixStrict                    // a bad suffix stays part of the id (and usually fails)
	suffixLenient                   // a bad suffix is dropped with a warning
)

type refStatus int

const (
	statusNotFound refStatus = iota
	statusResolved
	statusAmbiguous
)

type refRequest struct {
	text     string
	provider string
	suffix   suffixMode
	fuzzy    bool
}

// refTarget describes a not-found reference whose provider exists: the
// caller may build a custom model on that provider.
type refTarget struct {
	provider       string
	providerModels []*engine.Model
	modelText      string
	modelID        string
	thinking       engine.ThinkingLevel
}

type refResult struct {
	status      refStatus
	model       *engine.Model
	thinking    engine.ThinkingLevel
	warning     string
	candidates  []*engine.Model
	usableCount int
	target      *refTarget
}

// splitThinkingSuffix splits "pattern:level" when level is valid.
func splitThinkingSuffix(text string) (string, engine.ThinkingLevel, bool) {
	i := strings.LastIndexByte(text, ':')
	if i < 0 {
		return "", "", false
	}
	l, ok := engine.ParseThinkingLevel(text[i+1:])
	if !ok {
		return "", "", false
	}
	return text[:i], l, true
}

// splitProviderPrefix finds the longest known provider id that text starts
// with followed by "/". Provider ids may contain "/" themselves.
func splitProviderPrefix(text string, models []*engine.Model) (provider, modelText string, ok bool) {
	lower := strings.ToLower(text)
	for _, m := range models {
		prefix := strings.ToLower(strings.TrimSpace(m.Provider))
		if prefix == "" || (ok && len(provider) >= len(m.Provider)) {
			continue
		}
		if len(prefix) > len(lower) {
			continue
		}
		slash := strings.IndexByte(lower[len(prefix):], '/')
		if slash < 0 {
			continue
		}
		slash += len(prefix)
		if strings.TrimSpace(lower[:slash]) != prefix {
			continue
		}
		mt := strings.TrimSpace(text[slash+1:])
		if mt != "" {
			provider, modelText, ok = m.Provider, mt, true
		}
	}
	return provider, modelText, ok
}

// resolveReference resolves a model reference: "provider/id", an exact id,
// a fuzzy match on id or name, each optionally with a ":level" suffix.
// usable only breaks ties between providers.
func resolveReference(req refRequest, models []*engine.Model, usable func(string) bool) refResult {
	text := strings.TrimSpace(req.text)
	if text == "" {
		return refResult{}
	}
	pool := models
	if req.provider != "" {
		pool = nil
		for _, m := range models {
			if strings.EqualFold(m.Provider, req.provider) {
				pool = append(pool, m)
			}
		}
	}
	res := resolveText(text, req, pool, usable)
	if res.status != statusNotFound {
		return res
	}
	sp, smt, sok := splitProviderPrefix(text, pool)
	var anchor *engine.Model
	if req.provider != "" {
		if len(pool) > 0 {
			anchor = pool[0]
		}
	} else if sok {
		for _, m := range pool {
			if m.Provider == sp {
				anchor = m
				break
			}
		}
	}
	if anchor == nil {
		return res
	}
	modelText := text
	if sok {
		modelText = smt
	}
	t := &refTarget{provider: anchor.Provider, modelText: modelText, modelID: modelText}
	t.providerModels = append(t.providerModels, anchor)
	for _, m := range pool {
		if m.Provider == anchor.Provider && m != anchor {
			t.providerModels = append(t.providerModels, m)
		}
	}
	if req.suffix != suffixNone {
		if base, l, ok := splitThinkingSuffix(modelText); ok {
			t.modelID, t.thinking = base, l
		}
	}
	return refResult{status: statusNotFound, target: t}
}

func resolveText(text string, req refRequest, pool []*engine.Model, usable func(string) bool) refResult {
	if r, ok := selectReference(text, pool, req.fuzzy, usable); ok {
		return r
	}
	if req.fuzzy {
		if r, ok := selectFuzzy(fuzzyMatches(text, pool), usable); ok {
			return r
		}
	}
	if req.suffix == suffixNone {
		return refResult{}
	}
	if base, l, ok := splitThinkingSuffix(text); ok {
		inner := resolveText(base, req, pool, usable)
		if inner.status == statusNotFound {
			return inner
		}
		if inner.warning == "" {
			inner.thinking = l
		} else {
			inner.thinking = ""
		}
		return inner
	}
	if req.suffix == suffixStrict {
		return refResult{}
	}
	i := strings.LastIndexByte(text, ':')
	if i < 0 {
		return refResult{}
	}
	inner := resolveText(text[:i], req, pool, usable)
	if inner.status == statusNotFound {
		return inner
	}
	inner.thinking = ""
	inner.warning = fmt.Sprintf("Invalid thinking level %q in pattern %q. Using default instead.", text[i+1:], text)
	return inner
}

// selectReference handles exact ids and "provider/id". The named provider
// wins when usable; otherwise a sole usable raw-id match wins.
func selectReference(text string, pool []*engine.Model, fuzzy bool, usable func(string) bool) (refResult, bool) {
	lower := strings.ToLower(text)
	var raw []*engine.Model
	for _, m := range pool {
		if strings.ToLower(m.ID) == lower {
			raw = append(raw, m)
		}
	}
	var named *engine.Model
	if sp, smt, ok := splitProviderPrefix(text, pool); ok {
		var provModels []*engine.Model
		for _, m := range pool {
			if m.Provider == sp {
				provModels = append(provModels, m)
			}
		}
		lmt := strings.ToLower(smt)
		for _, m := range provModels {
			if strings.ToLower(m.ID) == lmt {
				named = m
				break
			}
		}
		if named == nil {
			for _, m := range raw {
				if m.Provider == sp {
					named = m
					break
				}
			}
		}
		if named == nil && fuzzy {
			named = bestFuzzyMatch(fuzzyMatches(smt, provModels))
		}
	}
	var others []*engine.Model
	for _, m := range raw {
		if m != named {
			others = append(others, m)
		}
	}
	cands := others
	if named != nil {
		cands = append([]*engine.Model{named}, others...)
	}
	if len(cands) == 0 {
		return refResult{}, false
	}
	if providerCount(cands) == 1 {
		return refResult{status: statusResolved, model: cands[0]}, true
	}
	if named != nil && usable(named.Provider) {
		return refResult{status: statusResolved, model: named}, true
	}
	var usableOthers []*engine.Model
	for _, m := range others {
		if usable(m.Provider) {
			usableOthers = append(usableOthers, m)
		}
	}
	if len(usableOthers) == 1 {
		return refResult{status: statusResolved, model: usableOthers[0]}, true
	}
	if len(usableOthers) == 0 && named != nil {
		return refResult{status: statusResolved, model: named}, true
	}
	return refResult{status: statusAmbiguous, candidates: cands, usableCount: len(usableOthers)}, true
}

func providerCount(ms []*engine.Model) int {
	set := map[string]bool{}
	for _, m := range ms {
		set[m.Provider] = true
	}
	return len(set)
}

func fuzzyMatches(text string, models []*engine.Model) []*engine.Model {
	lower := strings.ToLower(text)
	var out []*engine.Model
	for _, m := range models {
		if strings.Contains(strings.ToLower(m.ID), lower) || strings.Contains(strings.ToLower(m.Name), lower) {
			out = append(out, m)
		}
	}
	return out
}

func selectFuzzy(matches []*engine.Model, usable func(string) bool) (refResult, bool) {
	if len(matches) == 0 {
		return refResult{}, false
	}
	pool := matches
	var usableMatches []*engine.Model
	if providerCount(matches) > 1 {
		for _, m := range matches {
			if usable(m.Provider) {
				usableMatches = append(usableMatches, m)
			}
		}
		if len(usableMatches) > 0 {
			pool = usableMatches
		}
	}
	best := bestFuzzyMatch(pool)
	if best == nil {
		return refResult{}, false
	}
	var tied []*engine.Model
	for _, m := range pool {
		if m.ID == best.ID {
			tied = append(tied, m)
		}
	}
	if providerCount(tied) == 1 {
		return refResult{status: statusResolved, model: best}, true
	}
	uc := 0
	if len(usableMatches) > 0 {
		uc = len(tied)
	}
	return refResult{status: statusAmbiguous, candidates: tied, usableCount: uc}, true
}

var datedSuffix = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`-\d{8}$`) })

// isAlias prefers "claude-sonnet-4-5" over "claude-sonnet-4-5-20250929".
func isAlias(id string) bool {
	return strings.HasSuffix(id, "-latest") || !datedSuffix().MatchString(id)
}

// bestFuzzyMatch picks an alias over a dated id, then the greatest id.
func bestFuzzyMatch(ms []*engine.Model) *engine.Model {
	var aliases []*engine.Model
	for _, m := range ms {
		if isAlias(m.ID) {
			aliases = append(aliases, m)
		}
	}
	pool := ms
	if len(aliases) > 0 {
		pool = aliases
	}
	if len(pool) == 0 {
		return nil
	}
	sorted := append([]*engine.Model(nil), pool...)
	sort.SliceStable(sorted, func(i, j int) bool { return localeLess(sorted[j].ID, sorted[i].ID) })
	return sorted[0]
}

// localeLess approximates JavaScript's localeCompare for ids: case-folded
// order first, then the raw bytes.
func localeLess(a, b string) bool {
	la, lb := strings.ToLower(a), strings.ToLower(b)
	if la != lb {
		return la < lb
	}
	return a < b
}
