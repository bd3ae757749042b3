package login

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/url"
	"strings"

	"github.com/pi-go/pi/engine/config"
)

// Facts of the reference's GitHub Copilot device-code sign-in.
const (
	copilotClientID  = "Iv1.b507a08c87ecfe98"
	copilotUserAgent = "GitHubCopilotChat/0.35.0"
	deviceGrantType  = "urn:ietf:params:oauth:grant-type:device_code"
)

// normalizeDomain turns "company.ghe.com" or a URL into its host name;
// "" when the input is blank or not a host.
func normalizeDomain(in string) (string, bool) {
	t := strings.TrimSpace(in)
	if t == "" {
		return "", true
	}
	if !strings.Contains(t, "://") {
		t = "https://" + t
	}
	u, err := url.Parse(t)
	if err != nil || u.Hostname() == "" {
		return "", false
	}
	return u.Hostname(), true
}

func loginCopilot(ctx context.Context, ui Interaction, ep *Endpoints) (json.RawMessage, error) {
	input, err := ui.Ask(ctx, Prompt{Kind: "text", Message: "GitHub Enterprise URL/domain (blank for github.com)", Placeholder: "company.ghe.com"})
	if err != nil {
		return nil, err
	}
	enterprise, ok := normalizeDomain(input)
	if !ok {
		return nil, errors.New("Invalid GitHub Enterprise URL/domain")
	}
	domain := enterprise
	if domain == "" {
		domain = "github.com"
	}
	base := ep.GitHubBase
	if base == "" {
		base = "https://" + domain
	}
	dev, err := startDeviceFlow(ctx, ep, base)
	if err != nil {
		return nil, err
	}
	ui.Notify(Event{Kind: "device_code", URL: dev.VerificationURI, UserCode: dev.UserCode})
	ghToken, err := pollDeviceToken(ctx, ep, base, dev)
	if err != nil {
		return nil, err
	}
	// The GitHub token is the refresh token of the stored credential: the
	// Copilot token exchange that every refresh makes turns it into the
	// credential (Copilot token, expiry, enterprise host, models).
	seed, _ := json.Marshal(map[string]any{"type": "oauth", "refresh": ghToken, "access": "", "expires": 0, "enterpriseUrl": enterprise})
	var listing json.RawMessage
	h := &config.CopilotOAuth{TokenURL: ep.CopilotTokenURL, ModelsBaseURL: ep.CopilotModelsBase, Client: ep.Client,
		ModelsListing: func(raw json.RawMessage) { listing = raw }}
	cred, err := h.RefreshToken(ctx, seed)
	if err != nil {
		return nil, errors.New(Redact(err.Error(), ghToken))
	}
	return enableCopilotModels(ctx, ui, ep, cred, enterprise, listing)
}

type deviceCode struct {
	DeviceCode      string   `json:"device_code"`
	UserCode        string   `json:"user_code"`
	VerificationURI string   `json:"verification_uri"`
	Interval        *float64 `json:"interval"`
	ExpiresIn       *float64 `json:"expires_in"`
}

func formPost(ctx context.Context, ep *Endpoints, u string, form string, secrets []string) (string, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, u, strings.NewReader(form))
	if err != nil {
		return "", err
	}
	req.Header.Set("Accept", "application/json")
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("User-Agent", copilotUserAgent)
	return send(ep, req, secrets)
}

func startDeviceFlow(ctx context.Context, ep *Endpoints, base string) (deviceCode, error) {
	var d deviceCode
	text, err := formPost(ctx, ep, base+"/login/device/code", orderedQuery("client_id", copilotClientID, "scope", "read:user"), nil)
	if err != nil {
		return d, err
	}
	if json.Unmarshal([]byte(text), &d) != nil {
		return d, errors.New("Invalid device code response")
	}
	if d.DeviceCode == "" || d.UserCode == "" || d.VerificationURI == "" || d.ExpiresIn == nil {
		return d, errors.New("Invalid device code response fields")
	}
	if u, err := url.Parse(d.VerificationURI); err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" {
		return d, errors.New("Untrusted verification_uri in device code response")
	}
	return d, nil
}

// pollDeviceToken polls for the GitHub token at the server's interval,
// waiting before the first poll, until the device code expires.
func pollDeviceToken(ctx context.Context, ep *Endpoints, base string, d deviceCode) (string, error) {
	form := orderedQuery("client_id", copilotClientID, "device_code", d.DeviceCode, "grant_type", deviceGrantType)
	return pollDevice(ctx, ep, d.Interval, seconds(*d.ExpiresIn), true, func() (pollOutcome[string], error) {
		var out pollOutcome[string]
		text, err := formPost(ctx, ep, base+"/login/oauth/access_token", form, []string{d.DeviceCode})
		if err != nil {
			return out, err
		}
		var r struct {
			AccessToken *string  `json:"access_token"`
			Error       *string  `json:"error"`
			Description string   `json:"error_description"`
			Interval    *float64 `json:"interval"`
		}
		if json.Unmarshal([]byte(text), &r) != nil {
			return out, errors.New("Invalid device token response")
		}
		switch {
		case r.AccessToken != nil:
			out.done, out.value = true, *r.AccessToken
		case r.Error == nil:
			return out, errors.New("Invalid device token response")
		case *r.Error == "authorization_pending":
		case *r.Error == "slow_down":
			out.slowDown, out.interval = true, r.Interval
		default:
			msg := "Device flow failed: " + *r.Error
			if r.Description != "" {
				msg += ": " + r.Description
			}
			return out, errors.New(msg)
		}
		return out, nil
	})
}
