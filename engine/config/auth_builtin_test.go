package config

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// tokenServer records the requests it gets and answers each path with a
// canned status and body.
type tokenServer struct {
	*httptest.Server
	mu   sync.Mutex
	reqs []recorded
}

type recorded struct {
	Method, Path string
	Header       http.Header
	Body         string
}

func newTokenServer(t *testing.T, replies map[string][2]string) *tokenServer {
	t.Helper()
	ts := &tokenServer{}
	ts.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		ts.mu.Lock()
		ts.reqs = append(ts.reqs, recorded{r.Method, r.URL.Path, r.Header.Clone(), string(b)})
		ts.mu.Unlock()
		reply, ok := replies[r.URL.Path]
		if !ok {
			http.NotFound(w, r)
			return
		}
		status, _ := strconv.Atoi(reply[0])
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		_, _ = io.WriteString(w, reply[1])
	}))
	t.Cleanup(ts.Close)
	return ts
}

func (ts *tokenServer) requests() []recorded {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	return append([]recorded(nil), ts.reqs...)
}

// jwt builds an unsigned token whose payload holds the claims.
func jwt(claims string) string {
	return "h." + base64.RawStdEncoding.EncodeToString([]byte(claims)) + ".s"
}

// expiresRE replaces the computed expiry so stored credentials compare.
var expiresRE = regexp.MustCompile(`"expires":\s*[0-9.e+]+`)

func TestBuiltinOAuthRefresh(t *testing.T) {
	t.Parallel()
	codexAccess := jwt(`{"https://api.openai.com/auth":{"chatgpt_account_id":"acct-1"}}`)
	tests := []struct {
		name     string
		replies  map[string][2]string
		handler  func(base string) OAuthHandler
		stored   string
		want     string // credential with "expires":E
		wantExp  time.Duration
		wantErr  string
		wantReqs []recorded // header subset and body of each request
	}{
		{
			name:    "anthropic posts JSON and stores an expiry five minutes early",
			replies: map[string][2]string{"/v1/oauth/token": {"200", `{"access_token":"sk-ant-oat01-new","refresh_token":"r2","expires_in":3600}`}},
			handler: func(base string) OAuthHandler { return &AnthropicOAuth{TokenURL: base + "/v1/oauth/token"} },
			stored:  `{"type":"oauth","refresh":"r1","access":"old","expires":1}`,
			want:    `{"type":"oauth","refresh":"r2","access":"sk-ant-oat01-new","expires":E}`,
			wantExp: 55 * time.Minute,
			wantReqs: []recorded{{Method: "POST", Path: "/v1/oauth/token",
				Header: http.Header{"Content-Type": {"application/json"}, "Accept": {"application/json"}},
				Body:   `{"grant_type":"refresh_token","client_id":"9d1c250a-e61b-44d9-88ed-5944d1962f5e","refresh_token":"r1"}`}},
		},
		{
			name:    "anthropic HTTP failure reports status, url and body",
			replies: map[string][2]string{"/v1/oauth/token": {"400", `{"error":"invalid_grant"}`}},
			handler: func(base string) OAuthHandler { return &AnthropicOAuth{TokenURL: base + "/v1/oauth/token"} },
			stored:  `{"type":"oauth","refresh":"r1","access":"old","expires":1}`,
			wantErr: `Anthropic token refresh request failed. url=BASE/v1/oauth/token; details=Error: HTTP request failed. status=400; url=BASE/v1/oauth/token; body={"error":"invalid_grant"}`,
		},
		{
			name:    "anthropic unreachable endpoint words the cause as Node does",
			handler: func(string) OAuthHandler { return &AnthropicOAuth{TokenURL: "http://127.0.0.1:1/t"} },
			stored:  `{"type":"oauth","refresh":"r1","access":"old","expires":1}`,
			wantErr: `Anthropic token refresh request failed. url=http://127.0.0.1:1/t; details=TypeError: fetch failed; cause=Error: connect ECONNREFUSED 127.0.0.1:1; code=ECONNREFUSED; errno=-111`,
		},
		{
			name:    "codex posts a form and stores the account id",
			replies: map[string][2]string{"/oauth/token": {"200", `{"access_token":"` + codexAccess + `","refresh_token":"r2","expires_in":864000}`}},
			handler: func(base string) OAuthHandler { return &CodexOAuth{TokenURL: base + "/oauth/token"} },
			stored:  `{"type":"oauth","access":"a","refresh":"r 1","expires":1,"accountId":"acct-0"}`,
			want:    `{"type":"oauth","access":"` + codexAccess + `","refresh":"r2","expires":E,"accountId":"acct-1"}`,
			wantExp: 240 * time.Hour,
			wantReqs: []recorded{{Method: "POST", Path: "/oauth/token",
				Header: http.Header{"Content-Type": {"application/x-www-form-urlencoded"}},
				Body:   "grant_type=refresh_token&refresh_token=r+1&client_id=app_EMoamEEZ73f0CkXaXp7hrann"}},
		},
		{
			name:    "codex failure carries the status and body",
			replies: map[string][2]string{"/oauth/token": {"401", `{"error":"refresh_token_expired"}`}},
			handler: func(base string) OAuthHandler { return &CodexOAuth{TokenURL: base + "/oauth/token"} },
			stored:  `{"type":"oauth","access":"a","refresh":"r","expires":1}`,
			wantErr: `OpenAI Codex token refresh failed (401): {"error":"refresh_token_expired"}`,
		},
		{
			name:    "codex reply without the account claim",
			replies: map[string][2]string{"/oauth/token": {"200", `{"access_token":"` + jwt(`{}`) + `","refresh_token":"r2","expires_in":10}`}},
			handler: func(base string) OAuthHandler { return &CodexOAuth{TokenURL: base + "/oauth/token"} },
			stored:  `{"type":"oauth","access":"a","refresh":"r","expires":1}`,
			wantErr: "Failed to extract accountId from token",
		},
		{
			name:    "codex reply missing fields",
			replies: map[string][2]string{"/oauth/token": {"200", `{"access_token": "x"}`}},
			handler: func(base string) OAuthHandler { return &CodexOAuth{TokenURL: base + "/oauth/token"} },
			stored:  `{"type":"oauth","access":"a","refresh":"r","expires":1}`,
			wantErr: `OpenAI Codex token refresh response missing fields: {"access_token":"x"}`,
		},
		{
			name: "copilot exchanges the GitHub token and lists the account's models",
			replies: map[string][2]string{
				"/copilot_internal/v2/token": {"200", `{"token":"tid=1;proxy-ep=proxy.business.githubcopilot.com;","expires_at":2000000000}`},
				"/models":                    {"200", `{"data":[{"id":"gpt-5","model_picker_enabled":true},{"id":"off","model_picker_enabled":true,"policy":{"state":"disabled"}},{"id":"notools","model_picker_enabled":true,"capabilities":{"supports":{"tool_calls":false}}},{"id":"hidden","model_picker_enabled":false}]}`},
			},
			handler: func(base string) OAuthHandler {
				return &CopilotOAuth{TokenURL: base + "/copilot_internal/v2/token", ModelsBaseURL: base}
			},
			stored: `{"type":"oauth","refresh":"ghu_1","access":"old","expires":1}`,
			want:   `{"type":"oauth","refresh":"ghu_1","access":"tid=1;proxy-ep=proxy.business.githubcopilot.com;","expires":1999999700000,"availableModelIds":["gpt-5"]}`,
			wantReqs: []recorded{
				{Method: "GET", Path: "/copilot_internal/v2/token", Header: http.Header{"Authorization": {"Bearer ghu_1"}, "Accept": {"application/json"},
					"User-Agent": {"GitHubCopilotChat/0.35.0"}, "Editor-Version": {"vscode/1.107.0"}, "Editor-Plugin-Version": {"copilot-chat/0.35.0"}, "Copilot-Integration-Id": {"vscode-chat"}}},
				{Method: "GET", Path: "/models", Header: http.Header{"Authorization": {"Bearer tid=1;proxy-ep=proxy.business.githubcopilot.com;"}, "X-Github-Api-Version": {"2026-06-01"}, "Copilot-Integration-Id": {"vscode-chat"}}},
			},
		},
		{
			name: "copilot keeps the enterprise domain",
			replies: map[string][2]string{
				"/copilot_internal/v2/token": {"200", `{"token":"t","expires_at":2000000000}`},
				"/models":                    {"200", `{"data":[]}`},
			},
			handler: func(base string) OAuthHandler {
				return &CopilotOAuth{TokenURL: base + "/copilot_internal/v2/token", ModelsBaseURL: base}
			},
			stored: `{"type":"oauth","refresh":"ghu_1","access":"old","expires":1,"enterpriseUrl":"https://corp.ghe.com/x"}`,
			want:   `{"type":"oauth","refresh":"ghu_1","access":"t","expires":1999999700000,"enterpriseUrl":"corp.ghe.com","availableModelIds":[]}`,
		},
		{
			name:    "copilot token failure is the status line and body",
			replies: map[string][2]string{"/copilot_internal/v2/token": {"401", `{"message":"Bad credentials"}`}},
			handler: func(base string) OAuthHandler {
				return &CopilotOAuth{TokenURL: base + "/copilot_internal/v2/token", ModelsBaseURL: base}
			},
			stored:  `{"type":"oauth","refresh":"ghu_1","access":"old","expires":1}`,
			wantErr: `401 Unauthorized: {"message":"Bad credentials"}`,
		},
		{
			name:    "copilot reply without a token",
			replies: map[string][2]string{"/copilot_internal/v2/token": {"200", `{"expires_at":5}`}},
			handler: func(base string) OAuthHandler {
				return &CopilotOAuth{TokenURL: base + "/copilot_internal/v2/token", ModelsBaseURL: base}
			},
			stored:  `{"type":"oauth","refresh":"ghu_1","access":"old","expires":1}`,
			wantErr: "Invalid Copilot token response fields",
		},
		{
			name:    "kimi posts a form to the OAuth host and keeps the full lifetime",
			replies: map[string][2]string{"/api/oauth/token": {"200", `{"access_token":"ka","refresh_token":"kr2","expires_in":900}`}},
			handler: func(base string) OAuthHandler { return &KimiOAuth{Host: base + "/", Sleep: noSleep} },
			stored:  `{"type":"oauth","access":"a","refresh":"kr1","expires":1}`,
			want:    `{"type":"oauth","access":"ka","refresh":"kr2","expires":E}`,
			wantExp: 15 * time.Minute,
			wantReqs: []recorded{{Method: "POST", Path: "/api/oauth/token",
				Header: http.Header{"Content-Type": {"application/x-www-form-urlencoded"}, "Accept": {"application/json"}, "User-Agent": {"undici"}},
				Body:   "client_id=17e5f671-d194-4dfb-9706-5516cb48c098&grant_type=refresh_token&refresh_token=kr1"}},
		},
		{
			name:    "kimi dead login",
			replies: map[string][2]string{"/api/oauth/token": {"400", `{"error":"invalid_grant","error_description":"revoked"}`}},
			handler: func(base string) OAuthHandler { return &KimiOAuth{Host: base, Sleep: noSleep} },
			stored:  `{"type":"oauth","access":"a","refresh":"kr1","expires":1}`,
			wantErr: "Kimi Code token refresh unauthorized (status 400): revoked",
		},
		{
			name:    "kimi server errors are retried, then reported",
			replies: map[string][2]string{"/api/oauth/token": {"503", `{"error":"busy"}`}},
			handler: func(base string) OAuthHandler { return &KimiOAuth{Host: base, Sleep: noSleep} },
			stored:  `{"type":"oauth","access":"a","refresh":"kr1","expires":1}`,
			wantErr: `Kimi Code token refresh failed with status 503: {"error":"busy"}`,
		},
		{
			name:    "meta mints a day-long key with the identity token",
			replies: map[string][2]string{"/muse-code/key": {"200", `{"api_key":"mk"}`}},
			handler: func(base string) OAuthHandler { return &MetaOAuth{MintURL: base + "/muse-code/key"} },
			stored:  `{"type":"oauth","refresh":"idt","access":"old","expires":1}`,
			want:    `{"type":"oauth","refresh":"idt","access":"mk","expires":E}`,
			wantExp: 24 * time.Hour,
			wantReqs: []recorded{{Method: "POST", Path: "/muse-code/key",
				Header: http.Header{"Authorization": {"Bearer idt"}, "Content-Type": {"application/json"}, "X-Api-Version": {"1.0.0"}},
				Body:   "{}"}},
		},
		{
			name:    "meta expired session",
			replies: map[string][2]string{"/muse-code/key": {"401", `{"detail":" gone "}`}},
			handler: func(base string) OAuthHandler { return &MetaOAuth{MintURL: base + "/muse-code/key"} },
			stored:  `{"type":"oauth","refresh":"idt","access":"old","expires":1}`,
			wantErr: "Meta session expired (status 401). Run `/login meta` to sign in again.: gone",
		},
		{
			name:    "meta without a key points at the setup page",
			replies: map[string][2]string{"/muse-code/key": {"200", `{"action_url":"https://meta.ai/setup"}`}},
			handler: func(base string) OAuthHandler { return &MetaOAuth{MintURL: base + "/muse-code/key"} },
			stored:  `{"type":"oauth","refresh":"idt","access":"old","expires":1}`,
			wantErr: "Meta did not issue an API key. Complete setup at https://meta.ai/setup",
		},
		{
			name:    "openai ChatGPT sign-in keeps the issued client id and the scopes",
			replies: map[string][2]string{"/api/accounts/oauth/token": {"200", `{"access_token":"oa","refresh_token":"or2","expires_in":3600,"scope":"openid  chatgpt.tokens.use.direct"}`}},
			handler: func(base string) OAuthHandler { return &ChatGPTOAuth{TokenURL: base + "/api/accounts/oauth/token"} },
			stored:  `{"type":"oauth","access":"a","refresh":"or1","expires":1,"clientId":"cid-9","scopes":["x"]}`,
			want:    `{"type":"oauth","access":"oa","refresh":"or2","expires":E,"clientId":"cid-9","scopes":["openid","chatgpt.tokens.use.direct"]}`,
			wantExp: 57 * time.Minute,
			wantReqs: []recorded{{Method: "POST", Path: "/api/accounts/oauth/token",
				Header: http.Header{"Accept": {"application/json"}, "Content-Type": {"application/x-www-form-urlencoded"}},
				Body:   "grant_type=refresh_token&client_id=cid-9&refresh_token=or1&resource=https%3A%2F%2Fapi.openai.com%2Fv1"}},
		},
		{
			name:    "openai ChatGPT credential without a client id",
			handler: func(string) OAuthHandler { return &ChatGPTOAuth{TokenURL: "http://127.0.0.1:1"} },
			stored:  `{"type":"oauth","access":"a","refresh":"or1","expires":1}`,
			wantErr: "Stored OpenAI OAuth credential does not contain an issued client ID; reconnect ChatGPT",
		},
		{
			name:    "openai ChatGPT grant without direct use",
			replies: map[string][2]string{"/t": {"200", `{"access_token":"oa","refresh_token":"or2","expires_in":3600,"scope":"openid"}`}},
			handler: func(base string) OAuthHandler { return &ChatGPTOAuth{TokenURL: base + "/t"} },
			stored:  `{"type":"oauth","access":"a","refresh":"or1","expires":1,"clientId":"c"}`,
			wantErr: "OpenAI OAuth grant did not include chatgpt.tokens.use.direct",
		},
		{
			name:    "xai keeps the refresh token it was not given a new one for",
			replies: map[string][2]string{"/oauth2/token": {"200", `{"access_token":"xa","expires_in":7200}`}},
			handler: func(base string) OAuthHandler { return &XAIOAuth{TokenURL: base + "/oauth2/token"} },
			stored:  `{"type":"oauth","access":"a","refresh":"xr","expires":1}`,
			want:    `{"type":"oauth","access":"xa","refresh":"xr","expires":E}`,
			wantExp: 115 * time.Minute,
			wantReqs: []recorded{{Method: "POST", Path: "/oauth2/token",
				Header: http.Header{"Content-Type": {"application/x-www-form-urlencoded"}, "Accept": {"application/json"}},
				Body:   "grant_type=refresh_token&client_id=b1a00492-073a-47ea-816f-4c329264a828&refresh_token=xr"}},
		},
		{
			name:    "xai failure joins error and description",
			replies: map[string][2]string{"/oauth2/token": {"400", `{"error":"invalid_grant","error_description":"expired"}`}},
			handler: func(base string) OAuthHandler { return &XAIOAuth{TokenURL: base + "/oauth2/token"} },
			stored:  `{"type":"oauth","access":"a","refresh":"xr","expires":1}`,
			wantErr: "xAI OAuth token refresh failed (HTTP 400): invalid_grant: expired",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			ts := newTokenServer(t, tt.replies)
			h := tt.handler(ts.URL)
			before := time.Now()
			got, err := h.RefreshToken(context.Background(), json.RawMessage(tt.stored))
			if tt.wantErr != "" {
				require.Error(t, err)
				assert.Equal(t, strings.ReplaceAll(tt.wantErr, "BASE", ts.URL), err.Error())
				return
			}
			require.NoError(t, err)
			if tt.wantExp > 0 {
				var c struct{ Expires float64 }
				require.NoError(t, json.Unmarshal(got, &c))
				lo := float64(before.Add(tt.wantExp).UnixMilli())
				hi := float64(time.Now().Add(tt.wantExp).UnixMilli())
				assert.True(t, c.Expires >= lo && c.Expires <= hi, "expires %v not in [%v, %v]", c.Expires, lo, hi)
				got = []byte(expiresRE.ReplaceAllString(string(got), `"expires":E`))
			}
			assert.Equal(t, tt.want, string(got))
			reqs := ts.requests()
			require.GreaterOrEqual(t, len(reqs), len(tt.wantReqs))
			for i, w := range tt.wantReqs {
				assert.Equal(t, w.Method, reqs[i].Method)
				assert.Equal(t, w.Path, reqs[i].Path)
				for k, v := range w.Header {
					assert.Equal(t, v, reqs[i].Header.Values(k), "header %s", k)
				}
				if w.Body != "" {
					assert.Equal(t, w.Body, reqs[i].Body)
				}
			}
		})
	}
}

func TestBuiltinOAuthAPIKeyAndBaseURL(t *testing.T) {
	t.Parallel()
	tests := []struct {
		provider, cred, wantKey, wantBase string
	}{
		{"anthropic", `{"type":"oauth","refresh":"r","access":"sk-ant-oat01-x","expires":1}`, "sk-ant-oat01-x", ""},
		{"openai-codex", `{"type":"oauth","access":"tok","refresh":"r","expires":1,"accountId":"a"}`, "tok", ""},
		{"github-copilot", `{"type":"oauth","refresh":"r","access":"tid=1;proxy-ep=proxy.individual.githubcopilot.com;x=y","expires":1}`, "tid=1;proxy-ep=proxy.individual.githubcopilot.com;x=y", "https://api.individual.githubcopilot.com"},
		{"github-copilot", `{"type":"oauth","refresh":"r","access":"tid=1","expires":1,"enterpriseUrl":"corp.ghe.com"}`, "tid=1", "https://copilot-api.corp.ghe.com"},
		{"github-copilot", `{"type":"oauth","refresh":"r","access":"tid=1","expires":1}`, "tid=1", "https://api.individual.githubcopilot.com"},
		{"xai", `{"type":"oauth","access":"xa","refresh":"r","expires":1}`, "xa", ""},
		{"kimi-coding", `{"type":"oauth","access":"ka","refresh":"r","expires":1}`, "ka", ""},
		{"meta", `{"type":"oauth","refresh":"idt","access":"mk","expires":1}`, "mk", ""},
		{"openai", `{"type":"oauth","access":"oa","refresh":"r","expires":1,"clientId":"c","scopes":[]}`, "oa", ""},
		{"openrouter", `{"type":"oauth","refresh":"","access":"sk-or-1","expires":9007199254740991}`, "sk-or-1", ""},
	}
	for _, tt := range tests {
		t.Run(tt.provider+"/"+tt.wantBase, func(t *testing.T) {
			t.Parallel()
			h := BuiltinOAuthHandler(tt.provider)
			require.NotNil(t, h)
			key, err := h.APIKey(context.Background(), json.RawMessage(tt.cred))
			require.NoError(t, err)
			assert.Equal(t, tt.wantKey, key)
			base := ""
			if b, ok := h.(OAuthBaseURLer); ok {
				base = b.BaseURL(json.RawMessage(tt.cred))
			}
			assert.Equal(t, tt.wantBase, base)
		})
	}
	assert.Nil(t, BuiltinOAuthHandler("groq"))
}

// TestBuiltinOAuthRegistry runs a refresh through the registry as a
// request does: the built-in handler applies only once enabled, the new
// credential replaces the old one in place (2-space indentation, other
// entries untouched, mode kept), and a failure is the reference's text.
func TestBuiltinOAuthRegistry(t *testing.T) {
	t.Parallel()
	ts := newTokenServer(t, map[string][2]string{
		"/ok":   {"200", `{"access_token":"sk-ant-oat01-new","refresh_token":"r2","expires_in":3600}`},
		"/fail": {"400", `bad`},
	})
	tests := []struct {
		name     string
		path     string
		wantKey  string
		wantErr  string
		wantFile string
	}{
		{
			name: "refresh", path: "/ok", wantKey: "sk-ant-oat01-new",
			wantFile: "{\n  \"openai\": {\n    \"type\": \"api_key\",\n    \"key\": \"k\"\n  },\n  \"anthropic\": {\n    \"type\": \"oauth\",\n    \"refresh\": \"r2\",\n    \"access\": \"sk-ant-oat01-new\",\n    \"expires\": E\n  }\n}",
		},
		{
			name: "failure", path: "/fail",
			wantErr: "OAuth refresh failed for anthropic: Anthropic token refresh request failed. url=BASE/fail; details=Error: HTTP request failed. status=400; url=BASE/fail; body=bad",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			auth := `{"openai":{"type":"api_key","key":"k"},"anthropic":{"type":"oauth","refresh":"r1","access":"sk-ant-oat01-old","expires":1000}}`
			path := filepath.Join(dir, "auth.json")
			require.NoError(t, os.WriteFile(path, []byte(auth), 0o600))
			r, errs := loadModels(dir, func(string) string { return "" })
			require.Empty(t, errs)
			m := r.Find("anthropic", "claude-haiku-4-5")
			require.NotNil(t, m)

			_, viaOAuth, err := r.ResolveOAuthKey(context.Background(), "anthropic")
			require.NoError(t, err)
			assert.False(t, viaOAuth, "built-in handlers are off until enabled")

			r.EnableBuiltinOAuth()
			assert.True(t, r.UsesOAuth("anthropic"))
			assert.True(t, r.HasConfiguredAuth("anthropic"))
			r.SetOAuthHandler("anthropic", &AnthropicOAuth{TokenURL: ts.URL + tt.path})
			key, _, err := r.RequestAuthContext(context.Background(), m)
			if tt.wantErr != "" {
				require.Error(t, err)
				assert.Equal(t, strings.ReplaceAll(tt.wantErr, "BASE", ts.URL), err.Error())
				b, _ := os.ReadFile(path)
				assert.Equal(t, auth, string(b), "a failed refresh leaves auth.json alone")
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tt.wantKey, key)
			b, err := os.ReadFile(path)
			require.NoError(t, err)
			assert.Equal(t, tt.wantFile, expiresRE.ReplaceAllString(string(b), `"expires": E`))
			st, err := os.Stat(path)
			require.NoError(t, err)
			assert.Equal(t, os.FileMode(0o600), st.Mode().Perm())
		})
	}
}

func TestCopilotModelAllowed(t *testing.T) {
	t.Parallel()
	tests := []struct {
		cred, id string
		want     bool
	}{
		{`{"type":"oauth","availableModelIds":["a","b"]}`, "b", true},
		{`{"type":"oauth","availableModelIds":["a","b"]}`, "c", false},
		{`{"type":"oauth","availableModelIds":[]}`, "c", false},
		{`{"type":"oauth"}`, "c", true},
		{`{"type":"oauth","availableModelIds":[1]}`, "c", true},
		{`{"type":"api_key","key":"k"}`, "c", true},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, CopilotModelAllowed(json.RawMessage(tt.cred), tt.id), "%s %s", tt.cred, tt.id)
	}
}

// TestCopilotAvailableModels checks that a Copilot login's model list
// limits the provider's available models, as the reference's filter does.
func TestCopilotAvailableModels(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, auth string
		want       []string // nil: every catalog model
	}{
		{"listed", `{"github-copilot":{"type":"oauth","refresh":"g","access":"a","expires":1,"availableModelIds":["claude-haiku-4.5","nope"]}}`, []string{"claude-haiku-4.5"}},
		{"no list", `{"github-copilot":{"type":"oauth","refresh":"g","access":"a","expires":1}}`, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			require.NoError(t, os.WriteFile(filepath.Join(dir, "auth.json"), []byte(tt.auth), 0o600))
			r, errs := loadModels(dir, func(string) string { return "" })
			require.Empty(t, errs)
			r.EnableBuiltinOAuth()
			var got []string
			for _, m := range r.Available() {
				if m.Provider == "github-copilot" {
					got = append(got, m.ID)
				}
			}
			if tt.want == nil {
				assert.Greater(t, len(got), 1)
				return
			}
			assert.Equal(t, tt.want, got)
		})
	}
}

func noSleep(context.Context, time.Duration) error { return nil }
