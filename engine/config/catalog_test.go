package config

import (
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/pi-go/pi/engine"
)

// TestCatalogCounts pins the catalog to the reference's: its providers in
// order with their model counts (pi-ai 1.6.0's builtinProviders()).
func TestCatalogCounts(t *testing.T) {
	t.Parallel()
	want := []struct {
		id string
		n  int
	}{
		{"amazon-bedrock", 208}, {"ant-ling", 3}, {"anthropic", 18}, {"azure", 48}, {"baseten", 15}, {"cerebras", 2},
		{"cloudflare-ai-gateway", 63}, {"cloudflare-workers-ai", 20}, {"deepseek", 2}, {"fireworks", 27},
		{"github-copilot", 35}, {"google", 26}, {"google-vertex", 17}, {"groq", 7}, {"huggingface", 87},
		{"kimi-coding", 6}, {"meta", 7}, {"minimax", 4}, {"minimax-cn", 4}, {"mistral", 34}, {"moonshotai", 6},
		{"moonshotai-cn", 6}, {"nvidia", 12}, {"openai", 47}, {"openai-codex", 10}, {"opencode", 84},
		{"opencode-go", 33}, {"openrouter", 417}, {"qwen-token-plan", 20}, {"qwen-token-plan-cn", 20},
		{"qwen-token-plan-individual", 13}, {"qwen-token-plan-individual-cn", 13}, {"radius", 39},
		{"together", 16}, {"vercel-ai-gateway", 305}, {"xai", 4}, {"xiaomi", 3}, {"xiaomi-token-plan-ams", 2},
		{"xiaomi-token-plan-cn", 2}, {"xiaomi-token-plan-sgp", 2}, {"zai", 7}, {"zai-coding-cn", 4},
	}
	if len(catalog) != 1698 || len(catalogProviders) != len(want) {
		t.Fatalf("%d models of %d providers", len(catalog), len(catalogProviders))
	}
	for i, w := range want {
		p := catalogProviders[i]
		if p.id != w.id || p.end-p.start != w.n {
			t.Errorf("provider %d: %s with %d models, want %s with %d", i, p.id, p.end-p.start, w.id, w.n)
		}
		for _, m := range catalog[p.start:p.end] {
			if m.Provider != p.id || !m.Catalog || len(m.Raw) == 0 {
				t.Fatalf("%s: model %s of %s in its span", p.id, m.ID, m.Provider)
			}
		}
	}
	for _, d := range defaultModelPerProvider {
		if findCatalog(d.provider, d.id) == nil {
			t.Errorf("default %s/%s is not in the catalog", d.provider, d.id)
		}
	}
}

func findCatalog(provider, id string) *engine.Model {
	ci := catalogProviderIndex(provider)
	if ci < 0 {
		return nil
	}
	for _, m := range catalogModels(ci) {
		if m.ID == id {
			return m
		}
	}
	return nil
}

// TestCatalogSpotModels checks a few models field by field and that each
// serialises as the reference's own JSON.
func TestCatalogSpotModels(t *testing.T) {
	t.Parallel()
	groq := findCatalog("groq", "openai/gpt-oss-120b")
	if groq == nil || groq.API != engine.APIOpenAICompletions || groq.BaseURL != "https://api.groq.com/openai/v1" ||
		!groq.Reasoning || groq.ContextWindow != 131072 || groq.MaxTokens != 65536 || groq.Cost.CacheRead != 0.075 ||
		string(groq.Compat) != `{"supportsStrictMode":true}` {
		t.Fatalf("groq model: %+v", groq)
	}
	want := `{"id":"openai/gpt-oss-120b","name":"GPT OSS 120B","api":"openai-completions","provider":"groq","baseUrl":"https://api.groq.com/openai/v1","reasoning":true,"input":["text"],"cost":{"input":0.15,"output":0.6,"cacheRead":0.075,"cacheWrite":0},"contextWindow":131072,"maxTokens":65536,"compat":{"supportsStrictMode":true},"thinkingLevelMap":{"off":null,"minimal":null,"low":"low","medium":"medium","high":"high","xhigh":null,"max":null},"type":"chat"}`
	if got := marshal(t, groq); got != want {
		t.Errorf("groq JSON:\n%s\nwant\n%s", got, want)
	}
	// Catalog headers come back as a map for the adapters.
	cop := findCatalog("github-copilot", "claude-fable-5")
	if cop == nil || cop.Headers["Copilot-Integration-Id"] != "vscode-chat" || cop.Headers["User-Agent"] != "GitHubCopilotChat/0.35.0" {
		t.Fatalf("copilot headers: %+v", cop)
	}
	for _, tt := range []struct{ provider, id, api string }{
		{"amazon-bedrock", "us.anthropic.claude-opus-5-5", engine.APIBedrockConverseStream},
		{"google", "gemini-4-argon", engine.APIGoogleGenerativeAI},
		{"mistral", "devstral-medium-latest", engine.APIMistralConversations},
		{"openai-codex", "gpt-6.2-sol", engine.APIOpenAICodexResponses},
		{"openrouter", "moonshotai/kimi-k2.7-code", engine.APIOpenAICompletions},
		{"radius", "balanced", "pi-messages"},
	} {
		if m := findCatalog(tt.provider, tt.id); m == nil || m.API != tt.api {
			t.Errorf("%s/%s: %+v", tt.provider, tt.id, m)
		}
	}
	if got := CatalogProviderName("openrouter"); got != "OpenRouter" {
		t.Error(got)
	}
}

// TestLazyRegistry: a registry shares the static catalog for every
// provider nothing changed, copies only the providers models.json
// touches, and still applies the overrides.
func TestLazyRegistry(t *testing.T) {
	t.Parallel()
	r, errs := loadTestRegistry(t, `{"providers": {
		"openrouter": {"baseUrl": "https://proxy.example/v1"},
		"groq": {"modelOverrides": {"openai/gpt-oss-120b": {"name": "Renamed", "maxTokens": 1000}}},
		"mine": {"baseUrl": "http://127.0.0.1:1/v1", "api": "openai-completions", "apiKey": "k", "models": [{"id": "m"}]}
	}}`, "", map[string]string{"GROQ_API_KEY": "x"})
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	for _, g := range r.groups {
		touched := g.provider == "openrouter" || g.provider == "groq" || g.provider == "mine"
		if touched != (g.cat < 0) {
			t.Errorf("group %s: cat %d", g.provider, g.cat)
		}
	}
	// Untouched providers are the static models themselves.
	ci := catalogProviderIndex("anthropic")
	if m := r.Find("anthropic", catalog[catalogProviders[ci].start].ID); m != &catalog[catalogProviders[ci].start] {
		t.Error("anthropic model was copied")
	}
	or := r.Find("openrouter", "moonshotai/kimi-k2.7-code")
	if or == nil || or.BaseURL != "https://proxy.example/v1" || !strings.Contains(marshal(t, or), `"baseUrl":"https://proxy.example/v1","provider":"openrouter"`) {
		t.Fatalf("openrouter baseUrl override: %+v", or)
	}
	if c := findCatalog("openrouter", "moonshotai/kimi-k2.7-code"); c.BaseURL != "https://openrouter.ai/api/v1" {
		t.Error("the static catalog changed:", c.BaseURL)
	}
	g := r.Find("groq", "openai/gpt-oss-120b")
	if g == nil || g.Name != "Renamed" || g.MaxTokens != 1000 || !strings.Contains(marshal(t, g), `"name":"Renamed"`) {
		t.Fatalf("groq override: %+v", g)
	}
	all := r.All()
	if len(all) != len(catalog)+1 || all[len(all)-1].Provider != "mine" || all[0].Provider != "amazon-bedrock" {
		t.Fatalf("All: %d models", len(all))
	}
	avail := r.Available()
	if len(avail) != 7+1 || avail[0].Provider != "groq" || avail[7].Provider != "mine" {
		t.Fatalf("Available: %d", len(avail))
	}
	// An extension's models replace a built-in provider's in place.
	r.replaceProviderModels("anthropic", []*engine.Model{{ID: "x", Provider: "anthropic"}})
	if got := r.providerModels("anthropic"); len(got) != 1 || got[0].ID != "x" {
		t.Fatal(got)
	}
	if r.groups[2].provider != "anthropic" {
		t.Error("anthropic moved")
	}
	r.AddModels("groq", nil, &engine.Model{ID: "extra", Provider: "groq"})
	if ms := r.providerModels("groq"); len(ms) != 8 || ms[7].ID != "extra" {
		t.Fatal(len(ms))
	}
}

// TestBuiltinEnvAuth: which environments make a built-in provider
// available, as get_available_models reports it in the reference.
func TestBuiltinEnvAuth(t *testing.T) {
	t.Parallel()
	adc := filepath.Join(t.TempDir(), "adc.json")
	if err := os.WriteFile(adc, []byte("{}"), 0o600); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name     string
		provider string
		env      map[string]string
		auth     string
		want     bool
	}{
		{"groq key", "groq", map[string]string{"GROQ_API_KEY": "x"}, "", true},
		{"qwen shared key", "qwen-token-plan-individual", map[string]string{"QWEN_TOKEN_PLAN_API_KEY": "x"}, "", true},
		{"moonshot cn shares the key", "moonshotai-cn", map[string]string{"MOONSHOT_API_KEY": "x"}, "", true},
		{"cloudflare without account", "cloudflare-workers-ai", map[string]string{"CLOUDFLARE_API_KEY": "x"}, "", false},
		{"cloudflare with account", "cloudflare-workers-ai", map[string]string{"CLOUDFLARE_API_KEY": "x", "CLOUDFLARE_ACCOUNT_ID": "a"}, "", true},
		{"gateway without gateway id", "cloudflare-ai-gateway", map[string]string{"CLOUDFLARE_API_KEY": "x", "CLOUDFLARE_ACCOUNT_ID": "a"}, "", false},
		{"stored cloudflare key with account in its env", "cloudflare-workers-ai", nil, `{"cloudflare-workers-ai":{"type":"api_key","key":"x","env":{"CLOUDFLARE_ACCOUNT_ID":"a"}}}`, true},
		{"stored cloudflare key alone", "cloudflare-workers-ai", nil, `{"cloudflare-workers-ai":{"type":"api_key","key":"x"}}`, false},
		{"codex takes no key", "openai-codex", nil, `{"openai-codex":{"type":"api_key","key":"x"}}`, false},
		{"codex login", "openai-codex", nil, `{"openai-codex":{"type":"oauth","access":"a","refresh":"r","expires":1}}`, true},
		{"bedrock profile", "amazon-bedrock", map[string]string{"AWS_PROFILE": "p"}, "", true},
		{"bedrock half keys", "amazon-bedrock", map[string]string{"AWS_ACCESS_KEY_ID": "a"}, "", false},
		{"bedrock keys", "amazon-bedrock", map[string]string{"AWS_ACCESS_KEY_ID": "a", "AWS_SECRET_ACCESS_KEY": "s"}, "", true},
		{"bedrock stored profile", "amazon-bedrock", nil, `{"amazon-bedrock":{"type":"api_key","env":{"AWS_PROFILE":"p"}}}`, true},
		{"vertex ADC", "google-vertex", map[string]string{"GOOGLE_APPLICATION_CREDENTIALS": adc, "GOOGLE_CLOUD_PROJECT": "p", "GOOGLE_CLOUD_LOCATION": "l"}, "", true},
		{"vertex ADC without location", "google-vertex", map[string]string{"GOOGLE_APPLICATION_CREDENTIALS": adc, "GCLOUD_PROJECT": "p"}, "", false},
		{"vertex missing ADC file", "google-vertex", map[string]string{"GOOGLE_APPLICATION_CREDENTIALS": adc + ".no", "GOOGLE_CLOUD_PROJECT": "p", "GOOGLE_CLOUD_LOCATION": "l"}, "", false},
		{"vertex key", "google-vertex", map[string]string{"GOOGLE_CLOUD_API_KEY": "k"}, "", true},
		{"anthropic bearer token", "anthropic", map[string]string{"ANTHROPIC_AUTH_TOKEN": "t"}, "", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			env := map[string]string{"HOME": t.TempDir()}
			for k, v := range tt.env {
				env[k] = v
			}
			r, errs := loadTestRegistry(t, "", tt.auth, env)
			if len(errs) > 0 {
				t.Fatal(errs)
			}
			if got := r.HasConfiguredAuth(tt.provider); got != tt.want {
				t.Errorf("configured %v, want %v", got, tt.want)
			}
		})
	}
}

// TestCollateLess: --list-models sorts as Node's localeCompare (checked
// against it over every catalog id): punctuation before digits before
// letters, case only breaking ties, lowercase first.
func TestCollateLess(t *testing.T) {
	t.Parallel()
	in := []string{"aZ", "a1", "a~b", "~anthropic/claude", "ABC", "a/b", "abc", "a-b", "a_b", "Abc", "a.b", "aion-labs/aion-2.0", "a:b", "az"}
	want := []string{"~anthropic/claude", "a_b", "a-b", "a:b", "a.b", "a/b", "a~b", "a1", "abc", "Abc", "ABC", "aion-labs/aion-2.0", "az", "aZ"}
	got := append([]string(nil), in...)
	sort.SliceStable(got, func(i, j int) bool { return collateLess(got[i], got[j]) })
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("got  %v\nwant %v", got, want)
	}
}

// TestExactCandidates: an exact reference resolves the same among its
// candidates as among every model, including ambiguous ids, ids that are
// also another provider's "provider/id", custom providers and case.
func TestExactCandidates(t *testing.T) {
	t.Parallel()
	r, errs := loadTestRegistry(t, `{"providers": {"mine": {"baseUrl": "http://127.0.0.1:1/v1", "api": "openai-completions", "apiKey": "k", "models": [{"id": "gpt-4.1"}, {"id": "Own-Model"}]}}}`,
		"", map[string]string{"OPENROUTER_API_KEY": "x", "GROQ_API_KEY": "x"})
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	all := r.All()
	for _, text := range []string{
		"anthropic/claude-opus-5-5", "claude-opus-5-5", "gpt-4.1", "GPT-4.1", "openai/gpt-4.1", "anthropic/claude-sonnet-4-5",
		"openrouter/anthropic/claude-sonnet-4.5", "openai/gpt-oss-120b", "groq/openai/gpt-oss-120b", "own-model", "mine/own-model",
		"kimi-k2.7-code", "moonshotai/kimi-k2.7-code", "groq/llama", "nonexistent", "openrouter/nonexistent",
	} {
		for _, usable := range []func(string) bool{r.HasConfiguredAuth, func(string) bool { return false }} {
			got, gok := selectReference(text, r.exactCandidates(text), true, usable)
			want, wok := selectReference(text, all, true, usable)
			if gok != wok || got.status != want.status || got.model != want.model || len(got.candidates) != len(want.candidates) || got.warning != want.warning {
				t.Errorf("%q: fast %v %+v, full %v %+v", text, gok, got, wok, want)
			}
		}
	}
}

// TestProviderDisplayName: models.json's name, else the built-in name,
// else the id, as the reference's getProviderDisplayName answers.
func TestProviderDisplayName(t *testing.T) {
	t.Parallel()
	r, errs := loadTestRegistry(t, `{"providers": {
		"groq": {"name": "Groq Renamed", "baseUrl": "http://127.0.0.1:9/v1"},
		"corp": {"name": "My Corp", "baseUrl": "http://127.0.0.1:9/v1", "api": "openai-completions", "apiKey": "k", "models": [{"id": "m"}]},
		"plain": {"baseUrl": "http://127.0.0.1:9/v1", "api": "openai-completions", "apiKey": "k", "models": [{"id": "m"}]}
	}}`, "", nil)
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	for p, want := range map[string]string{"openrouter": "OpenRouter", "groq": "Groq Renamed", "corp": "My Corp", "plain": "plain", "nope": "nope"} {
		if got := r.ProviderDisplayName(p); got != want {
			t.Errorf("%s: %q, want %q", p, got, want)
		}
	}
}
