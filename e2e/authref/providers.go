package authref

import (
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
)

// Hosts maps the hosts of the built-in sign-ins to the path prefixes
// Providers serves them under: redirect.mjs sends the reference's requests
// to <Providers URL>/_host/<prefix><path>, and our tests point their
// login.Endpoints at the same prefixes.
var Hosts = map[string]string{
	"auth.x.ai":                        "xai",
	"github.com":                       "github",
	"api.github.com":                   "github",
	"api.individual.githubcopilot.com": "copilot",
	"platform.claude.com":              "anthropic",
	"auth.openai.com":                  "openai-auth",
	"auth.kimi.com":                    "kimi",
	"auth.meta.com":                    "meta-auth",
	"api.meta.ai":                      "meta-api",
	"openrouter.ai":                    "openrouter",
}

// Facts of the fake built-in accounts.
const (
	XAIAccess        = "xai-access-SECRET-0001"
	XAIRefresh       = "xai-refresh-SECRET-0001"
	GitHubToken      = "gho_SECRET0001"
	CopilotToken     = "tid=SECRET0001;exp=1767229200;proxy-ep=proxy.individual.githubcopilot.com;sku=free"
	CopilotExpires   = 1767229200
	AnthropicAccess  = "sk-ant-oat01-SECRET-0001"
	AnthropicRefr    = "sk-ant-ort01-SECRET-0001"
	AnthropicCode    = "anthropic-code-0001"
	AnthropicAccess2 = "sk-ant-oat01-SECRET-0002"
	AnthropicRefr2   = "sk-ant-ort01-SECRET-0002"
	// CodexAccess is a JWT (unsigned) whose claims name the ChatGPT
	// account, as OpenAI's access tokens do.
	CodexAccess  = "eyJhbGciOiJub25lIiwidHlwIjoiSldUIn0.eyJodHRwczovL2FwaS5vcGVuYWkuY29tL2F1dGgiOnsiY2hhdGdwdF9hY2NvdW50X2lkIjoiYWNjdC1TRUNSRVQtMDAwMSJ9LCJleHAiOjE3NjcyMjkyMDB9.c2ln"
	CodexRefresh = "codex-refresh-SECRET-0001"
)

// Providers fakes the token servers of the built-in sign-ins (xAI's device
// flow, GitHub's device flow and Copilot's token and model endpoints,
// Anthropic's token exchange, the OpenAI Codex, Kimi Code and Meta device
// sign-ins, OpenRouter's key exchange, the ChatGPT token exchange). Each device flow answers
// authorization_pending once. Log holds each request as Gateway's does.
type Providers struct {
	mu    sync.Mutex
	log   []string
	polls map[string]int
}

// Log returns the requests so far.
func (p *Providers) Log() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]string(nil), p.log...)
}

// pending reports whether this is the first poll of a device flow.
func (p *Providers) pending(flow string) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.polls == nil {
		p.polls = map[string]int{}
	}
	p.polls[flow]++
	return p.polls[flow] == 1
}

func (p *Providers) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	b, _ := io.ReadAll(r.Body)
	line := r.Method + " " + r.URL.Path
	if r.URL.RawQuery != "" {
		line += "?" + r.URL.RawQuery
	}
	if len(b) > 0 {
		line += " " + string(b)
	}
	if a := r.Header.Get("Authorization"); a != "" {
		line += " [Authorization: " + a + "]"
	}
	p.mu.Lock()
	p.log = append(p.log, line)
	p.mu.Unlock()
	route := r.Method + " " + strings.TrimPrefix(r.URL.Path, "/_host")
	switch route {
	case "POST /xai/oauth2/device/code":
		jsonReply(w, 200, `{"device_code":"xai-device-0001","user_code":"XAI-2345","verification_uri":"https://accounts.x.ai/device","expires_in":600,"interval":1}`)
	case "POST /xai/oauth2/token":
		if p.pending("xai") {
			jsonReply(w, 400, `{"error":"authorization_pending"}`)
			return
		}
		jsonReply(w, 200, fmt.Sprintf(`{"access_token":%q,"refresh_token":%q,"expires_in":3600,"token_type":"Bearer"}`, XAIAccess, XAIRefresh))
	case "POST /github/login/device/code":
		jsonReply(w, 200, `{"device_code":"gh-device-0001","user_code":"GH12-3456","verification_uri":"https://github.com/login/device","expires_in":900,"interval":1}`)
	case "POST /github/login/oauth/access_token":
		// GitHub answers pending with 200.
		if p.pending("github") {
			jsonReply(w, 200, `{"error":"authorization_pending","error_description":"The authorization request is still pending."}`)
			return
		}
		jsonReply(w, 200, fmt.Sprintf(`{"access_token":%q,"token_type":"bearer","scope":"read:user"}`, GitHubToken))
	case "GET /github/copilot_internal/v2/token":
		jsonReply(w, 200, fmt.Sprintf(`{"token":%q,"expires_at":%d,"refresh_in":1500,"endpoints":{"api":"https://api.individual.githubcopilot.com"}}`, CopilotToken, CopilotExpires))
	case "GET /copilot/models":
		jsonReply(w, 200, `{"data":[`+
			`{"id":"gpt-4o","model_picker_enabled":true,"policy":{"state":"enabled"},"capabilities":{"supports":{"tool_calls":true}}},`+
			`{"id":"claude-sonnet-4","model_picker_enabled":true,"policy":{"state":"unconfigured"},"capabilities":{"supports":{"tool_calls":true}}},`+
			`{"id":"text-embedding-3-small","model_picker_enabled":false,"capabilities":{"supports":{"tool_calls":false}}}]}`)
	case "POST /copilot/models/claude-sonnet-4/policy":
		jsonReply(w, 200, `{"state":"enabled"}`)
	case "POST /anthropic/v1/oauth/token":
		if strings.Contains(string(b), `"grant_type":"refresh_token"`) {
			if !strings.Contains(string(b), `"refresh_token":"`+AnthropicRefr+`"`) {
				// Revoked: the error echoes the request, refresh token included.
				jsonReply(w, 400, fmt.Sprintf(`{"error":"invalid_grant","error_description":"Refresh token not found or invalid","request":%s}`, b))
				return
			}
			jsonReply(w, 200, fmt.Sprintf(`{"token_type":"Bearer","access_token":%q,"expires_in":28800,"refresh_token":%q,"scope":"user:inference user:profile"}`, AnthropicAccess2, AnthropicRefr2))
			return
		}
		if !strings.Contains(string(b), AnthropicCode) {
			jsonReply(w, 400, `{"error":"invalid_grant","error_description":"Invalid code"}`)
			return
		}
		jsonReply(w, 200, fmt.Sprintf(`{"token_type":"Bearer","access_token":%q,"expires_in":28800,"refresh_token":%q,"scope":"user:inference user:profile"}`, AnthropicAccess, AnthropicRefr))
	case "POST /openai-auth/api/accounts/deviceauth/usercode":
		jsonReply(w, 200, `{"device_auth_id":"codex-device-0001","user_code":"CDX-2345","interval":"1"}`)
	case "POST /openai-auth/api/accounts/deviceauth/token":
		if p.pending("codex") {
			jsonReply(w, 403, `{"error":{"code":"deviceauth_authorization_pending"}}`)
			return
		}
		jsonReply(w, 200, `{"authorization_code":"codex-auth-code-0001","code_verifier":"codex-verifier-0001","code_challenge":"x"}`)
	case "POST /openai-auth/oauth/token":
		jsonReply(w, 200, fmt.Sprintf(`{"id_token":"x.y.z","access_token":%q,"refresh_token":%q,"expires_in":864000}`, CodexAccess, CodexRefresh))
	case "POST /kimi/api/oauth/device_authorization":
		jsonReply(w, 200, `{"device_code":"kimi-device-0001","user_code":"KIMI-2345","verification_uri":"https://www.kimi.com/code/authorize_device","verification_uri_complete":"https://www.kimi.com/code/authorize_device?user_code=KIMI-2345","expires_in":900,"interval":1}`)
	case "POST /kimi/api/oauth/token":
		if p.pending("kimi") {
			jsonReply(w, 400, `{"error":"authorization_pending","error_description":"pending"}`)
			return
		}
		jsonReply(w, 200, `{"access_token":"kimi-access-SECRET-0001","refresh_token":"kimi-refresh-SECRET-0001","expires_in":3600,"scope":"kimi-code","token_type":"Bearer"}`)
	case "POST /meta-auth/oidc/device/authorization/":
		jsonReply(w, 200, `{"device_code":"meta-device-0001","user_code":"META-2345","verification_uri":"https://auth.meta.com/activate","verification_uri_complete":"https://auth.meta.com/activate?user_code=META-2345","expires_in":600,"interval":1}`)
	case "POST /meta-auth/oidc/device/token/":
		if p.pending("meta") {
			jsonReply(w, 400, `{"error":"authorization_pending"}`)
			return
		}
		jsonReply(w, 200, `{"access_token":"meta-identity-SECRET-0001","token_type":"Bearer","expires_in":3600}`)
	case "POST /meta-api/muse-code/key":
		jsonReply(w, 200, `{"api_key":"meta-key-SECRET-0001"}`)
	case "POST /openrouter/api/v1/auth/keys":
		if !strings.Contains(string(b), `"openrouter-code-0001"`) {
			jsonReply(w, 403, `{"error":{"message":"Invalid code"}}`)
			return
		}
		jsonReply(w, 200, `{"key":"sk-or-v1-SECRET-0001","user_id":"user-0001"}`)
	case "POST /openai-auth/api/accounts/oauth/token":
		if !strings.Contains(string(b), "code=chatgpt-code-0001") || !strings.Contains(string(b), "client_id=chatgpt-client-0001") {
			jsonReply(w, 400, `{"error":"invalid_grant"}`)
			return
		}
		jsonReply(w, 200, `{"access_token":"chatgpt-access-SECRET-0001","refresh_token":"chatgpt-refresh-SECRET-0001","expires_in":3600,`+
			`"scope":"openid profile email offline_access resource.invoke chatgpt.tokens.use.direct","id_token":"x.y.z","token_type":"Bearer"}`)
	default:
		jsonReply(w, 404, `{"error":"not_found"}`)
	}
}
