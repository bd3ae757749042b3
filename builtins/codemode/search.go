package codemode

import (
	"math"
	"sort"
	"strings"
	"unicode"
)

// defaultSearchLimit is how many tools searchTools() and tool_search
// return when the caller gives no limit.
const defaultSearchLimit = 8

// searchDoc is one tool as the ranking sees it.
type searchDoc struct {
	name string
	text string // name, namespace and description
}

// tokenize lowercases and splits on anything but letters and digits, so
// "mcp__dev-radius__search" gives mcp, dev, radius, search.
func tokenize(s string) []string {
	return strings.FieldsFunc(strings.ToLower(s), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r)
	})
}

// rank orders docs by BM25 relevance to query (k1 1.2, b 0.75) and
// returns the indexes of those matching at least one query term, best
// first; equal scores keep the docs' order.
func rank(docs []searchDoc, query string, limit int) []int {
	if limit <= 0 {
		limit = defaultSearchLimit
	}
	terms := tokenize(query)
	if len(terms) == 0 || len(docs) == 0 {
		return nil
	}
	const k1, b = 1.2, 0.75
	tfs := make([]map[string]int, len(docs))
	lens := make([]int, len(docs))
	df := map[string]int{}
	total := 0
	for i, d := range docs {
		toks := tokenize(d.text)
		tf := map[string]int{}
		for _, t := range toks {
			tf[t]++
		}
		for t := range tf {
			df[t]++
		}
		tfs[i], lens[i] = tf, len(toks)
		total += len(toks)
	}
	avg := float64(total) / float64(len(docs))
	if avg == 0 {
		avg = 1
	}
	n := float64(len(docs))
	type scored struct {
		i     int
		score float64
	}
	var out []scored
	for i := range docs {
		var s float64
		for _, t := range terms {
			f := float64(tfs[i][t])
			if f == 0 {
				continue
			}
			idf := math.Log(1 + (n-float64(df[t])+0.5)/(float64(df[t])+0.5))
			s += idf * f * (k1 + 1) / (f + k1*(1-b+b*float64(lens[i])/avg))
		}
		if s > 0 {
			out = append(out, scored{i, s})
		}
	}
	sort.SliceStable(out, func(a, b int) bool { return out[a].score > out[b].score })
	if len(out) > limit {
		out = out[:limit]
	}
	idx := make([]int, len(out))
	for i, s := range out {
		idx[i] = s.i
	}
	return idx
}

// namespaceKey folds a namespace name for lookups: "mcp__dev-radius",
// "mcp__dev_radius", "dev-radius" and "dev_radius" all name one server.
func namespaceKey(s string) string {
	return strings.ReplaceAll(strings.ToLower(s), "-", "_")
}

// matchesNamespace reports whether ns answers to name.
func matchesNamespace(ns *Namespace, name string) bool {
	if ns == nil {
		return false
	}
	k := namespaceKey(name)
	if namespaceKey(ns.Name) == k || "mcp__"+namespaceKey(ns.Name) == k {
		return true
	}
	for _, a := range ns.Aliases {
		if namespaceKey(a) == k || "mcp__"+namespaceKey(a) == k {
			return true
		}
	}
	return false
}
