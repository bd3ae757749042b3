package login

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/pi-go/pi/engine"
)

// Facts of the reference's xAI (SuperGrok / X Premium) device sign-in.
const (
	xaiClientID        = "b1a00492-073a-47ea-816f-4c329264a828"
	xaiScope           = "openid profile email offline_access grok-cli:access api:access"
	xaiAuthBase        = "https://auth.x.ai"
	xaiDefaultLifetime = 3600.0
)

// xaiReply is a token server answer: status and the JSON object (empty
// when the body is another JSON value).
type xaiReply struct {
	status int
	body   map[string]any
}

func xaiPost(ctx context.Context, ep *Endpoints, u, form string, secrets []string) (xaiReply, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, u, strings.NewReader(form))
	if err != nil {
		return xaiReply{}, err
	}
	req.Header.Set("Accept", "application/json")
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	status, text, err := fetch(ep, req, secrets)
	if err != nil {
		return xaiReply{}, err
	}
	var v any
	if json.Unmarshal([]byte(text), &v) != nil {
		return xaiReply{}, fmt.Errorf("xAI OAuth returned invalid JSON (HTTP %d)", status)
	}
	body, _ := v.(map[string]any)
	if body == nil {
		body = map[string]any{}
	}
	return xaiReply{status, body}, nil
}

func (r xaiReply) ok() bool { return r.status >= 200 && r.status <= 299 }

func (r xaiReply) failure(action string) error {
	var parts []string
	for _, k := range []string{"error", "error_description"} {
		if s, ok := r.body[k].(string); ok && s != "" {
			parts = append(parts, s)
		}
	}
	msg := fmt.Sprintf("xAI OAuth %s failed (HTTP %d)", action, r.status)
	if len(parts) > 0 {
		msg += ": " + Redact(strings.Join(parts, ": "))
	}
	return errors.New(msg)
}

func xaiString(body map[string]any, field string) (string, error) {
	if s, ok := body[field].(string); ok && s != "" {
		return s, nil
	}
	return "", fmt.Errorf("Invalid xAI OAuth response field: %s", field)
}

func xaiPositive(body map[string]any, field string) (float64, error) {
	if n, ok := body[field].(float64); ok && n > 0 && !math.IsInf(n, 0) {
		return n, nil
	}
	return 0, fmt.Errorf("Invalid xAI OAuth response field: %s", field)
}

func xaiVerificationURI(raw string) (string, error) {
	u, err := url.Parse(raw)
	if err != nil || u.Scheme != "https" {
		return "", errors.New("Untrusted verification URI in xAI OAuth response")
	}
	return u.String(), nil
}

func loginXAI(ctx context.Context, ui Interaction, ep *Endpoints) (json.RawMessage, error) {
	base := ep.XAIAuthBase
	if base == "" {
		base = xaiAuthBase
	}
	r, err := xaiPost(ctx, ep, base+"/oauth2/device/code", orderedQuery("client_id", xaiClientID, "scope", xaiScope, "referrer", "pi"), nil)
	if err != nil {
		return nil, err
	}
	if !r.ok() {
		return nil, r.failure("device authorization")
	}
	var interval *float64
	if n, ok := r.body["interval"].(float64); ok && n > 0 {
		interval = &n
	}
	deviceCode, err := xaiString(r.body, "device_code")
	if err != nil {
		return nil, err
	}
	userCode, err := xaiString(r.body, "user_code")
	if err != nil {
		return nil, err
	}
	verify, err := xaiString(r.body, "verification_uri")
	if err != nil {
		return nil, err
	}
	if verify, err = xaiVerificationURI(verify); err != nil {
		return nil, err
	}
	if s, ok := r.body["verification_uri_complete"].(string); ok && s != "" {
		if verify, err = xaiVerificationURI(s); err != nil {
			return nil, err
		}
	}
	expiresIn, err := xaiPositive(r.body, "expires_in")
	if err != nil {
		return nil, err
	}
	ui.Notify(Event{Kind: "device_code", URL: verify, UserCode: userCode})
	form := orderedQuery("grant_type", deviceGrantType, "client_id", xaiClientID, "device_code", deviceCode)
	secrets := []string{deviceCode}
	return pollDevice(ctx, ep, interval, seconds(expiresIn), true, func() (pollOutcome[json.RawMessage], error) {
		var out pollOutcome[json.RawMessage]
		r, err := xaiPost(ctx, ep, base+"/oauth2/token", form, secrets)
		if err != nil {
			return out, err
		}
		if r.ok() {
			cred, err := xaiCredential(r.body, ep.now())
			out.done, out.value = err == nil, cred
			return out, err
		}
		switch r.body["error"] {
		case "authorization_pending":
			return out, nil
		case "slow_down":
			out.slowDown = true
			if n, ok := r.body["interval"].(float64); ok {
				out.interval = &n
			}
			return out, nil
		case "access_denied", "authorization_denied":
			return out, errors.New("xAI device authorization was denied")
		case "expired_token":
			return out, errors.New("xAI device code expired")
		}
		return out, r.failure("device token polling")
	})
}

// xaiCredential is the stored {"type","access","refresh","expires"}, the
// expiry five minutes early.
func xaiCredential(body map[string]any, now time.Time) (json.RawMessage, error) {
	access, err := xaiString(body, "access_token")
	if err != nil {
		return nil, err
	}
	refresh, err := xaiString(body, "refresh_token")
	if err != nil {
		return nil, err
	}
	lifetime := xaiDefaultLifetime
	if _, set := body["expires_in"]; set {
		if lifetime, err = xaiPositive(body, "expires_in"); err != nil {
			return nil, err
		}
	}
	return engine.MarshalJSON(struct {
		Type    string `json:"type"`
		Access  string `json:"access"`
		Refresh string `json:"refresh"`
		Expires int64  `json:"expires"`
	}{"oauth", access, refresh, now.Add(seconds(lifetime) - tokenSafetyMargin).UnixMilli()})
}
