package login

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"os"
	"strings"
	"time"

	"github.com/pi-go/pi/engine"
	"github.com/pi-go/pi/engine/config"
)

// Facts of the reference's OpenAI Codex (ChatGPT) sign-in.
const (
	codexClientID       = "app_EMoamEEZ73f0CkXaXp7hrann"
	codexAuthBase       = "https://auth.openai.com"
	codexCallbackPort   = 1455
	codexCallbackPath   = "/auth/callback"
	codexScope          = "openid profile email offline_access"
	codexDeviceTimeout  = 15 * time.Minute
	codexBrowserMethod  = "browser"
	codexDeviceMethod   = "device_code"
	codexDeviceRedirect = "/deviceauth/callback"
	codexDeviceVerify   = "/codex/device"
)

func (e *Endpoints) codexBase() string {
	if e.CodexAuthBase != "" {
		return e.CodexAuthBase
	}
	return codexAuthBase
}

func loginCodex(ctx context.Context, ui Interaction, ep *Endpoints) (json.RawMessage, error) {
	method, err := ui.Ask(ctx, Prompt{Kind: "select", Message: "Select OpenAI Codex login method:", Options: []Option{
		{ID: codexBrowserMethod, Label: "Browser login (default)"},
		{ID: codexDeviceMethod, Label: "Device code login (headless)"},
	}})
	if err != nil {
		return nil, err
	}
	switch method {
	case codexBrowserMethod:
		return codexBrowser(ctx, ui, ep)
	case codexDeviceMethod:
		return codexDevice(ctx, ui, ep)
	}
	return nil, fmt.Errorf("Unknown OpenAI Codex login method: %s", method)
}

func codexBrowser(ctx context.Context, ui Interaction, ep *Endpoints) (json.RawMessage, error) {
	verifier, challenge := newPKCE()
	sb := make([]byte, 16)
	_, _ = rand.Read(sb)
	state := hex.EncodeToString(sb)
	host := os.Getenv("PI_OAUTH_CALLBACK_HOST")
	if host == "" {
		host = "127.0.0.1"
	}
	port := ep.CodexCallbackPort
	switch {
	case port == 0:
		port = codexCallbackPort
	case port < 0:
		port = 0
	}
	// Without the callback server (the port is taken) the sign-in goes on
	// with the pasted redirect URL; OpenAI accepts only this redirect.
	cb, _ := startCallback("OpenAI", host, port, codexCallbackPath, "localhost", state)
	redirectURI := fmt.Sprintf("http://localhost:%d%s", codexCallbackPort, codexCallbackPath)
	if cb != nil {
		defer cb.close()
		if ep.CodexCallbackPort != 0 {
			redirectURI = cb.redirectURI
		}
	}
	authURL := ep.codexBase() + "/oauth/authorize?" + orderedQuery(
		"response_type", "code",
		"client_id", codexClientID,
		"redirect_uri", redirectURI,
		"scope", codexScope,
		"code_challenge", challenge,
		"code_challenge_method", "S256",
		"state", state,
		"id_token_add_organizations", "true",
		"codex_cli_simplified_flow", "true",
		"originator", "pi",
	)
	ui.Notify(Event{Kind: "auth_url", URL: authURL, Instructions: "A browser window should open. Complete login to finish."})
	value, fromCallback, err := waitCodeOrPaste(ctx, ui, cb, Prompt{Kind: "manual_code",
		Message: "Complete login in your browser, or paste the authorization code / redirect URL here:", Placeholder: redirectURI})
	if err != nil {
		return nil, err
	}
	code := value
	if !fromCallback {
		var pastedState string
		code, pastedState = parseAuthorizationInput(value)
		if pastedState != "" && pastedState != state {
			return nil, errors.New("State mismatch")
		}
	}
	if code == "" {
		return nil, errors.New("Missing authorization code")
	}
	return codexExchange(ctx, ep, code, verifier, redirectURI)
}

// codexExchange trades an authorization code for the stored credential
// {"type","access","refresh","expires","accountId"}.
func codexExchange(ctx context.Context, ep *Endpoints, code, verifier, redirectURI string) (json.RawMessage, error) {
	form := orderedQuery("grant_type", "authorization_code", "client_id", codexClientID, "code", code,
		"code_verifier", verifier, "redirect_uri", redirectURI)
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, ep.codexBase()+"/oauth/token", strings.NewReader(form))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	secrets := []string{code, verifier}
	status, text, err := fetch(ep, req, secrets)
	if err != nil {
		return nil, err
	}
	if status < 200 || status > 299 {
		return nil, fmt.Errorf("OpenAI Codex token exchange failed (%d): %s", status, Redact(text, secrets...))
	}
	var tok struct {
		AccessToken  string   `json:"access_token"`
		RefreshToken string   `json:"refresh_token"`
		ExpiresIn    *float64 `json:"expires_in"`
	}
	if json.Unmarshal([]byte(text), &tok) != nil || tok.AccessToken == "" || tok.RefreshToken == "" || tok.ExpiresIn == nil {
		return nil, fmt.Errorf("OpenAI Codex token exchange response missing fields: %s", Redact(text, append(secrets, tok.AccessToken, tok.RefreshToken)...))
	}
	account := config.CodexAccountID(tok.AccessToken)
	if account == "" {
		return nil, errors.New("Failed to extract accountId from token")
	}
	return engine.MarshalJSON(struct {
		Type      string `json:"type"`
		Access    string `json:"access"`
		Refresh   string `json:"refresh"`
		Expires   int64  `json:"expires"`
		AccountID string `json:"accountId"`
	}{"oauth", tok.AccessToken, tok.RefreshToken, ep.now().Add(seconds(*tok.ExpiresIn)).UnixMilli(), account})
}

func codexDevice(ctx context.Context, ui Interaction, ep *Endpoints) (json.RawMessage, error) {
	body, _ := engine.MarshalJSON(map[string]string{"client_id": codexClientID})
	status, text, err := postJSONStatus(ctx, ep, ep.codexBase()+"/api/accounts/deviceauth/usercode", body, nil)
	if err != nil {
		return nil, err
	}
	switch {
	case status == http.StatusNotFound:
		return nil, errors.New("OpenAI Codex device code login is not enabled for this server. Use browser login or verify the server URL.")
	case status < 200 || status > 299:
		msg := fmt.Sprintf("OpenAI Codex device code request failed with status %d", status)
		if text != "" {
			msg += ": " + Redact(text)
		}
		return nil, errors.New(msg)
	}
	var dev struct {
		DeviceAuthID string          `json:"device_auth_id"`
		UserCode     string          `json:"user_code"`
		Interval     json.RawMessage `json:"interval"`
	}
	_ = json.Unmarshal([]byte(text), &dev)
	interval, ok := codexInterval(dev.Interval)
	if dev.DeviceAuthID == "" || dev.UserCode == "" || !ok {
		return nil, fmt.Errorf("Invalid OpenAI Codex device code response: %s", Redact(text))
	}
	ui.Notify(Event{Kind: "device_code", URL: ep.codexBase() + codexDeviceVerify, UserCode: dev.UserCode})
	type grant struct{ code, verifier string }
	pollBody, _ := engine.MarshalJSON(struct {
		DeviceAuthID string `json:"device_auth_id"`
		UserCode     string `json:"user_code"`
	}{dev.DeviceAuthID, dev.UserCode})
	secrets := []string{dev.DeviceAuthID}
	g, err := pollDevice(ctx, ep, &interval, codexDeviceTimeout, false, func() (pollOutcome[grant], error) {
		var out pollOutcome[grant]
		status, text, err := postJSONStatus(ctx, ep, ep.codexBase()+"/api/accounts/deviceauth/token", pollBody, secrets)
		if err != nil {
			return out, err
		}
		if status >= 200 && status <= 299 {
			var r struct {
				Code     string `json:"authorization_code"`
				Verifier string `json:"code_verifier"`
			}
			if json.Unmarshal([]byte(text), &r) != nil || r.Code == "" || r.Verifier == "" {
				return out, fmt.Errorf("Invalid OpenAI Codex device auth token response: %s", Redact(text, secrets...))
			}
			out.done, out.value = true, grant{r.Code, r.Verifier}
			return out, nil
		}
		if status == http.StatusForbidden || status == http.StatusNotFound {
			return out, nil
		}
		switch codexErrorCode(text) {
		case "deviceauth_authorization_pending":
			return out, nil
		case "slow_down":
			out.slowDown = true
			return out, nil
		}
		msg := fmt.Sprintf("OpenAI Codex device auth failed with status %d", status)
		if text != "" {
			msg += ": " + Redact(text, secrets...)
		}
		return out, errors.New(msg)
	})
	if err != nil {
		return nil, err
	}
	return codexExchange(ctx, ep, g.code, g.verifier, ep.codexBase()+codexDeviceRedirect)
}

// codexInterval reads the poll interval, a number or a numeric string.
func codexInterval(raw json.RawMessage) (float64, bool) {
	var n float64
	if json.Unmarshal(raw, &n) == nil {
		return n, n >= 0
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		if _, err := fmt.Sscanf(strings.TrimSpace(s), "%g", &n); err == nil {
			return n, n >= 0
		}
	}
	return 0, false
}

// codexErrorCode is "error" of an error reply, or its "code" when it is
// an object.
func codexErrorCode(text string) string {
	var r struct {
		Error json.RawMessage `json:"error"`
	}
	if json.Unmarshal([]byte(text), &r) != nil {
		return ""
	}
	var s string
	if json.Unmarshal(r.Error, &s) == nil {
		return s
	}
	var o struct {
		Code string `json:"code"`
	}
	_ = json.Unmarshal(r.Error, &o)
	return o.Code
}
