package vmod

import _ "embed" // the module sources below are embedded strings

// Each module's source is embedded as a string, which Go keeps in the
// binary's read-only data: Sources refers to it without copying. Reading
// them from an embed.FS at init copied ~280 KB on every start of pi, even
// with no extension to load.
var (
	//go:embed js/typebox.js
	typeboxJS string
	//go:embed js/typebox_value.js
	typeboxValueJS string
	//go:embed js/typebox_compile.js
	typeboxCompileJS string
	//go:embed js/pi_ai.js
	piAIJS string
	//go:embed js/pi_ai_models.js
	piAIModelsJS string
	//go:embed js/pi_ai_oauth.js
	piAIOAuthJS string
	//go:embed js/pi_ai_providers.js
	piAIProvidersJS string
	//go:embed js/pi_agent_core.js
	piAgentCoreJS string
	//go:embed js/pi_tui.js
	piTUIJS string
	//go:embed js/pi_coding_agent.js
	piCodingAgentJS string
	//go:embed js/pi_coding_agent_core.js
	piCodingAgentCoreJS string
	//go:embed js/pi_ai_core.js
	piAICoreJS string
)

// Sources maps a canonical module name to its CommonJS source text.
var Sources = map[string]string{
	"typebox":                             typeboxJS,
	"typebox/value":                       typeboxValueJS,
	"typebox/compile":                     typeboxCompileJS,
	"@earendil-works/pi-ai":               piAIJS,
	"@earendil-works/pi-ai/models":        piAIModelsJS,
	"@earendil-works/pi-ai/oauth":         piAIOAuthJS,
	"@earendil-works/pi-ai/providers/all": piAIProvidersJS,
	"@earendil-works/pi-agent-core":       piAgentCoreJS,
	"@earendil-works/pi-tui":              piTUIJS,
	"@earendil-works/pi-coding-agent":     piCodingAgentJS,
	// Internal parts of the packages above (see Cores).
	"pi:internal/coding-agent-core": piCodingAgentCoreJS,
	"pi:internal/ai-core":           piAICoreJS,
}

// Cores maps a package to its internal core module: a small module whose
// exports the package re-exports unchanged. The runtime's lazy stand-in
// for the package serves those names from the core, so the uses common
// while extensions load (StringEnum, getAgentDir, tool factories, the
// mutation queue) compile a few KB instead of the whole package.
var Cores = map[string]string{
	"@earendil-works/pi-coding-agent": "pi:internal/coding-agent-core",
	"@earendil-works/pi-ai":           "pi:internal/ai-core",
}

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
