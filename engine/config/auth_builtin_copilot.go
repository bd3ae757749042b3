package config

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"time"

	"github.com/pi-go/pi/engine"
)

// CopilotOAuth serves GitHub Copilot credentials. The stored "refresh"
// is the GitHub OAuth token; a refresh exchanges it for a short-lived
// Copilot token (the "access" that requests carry) and lists the models
// the account may use (availableModelIds). The Copilot token also names
// the account's API endpoint, which becomes the requests' base URL.
type CopilotOAuth struct {
	// TokenURL and ModelsBaseURL replace the endpoints a refresh calls
	// (tests); by default they follow the stored enterprise domain and
	// the new token.
	TokenURL      string
	ModelsBaseURL string
	Client        *http.Client
	// ModelsListing, when set, receives the models listing the refresh
	// read: the sign-in takes the models' policies from it rather than
	// listing them a second time, as the reference lists them once.
	ModelsListing func(raw json.RawMessage)
}

type copilotCredential struct {
	Type              string   `json:"type"`
	Refresh           string   `json:"refresh"`
	Access            string   `json:"access"`
	Expires           float64  `json:"expires"`
	EnterpriseURL     string   `json:"enterpriseUrl,omitempty"`
	AvailableModelIDs []string `json:"availableModelIds"`
}

// copilotModelsTimeout bounds the models listing of a refresh.
const copilotModelsTimeout = 5 * time.Second

// RefreshToken exchanges the GitHub token for a Copilot token (stored
// five minutes before it expires) and records the account's models.
func (c *CopilotOAuth) RefreshToken(ctx context.Context, credential json.RawMessage) (json.RawMessage, error) {
	stored, err := readStoredOAuth(credential)
	if err != nil {
		return nil, err
	}
	domain := normalizeDomain(stored.EnterpriseURL)
	tokenURL := c.TokenURL
	if tokenURL == "" {
		tokenURL = "https://api." + orDefault(domain, "github.com") + "/copilot_internal/v2/token"
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, tokenURL, nil)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Accept", "application/json")
	req.Header.Set("Authorization", "Bearer "+stored.Refresh)
	setCopilotHeaders(req.Header)
	raw, err := fetchJSON(clientOr(c.Client), req)
	if err != nil {
		return nil, err
	}
	var fields map[string]json.RawMessage
	if json.Unmarshal(raw, &fields) != nil || fields == nil {
		return nil, errors.New("Invalid Copilot token response")
	}
	var token string
	var expiresAt float64
	if json.Unmarshal(fields["token"], &token) != nil || json.Unmarshal(fields["expires_at"], &expiresAt) != nil || fields["token"] == nil || fields["expires_at"] == nil {
		return nil, errors.New("Invalid Copilot token response fields")
	}
	next := copilotCredential{
		Type: "oauth", Refresh: stored.Refresh, Access: token,
		Expires:       expiresAt*1000 - float64(tokenSafetyMargin.Milliseconds()),
		EnterpriseURL: domain,
	}
	base := orDefault(c.ModelsBaseURL, CopilotBaseURL(token, domain))
	next.AvailableModelIDs, err = c.availableModels(ctx, token, base)
	if err != nil {
		return nil, err
	}
	return engine.MarshalJSON(next)
}

// availableModels lists the chat models the account may pick.
func (c *CopilotOAuth) availableModels(ctx context.Context, token, base string) ([]string, error) {
	ctx, cancel := context.WithTimeout(ctx, copilotModelsTimeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, base+"/models", nil)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Accept", "application/json")
	req.Header.Set("Authorization", "Bearer "+token)
	setCopilotHeaders(req.Header)
	req.Header.Set("X-GitHub-Api-Version", copilotAPIVersion)
	raw, err := fetchJSON(clientOr(c.Client), req)
	if err != nil {
		return nil, err
	}
	if c.ModelsListing != nil {
		c.ModelsListing(raw)
	}
	return parseCopilotModels(raw, base == copilotDefaultBaseURL)
}

// parseCopilotModels picks the models enabled in the account's model
// picker and not disabled by policy, skipping those without tool calls.
// Some individual accounts flag no model for the picker; there the
// models whose policy is enabled count instead.
func parseCopilotModels(raw json.RawMessage, allowPolicyFallback bool) ([]string, error) {
	var list struct {
		Data []json.RawMessage `json:"data"`
	}
	if json.Unmarshal(raw, &list) != nil || list.Data == nil {
		return nil, errors.New("Invalid Copilot models response")
	}
	type item struct {
		ID     any  `json:"id"`
		Picker bool `json:"model_picker_enabled"`
		Policy *struct {
			State string `json:"state"`
		} `json:"policy"`
		Capabilities *struct {
			Supports *struct {
				ToolCalls *bool `json:"tool_calls"`
			} `json:"supports"`
		} `json:"capabilities"`
	}
	picked, enabled := []string{}, []string{}
	for _, r := range list.Data {
		var it item
		if json.Unmarshal(r, &it) != nil {
			continue
		}
		id, ok := it.ID.(string)
		if !ok {
			continue
		}
		if it.Capabilities != nil && it.Capabilities.Supports != nil && it.Capabilities.Supports.ToolCalls != nil && !*it.Capabilities.Supports.ToolCalls {
			continue
		}
		state := ""
		if it.Policy != nil {
			state = it.Policy.State
		}
		if it.Picker && state != "disabled" {
			picked = append(picked, id)
		}
		if state == "enabled" {
			enabled = append(enabled, id)
		}
	}
	if len(picked) == 0 && allowPolicyFallback {
		return enabled, nil
	}
	return picked, nil
}

// APIKey is the Copilot token.
func (c *CopilotOAuth) APIKey(_ context.Context, credential json.RawMessage) (string, error) {
	return accessKey(credential)
}

// BaseURL is the endpoint the Copilot token names, else the enterprise
// domain's, else the individual one.
func (c *CopilotOAuth) BaseURL(credential json.RawMessage) string {
	stored, err := readStoredOAuth(credential)
	if err != nil {
		return ""
	}
	return CopilotBaseURL(stored.Access, normalizeDomain(stored.EnterpriseURL))
}

var proxyEndpoint = regexp.MustCompile(`proxy-ep=([^;]+)`)

// CopilotBaseURL derives the API base URL from a Copilot token's
// proxy-ep field (proxy.X becomes api.X).
func CopilotBaseURL(token, enterpriseDomain string) string {
	if m := proxyEndpoint.FindStringSubmatch(token); m != nil {
		host := m[1]
		if rest, ok := strings.CutPrefix(host, "proxy."); ok {
			host = "api." + rest
		}
		return "https://" + host
	}
	if enterpriseDomain != "" {
		return "https://copilot-api." + enterpriseDomain
	}
	return copilotDefaultBaseURL
}

// CopilotModelAllowed reports whether a stored Copilot credential lets
// the account use the model: a credential listing availableModelIds
// allows only those; any other credential allows every model.
func CopilotModelAllowed(credential json.RawMessage, modelID string) bool {
	var c struct {
		Type string          `json:"type"`
		IDs  json.RawMessage `json:"availableModelIds"`
	}
	if json.Unmarshal(credential, &c) != nil || c.Type != "oauth" || len(c.IDs) == 0 {
		return true
	}
	var ids []string
	if json.Unmarshal(c.IDs, &ids) != nil {
		return true
	}
	for _, id := range ids {
		if id == modelID {
			return true
		}
	}
	return false
}

// filterByOAuthCredential keeps the models a provider's stored OAuth
// credential allows: a GitHub Copilot login lists the account's models
// (availableModelIds), and only those are available.
func (r *Registry) filterByOAuthCredential(provider string, models []*engine.Model) []*engine.Model {
	if provider != "github-copilot" {
		return models
	}
	cred := r.StoredCredential(provider)
	if cred == nil {
		return models
	}
	out := make([]*engine.Model, 0, len(models))
	for _, m := range models {
		if CopilotModelAllowed(cred, m.ID) {
			out = append(out, m)
		}
	}
	return out
}

// normalizeDomain reduces an enterprise URL or domain to its host name.
func normalizeDomain(in string) string {
	s := strings.TrimSpace(in)
	if s == "" {
		return ""
	}
	if !strings.Contains(s, "://") {
		s = "https://" + s
	}
	u, err := url.Parse(s)
	if err != nil {
		return ""
	}
	return u.Hostname()
}

func setCopilotHeaders(h http.Header) {
	for _, kv := range CopilotHeaders {
		h.Set(kv[0], kv[1])
	}
}

// fetchJSON sends a request and returns its JSON reply; a failed status
// is the error "<status> <statusText>: <body>", as the reference words it.
func fetchJSON(c *http.Client, req *http.Request) (json.RawMessage, error) {
	resp, err := c.Do(req)
	if err != nil {
		// fetch's TypeError says only this.
		return nil, errors.New("fetch failed")
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		return nil, err
	}
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		return nil, fmt.Errorf("%d %s: %s", resp.StatusCode, statusText(resp), b)
	}
	raw := json.RawMessage(b)
	if !json.Valid(raw) {
		return nil, fmt.Errorf("invalid JSON from %s", req.URL.Redacted())
	}
	return raw, nil
}
