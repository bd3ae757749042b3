package vmod

import (
	"embed"
	"fmt"
)

//go:embed js/*.js
var files embed.FS

// fileOf maps each host module name to the file that implements it.
var fileOf = map[string]string{
	"typebox":                             "typebox.js",
	"typebox/value":                       "typebox_value.js",
	"typebox/compile":                     "typebox_compile.js",
	"@earendil-works/pi-ai":               "pi_ai.js",
	"@earendil-works/pi-ai/models":        "pi_ai_models.js",
	"@earendil-works/pi-ai/oauth":         "pi_ai_oauth.js",
	"@earendil-works/pi-ai/providers/all": "pi_ai_providers.js",
	"@earendil-works/pi-agent-core":       "pi_agent_core.js",
	"@earendil-works/pi-tui":              "pi_tui.js",
	"@earendil-works/pi-coding-agent":     "pi_coding_agent.js",
}

// Sources maps a canonical module name to its CommonJS source text.
var Sources = load()

// Aliases maps the other names extensions import to a canonical name in
// Sources: the legacy @mariozechner and @sinclair scopes, and pi-ai/compat,
// which the reference serves from the same module as the pi-ai root.
var Aliases = map[string]string{
	"@sinclair/typebox":                 "typebox",
	"@sinclair/typebox/value":           "typebox/value",
	"@sinclair/typebox/compile":         "typebox/compile",
	"@earendil-works/pi-ai/compat":      "@earendil-works/pi-ai",
	"@mariozechner/pi-ai":               "@earendil-works/pi-ai",
	"@mariozechner/pi-ai/compat":        "@earendil-works/pi-ai",
	"@mariozechner/pi-ai/models":        "@earendil-works/pi-ai/models",
	"@mariozechner/pi-ai/oauth":         "@earendil-works/pi-ai/oauth",
	"@mariozechner/pi-ai/providers/all": "@earendil-works/pi-ai/providers/all",
	"@mariozechner/pi-agent-core":       "@earendil-works/pi-agent-core",
	"@mariozechner/pi-tui":              "@earendil-works/pi-tui",
	"@mariozechner/pi-coding-agent":     "@earendil-works/pi-coding-agent",
}

// Canonical resolves an alias to its canonical module name and reports
// whether the name is a host module at all.
func Canonical(name string) (string, bool) {
	if c, ok := Aliases[name]; ok {
		name = c
	}
	_, ok := Sources[name]
	return name, ok
}

func load() map[string]string {
	out := make(map[string]string, len(fileOf))
	for name, file := range fileOf {
		b, err := files.ReadFile("js/" + file)
		if err != nil {
			// The files are embedded at build time, so a missing one is a
			// programming error in fileOf, not a runtime condition.
			panic(fmt.Sprintf("vmod: %s: %v", name, err))
		}
		out[name] = string(b)
	}
	return out
}
