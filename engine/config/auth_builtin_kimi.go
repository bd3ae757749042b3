package config

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

const (
	kimiClientID        = "17e5f671-d194-4dfb-9706-5516cb48c098"
	kimiDefaultHost     = "https://auth.kimi.com"
	kimiRefreshRetries  = 3
	kimiRefreshInterval = time.Second
)

// KimiOAuth refreshes Kimi Code subscription credentials. The OAuth host
// follows KIMI_CODE_OAUTH_HOST or KIMI_OAUTH_HOST, as in the reference.
// Rate limits and server errors are retried with a doubling pause.
type KimiOAuth struct {
	// Host replaces the OAuth host (tests); Sleep replaces the pause
	// between attempts.
	Host   string
	Client *http.Client
	Sleep  func(context.Context, time.Duration) error
}

func (k *KimiOAuth) host() string {
	h := k.Host
	if h == "" {
		h = os.Getenv("KIMI_CODE_OAUTH_HOST")
	}
	if h == "" {
		h = os.Getenv("KIMI_OAUTH_HOST")
	}
	return strings.TrimRight(orDefault(h, kimiDefaultHost), "/")
}

// RefreshToken posts a form to <host>/api/oauth/token; a 401, 403 or
// invalid_grant reply means the login is dead.
func (k *KimiOAuth) RefreshToken(ctx context.Context, credential json.RawMessage) (json.RawMessage, error) {
	stored, err := readStoredOAuth(credential)
	if err != nil {
		return nil, err
	}
	sleep := k.Sleep
	if sleep == nil {
		sleep = engine.Sleep
	}
	form := "client_id=" + url.QueryEscape(kimiClientID) + "&grant_type=refresh_token&refresh_token=" + url.QueryEscape(stored.Refresh)
	var lastErr error
	for attempt := 0; attempt <= kimiRefreshRetries; attempt++ {
		if attempt > 0 {
			if err := sleep(ctx, kimiRefreshInterval<<(attempt-1)); err != nil {
				return nil, errors.New("Kimi Code token refresh aborted")
			}
		}
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, k.host()+"/api/oauth/token", strings.NewReader(form))
		if err != nil {
			return nil, err
		}
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		req.Header.Set("Accept", "application/json")
		status, text, err := doText(clientOr(k.Client), req)
		if err != nil {
			lastErr = errors.New("fetch failed")
			continue
		}
		var body map[string]any
		if json.Unmarshal([]byte(text), &body) != nil {
			body = nil
		}
		if status >= 200 && status <= 299 {
			return kimiCredential(body)
		}
		if status == 401 || status == 403 || body["error"] == "invalid_grant" {
			desc := ""
			if d, ok := body["error_description"].(string); ok {
				desc = ": " + d
			}
			return nil, fmt.Errorf("Kimi Code token refresh unauthorized (status %d)%s", status, desc)
		}
		if (status == 429 || status >= 500) && attempt < kimiRefreshRetries {
			lastErr = fmt.Errorf("Kimi Code token refresh failed with status %d", status)
			continue
		}
		js, _ := engine.MarshalJSON(body)
		return nil, fmt.Errorf("Kimi Code token refresh failed with status %d: %s", status, js)
	}
	if lastErr == nil {
		lastErr = errors.New("Kimi Code token refresh failed")
	}
	return nil, lastErr
}

// kimiCredential checks a token reply and builds the stored credential,
// valid for the full lifetime.
func kimiCredential(body map[string]any) (json.RawMessage, error) {
	access, _ := body["access_token"].(string)
	refresh, _ := body["refresh_token"].(string)
	expiresIn, ok := body["expires_in"].(float64)
	if access == "" || refresh == "" || !ok || expiresIn <= 0 {
		js, _ := engine.MarshalJSON(body)
		return nil, fmt.Errorf("Kimi Code token refresh response missing fields: %s", js)
	}
	return engine.MarshalJSON(accessFirstCredential{"oauth", access, refresh, expiryAfter(expiresIn, 0)})
}

// APIKey is the access token, which requests send as a bearer token.
func (k *KimiOAuth) APIKey(_ context.Context, credential json.RawMessage) (string, error) {
	return accessKey(credential)
}
