package config

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/pi-go/pi/engine"
)

// The built-in OAuth providers are those whose credentials the reference's
// /login and `pi auth login` write to auth.json (ours: engine/config/login).
// A running pi uses and refreshes such credentials as the reference does:
// the handlers here implement OAuthHandler with the reference's token
// endpoints, request bodies, stored credential shapes and error texts.

// Token endpoints and client ids of the built-in providers (facts of the
// reference, which the providers' servers match on).
const (
	anthropicTokenURL = "https://platform.claude.com/v1/oauth/token"
	anthropicClientID = "9d1c250a-e61b-44d9-88ed-5944d1962f5e"
	codexTokenURL     = "https://auth.openai.com/oauth/token"
	codexClientID     = "app_EMoamEEZ73f0CkXaXp7hrann"
	xaiTokenURL       = "https://auth.x.ai/oauth2/token"
	xaiClientID       = "b1a00492-073a-47ea-816f-4c329264a828"

	// codexJWTClaim is the access token's claim holding the ChatGPT
	// account id that Codex requests carry.
	codexJWTClaim = "https://api.openai.com/auth"
	// copilotDefaultBaseURL is where Copilot requests go when the token
	// names no proxy endpoint and no enterprise domain is stored.
	copilotDefaultBaseURL = "https://api.individual.githubcopilot.com"
	// copilotAPIVersion is sent with the models listing a refresh makes.
	copilotAPIVersion = "2026-06-01"

	// tokenSafetyMargin is subtracted from a token's lifetime by the
	// providers whose reference code stores an early expiry.
	tokenSafetyMargin = 5 * time.Minute
	// xaiDefaultLifetime is used when xAI's refresh reply omits
	// expires_in.
	xaiDefaultLifetime = time.Hour
)

// CopilotHeaders are the editor identity headers GitHub Copilot requires,
// sent by the token exchange and the models listing; the catalog's Copilot
// models carry the same headers.
var CopilotHeaders = [][2]string{
	{"User-Agent", "GitHubCopilotChat/0.35.0"},
	{"Editor-Version", "vscode/1.107.0"},
	{"Editor-Plugin-Version", "copilot-chat/0.35.0"},
	{"Copilot-Integration-Id", "vscode-chat"},
}

// OAuthBaseURLer is implemented by an OAuth handler whose credential
// decides where requests go (GitHub Copilot's per-account endpoint). The
// URL replaces the model's base URL, as the reference's auth.baseUrl does.
type OAuthBaseURLer interface {
	BaseURL(credential json.RawMessage) string
}

// fetchUserAgent is the user agent of the reference's token requests
// (Node's fetch), which the token servers see.
const fetchUserAgent = "undici"

// oauthClient sends the token requests. It has a timeout of its own
// because a refresh runs detached from the caller's cancellation.
var oauthClient = &http.Client{Timeout: 30 * time.Second}

// builtinOAuth holds, per registry, whether the built-in handlers apply.
var builtinOAuth sync.Map // *Registry -> bool

// EnableBuiltinOAuth makes the registry use the built-in OAuth handlers
// for the reference's built-in OAuth providers (anthropic, openai-codex,
// github-copilot, xai, openrouter, kimi-coding, meta, openai, radius) when
// no extension installed one: their stored OAuth credentials then serve
// requests, refreshed when they expire.
func (r *Registry) EnableBuiltinOAuth() { builtinOAuth.Store(r, true) }

// builtinOAuthHandler is the built-in handler of a provider, or nil.
func (r *Registry) builtinOAuthHandler(provider string) OAuthHandler {
	if on, _ := builtinOAuth.Load(r); on != true {
		return nil
	}
	if gw := r.radiusGateways[provider]; gw != "" {
		// models.json's "oauth": "radius" providers (and a radius
		// provider moved to another gateway) refresh at their gateway.
		return &RadiusOAuth{Gateway: gw}
	}
	return BuiltinOAuthHandler(provider)
}

// BuiltinOAuthHandler returns the built-in OAuth code of a provider, or
// nil when the reference has none for it.
func BuiltinOAuthHandler(provider string) OAuthHandler {
	switch provider {
	case "anthropic":
		return &AnthropicOAuth{}
	case "openai-codex":
		return &CodexOAuth{}
	case "github-copilot":
		return &CopilotOAuth{}
	case "xai":
		return &XAIOAuth{}
	case "openrouter":
		return passThroughOAuth{}
	case "kimi-coding":
		return &KimiOAuth{}
	case "meta":
		return &MetaOAuth{}
	case "openai":
		return &ChatGPTOAuth{}
	case "radius":
		return &RadiusOAuth{}
	}
	return nil
}

// OAuthBaseURL is the base URL the provider's stored OAuth credential
// directs requests to, or "" when the model's own applies.
func (r *Registry) OAuthBaseURL(provider string) string {
	h, ok := r.OAuthHandlerFor(provider).(OAuthBaseURLer)
	if !ok || !r.UsesOAuth(provider) {
		return ""
	}
	return h.BaseURL(r.StoredCredential(provider))
}

// storedOAuth is the common part of a stored OAuth credential.
type storedOAuth struct {
	Refresh       string `json:"refresh"`
	Access        string `json:"access"`
	EnterpriseURL string `json:"enterpriseUrl"`
}

func readStoredOAuth(raw json.RawMessage) (storedOAuth, error) {
	var c storedOAuth
	if err := json.Unmarshal(raw, &c); err != nil {
		return c, fmt.Errorf("invalid OAuth credential: %w", err)
	}
	return c, nil
}

// accessKey is the APIKey of the providers whose requests carry the
// access token as it is.
func accessKey(raw json.RawMessage) (string, error) {
	c, err := readStoredOAuth(raw)
	return c.Access, err
}

// expiryAfter is Date.now() + seconds*1000 - margin in milliseconds, the
// expiry the reference stores.
func expiryAfter(seconds float64, margin time.Duration) float64 {
	return float64(time.Now().UnixMilli()) + seconds*1000 - float64(margin.Milliseconds())
}

// AnthropicOAuth refreshes Claude Pro/Max credentials. The access token
// is the request key; the adapter recognises it and authenticates with it
// as a bearer token.
type AnthropicOAuth struct {
	// TokenURL replaces the token endpoint (tests).
	TokenURL string
	Client   *http.Client
}

type anthropicCredential struct {
	Type    string  `json:"type"`
	Refresh string  `json:"refresh"`
	Access  string  `json:"access"`
	Expires float64 `json:"expires"`
}

// RefreshToken posts the refresh token as JSON and stores the new pair
// with an expiry five minutes early.
func (a *AnthropicOAuth) RefreshToken(ctx context.Context, credential json.RawMessage) (json.RawMessage, error) {
	c, err := readStoredOAuth(credential)
	if err != nil {
		return nil, err
	}
	tokenURL := orDefault(a.TokenURL, anthropicTokenURL)
	body, _ := engine.MarshalJSON(struct {
		GrantType    string `json:"grant_type"`
		ClientID     string `json:"client_id"`
		RefreshToken string `json:"refresh_token"`
	}{"refresh_token", anthropicClientID, c.Refresh})
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, tokenURL, bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json")
	status, text, err := doText(clientOr(a.Client), req)
	if err == nil && (status < 200 || status > 299) {
		err = fmt.Errorf("Error: HTTP request failed. status=%d; url=%s; body=%s", status, tokenURL, text)
	} else if err != nil {
		err = fmt.Errorf("TypeError: fetch failed; cause=%s", nodeCause(err))
	}
	if err != nil {
		return nil, fmt.Errorf("Anthropic token refresh request failed. url=%s; details=%w", tokenURL, err)
	}
	var data struct {
		AccessToken  string  `json:"access_token"`
		RefreshToken string  `json:"refresh_token"`
		ExpiresIn    float64 `json:"expires_in"`
	}
	if err := json.Unmarshal([]byte(text), &data); err != nil {
		return nil, fmt.Errorf("Anthropic token refresh returned invalid JSON. url=%s; body=%s; details=SyntaxError: %w", tokenURL, text, err)
	}
	return engine.MarshalJSON(anthropicCredential{"oauth", data.RefreshToken, data.AccessToken, expiryAfter(data.ExpiresIn, tokenSafetyMargin)})
}

// APIKey is the access token.
func (a *AnthropicOAuth) APIKey(_ context.Context, credential json.RawMessage) (string, error) {
	return accessKey(credential)
}

// CodexOAuth refreshes ChatGPT Plus/Pro credentials for openai-codex. The
// stored credential carries the account id (from the access token's
// claims) that Codex requests send beside the token.
type CodexOAuth struct {
	TokenURL string
	Client   *http.Client
}

type codexCredential struct {
	Type      string  `json:"type"`
	Access    string  `json:"access"`
	Refresh   string  `json:"refresh"`
	Expires   float64 `json:"expires"`
	AccountID string  `json:"accountId"`
}

// RefreshToken posts a form and stores the new tokens with their full
// lifetime, as the reference does for Codex.
func (c *CodexOAuth) RefreshToken(ctx context.Context, credential json.RawMessage) (json.RawMessage, error) {
	stored, err := readStoredOAuth(credential)
	if err != nil {
		return nil, err
	}
	form := "grant_type=refresh_token&refresh_token=" + url.QueryEscape(stored.Refresh) + "&client_id=" + url.QueryEscape(codexClientID)
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, orDefault(c.TokenURL, codexTokenURL), strings.NewReader(form))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("User-Agent", fetchUserAgent)
	resp, err := clientOr(c.Client).Do(req)
	if err != nil {
		// fetch's TypeError says only this; the cause is not in the text.
		return nil, errors.New("OpenAI Codex token refresh error: fetch failed")
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		text := string(b)
		if text == "" {
			text = statusText(resp)
		}
		return nil, fmt.Errorf("OpenAI Codex token refresh failed (%d): %s", resp.StatusCode, text)
	}
	var data map[string]json.RawMessage
	if err := json.Unmarshal(b, &data); err != nil {
		return nil, fmt.Errorf("OpenAI Codex token refresh returned invalid JSON: %w", err)
	}
	var tok struct {
		AccessToken  string   `json:"access_token"`
		RefreshToken string   `json:"refresh_token"`
		ExpiresIn    *float64 `json:"expires_in"`
	}
	_ = json.Unmarshal(b, &tok)
	if tok.AccessToken == "" || tok.RefreshToken == "" || tok.ExpiresIn == nil {
		compact, _ := engine.MarshalJSON(json.RawMessage(b))
		return nil, fmt.Errorf("OpenAI Codex token refresh response missing fields: %s", compact)
	}
	account := CodexAccountID(tok.AccessToken)
	if account == "" {
		return nil, errors.New("Failed to extract accountId from token")
	}
	return engine.MarshalJSON(codexCredential{"oauth", tok.AccessToken, tok.RefreshToken, expiryAfter(*tok.ExpiresIn, 0), account})
}

// APIKey is the access token.
func (c *CodexOAuth) APIKey(_ context.Context, credential json.RawMessage) (string, error) {
	return accessKey(credential)
}

// CodexAccountID reads the ChatGPT account id from an access token's JWT
// payload, or "" when it has none. The payload is decoded as the
// reference does (standard base64 alphabet, padding optional).
func CodexAccountID(token string) string {
	parts := strings.Split(token, ".")
	if len(parts) != 3 {
		return ""
	}
	payload, err := base64.RawStdEncoding.DecodeString(strings.TrimRight(parts[1], "="))
	if err != nil {
		return ""
	}
	var claims map[string]json.RawMessage
	if json.Unmarshal(payload, &claims) != nil {
		return ""
	}
	var auth struct {
		AccountID any `json:"chatgpt_account_id"`
	}
	if json.Unmarshal(claims[codexJWTClaim], &auth) != nil {
		return ""
	}
	id, _ := auth.AccountID.(string)
	return id
}

// XAIOAuth refreshes SuperGrok / X Premium credentials.
type XAIOAuth struct {
	TokenURL string
	Client   *http.Client
}

// RefreshToken posts a form; xAI may keep the refresh token, and may omit
// the lifetime, which then defaults to an hour.
func (x *XAIOAuth) RefreshToken(ctx context.Context, credential json.RawMessage) (json.RawMessage, error) {
	stored, err := readStoredOAuth(credential)
	if err != nil {
		return nil, err
	}
	form := "grant_type=refresh_token&client_id=" + url.QueryEscape(xaiClientID) + "&refresh_token=" + url.QueryEscape(stored.Refresh)
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, orDefault(x.TokenURL, xaiTokenURL), strings.NewReader(form))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Accept", "application/json")
	status, text, err := doText(clientOr(x.Client), req)
	if err != nil {
		return nil, err
	}
	var body map[string]any
	if json.Unmarshal([]byte(text), &body) != nil {
		return nil, fmt.Errorf("xAI OAuth returned invalid JSON (HTTP %d)", status)
	}
	if status < 200 || status > 299 {
		var parts []string
		for _, k := range []string{"error", "error_description"} {
			if v, _ := body[k].(string); v != "" {
				parts = append(parts, v)
			}
		}
		msg := fmt.Sprintf("xAI OAuth token refresh failed (HTTP %d)", status)
		if len(parts) > 0 {
			msg += ": " + strings.Join(parts, ": ")
		}
		return nil, errors.New(msg)
	}
	access, ok := body["access_token"].(string)
	if !ok || access == "" {
		return nil, errors.New("Invalid xAI OAuth response field: access_token")
	}
	refresh := stored.Refresh
	if v, present := body["refresh_token"]; present || refresh == "" {
		s, ok := v.(string)
		if !ok || s == "" {
			return nil, errors.New("Invalid xAI OAuth response field: refresh_token")
		}
		refresh = s
	}
	lifetime := xaiDefaultLifetime.Seconds()
	if v, present := body["expires_in"]; present {
		n, ok := v.(float64)
		if !ok || n <= 0 {
			return nil, errors.New("Invalid xAI OAuth response field: expires_in")
		}
		lifetime = n
	}
	return engine.MarshalJSON(accessFirstCredential{"oauth", access, refresh, expiryAfter(lifetime, tokenSafetyMargin)})
}

// accessFirstCredential is a stored credential with the access token
// before the refresh token, the order some reference providers build.
type accessFirstCredential struct {
	Type    string  `json:"type"`
	Access  string  `json:"access"`
	Refresh string  `json:"refresh"`
	Expires float64 `json:"expires"`
}

// APIKey is the access token.
func (x *XAIOAuth) APIKey(_ context.Context, credential json.RawMessage) (string, error) {
	return accessKey(credential)
}

// passThroughOAuth serves OpenRouter, whose OAuth login yields a key that
// never expires: a refresh keeps the credential as it is.
type passThroughOAuth struct{}

func (passThroughOAuth) RefreshToken(_ context.Context, credential json.RawMessage) (json.RawMessage, error) {
	return credential, nil
}

func (passThroughOAuth) APIKey(_ context.Context, credential json.RawMessage) (string, error) {
	return accessKey(credential)
}

func orDefault(v, def string) string {
	if v != "" {
		return v
	}
	return def
}

func clientOr(c *http.Client) *http.Client {
	if c != nil {
		return c
	}
	return oauthClient
}

// doText sends a request and reads the whole reply. A request without a
// user agent of its own names the one Node's fetch sends.
func doText(c *http.Client, req *http.Request) (int, string, error) {
	if req.Header.Get("User-Agent") == "" {
		req.Header.Set("User-Agent", fetchUserAgent)
	}
	resp, err := c.Do(req)
	if err != nil {
		return 0, "", err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		return 0, "", err
	}
	return resp.StatusCode, string(b), nil
}

// nodeCause words a connection failure as Node reports the cause of a
// failed fetch, for the common cases (unknown host, refused connection).
func nodeCause(err error) string {
	var dns *net.DNSError
	if errors.As(err, &dns) && dns.IsNotFound {
		return "Error: getaddrinfo ENOTFOUND " + dns.Name + "; code=ENOTFOUND; errno=-3008"
	}
	var op *net.OpError
	if errors.As(err, &op) && errors.Is(err, syscall.ECONNREFUSED) && op.Addr != nil {
		return "Error: connect ECONNREFUSED " + op.Addr.String() + "; code=ECONNREFUSED; errno=-111"
	}
	return "Error: " + err.Error()
}

// statusText is the reason phrase of a reply, as fetch's statusText.
func statusText(resp *http.Response) string {
	return strings.TrimSpace(strings.TrimPrefix(resp.Status, fmt.Sprint(resp.StatusCode)))
}
