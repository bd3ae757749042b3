package config

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"sort"
	"strings"
	"time"

	"github.com/pi-go/pi/engine"
)

// Facts of the reference's Radius gateway client.
const (
	// RadiusDefaultGateway is the public gateway; a custom radius
	// provider in models.json names its own with baseUrl.
	RadiusDefaultGateway = "https://radius.pi.dev"
	RadiusClientID       = "pi-gateway"
	RadiusScope          = "gateway offline_access"
	// radiusExpirySkew stores a token's expiry a minute early.
	radiusExpirySkew = 60 * time.Second
)

// NormalizeRadiusGateway adds https:// when the scheme is missing and
// drops trailing slashes.
func NormalizeRadiusGateway(v string) string {
	if !strings.HasPrefix(strings.ToLower(v), "http://") && !strings.HasPrefix(strings.ToLower(v), "https://") {
		v = "https://" + v
	}
	return strings.TrimRight(v, "/")
}

// RadiusOAuthError words a failed OAuth reply as the reference does:
// "<msg>: <error>: <description>", falling back to the body or status.
func RadiusOAuthError(status int, body, msg string) error {
	var e struct {
		Error       string `json:"error"`
		Description string `json:"error_description"`
	}
	detail := ""
	if json.Unmarshal([]byte(body), &e) == nil {
		switch {
		case e.Error != "" && e.Description != "":
			detail = e.Error + ": " + e.Description
		case e.Error != "":
			detail = e.Error
		default:
			detail = e.Description
		}
	} else {
		detail = strings.TrimSpace(body)
	}
	if detail == "" {
		detail = fmt.Sprint(status)
	}
	return &radiusOAuthError{code: e.Error, msg: msg + ": " + engine.RedactSecrets(detail)}
}

type radiusOAuthError struct{ code, msg string }

func (e *radiusOAuthError) Error() string { return e.msg }

// RadiusTokenRequest posts form to the gateway's token endpoint and
// returns the stored credential {"type","access","refresh","expires",
// "scope"}. On an OAuth error reply, oauthErr is its "error" code (the
// device flow polls on authorization_pending and slow_down).
func RadiusTokenRequest(ctx context.Context, client *http.Client, gateway, form string, now time.Time, secrets []string) (cred json.RawMessage, oauthErr string, err error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, gateway+"/v1/oauth/token", strings.NewReader(form))
	if err != nil {
		return nil, "", err
	}
	req.Header.Set("Accept", "application/json")
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	resp, err := client.Do(req)
	if err != nil {
		if ctx.Err() != nil {
			return nil, "", errors.New("Login cancelled")
		}
		return nil, "", err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	if err != nil {
		return nil, "", err
	}
	text := engine.RedactSecrets(string(b), secrets...)
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		e := RadiusOAuthError(resp.StatusCode, text, "Radius OAuth token request failed").(*radiusOAuthError)
		return nil, e.code, e
	}
	var tok struct {
		AccessToken  string  `json:"access_token"`
		RefreshToken string  `json:"refresh_token"`
		ExpiresIn    float64 `json:"expires_in"`
		Scope        *string `json:"scope"`
	}
	if err := json.Unmarshal(b, &tok); err != nil || tok.AccessToken == "" {
		return nil, "", fmt.Errorf("Radius OAuth token response is invalid")
	}
	expires := now.Add(time.Duration(tok.ExpiresIn*float64(time.Second)) - radiusExpirySkew).UnixMilli()
	raw, err := json.Marshal(struct {
		Type    string  `json:"type"`
		Access  string  `json:"access"`
		Refresh string  `json:"refresh"`
		Expires int64   `json:"expires"`
		Scope   *string `json:"scope,omitempty"`
	}{"oauth", tok.AccessToken, tok.RefreshToken, expires, tok.Scope})
	return raw, "", err
}

// RadiusOAuth refreshes a Radius login against its gateway; the access
// token is the key requests carry.
type RadiusOAuth struct {
	Gateway string // "" is RadiusDefaultGateway
	Client  *http.Client
	Now     func() time.Time
}

// RefreshToken trades the refresh token for a new credential.
func (h *RadiusOAuth) RefreshToken(ctx context.Context, credential json.RawMessage) (json.RawMessage, error) {
	stored, err := readStoredOAuth(credential)
	if err != nil {
		return nil, err
	}
	gateway := RadiusDefaultGateway
	if h.Gateway != "" {
		gateway = NormalizeRadiusGateway(h.Gateway)
	}
	now := time.Now()
	if h.Now != nil {
		now = h.Now()
	}
	form := "grant_type=refresh_token&client_id=" + RadiusClientID + "&refresh_token=" + url.QueryEscape(stored.Refresh)
	cred, _, err := RadiusTokenRequest(ctx, clientOr(h.Client), gateway, form, now, []string{stored.Refresh})
	return cred, err
}

// APIKey is the access token.
func (h *RadiusOAuth) APIKey(_ context.Context, credential json.RawMessage) (string, error) {
	stored, err := readStoredOAuth(credential)
	if err != nil {
		return "", err
	}
	return stored.Access, nil
}

// radiusGatewayOf is the gateway of a models.json provider with "oauth":
// "radius": its baseUrl without a trailing /v1, as the reference takes it.
func radiusGatewayOf(baseURL string) string {
	v := strings.TrimSuffix(baseURL, "/")
	if v != baseURL && !strings.HasSuffix(v, "/v1") {
		// Only one slash after /v1 is part of the suffix.
		v = baseURL
	}
	return NormalizeRadiusGateway(strings.TrimSuffix(v, "/v1"))
}

// RadiusGateway is the Radius gateway a provider signs in to and lists
// its models from: a models.json provider's with "oauth": "radius", the
// public one for the built-in "radius", and false for any other provider.
func (r *Registry) RadiusGateway(provider string) (string, bool) {
	if gw := r.radiusGateways[provider]; gw != "" {
		return gw, true
	}
	if provider == "radius" {
		return RadiusDefaultGateway, true
	}
	return "", false
}

// RadiusProviders lists the providers that sign in to a Radius gateway:
// "radius", then models.json's "oauth": "radius" providers by id.
func (r *Registry) RadiusProviders() []string {
	out := []string{"radius"}
	custom := make([]string, 0, len(r.radiusGateways))
	for id := range r.radiusGateways {
		if id != "radius" {
			custom = append(custom, id)
		}
	}
	sort.Strings(custom)
	return append(out, custom...)
}

// customRadius reports whether the provider is a models.json Radius
// provider (not the built-in one).
func (r *Registry) customRadius(provider string) bool {
	return provider != "radius" && r.radiusGateways[provider] != ""
}
