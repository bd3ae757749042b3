package jsruntime

import (
	"encoding/json"
	"path/filepath"
	"strings"
)

// esmStrictPrefix starts a bundle whose every source the reference runs
// as strict code. The reference loads extensions through a TypeScript
// transform that turns each .ts file (even one written CommonJS-style)
// and each ES module into a strict CommonJS module whose top-level this
// is undefined, while a plain CommonJS .js or .cjs file runs sloppy with
// this === module.exports, as Node runs it. Strictness is lexical, so one
// bundle can only be one or the other: it is strict when all its sources
// are, and sloppy (as before) when any CommonJS JavaScript is bundled in,
// since running sloppy code strict can break it while the reverse only
// misses an error. The marker comment tells runBundle to call the bundle
// with an undefined this; it differs from a "use strict" that esbuild
// copies from a CommonJS entry, whose this stays module.exports.
const esmStrictPrefix = `"use strict";/*pi:esm*/`

// strictSources reports whether every bundled file runs strict in the
// reference: TypeScript and .mjs files always, other JavaScript only when
// esbuild saw ES module syntax in it. JSON carries no code.
func strictSources(inputs []string, formats map[string]string) bool {
	if len(inputs) == 0 {
		return false
	}
	for _, p := range inputs {
		switch strings.ToLower(filepath.Ext(p)) {
		case ".ts", ".mts", ".cts", ".tsx", ".mjs", ".json":
			continue
		}
		if formats[p] != "esm" {
			return false
		}
	}
	return true
}

// inputFormats maps each bundled file (absolute) of an esbuild metafile to
// the module format esbuild detected in it ("esm", "cjs" or "").
func inputFormats(meta, wd string) map[string]string {
	var m struct {
		Inputs map[string]struct {
			Format string `json:"format"`
		} `json:"inputs"`
	}
	if json.Unmarshal([]byte(meta), &m) != nil {
		return nil
	}
	out := make(map[string]string, len(m.Inputs))
	for p, v := range m.Inputs {
		if strings.Contains(p, ":") && !filepath.IsAbs(p) {
			continue
		}
		if !filepath.IsAbs(p) {
			p = filepath.Join(wd, p)
		}
		out[p] = v.Format
	}
	return out
}

// markStrict prefixes code with esmStrictPrefix when its sources are all
// strict. The prefix stays on the first line, so the inline source map's
// lines are unchanged.
func markStrict(code string, inputs []string, formats map[string]string) string {
	if strictSources(inputs, formats) {
		return esmStrictPrefix + code
	}
	return code
}
