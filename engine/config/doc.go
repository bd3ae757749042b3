// Package config loads what pi knows before a session starts: the agent
// directory, settings, the model registry (built-in catalog plus
// models.json), credentials (--api-key, auth.json, models.json, environment),
// the startup model and thinking level, and project trust.
//
// # Settings
//
// Load merges <agentDir>/settings.json with a trusted project's
// .pi/agent/settings.json and .pi/settings.json (the latter wins): nested
// objects merge key by key, arrays and scalars replace, and a defaultTools
// list of only +x/-x entries is appended to the inherited one. The keys
// defaultProjectTrust, httpProxy, cacheWarming and selfUpdateCommand come
// from the global file only. A malformed file becomes a warning
// ("Invalid settings file <path>: <reason>") and counts as empty. Typed
// getters read the case-preserving merged map (map keys such as
// "provider/id" are case-sensitive) and fall back to the reference's
// defaults, a plain table in settings.go.
// SetGlobal edits one key of the global file in place, keeping its own key
// spelling, order and unknown keys, and writes it atomically.
//
// # Models and credentials
//
// LoadModels starts from a small embedded catalog of OpenAI and Anthropic
// models, applies models.json (provider patches and custom providers, with
// the reference's defaults and error messages) and reads auth.json. A key
// is resolved in this order: the --api-key override, auth.json, the
// models.json apiKey ("$VAR", "${VAR}", "!command" or literal), then the
// provider's environment variables. A model is available when its provider
// has a configured credential; a "!command" counts without being run.
//
// # Project trust (non-interactive modes)
//
// ProjectTrusted decides in this order; the first rule that applies wins:
//
//	rule                                              result
//	--no-approve (-na)                                untrusted, nothing saved
//	--approve (-a)                                    trusted, nothing saved
//	no trust-gated resources in cwd                   saved decision for cwd or
//	                                                  an ancestor, else trusted
//	saved decision in trust.json (cwd or ancestor)    that decision
//	defaultProjectTrust "always" (global settings)    trusted
//	defaultProjectTrust "never" or "ask" (default)    untrusted (no UI to ask)
//
// Trust-gated resources are .pi/settings.json, .pi/mcp.json,
// .pi/{extensions,skills,prompts,themes}, .pi/SYSTEM.md,
// .pi/APPEND_SYSTEM.md, the .pi/agent alias folder, and a .agents/skills
// folder in cwd or any ancestor (except ~/.agents/skills). AGENTS.md is
// never gated. When both flags are given the CLI should pass only the last
// one, as the reference lets the last flag win; if both are set here,
// NoApprove wins. project_trust handlers of user extensions sit between the
// flags and the saved decision and are run by the caller.
package config
