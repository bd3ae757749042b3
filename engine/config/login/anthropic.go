package login

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"strings"
	"time"

	"github.com/pi-go/pi/engine"
)

// Facts of the reference's Claude Pro/Max sign-in, which Anthropic's
// authorization server matches on.
const (
	anthropicClientID       = "9d1c250a-e61b-44d9-88ed-5944d1962f5e"
	anthropicAuthorizeURL   = "https://claude.ai/oauth/authorize"
	anthropicTokenURL       = "https://platform.claude.com/v1/oauth/token"
	anthropicCallbackPort   = 53692
	anthropicCallbackPath   = "/callback"
	anthropicCopyCodeURI    = "https://platform.claude.com/oauth/code/callback"
	anthropicScopes         = "org:create_api_key user:profile user:inference user:sessions:claude_code user:mcp_servers user:file_upload"
	anthropicBrowserMethod  = "browser"
	anthropicCopyCodeMethod = "copy_code"
	// tokenSafetyMargin is taken off the token's lifetime when it is
	// stored, so it is refreshed before the server rejects it.
	tokenSafetyMargin = 5 * time.Minute
)

func loginAnthropic(ctx context.Context, ui Interaction, ep *Endpoints) (json.RawMessage, error) {
	method, err := ui.Ask(ctx, Prompt{Kind: "select", Message: "Select Anthropic login method:", Options: []Option{
		{ID: anthropicBrowserMethod, Label: "Browser login (default)"},
		{ID: anthropicCopyCodeMethod, Label: "Copy code login (headless)"},
	}})
	if err != nil {
		return nil, err
	}
	switch method {
	case anthropicBrowserMethod:
		return anthropicBrowser(ctx, ui, ep)
	case anthropicCopyCodeMethod:
		return anthropicCopyCode(ctx, ui, ep)
	}
	return nil, fmt.Errorf("Unknown Anthropic login method: %s", method)
}

// anthropicAuthorizeURL builds the authorization URL with the parameters
// in the reference's order (the state is the PKCE verifier, as there).
func anthropicAuthURL(ep *Endpoints, redirectURI, challenge, verifier string) string {
	base := ep.AnthropicAuthorize
	if base == "" {
		base = anthropicAuthorizeURL
	}
	return base + "?" + orderedQuery(
		"code", "true",
		"client_id", anthropicClientID,
		"response_type", "code",
		"redirect_uri", redirectURI,
		"scope", anthropicScopes,
		"code_challenge", challenge,
		"code_challenge_method", "S256",
		"state", verifier,
	)
}

// orderedQuery encodes name/value pairs in the given order, as
// URLSearchParams does (url.Values sorts them).
func orderedQuery(kv ...string) string {
	var b strings.Builder
	for i := 0; i+1 < len(kv); i += 2 {
		if i > 0 {
			b.WriteByte('&')
		}
		b.WriteString(url.QueryEscape(kv[i]))
		b.WriteByte('=')
		b.WriteString(url.QueryEscape(kv[i+1]))
	}
	return b.String()
}

func anthropicBrowser(ctx context.Context, ui Interaction, ep *Endpoints) (json.RawMessage, error) {
	verifier, challenge := newPKCE()
	host := os.Getenv("PI_OAUTH_CALLBACK_HOST")
	if host == "" {
		host = "127.0.0.1"
	}
	port := ep.AnthropicCallbackPort
	switch {
	case port == 0:
		port = anthropicCallbackPort
	case port < 0:
		port = 0
	}
	// A busy port falls back to any free one; without a server at all the
	// sign-in goes on with the pasted redirect URL.
	cb, err := startCallback("Anthropic", host, port, anthropicCallbackPath, "localhost", verifier)
	if err != nil {
		cb, _ = startCallback("Anthropic", host, 0, anthropicCallbackPath, "localhost", verifier)
	}
	redirectURI := fmt.Sprintf("http://localhost:%d%s", anthropicCallbackPort, anthropicCallbackPath)
	if cb != nil {
		redirectURI = cb.redirectURI
		defer cb.close()
	}
	ui.Notify(Event{Kind: "auth_url", URL: anthropicAuthURL(ep, redirectURI, challenge, verifier),
		Instructions: "Complete login in your browser. If the browser is on another machine, paste the final redirect URL here."})
	value, fromCallback, err := waitCodeOrPaste(ctx, ui, cb, Prompt{Kind: "manual_code",
		Message: "Complete login in your browser, or paste the authorization code / redirect URL here:", Placeholder: redirectURI})
	if err != nil {
		return nil, err
	}
	code, state := value, verifier
	if !fromCallback {
		var pastedState string
		code, pastedState = parseAuthorizationInput(value)
		if pastedState != "" && pastedState != verifier {
			return nil, errors.New("OAuth state mismatch")
		}
		if pastedState != "" {
			state = pastedState
		}
	}
	if code == "" {
		return nil, errors.New("Missing authorization code")
	}
	ui.Notify(Event{Kind: "progress", Message: "Exchanging authorization code for tokens..."})
	return anthropicExchange(ctx, ep, code, state, verifier, redirectURI)
}

func anthropicCopyCode(ctx context.Context, ui Interaction, ep *Endpoints) (json.RawMessage, error) {
	verifier, challenge := newPKCE()
	ui.Notify(Event{Kind: "auth_url", URL: anthropicAuthURL(ep, anthropicCopyCodeURI, challenge, verifier),
		Instructions: "Complete login in your browser, then copy the code Anthropic shows and paste it here."})
	input, err := ui.Ask(ctx, Prompt{Kind: "manual_code", Message: "Paste the code Anthropic shows after you sign in:", Placeholder: "code#state"})
	if err != nil {
		return nil, err
	}
	code, state := parseAuthorizationInput(input)
	if state != "" && state != verifier {
		return nil, errors.New("OAuth state mismatch")
	}
	if code == "" {
		return nil, errors.New("Missing authorization code")
	}
	if state == "" {
		state = verifier
	}
	ui.Notify(Event{Kind: "progress", Message: "Exchanging authorization code for tokens..."})
	return anthropicExchange(ctx, ep, code, state, verifier, anthropicCopyCodeURI)
}

// parseAuthorizationInput reads what the user pasted: a redirect URL, a
// "code#state" pair, a query string, or the bare code.
func parseAuthorizationInput(input string) (code, state string) {
	v := strings.TrimSpace(input)
	if v == "" {
		return "", ""
	}
	if u, err := url.Parse(v); err == nil && u.Scheme != "" && u.Host != "" {
		return u.Query().Get("code"), u.Query().Get("state")
	}
	if c, s, ok := strings.Cut(v, "#"); ok {
		if i := strings.IndexByte(s, '#'); i >= 0 {
			s = s[:i]
		}
		return c, s
	}
	if strings.Contains(v, "code=") {
		q, _ := url.ParseQuery(v)
		return q.Get("code"), q.Get("state")
	}
	return v, ""
}

// anthropicExchange trades the authorization code for tokens and returns
// the credential auth.json stores.
func anthropicExchange(ctx context.Context, ep *Endpoints, code, state, verifier, redirectURI string) (json.RawMessage, error) {
	tokenURL := ep.AnthropicToken
	if tokenURL == "" {
		tokenURL = anthropicTokenURL
	}
	body, _ := engine.MarshalJSON(struct {
		GrantType    string `json:"grant_type"`
		ClientID     string `json:"client_id"`
		Code         string `json:"code"`
		State        string `json:"state"`
		RedirectURI  string `json:"redirect_uri"`
		CodeVerifier string `json:"code_verifier"`
	}{"authorization_code", anthropicClientID, code, state, redirectURI, verifier})
	secrets := []string{code, verifier}
	text, err := postJSON(ctx, ep, tokenURL, body, secrets)
	if err != nil {
		return nil, fmt.Errorf("Token exchange request failed. url=%s; redirect_uri=%s; response_type=authorization_code; details=%w", tokenURL, redirectURI, err)
	}
	var tok struct {
		AccessToken  string   `json:"access_token"`
		RefreshToken string   `json:"refresh_token"`
		ExpiresIn    *float64 `json:"expires_in"`
	}
	if err := json.Unmarshal([]byte(text), &tok); err != nil {
		return nil, fmt.Errorf("Token exchange returned invalid JSON. url=%s; body=%s", tokenURL, Redact(text, secrets...))
	}
	if tok.AccessToken == "" || tok.RefreshToken == "" || tok.ExpiresIn == nil {
		// The reference would store a credential without tokens; one
		// that can never work is better refused here.
		return nil, fmt.Errorf("Token exchange returned no tokens. url=%s; body=%s", tokenURL, Redact(text, append(secrets, tok.AccessToken, tok.RefreshToken)...))
	}
	return oauthCredential(tok.RefreshToken, tok.AccessToken, ep.now().Add(time.Duration(*tok.ExpiresIn*float64(time.Second))-tokenSafetyMargin))
}

// oauthCredential is the stored shape {"type","refresh","access","expires"}
// with expires in Unix milliseconds.
func oauthCredential(refresh, access string, expires time.Time) (json.RawMessage, error) {
	return engine.MarshalJSON(struct {
		Type    string `json:"type"`
		Refresh string `json:"refresh"`
		Access  string `json:"access"`
		Expires int64  `json:"expires"`
	}{"oauth", refresh, access, expires.UnixMilli()})
}

// postJSON posts a JSON body and returns the response text; a non-2xx
// answer is an error whose body has its secrets removed.
func postJSON(ctx context.Context, ep *Endpoints, u string, body []byte, secrets []string) (string, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, u, bytes.NewReader(body))
	if err != nil {
		return "", err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json")
	return send(ep, req, secrets)
}

func send(ep *Endpoints, req *http.Request, secrets []string) (string, error) {
	status, text, err := fetch(ep, req, secrets)
	if err != nil {
		return "", err
	}
	if status < 200 || status > 299 {
		return "", fmt.Errorf("HTTP request failed. status=%d; url=%s; body=%s", status, req.URL.Redacted(), Redact(text, secrets...))
	}
	return text, nil
}

// fetch sends req and returns the status and body; a stopped context is
// ErrCancelled.
func fetch(ep *Endpoints, req *http.Request, secrets []string) (int, string, error) {
	resp, err := ep.client().Do(req)
	if err != nil {
		if req.Context().Err() != nil {
			return 0, "", ErrCancelled
		}
		// The reference reports a transport failure as fetch does; the
		// cause may quote the URL with its query, so it stays out.
		return 0, "", errors.New("fetch failed")
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	if err != nil {
		return 0, "", fmt.Errorf("reading the response: %w", err)
	}
	return resp.StatusCode, string(b), nil
}

// postJSONStatus posts a JSON body and returns status and body as they
// are, for flows that read error replies.
func postJSONStatus(ctx context.Context, ep *Endpoints, u string, body []byte, secrets []string) (int, string, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, u, bytes.NewReader(body))
	if err != nil {
		return 0, "", err
	}
	req.Header.Set("Content-Type", "application/json")
	return fetch(ep, req, secrets)
}
