package login

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/pi-go/pi/engine/config"
)

// Facts of the reference's Meta (Muse subscription) device sign-in.
const (
	metaClientID = "1031625952748946"
	metaAuthBase = "https://auth.meta.com"
	// noExpiry stands for a device code without expires_in, which the
	// reference polls for until cancelled.
	noExpiry = 100 * 365 * 24 * time.Hour
)

// metaDetail is the reference's ": <detail>" of an error reply.
func metaDetail(body map[string]any) string {
	for _, k := range []string{"error_description", "detail", "message", "error"} {
		if s, ok := body[k].(string); ok && strings.TrimSpace(s) != "" {
			return ": " + strings.TrimSpace(s)
		}
	}
	return ""
}

func positive(v any) *float64 {
	if n, ok := v.(float64); ok && n > 0 {
		return &n
	}
	return nil
}

func loginMeta(ctx context.Context, ui Interaction, ep *Endpoints) (json.RawMessage, error) {
	cred, err := metaFlow(ctx, ui, ep)
	if err != nil && ctx.Err() != nil {
		return nil, ErrCancelled
	}
	return cred, err
}

func metaFlow(ctx context.Context, ui Interaction, ep *Endpoints) (json.RawMessage, error) {
	base := ep.MetaAuthBase
	if base == "" {
		base = metaAuthBase
	}
	status, text, body, err := kimiPost(ctx, ep, base+"/oidc/device/authorization/", orderedQuery("client_id", metaClientID), nil)
	if err != nil {
		return nil, err
	}
	if status < 200 || status > 299 {
		return nil, fmt.Errorf("Meta device authorization failed with status %d%s", status, Redact(metaDetail(body)))
	}
	deviceCode, _ := body["device_code"].(string)
	userCode, _ := body["user_code"].(string)
	verify := trustedHTTPURL(body["verification_uri_complete"])
	if verify == "" {
		verify = trustedHTTPURL(body["verification_uri"])
	}
	if deviceCode == "" || userCode == "" || verify == "" {
		return nil, fmt.Errorf("Invalid Meta device authorization response: %s", Redact(text, deviceCode))
	}
	expires := noExpiry
	if n := positive(body["expires_in"]); n != nil {
		expires = seconds(*n)
	}
	ui.Notify(Event{Kind: "device_code", URL: verify, UserCode: userCode})
	form := orderedQuery("grant_type", deviceGrantType, "device_code", deviceCode, "client_id", metaClientID)
	secrets := []string{deviceCode}
	identity, err := pollDevice(ctx, ep, positive(body["interval"]), expires, true, func() (pollOutcome[string], error) {
		var out pollOutcome[string]
		status, _, body, err := kimiPost(ctx, ep, base+"/oidc/device/token/", form, secrets)
		if err != nil {
			return out, err
		}
		if tok, _ := body["access_token"].(string); tok != "" && status >= 200 && status <= 299 {
			out.done, out.value = true, tok
			return out, nil
		}
		switch body["error"] {
		case "authorization_pending":
			return out, nil
		case "slow_down":
			out.slowDown, out.interval = true, positive(body["interval"])
			return out, nil
		case "access_denied":
			return out, errors.New("Meta login was denied.")
		case "expired_token":
			return out, errors.New("Meta device authorization expired. Please restart login.")
		}
		return out, fmt.Errorf("Meta device token request failed with status %d%s", status, Redact(metaDetail(body), secrets...))
	})
	if err != nil {
		return nil, err
	}
	ui.Notify(Event{Kind: "progress", Message: "Enabling Meta Model API access..."})
	// Minting the Model API key is what every refresh does with the
	// identity token, which the credential keeps as its "refresh".
	seed, _ := json.Marshal(map[string]any{"type": "oauth", "refresh": identity, "access": "", "expires": 0})
	h := &config.MetaOAuth{MintURL: ep.MetaMintURL, Client: ep.Client, Now: ep.now}
	cred, err := h.RefreshToken(ctx, seed)
	if err != nil {
		return nil, errors.New(Redact(err.Error(), identity))
	}
	return cred, nil
}
