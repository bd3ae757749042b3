package config

import (
	"os"
	"path/filepath"
	"strings"
)

// builtinEnvVars maps a built-in provider to the environment variables
// holding its API key, in the reference's order of preference (pi-ai's
// env-api-keys.js). anthropic's first one is a bearer token, not a key
// (anthropicBearerEnv); the Cloudflare providers also need an account id
// (and the gateway a gateway id), and amazon-bedrock and google-vertex are
// configured by ambient cloud credentials as well (builtinEnvAuth).
var builtinEnvVars = map[string][]string{
	"github-copilot":                {"COPILOT_GITHUB_TOKEN"},
	"anthropic":                     {"ANTHROPIC_AUTH_TOKEN", "ANTHROPIC_OAUTH_TOKEN", "ANTHROPIC_API_KEY"},
	"ant-ling":                      {"ANT_LING_API_KEY"},
	"qwen-token-plan":               {"QWEN_TOKEN_PLAN_TEAM_API_KEY", "QWEN_TOKEN_PLAN_API_KEY"},
	"qwen-token-plan-cn":            {"QWEN_TOKEN_PLAN_TEAM_CN_API_KEY", "QWEN_TOKEN_PLAN_CN_API_KEY"},
	"qwen-token-plan-individual":    {"QWEN_TOKEN_PLAN_INDIVIDUAL_API_KEY", "QWEN_TOKEN_PLAN_API_KEY"},
	"qwen-token-plan-individual-cn": {"QWEN_TOKEN_PLAN_INDIVIDUAL_CN_API_KEY", "QWEN_TOKEN_PLAN_CN_API_KEY"},
	"openai":                        {"OPENAI_API_KEY"},
	"azure":                         {"AZURE_OPENAI_API_KEY"},
	"nvidia":                        {"NVIDIA_API_KEY"},
	"deepseek":                      {"DEEPSEEK_API_KEY"},
	"google":                        {"GEMINI_API_KEY"},
	"google-vertex":                 {"GOOGLE_CLOUD_API_KEY"},
	"groq":                          {"GROQ_API_KEY"},
	"cerebras":                      {"CEREBRAS_API_KEY"},
	"xai":                           {"XAI_API_KEY"},
	"typesafe":                      {"TYPESAFE_API_KEY"},
	"radius":                        {"RADIUS_API_KEY"},
	"openrouter":                    {"OPENROUTER_API_KEY"},
	"vercel-ai-gateway":             {"AI_GATEWAY_API_KEY"},
	"zai":                           {"ZAI_API_KEY"},
	"zai-coding-cn":                 {"ZAI_CODING_CN_API_KEY"},
	"mistral":                       {"MISTRAL_API_KEY"},
	"minimax":                       {"MINIMAX_API_KEY"},
	"minimax-cn":                    {"MINIMAX_CN_API_KEY"},
	"moonshotai":                    {"MOONSHOT_API_KEY"},
	"moonshotai-cn":                 {"MOONSHOT_API_KEY"},
	"huggingface":                   {"HF_TOKEN"},
	"fireworks":                     {"FIREWORKS_API_KEY"},
	"together":                      {"TOGETHER_API_KEY"},
	"baseten":                       {"BASETEN_API_KEY"},
	"opencode":                      {"OPENCODE_API_KEY"},
	"opencode-go":                   {"OPENCODE_API_KEY"},
	"kimi-coding":                   {"KIMI_API_KEY"},
	"meta":                          {"META_API_KEY"},
	"cloudflare-workers-ai":         {"CLOUDFLARE_API_KEY"},
	"cloudflare-ai-gateway":         {"CLOUDFLARE_API_KEY"},
	"xiaomi":                        {"XIAOMI_API_KEY"},
	"xiaomi-token-plan-cn":          {"XIAOMI_TOKEN_PLAN_CN_API_KEY"},
	"xiaomi-token-plan-ams":         {"XIAOMI_TOKEN_PLAN_AMS_API_KEY"},
	"xiaomi-token-plan-sgp":         {"XIAOMI_TOKEN_PLAN_SGP_API_KEY"},
}

// oauthOnlyProviders take no API key at all: a stored "api_key"
// credential does not configure them, only a login does.
var oauthOnlyProviders = map[string]bool{"openai-codex": true}

// cloudflareIDs are the variables a Cloudflare provider needs besides its
// key, from a stored credential's env or the environment.
func cloudflareIDs(provider string) []string {
	switch provider {
	case "cloudflare-workers-ai":
		return []string{"CLOUDFLARE_ACCOUNT_ID"}
	case "cloudflare-ai-gateway":
		return []string{"CLOUDFLARE_ACCOUNT_ID", "CLOUDFLARE_GATEWAY_ID"}
	}
	return nil
}

// storedKeyUsable reports whether a stored "api_key" credential with a key
// configures the built-in provider: not for an OAuth-only provider, and a
// Cloudflare one still needs its ids.
func storedKeyUsable(provider string, c authCredential, getenv func(string) string) bool {
	if oauthOnlyProviders[provider] {
		return false
	}
	for _, id := range cloudflareIDs(provider) {
		if c.Env[id] == "" && getenv(id) == "" {
			return false
		}
	}
	return true
}

// builtinEnvAuth reports whether the environment configures a built-in
// provider, with a stored credential's env (credEnv, may be nil) over it,
// and names the source as the reference does: the variable the key came
// from, or for amazon-bedrock and google-vertex the kind of ambient cloud
// credential found.
func builtinEnvAuth(provider string, getenv func(string) string, credEnv map[string]string) (source string, ok bool) {
	env := func(n string) string {
		if v := credEnv[n]; v != "" {
			return v
		}
		return getenv(n)
	}
	for _, name := range builtinEnvVars[provider] {
		if env(name) == "" {
			continue
		}
		for _, id := range cloudflareIDs(provider) {
			if env(id) == "" {
				return "", false
			}
		}
		return name, true
	}
	switch provider {
	case "amazon-bedrock":
		switch {
		case env("AWS_BEARER_TOKEN_BEDROCK") != "":
			return "AWS_BEARER_TOKEN_BEDROCK", true
		case env("AWS_PROFILE") != "":
			return "AWS_PROFILE", true
		case env("AWS_ACCESS_KEY_ID") != "" && env("AWS_SECRET_ACCESS_KEY") != "":
			return "AWS access keys", true
		case env("AWS_CONTAINER_CREDENTIALS_RELATIVE_URI") != "", env("AWS_CONTAINER_CREDENTIALS_FULL_URI") != "":
			return "ECS task role", true
		case env("AWS_WEB_IDENTITY_TOKEN_FILE") != "":
			return "web identity token", true
		}
	case "google-vertex":
		project := firstNonEmpty(env("GOOGLE_CLOUD_PROJECT"), env("GCLOUD_PROJECT"))
		if project == "" || env("GOOGLE_CLOUD_LOCATION") == "" {
			return "", false
		}
		path := env("GOOGLE_APPLICATION_CREDENTIALS")
		if path == "" {
			home := getenv("HOME")
			if home == "" {
				home, _ = os.UserHomeDir()
			}
			path = filepath.Join(home, ".config", "gcloud", "application_default_credentials.json")
		} else if rest, ok := strings.CutPrefix(path, "~/"); ok {
			home, _ := os.UserHomeDir()
			path = filepath.Join(home, rest)
		}
		if _, err := os.Stat(path); err == nil {
			return "gcloud application default credentials", true
		}
	}
	return "", false
}

// ambientKey is the stand-in key of a provider configured by ambient
// cloud credentials (an AWS profile or role, Vertex ADC): the reference's
// "<authenticated>", so the request goes ahead and its adapter finds the
// credentials itself.
func ambientKey(provider string, getenv func(string) string, credEnv map[string]string) (string, bool) {
	if provider != "amazon-bedrock" && provider != "google-vertex" {
		return "", false
	}
	if _, ok := builtinEnvAuth(provider, getenv, credEnv); ok {
		return "<authenticated>", true
	}
	return "", false
}
