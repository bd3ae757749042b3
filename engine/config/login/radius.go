package login

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/google/uuid"

	"github.com/pi-go/pi/engine/config"
)

// Facts of the reference's Radius sign-in: the gateway serves the OAuth
// client APIs itself (/v1/oauth for discovery, /v1/oauth/token,
// /v1/oauth/device); only the browser authorization page is elsewhere.
const (
	radiusCallbackHost = "127.0.0.1"
	radiusCallbackPort = 1456
	radiusCallbackPath = "/oauth/callback"
	radiusBrowser      = "browser"
	radiusDeviceCode   = "device-code"
)

func (e *Endpoints) radiusGateway() string {
	if e.RadiusGateway != "" {
		return config.NormalizeRadiusGateway(e.RadiusGateway)
	}
	return config.RadiusDefaultGateway
}

func loginRadius(ctx context.Context, ui Interaction, ep *Endpoints) (json.RawMessage, error) {
	return loginRadiusAt(ctx, ui, ep, "Radius", ep.radiusGateway())
}

// RadiusFlow is the sign-in of a models.json provider with "oauth":
// "radius": the Radius sign-in under the provider's name, at its own
// gateway.
func RadiusFlow(name, gateway string) Flow {
	return Flow{Name: name, Run: func(ctx context.Context, ui Interaction, ep *Endpoints) (json.RawMessage, error) {
		return loginRadiusAt(ctx, ui, ep, name, config.NormalizeRadiusGateway(gateway))
	}}
}

func loginRadiusAt(ctx context.Context, ui Interaction, ep *Endpoints, name, gateway string) (json.RawMessage, error) {
	method, err := ui.Ask(ctx, Prompt{Kind: "select", Message: "Sign in to " + name + ":", Options: []Option{
		{ID: radiusBrowser, Label: "Sign in with browser (recommended)"},
		{ID: radiusDeviceCode, Label: "Sign in with device code (when signing in from another device)"},
	}})
	if err != nil {
		return nil, err
	}
	switch method {
	case radiusDeviceCode:
		return radiusDevice(ctx, ui, ep, gateway)
	case radiusBrowser:
		return radiusBrowserLogin(ctx, ui, ep, gateway)
	}
	return nil, fmt.Errorf("Unknown %s sign-in method: %s", name, method)
}

// radiusBrowserLogin signs in through the browser with PKCE; the gateway
// redirects to the callback server on 127.0.0.1:1456 (a test's negative
// ep.RadiusCallbackPort takes any free port).
func radiusBrowserLogin(ctx context.Context, ui Interaction, ep *Endpoints, gateway string) (json.RawMessage, error) {
	authorize, err := radiusDiscover(ctx, ep, gateway)
	if err != nil {
		return nil, err
	}
	verifier, challenge := newPKCE()
	state := uuid.NewString()
	port := ep.RadiusCallbackPort
	switch {
	case port == 0:
		port = radiusCallbackPort
	case port < 0:
		port = 0
	}
	cb, err := startCallback("Radius", radiusCallbackHost, port, radiusCallbackPath, radiusCallbackHost, state)
	if err != nil {
		return nil, fmt.Errorf("Radius sign-in: cannot listen for the OAuth callback: %w", err)
	}
	defer cb.close()
	redirectURI := cb.redirectURI
	u, _ := url.Parse(authorize)
	u.RawQuery = orderedQuery(
		"response_type", "code",
		"client_id", config.RadiusClientID,
		"redirect_uri", redirectURI,
		"scope", config.RadiusScope,
		"code_challenge", challenge,
		"code_challenge_method", "S256",
		"handoff", "url",
		"state", state,
	)
	ui.Notify(Event{Kind: "progress", Message: "Listening for OAuth callback on " + redirectURI})
	ui.Notify(Event{Kind: "auth_url", URL: u.String(), Instructions: "Continue in your browser."})
	select {
	case <-ctx.Done():
		return nil, ErrCancelled
	case <-cb.done:
	}
	cb.mu.Lock()
	code, cerr := cb.code, cb.err
	cb.mu.Unlock()
	if cerr != nil {
		return nil, cerr
	}
	form := orderedQuery("grant_type", "authorization_code", "client_id", config.RadiusClientID,
		"redirect_uri", redirectURI, "code", code, "code_verifier", verifier)
	cred, _, err := config.RadiusTokenRequest(ctx, ep.client(), gateway, form, ep.now(), []string{code, verifier})
	return cred, err
}

// radiusDiscover reads the authorization page's URL from the gateway.
func radiusDiscover(ctx context.Context, ep *Endpoints, gateway string) (string, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, gateway+"/v1/oauth", nil)
	if err != nil {
		return "", err
	}
	req.Header.Set("Accept", "application/json")
	status, text, err := fetch(ep, req, nil)
	if err != nil {
		return "", err
	}
	if status < 200 || status > 299 {
		return "", fmt.Errorf("Could not load Radius OAuth config from %s: %d %s", gateway, status, Redact(text))
	}
	var d struct {
		AuthorizationEndpoint string `json:"authorizationEndpoint"`
	}
	if json.Unmarshal([]byte(text), &d) != nil || trustedHTTPURL(d.AuthorizationEndpoint) == "" {
		return "", fmt.Errorf("Invalid Radius OAuth config from %s", gateway)
	}
	return trustedHTTPURL(d.AuthorizationEndpoint), nil
}

func radiusDevice(ctx context.Context, ui Interaction, ep *Endpoints, gateway string) (json.RawMessage, error) {
	form := orderedQuery("client_id", config.RadiusClientID, "scope", config.RadiusScope)
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, gateway+"/v1/oauth/device", strings.NewReader(form))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Accept", "application/json")
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	status, text, err := fetch(ep, req, nil)
	if err != nil {
		return nil, err
	}
	if status < 200 || status > 299 {
		return nil, config.RadiusOAuthError(status, text, "Radius OAuth device authorization failed")
	}
	var d struct {
		DeviceCode      string   `json:"device_code"`
		UserCode        string   `json:"user_code"`
		VerificationURI string   `json:"verification_uri"`
		ExpiresIn       float64  `json:"expires_in"`
		Interval        *float64 `json:"interval"`
	}
	if json.Unmarshal([]byte(text), &d) != nil || d.DeviceCode == "" || d.UserCode == "" || d.VerificationURI == "" || d.ExpiresIn == 0 {
		return nil, errors.New("Radius OAuth device authorization response is missing required fields")
	}
	if trustedHTTPURL(d.VerificationURI) == "" {
		return nil, errors.New("Untrusted verification_uri in Radius OAuth device authorization response")
	}
	ui.Notify(Event{Kind: "device_code", URL: d.VerificationURI, UserCode: d.UserCode})
	// The first poll goes out at once, as the reference's does.
	poll := orderedQuery("grant_type", deviceGrantType, "client_id", config.RadiusClientID, "device_code", d.DeviceCode)
	return pollDevice(ctx, ep, d.Interval, time.Duration(d.ExpiresIn*float64(time.Second)), false, func() (pollOutcome[json.RawMessage], error) {
		var out pollOutcome[json.RawMessage]
		cred, oauthErr, err := config.RadiusTokenRequest(ctx, ep.client(), gateway, poll, ep.now(), []string{d.DeviceCode})
		switch oauthErr {
		case "":
		case "authorization_pending":
			return out, nil
		case "slow_down":
			out.slowDown = true
			return out, nil
		case "expired_token":
			return out, errors.New("Device authorization expired.")
		case "access_denied":
			return out, errors.New("Device authorization was denied.")
		}
		if err != nil {
			return out, err
		}
		out.done, out.value = true, cred
		return out, nil
	})
}
