package config

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/pi-go/pi/engine"
)

const (
	chatGPTTokenURL    = "https://auth.openai.com/api/accounts/oauth/token"
	chatGPTResource    = "https://api.openai.com/v1"
	chatGPTDirectScope = "chatgpt.tokens.use.direct"
	chatGPTMargin      = 3 * time.Minute
)

// ChatGPTOAuth serves "Sign in with ChatGPT" credentials of the openai
// provider: user access tokens sent to api.openai.com. Each login
// registers its own client, whose id the credential stores.
type ChatGPTOAuth struct {
	TokenURL string
	Client   *http.Client
}

type chatGPTCredential struct {
	Type     string   `json:"type"`
	Access   string   `json:"access"`
	Refresh  string   `json:"refresh"`
	Expires  float64  `json:"expires"`
	ClientID string   `json:"clientId"`
	Scopes   []string `json:"scopes"`
}

// RefreshToken posts a form with the stored client id and the API
// resource; the new grant must still allow direct token use.
func (c *ChatGPTOAuth) RefreshToken(ctx context.Context, credential json.RawMessage) (json.RawMessage, error) {
	var stored struct {
		Refresh  string `json:"refresh"`
		ClientID any    `json:"clientId"`
	}
	if err := json.Unmarshal(credential, &stored); err != nil {
		return nil, fmt.Errorf("invalid OAuth credential: %w", err)
	}
	clientID, _ := stored.ClientID.(string)
	if strings.TrimSpace(clientID) == "" {
		return nil, errors.New("Stored OpenAI OAuth credential does not contain an issued client ID; reconnect ChatGPT")
	}
	// Built by hand: url.Values would sort the keys, and the reference
	// sends them in this order.
	body := "grant_type=refresh_token" + "&client_id=" + url.QueryEscape(clientID) +
		"&refresh_token=" + url.QueryEscape(stored.Refresh) + "&resource=" + url.QueryEscape(chatGPTResource)
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, orDefault(c.TokenURL, chatGPTTokenURL), strings.NewReader(body))
	if err != nil {
		return nil, err
	}
	req.Header.Set("accept", "application/json")
	req.Header.Set("content-type", "application/x-www-form-urlencoded")
	resp, err := clientOr(c.Client).Do(withFetchAgent(req))
	if err != nil {
		return nil, errors.New("fetch failed")
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		return nil, err
	}
	status, text := resp.StatusCode, string(b)
	if status < 200 || status > 299 {
		if text == "" {
			text = statusText(resp)
		}
		return nil, fmt.Errorf("OpenAI OAuth token request failed (%d): %s", status, text)
	}
	access, refresh, scopes, expiresIn, err := ChatGPTTokens(text, false)
	if err != nil {
		return nil, err
	}
	return engine.MarshalJSON(chatGPTCredential{"oauth", access, refresh, expiryAfter(expiresIn, chatGPTMargin), clientID, scopes})
}

// APIKey is the access token.
func (c *ChatGPTOAuth) APIKey(_ context.Context, credential json.RawMessage) (string, error) {
	return accessKey(credential)
}

// withFetchAgent gives a request Node's fetch user agent.
func withFetchAgent(req *http.Request) *http.Request {
	if req.Header.Get("User-Agent") == "" {
		req.Header.Set("User-Agent", fetchUserAgent)
	}
	return req
}

// ChatGPTTokens reads a ChatGPT OAuth token response, the refresh's and
// the sign-in's (which also needs an ID token), with the reference's
// error texts: the access and refresh tokens, the granted scopes (which
// must include the direct-API scope) and expires_in in seconds.
func ChatGPTTokens(text string, requireIDToken bool) (access, refresh string, scopes []string, expiresIn float64, err error) {
	var tok map[string]any
	if json.Unmarshal([]byte(text), &tok) != nil || tok == nil {
		return "", "", nil, 0, errors.New("OpenAI OAuth token response must be an object")
	}
	if s, _ := tok["id_token"].(string); requireIDToken && strings.TrimSpace(s) == "" {
		return "", "", nil, 0, errors.New("OpenAI OAuth token response did not contain an ID token")
	}
	str := func(field string) (string, error) {
		v, ok := tok[field].(string)
		if !ok || strings.TrimSpace(v) == "" {
			return "", fmt.Errorf("OpenAI OAuth token response has invalid %s", field)
		}
		return v, nil
	}
	if access, err = str("access_token"); err != nil {
		return "", "", nil, 0, err
	}
	if refresh, err = str("refresh_token"); err != nil {
		return "", "", nil, 0, err
	}
	scope, err := str("scope")
	if err != nil {
		return "", "", nil, 0, err
	}
	expiresIn, ok := tok["expires_in"].(float64)
	if !ok || expiresIn <= 0 {
		return "", "", nil, 0, errors.New("OpenAI OAuth token response has invalid expires_in")
	}
	scopes = strings.Fields(scope)
	if !slices.Contains(scopes, chatGPTDirectScope) {
		return "", "", nil, 0, errors.New("OpenAI OAuth grant did not include " + chatGPTDirectScope)
	}
	return access, refresh, scopes, expiresIn, nil
}
