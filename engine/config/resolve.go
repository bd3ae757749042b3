package config

import (
	"fmt"
	"path/filepath"
	"sort"
	"strings"
	"sync/atomic"

	"github.com/bmatcuk/doublestar/v4"

	"github.com/pi-go/pi/engine"
)

// docsDir is where the user-facing hints point for providers.md and
// models.md; SetDocsDir names the unpacked guides. Agents built in one
// process (SDK programs, tests) set and read it from several goroutines.
var docsDir atomic.Pointer[string]

// SetDocsDir makes credential hints name dir's providers.md and models.md.
func SetDocsDir(dir string) { docsDir.Store(&dir) }

// loginHelp is the hint appended to credential errors.
func loginHelp() string {
	dir := "docs"
	if d := docsDir.Load(); d != nil {
		dir = *d
	}
	return "Use /login to log into a provider via OAuth or API key. See:\n" +
		"  " + filepath.Join(dir, "providers.md") + "\n" +
		"  " + filepath.Join(dir, "models.md")
}

// NoModelsAvailableMessage is printed when no model has credentials.
func NoModelsAvailableMessage() string { return "No models available. " + loginHelp() }

// NoAPIKeyMessage is printed when the selected model's provider has no key;
// provider "" means the model is unknown.
func NoAPIKeyMessage(provider string) string {
	if provider == "" || provider == "unknown" {
		provider = "the selected model"
	}
	return "No API key found for " + provider + ".\n\n" + loginHelp()
}

// SelectFlags are the CLI options that pick the startup model.
type SelectFlags struct {
	Provider string   // --provider
	Model    string   // --model pattern[:thinking]
	Thinking string   // --thinking
	APIKey   string   // --api-key, applied to the selected model's provider
	Models   []string // --models patterns; nil means settings enabledModels
}

// SelectionError is a startup error the CLI prints as "Error: <msg>" and
// exits 1 on.
type SelectionError struct{ Msg string }

// Error is the line the reference prints for a model selection that
// stops the start: "Error: " and the message.
func (e *SelectionError) Error() string { return "Error: " + e.Msg }

// NoModelsError means no model could be chosen; its text is
// NoModelsAvailableMessage.
type NoModelsError struct{}

func (NoModelsError) Error() string { return NoModelsAvailableMessage() }

// defaultModelPerProvider is the preferred startup model per built-in
// provider, in the order the reference tries them.
var defaultModelPerProvider = []struct{ provider, id string }{
	{"amazon-bedrock", "us.anthropic.claude-opus-5-5"},
	{"ant-ling", "Ring-2.6-1T"},
	{"anthropic", "claude-opus-5-5"},
	{"openai", "gpt-6.2-sol"},
	{"azure", "gpt-6.2-sol"},
	{"openai-codex", "gpt-6.2-sol"},
	{"radius", "balanced"},
	{"nvidia", "nvidia/nemotron-3.5-super-vl-120b-a12b"},
	{"deepseek", "deepseek-v4-pro"},
	{"google", "gemini-4-argon"},
	{"google-vertex", "gemini-4-argon"},
	{"github-copilot", "gpt-6.1-sol"},
	{"openrouter", "moonshotai/kimi-k2.7-code"},
	{"vercel-ai-gateway", "zai/glm-5.3"},
	{"xai", "grok-4.7"},
	{"groq", "openai/gpt-oss-120b"},
	{"cerebras", "gpt-oss-120b"},
	{"zai", "glm-5.3"},
	{"zai-coding-cn", "glm-5.3"},
	{"mistral", "devstral-medium-latest"},
	{"minimax", "MiniMax-M3"},
	{"minimax-cn", "MiniMax-M3"},
	{"moonshotai", "kimi-k2.7-code"},
	{"moonshotai-cn", "kimi-k2.7-code"},
	{"huggingface", "moonshotai/Kimi-K2.7-Code"},
	{"fireworks", "accounts/fireworks/models/kimi-k3"},
	{"together", "moonshotai/Kimi-K3"},
	{"baseten", "zai-org/GLM-5.3"},
	{"opencode", "kimi-k2.7-code"},
	{"opencode-go", "kimi-k3.1-pro"},
	{"kimi-coding", "kimi-for-coding"},
	{"meta", "muse-spark-1.3"},
	{"cloudflare-workers-ai", "@cf/moonshotai/kimi-k2.7-code"},
	{"cloudflare-ai-gateway", "workers-ai/@cf/moonshotai/kimi-k2.7-code"},
	{"qwen-token-plan", "qwen3.8-max"},
	{"qwen-token-plan-cn", "qwen3.8-max"},
	{"qwen-token-plan-individual", "qwen3.8-max"},
	{"qwen-token-plan-individual-cn", "qwen3.8-max"},
	{"xiaomi", "mimo-v2.6-pro"},
	{"xiaomi-token-plan-cn", "mimo-v2.6-pro"},
	{"xiaomi-token-plan-ams", "mimo-v2.6-pro"},
	{"xiaomi-token-plan-sgp", "mimo-v2.6-pro"},
}

func defaultModelFor(provider string) string {
	for _, d := range defaultModelPerProvider {
		if d.provider == provider {
			return d.id
		}
	}
	return ""
}

// ScopedModel is one model of the --models / enabledModels scope, with the
// thinking level its pattern asked for ("" when none).
type ScopedModel struct {
	Model    *engine.Model
	Thinking engine.ThinkingLevel
}

// Resolve picks the startup model and thinking level from the CLI flags and
// settings, as the reference does for a new session: --model (with
// --provider and a :thinking suffix), else the first scoped model (the
// saved default if it is in scope), else settings defaultProvider and
// defaultModel if they have credentials, else a preferred default of a
// provider with credentials, else the first available model. The level
// comes from --thinking, the suffix, the scope pattern, modelThinkingLevels,
// then defaultThinkingLevel ("medium"), clamped to the model. warnings are
// printed as "Warning: <w>" and do not stop startup. --api-key is installed
// on the registry for the chosen model's provider.
func Resolve(reg *Registry, s *Settings, flags SelectFlags) (model *engine.Model, level engine.ThinkingLevel, warnings []string, err error) {
	if s == nil {
		s = FromMaps(nil, nil)
	}
	var cliThinking engine.ThinkingLevel
	if flags.Thinking != "" {
		if l, ok := engine.ParseThinkingLevel(flags.Thinking); ok {
			cliThinking = l
		} else {
			warnings = append(warnings, fmt.Sprintf("Invalid thinking level %q. Valid values: %s", flags.Thinking, levelList()))
		}
	}
	if flags.Provider != "" && flags.Model == "" {
		return nil, "", warnings, &SelectionError{Msg: fmt.Sprintf("--provider requires --model (for example: --provider %s --model <pattern>)", flags.Provider)}
	}
	var chosen engine.ThinkingLevel
	if flags.Model != "" {
		m, l, warn, err := resolveCLIModel(reg, flags.Provider, flags.Model, cliThinking, flags.APIKey != "")
		if warn != "" {
			warnings = append(warnings, warn)
		}
		if err != nil {
			return nil, "", warnings, err
		}
		model, chosen = m, l
	}
	patterns := flags.Models
	if patterns == nil {
		patterns = s.EnabledModels()
	}
	if model == nil && len(patterns) > 0 {
		scoped, diags := ScopeModels(patterns, reg.Available())
		warnings = append(warnings, diags...)
		if len(scoped) > 0 {
			pick := scoped[0]
			if dp, dm := s.DefaultProvider(), s.DefaultModel(); dp != "" && dm != "" {
				for _, sm := range scoped {
					if sm.Model.Provider == dp && sm.Model.ID == dm {
						pick = sm
						break
					}
				}
			}
			model, chosen = pick.Model, pick.Thinking
		}
	}
	if flags.APIKey != "" {
		if model == nil {
			return nil, "", warnings, &SelectionError{Msg: "--api-key requires a model to be specified via --model, --provider/--model, or --models"}
		}
		reg.SetAPIKeyOverride(model.Provider, flags.APIKey)
	}
	if model == nil {
		model = initialModel(reg, s)
	}
	if cliThinking != "" {
		chosen = cliThinking
	}
	if model == nil {
		return nil, engine.ThinkingOff, warnings, NoModelsError{}
	}
	if chosen == "" {
		if l, ok := s.ModelThinkingLevel(model.Provider, model.ID); ok {
			chosen = l
		}
	}
	if chosen == "" {
		chosen, _ = s.DefaultThinkingLevel()
	}
	return model, engine.ClampThinkingLevel(model, chosen), warnings, nil
}

func levelList() string {
	names := make([]string, len(engine.AllThinkingLevels))
	for i, l := range engine.AllThinkingLevels {
		names[i] = string(l)
	}
	return strings.Join(names, ", ")
}

// initialModel is the choice without --model or a scope.
func initialModel(reg *Registry, s *Settings) *engine.Model {
	if dp, dm := s.DefaultProvider(), s.DefaultModel(); dp != "" && dm != "" {
		if m := reg.Find(dp, dm); m != nil && reg.HasConfiguredAuth(m.Provider) {
			return m
		}
	}
	avail := reg.Available()
	for _, d := range defaultModelPerProvider {
		for _, m := range avail {
			if m.Provider == d.provider && m.ID == d.id {
				return m
			}
		}
	}
	if len(avail) > 0 {
		return avail[0]
	}
	return nil
}

// resolveCLIModel resolves --model against every model (not only those with
// credentials, so --api-key can set a provider up).
func resolveCLIModel(reg *Registry, cliProvider, cliModel string, cliThinking engine.ThinkingLevel, inlineKey bool) (*engine.Model, engine.ThinkingLevel, string, error) {
	usable := reg.HasConfiguredAuth
	if inlineKey {
		usable = func(string) bool { return false }
	}
	// An exact reference resolves among its few candidates without
	// reading every model (the whole catalog) at start; anything else
	// (fuzzy, a thinking suffix, --provider) takes the full path.
	if text := strings.TrimSpace(cliModel); cliProvider == "" && text != "" {
		if res, ok := selectReference(text, reg.exactCandidates(text), true, usable); ok {
			return finishCLIModel(res, cliModel, cliThinking, inlineKey)
		}
	}
	models := reg.All()
	if len(models) == 0 {
		return nil, "", "", &SelectionError{Msg: "No models available. Check your installation or add models to models.json."}
	}
	provider := ""
	if cliProvider != "" {
		for _, m := range models {
			if strings.EqualFold(m.Provider, cliProvider) {
				provider = m.Provider
				break
			}
		}
		if provider == "" {
			return nil, "", "", &SelectionError{Msg: fmt.Sprintf("Unknown provider %q. Use --list-models to see available providers/models.", cliProvider)}
		}
	}
	res := resolveReference(refRequest{text: cliModel, provider: provider, suffix: suffixStrict, fuzzy: true}, models, usable)
	return finishCLIModel(res, cliModel, cliThinking, inlineKey)
}

// finishCLIModel turns a resolved --model reference into the model, or
// the reference's error for an ambiguous or unknown one.
func finishCLIModel(res refResult, cliModel string, cliThinking engine.ThinkingLevel, inlineKey bool) (*engine.Model, engine.ThinkingLevel, string, error) {
	switch res.status {
	case statusResolved:
		return res.model, res.thinking, res.warning, nil
	case statusAmbiguous:
		refs := make([]string, len(res.candidates))
		for i, m := range res.candidates {
			refs[i] = m.Ref()
		}
		sort.Strings(refs)
		hint := "More than one matching provider is authenticated."
		if inlineKey {
			hint = "--api-key does not choose a provider."
		} else if res.usableCount == 0 {
			hint = "No matching provider is authenticated."
		}
		return nil, "", "", &SelectionError{Msg: fmt.Sprintf("Model %q is ambiguous across providers: %s. %s Use --provider or provider/model.", cliModel, strings.Join(refs, ", "), hint)}
	}
	t := res.target
	if t == nil {
		return nil, "", "", &SelectionError{Msg: fmt.Sprintf("Model %q not found. Use --list-models to see available models.", cliModel)}
	}
	// A provider that exists but lacks the id gets a custom model built on
	// its default model, so new ids work before the catalog knows them.
	modelID, fallbackThinking := t.modelID, t.thinking
	if cliThinking != "" {
		modelID, fallbackThinking = t.modelText, ""
	}
	base := t.providerModels[0]
	if def := defaultModelFor(t.provider); def != "" {
		for _, m := range t.providerModels {
			if m.ID == def {
				base = m
				break
			}
		}
	}
	m := *base
	m.ID, m.Name = modelID, modelID
	requested := cliThinking
	if requested == "" {
		requested = fallbackThinking
	}
	if requested != "" && requested != engine.ThinkingOff {
		m.Reasoning = true
	}
	if len(m.Raw) > 0 {
		// The reference spreads id and name (and reasoning) over the base
		// model, so the base's key order stays.
		m.Raw = setRawKeys(m.Raw, [][2]any{{"id", m.ID}, {"name", m.Name}, {"reasoning", m.Reasoning}})
	}
	return &m, fallbackThinking, fmt.Sprintf("Model %q not found for provider %q. Using custom model id.", modelID, t.provider), nil
}

// ScopeModels resolves --models / enabledModels patterns against models.
// Glob patterns (with * ? [) match "provider/id" or the id, case
// insensitively; other patterns resolve like --model. diagnostics are
// warning lines.
func ScopeModels(patterns []string, models []*engine.Model) (scoped []ScopedModel, diagnostics []string) {
	add := func(m *engine.Model, l engine.ThinkingLevel) {
		for _, s := range scoped {
			if s.Model.Provider == m.Provider && s.Model.ID == m.ID {
				return
			}
		}
		scoped = append(scoped, ScopedModel{Model: m, Thinking: l})
	}
	ambiguous := func(p string, cands []*engine.Model) {
		set := map[string]bool{}
		var provs []string
		for _, m := range cands {
			if !set[m.Provider] {
				set[m.Provider] = true
				provs = append(provs, m.Provider)
			}
		}
		sort.Strings(provs)
		diagnostics = append(diagnostics, fmt.Sprintf("Pattern %q matches several providers: %s. Use provider/id to choose one.", p, strings.Join(provs, ", ")))
	}
	all := func(string) bool { return true }
	for _, p := range patterns {
		if strings.ContainsAny(p, "*?[") {
			glob, level := p, engine.ThinkingLevel("")
			if base, l, ok := splitThinkingSuffix(p); ok {
				glob, level = base, l
			}
			var matches []*engine.Model
			exact := resolveReference(refRequest{text: glob, suffix: suffixNone}, models, all)
			switch exact.status {
			case statusResolved:
				matches = []*engine.Model{exact.model}
			case statusAmbiguous:
				matches = exact.candidates
				ambiguous(p, matches)
			default:
				lg := strings.ToLower(glob)
				for _, m := range models {
					a, _ := doublestar.Match(lg, strings.ToLower(m.Ref()))
					b, _ := doublestar.Match(lg, strings.ToLower(m.ID))
					if a || b {
						matches = append(matches, m)
					}
				}
			}
			if len(matches) == 0 {
				diagnostics = append(diagnostics, fmt.Sprintf("No models match pattern %q", p))
			}
			for _, m := range matches {
				add(m, level)
			}
			continue
		}
		res := resolveReference(refRequest{text: p, suffix: suffixLenient, fuzzy: true}, models, all)
		if res.status == statusNotFound {
			diagnostics = append(diagnostics, fmt.Sprintf("No models match pattern %q", p))
			continue
		}
		if res.warning != "" {
			diagnostics = append(diagnostics, res.warning)
		}
		if res.status == statusAmbiguous {
			ambiguous(p, res.candidates)
			for _, m := range res.candidates {
				add(m, res.thinking)
			}
			continue
		}
		add(res.model, res.thinking)
	}
	return scoped, diagnostics
}
