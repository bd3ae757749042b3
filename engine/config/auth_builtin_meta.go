package config

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/pi-go/pi/engine"
)

const (
	metaMintURL        = "https://api.meta.ai/muse-code/key"
	metaKeyLifetime    = 24 * time.Hour
	metaMintAPIVersion = "1.0.0"
)

// MetaOAuth serves Meta (Muse subscription) credentials. The stored
// "refresh" is the login's identity token, which cannot itself be renewed;
// a refresh mints a new Model API key (the "access"), valid for a day.
type MetaOAuth struct {
	// MintURL replaces the key endpoint (tests).
	MintURL string
	Client  *http.Client
	// Now is the clock the key's expiry is counted from (nil: time.Now).
	Now func() time.Time
}

// RefreshToken mints a new API key with the identity token.
func (mo *MetaOAuth) RefreshToken(ctx context.Context, credential json.RawMessage) (json.RawMessage, error) {
	stored, err := readStoredOAuth(credential)
	if err != nil {
		return nil, err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, orDefault(mo.MintURL, metaMintURL), strings.NewReader("{}"))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Accept", "application/json")
	req.Header.Set("Authorization", "Bearer "+stored.Refresh)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("x-api-version", metaMintAPIVersion)
	status, text, err := doText(clientOr(mo.Client), req)
	if err != nil {
		return nil, errors.New("fetch failed")
	}
	var body map[string]any
	_ = json.Unmarshal([]byte(text), &body)
	if status == 401 || status == 403 {
		return nil, fmt.Errorf("Meta session expired (status %d). Run `/login meta` to sign in again.%s", status, metaErrorDetail(body))
	}
	if status < 200 || status > 299 {
		return nil, fmt.Errorf("Meta API key mint failed with status %d%s", status, metaErrorDetail(body))
	}
	key, _ := body["api_key"].(string)
	if key == "" {
		msg := "Meta did not issue an API key."
		if u := trustedHTTPURL(body["action_url"]); u != "" {
			msg += " Complete setup at " + u
		}
		return nil, errors.New(msg)
	}
	now := time.Now
	if mo.Now != nil {
		now = mo.Now
	}
	return engine.MarshalJSON(anthropicCredential{"oauth", stored.Refresh, key, float64(now().Add(metaKeyLifetime).UnixMilli())})
}

// APIKey is the minted key.
func (mo *MetaOAuth) APIKey(_ context.Context, credential json.RawMessage) (string, error) {
	return accessKey(credential)
}

// metaErrorDetail is ": <text>" from the first error field the reply has.
func metaErrorDetail(body map[string]any) string {
	for _, k := range []string{"error_description", "detail", "message", "error"} {
		if v, ok := body[k].(string); ok && strings.TrimSpace(v) != "" {
			return ": " + strings.TrimSpace(v)
		}
	}
	return ""
}

// trustedHTTPURL is the value as a URL when it is an http or https one.
func trustedHTTPURL(v any) string {
	s, ok := v.(string)
	if !ok {
		return ""
	}
	u, err := url.Parse(s)
	if err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" {
		return ""
	}
	return u.String()
}
