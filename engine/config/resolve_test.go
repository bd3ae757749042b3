package config

import (
	"errors"
	"strings"
	"testing"

	"github.com/pi-go/pi/engine"
)

const mockModels = `{"providers":{"mock":{"baseUrl":"http://127.0.0.1:18777/v1","api":"openai-completions","apiKey":"sk-mock",
  "models":[{"id":"mock-model","name":"Mock Model","contextWindow":32000,"maxTokens":4096},
            {"id":"mock-reason","name":"Mock Reasoner","reasoning":true,"contextWindow":64000,"maxTokens":8192,"input":["text","image"]}]},
  "other":{"baseUrl":"http://b","api":"openai-completions","apiKey":"$OTHER_KEY","models":[{"id":"mock-model"},{"id":"gpt-4o"}]}}}`

func TestResolve(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name      string
		settings  map[string]any
		env       map[string]string
		flags     SelectFlags
		wantRef   string
		wantLevel engine.ThinkingLevel
		wantWarn  string
		wantErr   string
	}{
		{name: "first available, default level clamped to off", wantRef: "mock/mock-model", wantLevel: "off"},
		{name: "provider/id with suffix", flags: SelectFlags{Model: "mock/mock-reason:high"}, wantRef: "mock/mock-reason", wantLevel: "high"},
		{name: "xhigh clamps to high", flags: SelectFlags{Model: "mock-reason:xhigh"}, wantRef: "mock/mock-reason", wantLevel: "high"},
		{name: "--thinking beats suffix", flags: SelectFlags{Model: "mock-reason:low", Thinking: "minimal"}, wantRef: "mock/mock-reason", wantLevel: "minimal"},
		{name: "fuzzy on name", flags: SelectFlags{Model: "reasoner"}, wantRef: "mock/mock-reason", wantLevel: "medium"},
		{name: "invalid --thinking warns", flags: SelectFlags{Model: "mock-reason", Thinking: "huge"}, wantRef: "mock/mock-reason", wantLevel: "medium",
			wantWarn: `Invalid thinking level "huge". Valid values: off, minimal, low, medium, high, xhigh, max`},
		{name: "exact id on two providers, one usable", flags: SelectFlags{Model: "mock-model"}, wantRef: "mock/mock-model", wantLevel: "off"},
		{name: "ambiguous when both usable", env: map[string]string{"OTHER_KEY": "k"}, flags: SelectFlags{Model: "mock-model"},
			wantErr: `Model "mock-model" is ambiguous across providers: mock/mock-model, other/mock-model. More than one matching provider is authenticated. Use --provider or provider/model.`},
		{name: "--provider restricts", env: map[string]string{"OTHER_KEY": "k"}, flags: SelectFlags{Provider: "other", Model: "mock-model"}, wantRef: "other/mock-model", wantLevel: "off"},
		{name: "not found", flags: SelectFlags{Model: "nope"}, wantErr: `Model "nope" not found. Use --list-models to see available models.`},
		{name: "unknown provider", flags: SelectFlags{Provider: "zz", Model: "x"}, wantErr: `Unknown provider "zz". Use --list-models to see available providers/models.`},
		{name: "provider without model", flags: SelectFlags{Provider: "mock"}, wantErr: `--provider requires --model (for example: --provider mock --model <pattern>)`},
		{name: "custom id on known provider", flags: SelectFlags{Model: "mock/brand-new:high"}, wantRef: "mock/brand-new", wantLevel: "high",
			wantWarn: `Model "brand-new" not found for provider "mock". Using custom model id.`},
		{name: "settings default with modelThinkingLevels",
			settings: map[string]any{"defaultProvider": "mock", "defaultModel": "mock-reason", "modelThinkingLevels": map[string]any{"mock/mock-reason": "low"}},
			wantRef:  "mock/mock-reason", wantLevel: "low"},
		{name: "settings defaultThinkingLevel",
			settings: map[string]any{"defaultProvider": "mock", "defaultModel": "mock-reason", "defaultThinkingLevel": "high"},
			wantRef:  "mock/mock-reason", wantLevel: "high"},
		{name: "settings default without credentials is skipped",
			settings: map[string]any{"defaultProvider": "other", "defaultModel": "gpt-4o"},
			wantRef:  "mock/mock-model", wantLevel: "off"},
		{name: "enabledModels scope with thinking",
			settings: map[string]any{"enabledModels": []any{"*reason*:low"}},
			wantRef:  "mock/mock-reason", wantLevel: "low"},
		{name: "--models flag beats settings", settings: map[string]any{"enabledModels": []any{"mock-model"}},
			flags: SelectFlags{Models: []string{"mock/mock-reason"}}, wantRef: "mock/mock-reason", wantLevel: "medium"},
		{name: "api key without model", flags: SelectFlags{APIKey: "k"}, wantErr: "--api-key requires a model"},
		{name: "api key goes to the chosen provider", flags: SelectFlags{Model: "other/gpt-4o", APIKey: "k2"}, wantRef: "other/gpt-4o", wantLevel: "off"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			r, errs := loadTestRegistry(t, mockModels, "", tt.env)
			if len(errs) > 0 {
				t.Fatal(errs)
			}
			m, lvl, warns, err := Resolve(r, FromMaps(tt.settings, nil), tt.flags)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("err %v, want %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if m.Ref() != tt.wantRef || lvl != tt.wantLevel {
				t.Errorf("got %s %s, want %s %s", m.Ref(), lvl, tt.wantRef, tt.wantLevel)
			}
			if tt.wantWarn != "" && (len(warns) == 0 || warns[0] != tt.wantWarn) {
				t.Errorf("warnings %q", warns)
			}
			if tt.wantWarn == "" && len(warns) > 0 {
				t.Errorf("unexpected warnings %q", warns)
			}
			if tt.flags.APIKey != "" {
				if k, _ := r.APIKey(m.Provider); k != tt.flags.APIKey {
					t.Errorf("override not installed: %q", k)
				}
			}
		})
	}
}

func TestResolveNoModels(t *testing.T) {
	t.Parallel()
	r, _ := loadTestRegistry(t, "", "", nil)
	_, lvl, _, err := Resolve(r, nil, SelectFlags{})
	var nm NoModelsError
	if !errors.As(err, &nm) || lvl != engine.ThinkingOff {
		t.Fatalf("err %v level %s", err, lvl)
	}
	if !strings.HasPrefix(err.Error(), "No models available. Use /login") {
		t.Error(err.Error())
	}
}

func TestResolvePreferredDefault(t *testing.T) {
	t.Parallel()
	r, _ := loadTestRegistry(t, "", "", map[string]string{"OPENAI_API_KEY": "k", "ANTHROPIC_API_KEY": "k"})
	m, lvl, _, err := Resolve(r, nil, SelectFlags{})
	if err != nil || m.Ref() != "anthropic/claude-opus-5-5" {
		t.Fatalf("%v %v", m, err)
	}
	// claude-opus-5-5 maps off and minimal to null, so medium stays medium.
	if lvl != "medium" {
		t.Error(lvl)
	}
	m, _, _, _ = Resolve(r, nil, SelectFlags{Model: "sonnet"})
	if m.Ref() != "anthropic/claude-sonnet-5-5" {
		t.Errorf("fuzzy picks the greatest alias: %s", m.Ref())
	}
}

func TestFormatModelList(t *testing.T) {
	t.Parallel()
	r, _ := loadTestRegistry(t, mockModels, "", nil)
	// Output of the reference's --list-models for the same models.json.
	want := "provider  model        context  max-out  thinking  images\n" +
		"mock      mock-model   32K      4.1K     no        no    \n" +
		"mock      mock-reason  64K      8.2K     yes       yes   \n"
	tests := []struct{ search, want string }{
		{"", want},
		{"reas", "provider  model        context  max-out  thinking  images\n" +
			"mock      mock-reason  64K      8.2K     yes       yes   \n"},
		{"zzz", "No models matching \"zzz\"\n"},
	}
	for _, tt := range tests {
		if got := FormatModelList(r.Available(), tt.search); got != tt.want {
			t.Errorf("search %q:\n%q\nwant\n%q", tt.search, got, tt.want)
		}
	}
	if got := formatTokenCount(1047576); got != "1.0M" {
		t.Error(got)
	}
	if got := formatTokenCount(1000000); got != "1M" {
		t.Error(got)
	}
}

func TestListModelsSearch(t *testing.T) {
	t.Parallel()
	r, _ := loadTestRegistry(t, "", "", map[string]string{"OPENAI_API_KEY": "k"})
	tests := []struct {
		search string
		want   []string
	}{
		// The reference's --list-models output for the same searches.
		{"openai/4.1", []string{"gpt-4.1", "gpt-4.1-mini", "gpt-4.1-nano"}},
		// "o4", the swapped form, matches "openai gpt-4.1" too, as in the reference.
		{"4o", strings.Fields("gpt-4 gpt-4-turbo gpt-4.1 gpt-4.1-mini gpt-4.1-nano gpt-4o gpt-4o-2024-05-13 gpt-4o-2024-08-06 gpt-4o-2024-11-20 gpt-4o-mini gpt-5.4 gpt-5.4-mini gpt-5.4-nano gpt-5.4-pro o4-mini")},
		{"5gpt", strings.Fields("gpt-4o-2024-05-13 gpt-5 gpt-5-chat-latest gpt-5-mini gpt-5-nano gpt-5-pro gpt-5.1 gpt-5.2 gpt-5.2-pro gpt-5.3-codex gpt-5.3-codex-spark gpt-5.4 gpt-5.4-mini gpt-5.4-nano gpt-5.4-pro gpt-5.5 gpt-5.5-pro gpt-5.6-cyber gpt-5.6-luna gpt-5.6-sol gpt-5.6-terra")},
		{"anthropic", nil},
	}
	for _, tt := range tests {
		var got []string
		for _, m := range fuzzyFilter(r.Available(), tt.search) {
			got = append(got, m.ID)
		}
		if strings.Join(got, ",") != strings.Join(tt.want, ",") {
			t.Errorf("%q: got %v want %v", tt.search, got, tt.want)
		}
	}
}
