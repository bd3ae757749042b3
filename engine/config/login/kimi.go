package login

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"strings"
	"time"

	"github.com/pi-go/pi/engine"
)

// Facts of the reference's Kimi Code device sign-in.
const (
	kimiClientID      = "17e5f671-d194-4dfb-9706-5516cb48c098"
	kimiDefaultHost   = "https://auth.kimi.com"
	kimiDeviceTimeout = 15 * time.Minute
)

func (e *Endpoints) kimiHost() string {
	h := e.KimiHost
	for _, v := range []string{"KIMI_CODE_OAUTH_HOST", "KIMI_OAUTH_HOST"} {
		if h == "" {
			h = os.Getenv(v)
		}
	}
	if h == "" {
		h = kimiDefaultHost
	}
	return strings.TrimRight(h, "/")
}

// trustedHTTPURL is the URL when it is http(s), else "".
func trustedHTTPURL(v any) string {
	s, _ := v.(string)
	u, err := url.Parse(s)
	if s == "" || err != nil || (u.Scheme != "https" && u.Scheme != "http") {
		return ""
	}
	return u.String()
}

func kimiPost(ctx context.Context, ep *Endpoints, u, form string, secrets []string) (int, string, map[string]any, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, u, strings.NewReader(form))
	if err != nil {
		return 0, "", nil, err
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Accept", "application/json")
	status, text, err := fetch(ep, req, secrets)
	var body map[string]any
	_ = json.Unmarshal([]byte(text), &body)
	return status, text, body, err
}

func loginKimi(ctx context.Context, ui Interaction, ep *Endpoints) (json.RawMessage, error) {
	host := ep.kimiHost()
	status, text, body, err := kimiPost(ctx, ep, host+"/api/oauth/device_authorization", orderedQuery("client_id", kimiClientID), nil)
	if err != nil {
		return nil, err
	}
	if status < 200 || status > 299 {
		msg := fmt.Sprintf("Kimi Code device authorization failed with status %d", status)
		if text != "" {
			msg += ": " + Redact(text)
		}
		return nil, errors.New(msg)
	}
	deviceCode, _ := body["device_code"].(string)
	userCode, _ := body["user_code"].(string)
	_, hasCode := body["device_code"].(string)
	_, hasUser := body["user_code"].(string)
	complete := trustedHTTPURL(body["verification_uri_complete"])
	if !hasCode || !hasUser || trustedHTTPURL(body["verification_uri"]) == "" || complete == "" {
		return nil, fmt.Errorf("Invalid Kimi Code device authorization response: %s", Redact(text, deviceCode))
	}
	interval := 5.0
	if n, ok := body["interval"].(float64); ok && n > 0 {
		interval = n
	}
	expires := kimiDeviceTimeout
	if n, ok := body["expires_in"].(float64); ok && n > 0 {
		expires = seconds(n)
	}
	ui.Notify(Event{Kind: "device_code", URL: complete, UserCode: userCode})
	form := orderedQuery("client_id", kimiClientID, "device_code", deviceCode, "grant_type", deviceGrantType)
	secrets := []string{deviceCode}
	return pollDevice(ctx, ep, &interval, expires, true, func() (pollOutcome[json.RawMessage], error) {
		var out pollOutcome[json.RawMessage]
		status, text, body, err := kimiPost(ctx, ep, host+"/api/oauth/token", form, secrets)
		if err != nil {
			return out, err
		}
		if status >= 500 {
			msg := fmt.Sprintf("Kimi Code device token request failed with status %d", status)
			if text != "" {
				msg += ": " + Redact(text, secrets...)
			}
			return out, errors.New(msg)
		}
		if _, ok := body["access_token"].(string); ok && status >= 200 && status <= 299 {
			cred, err := kimiCredential(body, text, ep.now())
			out.done, out.value = err == nil, cred
			return out, err
		}
		e, _ := body["error"].(string)
		switch e {
		case "authorization_pending":
			return out, nil
		case "slow_down":
			out.slowDown = true
			if n, ok := body["interval"].(float64); ok && n > 0 {
				out.interval = &n
			}
			return out, nil
		case "expired_token":
			return out, errors.New("Kimi Code device authorization expired. Please restart login.")
		case "access_denied":
			return out, errors.New("Kimi Code login was denied.")
		}
		msg := fmt.Sprintf("Kimi Code device token request failed (status %d)", status)
		if e != "" {
			msg += ": " + e
			if d, ok := body["error_description"].(string); ok {
				msg += ": " + d
			}
		}
		return out, errors.New(Redact(msg, secrets...))
	})
}

// kimiCredential is the stored {"type","access","refresh","expires"}.
func kimiCredential(body map[string]any, text string, now time.Time) (json.RawMessage, error) {
	access, _ := body["access_token"].(string)
	refresh, _ := body["refresh_token"].(string)
	expiresIn, _ := body["expires_in"].(float64)
	if access == "" || refresh == "" || expiresIn <= 0 {
		return nil, fmt.Errorf("Kimi Code token poll response missing fields: %s", Redact(text, access, refresh))
	}
	return engine.MarshalJSON(struct {
		Type    string `json:"type"`
		Access  string `json:"access"`
		Refresh string `json:"refresh"`
		Expires int64  `json:"expires"`
	}{"oauth", access, refresh, now.Add(seconds(expiresIn)).UnixMilli()})
}
