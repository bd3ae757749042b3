package config

import (
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/pi-go/pi/engine"
)

func envOf(m map[string]string) func(string) string {
	return func(k string) string { return m[k] }
}

func TestExpandTemplate(t *testing.T) {
	t.Parallel()
	env := envOf(map[string]string{"KEY": "sk-1", "TEAM": "t9"})
	tests := []struct {
		in     string
		want   string
		wantOK bool
	}{
		{"literal", "literal", true},
		{"OPENAI_API_KEY", "OPENAI_API_KEY", true},
		{"$KEY", "sk-1", true},
		{"${KEY}", "sk-1", true},
		{"Bearer ${KEY}-${TEAM}", "Bearer sk-1-t9", true},
		{"$MISSING", "", false},
		{"x${MISSING}", "", false},
		{"$$KEY", "$KEY", true},
		{"$!cmd", "!cmd", true},
		{"cost $5", "cost $5", true},
		{"${1bad}", "${1bad}", true},
		{"${unterminated", "${unterminated", true},
		{"end$", "end$", true},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			t.Parallel()
			got, ok := expandTemplate(tt.in, env)
			if got != tt.want || ok != tt.wantOK {
				t.Errorf("expandTemplate(%q) = %q, %v; want %q, %v", tt.in, got, ok, tt.want, tt.wantOK)
			}
		})
	}
}

func TestResolveValueCommand(t *testing.T) {
	t.Parallel()
	if v, ok := ResolveValue("!printf '  sk-cmd \\n'"); !ok || v != "sk-cmd" {
		t.Errorf("got %q %v", v, ok)
	}
	if _, ok := ResolveValue("!exit 3"); ok {
		t.Error("failing command resolved")
	}
	if _, ok := ResolveValue("!true"); ok {
		t.Error("empty output resolved")
	}
}

func loadTestRegistry(t *testing.T, modelsJSON, authJSON string, env map[string]string) (*Registry, []error) {
	t.Helper()
	dir := t.TempDir()
	if modelsJSON != "" {
		writeFile(t, filepath.Join(dir, "models.json"), modelsJSON)
	}
	if authJSON != "" {
		writeFile(t, filepath.Join(dir, "auth.json"), authJSON)
	}
	return loadModels(dir, envOf(env))
}

func marshal(t *testing.T, v any) string {
	t.Helper()
	b, err := engine.MarshalJSON(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestModelsJSON(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		models  string
		env     map[string]string
		wantErr string
		check   func(t *testing.T, r *Registry)
	}{
		{
			name:   "defaults and key order",
			models: `{"providers":{"mock":{"baseUrl":"http://127.0.0.1:1/v1","api":"openai-completions","apiKey":"sk-mock","models":[{"id":"m1"}]}}}`,
			check: func(t *testing.T, r *Registry) {
				got := marshal(t, r.Find("mock", "m1"))
				want := `{"id":"m1","name":"m1","api":"openai-completions","provider":"mock","baseUrl":"http://127.0.0.1:1/v1","reasoning":false,"input":["text"],"cost":{"input":0,"output":0,"cacheRead":0,"cacheWrite":0},"contextWindow":128000,"maxTokens":16384}`
				if got != want {
					t.Errorf("got  %s\nwant %s", got, want)
				}
				if k, ok := r.APIKey("mock"); !ok || k != "sk-mock" {
					t.Errorf("key %q", k)
				}
			},
		},
		{
			name: "full model, compat merged, thinking map kept",
			models: `{"providers":{"p":{"baseUrl":"http://b","api":"anthropic-messages","apiKey":"$PKEY","compat":{"a":1,"chatTemplateKwargs":{"x":1}},
				"models":[{"id":"m","name":"M","reasoning":true,"input":["text","image"],"contextWindow":200000,"maxTokens":64000,
				"cost":{"input":3,"output":15,"cacheRead":0.3,"cacheWrite":3.75},"compat":{"b":2,"a":3,"chatTemplateKwargs":{"y":2}},
				"thinkingLevelMap":{"xhigh":"max","off":null}}]}}}`,
			env: map[string]string{"PKEY": "sk-env"},
			check: func(t *testing.T, r *Registry) {
				m := r.Find("p", "m")
				if string(m.Compat) != `{"a":3,"chatTemplateKwargs":{"x":1,"y":2},"b":2}` {
					t.Errorf("compat %s", m.Compat)
				}
				if string(m.ThinkingLevelMap) != `{"xhigh":"max","off":null}` {
					t.Errorf("map %s", m.ThinkingLevelMap)
				}
				if m.Cost.CacheWrite != 3.75 || !m.Reasoning || !m.SupportsImages() || m.ContextWindow != 200000 {
					t.Errorf("%+v", m)
				}
				if k, _ := r.APIKey("p"); k != "sk-env" {
					t.Errorf("key %q", k)
				}
			},
		},
		{
			name:   "override of a built-in provider",
			models: `{"providers":{"anthropic":{"baseUrl":"https://gw.example.com","modelOverrides":{"claude-sonnet-4-5":{"name":"Sonnet GW","cost":{"input":1}}},"models":[{"id":"claude-extra"}]}}}`,
			check: func(t *testing.T, r *Registry) {
				m := r.Find("anthropic", "claude-sonnet-4-5")
				if m.BaseURL != "https://gw.example.com" || m.Name != "Sonnet GW" || m.Cost.Input != 1 || m.Cost.Output != 15 {
					t.Errorf("%+v", m)
				}
				x := r.Find("anthropic", "claude-extra")
				if x == nil || x.API != "anthropic-messages" || x.BaseURL != "https://gw.example.com" {
					t.Errorf("extra %+v", x)
				}
				if r.Find("openai", "gpt-4o").BaseURL != "https://api.openai.com/v1" {
					t.Error("openai touched")
				}
			},
		},
		{
			name:    "new provider without api",
			models:  `{"providers":{"x":{"baseUrl":"http://b","apiKey":"k","models":[{"id":"m"}]},"ok":{"baseUrl":"http://b","api":"openai-completions","apiKey":"k","models":[{"id":"m"}]}}}`,
			wantErr: `Provider "x": Provider x, model m: no "api" specified. Set at provider or model level.`,
			check: func(t *testing.T, r *Registry) {
				if r.Find("x", "m") != nil || r.Find("ok", "m") == nil {
					t.Error("bad provider should be skipped, good one kept")
				}
			},
		},
		{
			name:    "empty provider patch",
			models:  `{"providers":{"openai":{}}}`,
			wantErr: `must specify "baseUrl", "headers", "compat", "modelOverrides", or "models".`,
			check: func(t *testing.T, r *Registry) {
				if r.Find("openai", "gpt-4o") == nil {
					t.Error("built-in kept")
				}
			},
		},
		{
			name:    "schema error drops the file",
			models:  `{"providers":{"p":{"baseUrl":"http://b","api":"openai-completions","models":[{"id":"m","cost":{"input":1}}]}}}`,
			wantErr: "Invalid models.json schema:\n  - providers.p.models.0.cost.output: Expected number",
			check: func(t *testing.T, r *Registry) {
				if r.Find("p", "m") != nil {
					t.Error("file should be dropped")
				}
			},
		},
		{
			name:    "parse error",
			models:  `{"providers":`,
			wantErr: "Failed to parse models.json",
		},
		{
			name: "comments allowed",
			models: `{
				// local server
				"providers":{"l":{"baseUrl":"http://b//x","api":"openai-completions","apiKey":"k","models":[{"id":"m"}]}} /* end */ }`,
			check: func(t *testing.T, r *Registry) {
				if m := r.Find("l", "m"); m == nil || m.BaseURL != "http://b//x" {
					t.Error("comment stripping broke the file")
				}
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			r, errs := loadTestRegistry(t, tt.models, "", tt.env)
			if tt.wantErr == "" && len(errs) > 0 {
				t.Fatalf("errors: %v", errs)
			}
			if tt.wantErr != "" {
				if len(errs) != 1 || !strings.Contains(errs[0].Error(), tt.wantErr) {
					t.Fatalf("errors %v, want %q", errs, tt.wantErr)
				}
			}
			if tt.check != nil {
				tt.check(t, r)
			}
		})
	}
}

func TestAPIKeyOrder(t *testing.T) {
	t.Parallel()
	models := `{"providers":{"openai":{"apiKey":"from-models"},"local":{"baseUrl":"http://b","api":"openai-completions","models":[{"id":"m"}]},
		"envp":{"baseUrl":"http://b","api":"openai-completions","apiKey":"${NOPE}","models":[{"id":"m"}]},
		"cmdp":{"baseUrl":"http://b","api":"openai-completions","apiKey":"!echo from-cmd","models":[{"id":"m"}]}}}`
	tests := []struct {
		name     string
		auth     string
		env      map[string]string
		override string
		provider string
		want     string
		wantOK   bool
	}{
		{"override wins", `{"openai":{"type":"api_key","key":"from-auth"}}`, map[string]string{"OPENAI_API_KEY": "from-env"}, "from-flag", "openai", "from-flag", true},
		{"auth.json before models.json", `{"openai":{"type":"api_key","key":"from-auth"}}`, nil, "", "openai", "from-auth", true},
		{"auth.json key interpolated", `{"openai":{"type":"api_key","key":"$A"}}`, map[string]string{"A": "sk-a"}, "", "openai", "sk-a", true},
		{"models.json before env", "", map[string]string{"OPENAI_API_KEY": "from-env"}, "", "openai", "from-models", true},
		{"env for built-in", "", map[string]string{"ANTHROPIC_API_KEY": "sk-ant"}, "", "anthropic", "sk-ant", true},
		{"auth token is not a key", "", map[string]string{"ANTHROPIC_AUTH_TOKEN": "tok"}, "", "anthropic", "", false},
		{"custom provider without key", "", nil, "", "local", "", false},
		{"unset variable", "", nil, "", "envp", "", false},
		{"command", "", nil, "", "cmdp", "from-cmd", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			r, errs := loadTestRegistry(t, models, tt.auth, tt.env)
			if len(errs) > 0 {
				t.Fatal(errs)
			}
			if tt.override != "" {
				r.SetAPIKeyOverride(tt.provider, tt.override)
			}
			got, ok := r.APIKey(tt.provider)
			if got != tt.want || ok != tt.wantOK {
				t.Errorf("APIKey(%s) = %q, %v; want %q, %v", tt.provider, got, ok, tt.want, tt.wantOK)
			}
		})
	}
}

func TestAvailableAndHeaders(t *testing.T) {
	t.Parallel()
	models := `{"providers":{
		"a":{"baseUrl":"http://b","api":"openai-completions","apiKey":"k","authHeader":true,"headers":{"X-Team":"${TEAM}","X-Lit":"v"},"models":[{"id":"m","headers":{"X-Model":"$$1"}}]},
		"b":{"baseUrl":"http://b","api":"openai-completions","apiKey":"$BKEY","models":[{"id":"m"}]},
		"c":{"baseUrl":"http://b","api":"openai-completions","apiKey":"!exit 1","models":[{"id":"m"}]},
		"d":{"baseUrl":"http://b","api":"openai-completions","headers":{"X":"$NOPE"},"apiKey":"k","models":[{"id":"m"}]}}}`
	r, errs := loadTestRegistry(t, models, "", map[string]string{"TEAM": "t1", "ANTHROPIC_API_KEY": "x"})
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	var refs []string
	for _, m := range r.Available() {
		refs = append(refs, m.Ref())
	}
	// Anthropic has a key from the environment, b's variable is unset and a
	// command counts as configured without being run.
	for _, want := range []string{"anthropic/claude-sonnet-4-5", "a/m", "c/m", "d/m"} {
		if !contains(refs, want) {
			t.Errorf("%s not available: %v", want, refs)
		}
	}
	for _, not := range []string{"b/m", "openai/gpt-4o"} {
		if contains(refs, not) {
			t.Errorf("%s should not be available", not)
		}
	}
	key, hdr, err := r.RequestAuth(r.Find("a", "m"))
	if err != nil || key != "k" {
		t.Fatal(key, err)
	}
	want := map[string]string{"X-Team": "t1", "X-Lit": "v", "X-Model": "$1", "Authorization": "Bearer k"}
	if !reflect.DeepEqual(hdr, want) {
		t.Errorf("headers %v", hdr)
	}
	if _, _, err := r.RequestAuth(r.Find("d", "m")); err == nil {
		t.Error("unresolvable header should fail")
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func TestModelKeyOrder(t *testing.T) {
	t.Parallel()
	models := `{"providers":{"mock":{"baseUrl":"http://127.0.0.1:18777/v1","api":"openai-completions","apiKey":"sk-mock","compat":{"supportsDeveloperRole":false},"headers":{"X-A":"b"},
  "models":[{"id":"m","reasoning":true,"thinkingLevelMap":{"xhigh":"high"},"inputLimits":{"maxRequestBytes":5},"compat":{"supportsStore":false},"headers":{"X-M":"1"}}]}}}`
	r, errs := loadTestRegistry(t, models, "", nil)
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	// Both lines are the reference's get_state / get_available_models output.
	tests := []struct{ provider, id, want string }{
		{"mock", "m", `{"id":"m","name":"m","api":"openai-completions","provider":"mock","baseUrl":"http://127.0.0.1:18777/v1","reasoning":true,"thinkingLevelMap":{"xhigh":"high"},"input":["text"],"inputLimits":{"maxRequestBytes":5},"cost":{"input":0,"output":0,"cacheRead":0,"cacheWrite":0},"contextWindow":128000,"maxTokens":16384,"compat":{"supportsDeveloperRole":false,"supportsStore":false}}`},
		{"openai", "gpt-5", `{"id":"gpt-5","name":"GPT-5","api":"openai-responses","provider":"openai","baseUrl":"https://api.openai.com/v1","reasoning":true,"input":["text","image"],"cost":{"input":1.25,"output":10,"cacheRead":0.125,"cacheWrite":0},"contextWindow":400000,"maxTokens":128000,"thinkingLevelMap":{"off":null,"minimal":"minimal","low":"low","medium":"medium","high":"high","xhigh":null,"max":null},"compat":{"supportsStrictMode":true,"supportsOpenAIGrammarTools":true},"inputLimits":{"maxRequestBytes":536870912,"images":{"maxPerRequest":1500,"resize":{"maxWidth":2000,"maxHeight":2000,"maxBytes":4718592,"jpegQuality":80}}},"type":"chat"}`},
	}
	for _, tt := range tests {
		if got := marshal(t, r.Find(tt.provider, tt.id)); got != tt.want {
			t.Errorf("%s/%s\ngot  %s\nwant %s", tt.provider, tt.id, got, tt.want)
		}
	}
}
