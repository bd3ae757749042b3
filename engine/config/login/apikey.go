package login

import (
	"context"
	"encoding/json"
	"errors"

	"github.com/pi-go/pi/engine"
)

// apiKeyNames are the providers whose API-key login asks for one key, with
// the name the prompt uses ("Enter <name>"), as the reference's providers
// declare them.
var apiKeyNames = map[string]string{
	"anthropic": "Anthropic API key", "ant-ling": "Ant Ling API key", "azure": "Azure OpenAI API key",
	"baseten": "Baseten API key", "cerebras": "Cerebras API key", "deepseek": "DeepSeek API key",
	"fireworks": "Fireworks API key", "github-copilot": "GitHub Copilot token", "google": "Gemini API key",
	"groq": "Groq API key", "huggingface": "Hugging Face token", "kimi-coding": "Kimi API key",
	"meta": "Meta Model API key", "minimax": "MiniMax API key", "minimax-cn": "MiniMax CN API key",
	"mistral": "Mistral API key", "moonshotai": "Moonshot AI API key", "moonshotai-cn": "Moonshot AI API key",
	"nvidia": "NVIDIA API key", "openai": "OpenAI API key", "opencode": "OpenCode API key",
	"opencode-go": "OpenCode API key", "openrouter": "OpenRouter API key",
	"qwen-token-plan": "Qwen Token Plan Team API key", "qwen-token-plan-cn": "Qwen Token Plan Team CN API key",
	"qwen-token-plan-individual":    "Qwen Token Plan Individual API key",
	"qwen-token-plan-individual-cn": "Qwen Token Plan Individual CN API key",
	"radius":                        "Radius API key", "together": "Together API key", "typesafe": "TypeSafe API key",
	"vercel-ai-gateway": "Vercel AI Gateway API key", "xai": "xAI API key", "xiaomi": "Xiaomi API key",
	"xiaomi-token-plan-ams": "Xiaomi Token Plan AMS API key", "xiaomi-token-plan-cn": "Xiaomi Token Plan CN API key",
	"xiaomi-token-plan-sgp": "Xiaomi Token Plan SGP API key", "zai": "Z.AI API key", "zai-coding-cn": "Z.AI Coding CN API key",
}

// otherLogins are the reference's providers whose API-key login asks more
// than a key (an account id, a profile, a project); multiStepLogins runs
// them.
var otherLogins = map[string]string{
	"amazon-bedrock": "AWS credentials", "google-vertex": "Google Cloud credentials",
	"cloudflare-ai-gateway": "Cloudflare API key", "cloudflare-workers-ai": "Cloudflare API key",
}

// APIKeyName is the name of the provider's API-key login, and whether the
// reference has one.
func APIKeyName(provider string) (string, bool) {
	if n, ok := apiKeyNames[provider]; ok {
		return n, true
	}
	n, ok := otherLogins[provider]
	return n, ok
}

// LoginProviders are the providers `pi auth login` accepts: those with an
// account sign-in or an API-key login.
func LoginProviders() []string {
	seen := map[string]bool{}
	for p := range oauthProviders {
		seen[p] = true
	}
	for p := range apiKeyNames {
		seen[p] = true
	}
	for p := range otherLogins {
		seen[p] = true
	}
	out := make([]string, 0, len(seen))
	for p := range seen {
		out = append(out, p)
	}
	return out
}

// APIKeyLogin asks for the provider's key without echo and returns the
// auth.json credential {"type":"api_key","key":…}.
func APIKeyLogin(ctx context.Context, provider string, ui Interaction) (json.RawMessage, error) {
	if login := multiStepLogins[provider]; login != nil {
		return login(ctx, ui)
	}
	name, ok := apiKeyNames[provider]
	if !ok {
		return nil, errors.New("no API key login for " + provider)
	}
	return NamedAPIKeyLogin(ctx, name, ui)
}

// NamedAPIKeyLogin asks for a key called name ("API key" for a provider
// of models.json) and returns the credential to store.
func NamedAPIKeyLogin(ctx context.Context, name string, ui Interaction) (json.RawMessage, error) {
	key, err := ui.Ask(ctx, Prompt{Kind: "secret", Message: "Enter " + name})
	if err != nil {
		return nil, err
	}
	return apiKeyCredential(&key, nil)
}

// apiKeyCredential is {"type":"api_key"} with the key and env when given,
// in the reference's key order.
func apiKeyCredential(key *string, env json.RawMessage) (json.RawMessage, error) {
	return engine.MarshalJSON(struct {
		Type string          `json:"type"`
		Key  *string         `json:"key,omitempty"`
		Env  json.RawMessage `json:"env,omitempty"`
	}{"api_key", key, env})
}

// envObject is a JSON object of name/value pairs in the given order.
func envObject(kv ...string) json.RawMessage {
	var b []byte
	b = append(b, '{')
	for i := 0; i+1 < len(kv); i += 2 {
		if i > 0 {
			b = append(b, ',')
		}
		k, _ := engine.MarshalJSON(kv[i])
		v, _ := engine.MarshalJSON(kv[i+1])
		b = append(append(append(b, k...), ':'), v...)
	}
	return append(b, '}')
}
