package authcmd

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"sync"
	"time"

	"github.com/pi-go/pi/engine"
	"github.com/pi-go/pi/engine/config"
)

// commandTimeout bounds a credential command, refreshes included, as the
// reference's 15-second signal does.
const commandTimeout = 15 * time.Second

// defaultBearerMinExpiry is how long a printed bearer token must still be
// valid unless --min-expiry says otherwise.
const defaultBearerMinExpiry = 30 * time.Minute

func runCredentialCommand(args []string, e *env) int {
	r, err := parseRequest(args)
	if err != nil {
		errorf(e, "Error: %s", err)
		return 1
	}
	if r.unknown != "" {
		errorf(e, "Unknown option --%s for %q.", r.unknown, r.kind.name())
		errorf(e, "Use \"pi --help\" or %q.", r.kind.usage())
		return 1
	}
	ctx, cancel := context.WithTimeout(context.Background(), commandTimeout)
	defer cancel()
	if r.kind != kindCheck {
		cred, err := printCredential(ctx, e, r)
		if err != nil {
			var ce *cmdError
			if !errors.As(err, &ce) {
				// Anything else may quote a token server's reply.
				err = errResolve
			}
			errorf(e, "Error: %s", err)
			return 1
		}
		fmt.Fprintln(e.stdout, cred)
		return 0
	}
	if err := r.validate(); err != nil {
		errorf(e, "Error: %s", err)
		return 2
	}
	res := check(ctx, e, r)
	if res.Status == "ready" && r.credentials {
		var err error
		res.Credentials, err = checkCredential(ctx, e, r, res.Provider)
		if err != nil {
			res = invalid(res.Provider)
		} else if res.Credentials == "" {
			res = checkResult{Status: "not_ready", Provider: res.Provider, Reason: "credential_not_available"}
		}
	}
	switch {
	case r.json:
		b, _ := engine.MarshalJSON(res)
		fmt.Fprintln(e.stdout, string(b))
	case res.Credentials != "":
		fmt.Fprintln(e.stdout, res.Credentials)
	default:
		fmt.Fprintln(e.stdout, res.Status)
	}
	switch res.Status {
	case "ready":
		return 0
	case "not_ready":
		return 1
	}
	return 2
}

// checkResult is the --json output, in the reference's field order.
type checkResult struct {
	Status      string `json:"status"`
	Provider    string `json:"provider"`
	AuthType    string `json:"authType,omitempty"`
	Reason      string `json:"reason,omitempty"`
	Credentials string `json:"credentials,omitempty"`
}

func invalid(provider string) checkResult {
	return checkResult{Status: "invalid", Provider: provider, Reason: "invalid_state"}
}

func check(ctx context.Context, e *env, r *request) checkResult {
	requested := r.provider
	if requested == "" {
		requested = r.model
	}
	reg, errs := loadRegistryMode(e, !r.noRefresh)
	if reg == nil {
		return invalid(requested)
	}
	provider := r.provider
	if r.model != "" {
		m, err := config.ResolveAuthModel(reg, r.provider, r.model, false)
		if err != nil || m == nil {
			return invalid(requested)
		}
		provider = m.Provider
	}
	if len(errs) > 0 {
		return invalid(provider)
	}
	if !reg.HasProvider(provider) {
		return checkResult{Status: "not_ready", Provider: provider, Reason: "provider_not_found"}
	}
	if !reg.HasConfiguredAuth(provider) {
		return checkResult{Status: "not_ready", Provider: provider, Reason: "credentials_not_configured"}
	}
	authType := "api_key"
	if reg.UsesOAuth(provider) {
		authType = "oauth"
	}
	if !r.noRefresh {
		v, err := resolveAuth(ctx, reg, provider, nil)
		if err != nil {
			return invalid(provider)
		}
		if v == "" && !signsItself(reg, provider) {
			return checkResult{Status: "not_ready", Provider: provider, Reason: "credentials_not_configured"}
		}
	}
	return checkResult{Status: "ready", Provider: provider, AuthType: authType}
}

// checkCredential is the credential check --credentials prints: without
// refresh an OAuth credential's stored access token, as it is.
func checkCredential(ctx context.Context, e *env, r *request, provider string) (string, error) {
	reg, _ := loadRegistryMode(e, !r.noRefresh)
	if reg == nil {
		return "", errResolve
	}
	if r.noRefresh {
		var c struct {
			Type   string `json:"type"`
			Access string `json:"access"`
		}
		if json.Unmarshal(reg.StoredCredential(provider), &c) == nil && c.Type == "oauth" {
			return c.Access, nil
		}
	}
	return resolveAuth(ctx, reg, provider, nil)
}

// resolveAuth is the credential a request of the provider (of model m,
// when given) carries: the API key, else the bearer token of its
// Authorization header. Stored OAuth credentials are refreshed when they
// expire within five minutes.
func resolveAuth(ctx context.Context, reg *config.Registry, provider string, m *engine.Model) (string, error) {
	if m == nil {
		m = firstModel(reg, provider)
	}
	if m == nil {
		key, ok, err := reg.ResolveOAuthKey(ctx, provider)
		if err != nil || ok {
			return key, err
		}
		key, _ = reg.APIKey(provider)
		if key == ambientPlaceholder {
			return "", nil
		}
		return key, unresolved(reg, provider, key)
	}
	key, headers, err := reg.RequestAuthContext(ctx, m)
	if err != nil {
		return "", err
	}
	if key == "" {
		key = bearerOf(headers)
	}
	if key == ambientPlaceholder {
		// AWS or Google credentials found in the environment: requests
		// sign themselves, there is no key to print.
		return "", nil
	}
	return key, unresolved(reg, provider, key)
}

// signsItself reports whether the provider's requests are signed with
// ambient cloud credentials: ready, though there is no key to show.
func signsItself(reg *config.Registry, provider string) bool {
	k, _ := reg.APIKey(provider)
	return k == ambientPlaceholder
}

// ambientPlaceholder is the key the registry reports for a provider whose
// requests are signed with ambient cloud credentials (catalog_env.go).
const ambientPlaceholder = "<authenticated>"

// unresolved is the error of a configured key (models.json apiKey or a
// stored one: a "!command" that failed, an unset variable) that yields
// nothing: the reference reports it as a failure, not as a missing key.
func unresolved(reg *config.Registry, provider, key string) error {
	if key != "" || reg.UsesOAuth(provider) {
		return nil
	}
	switch reg.KeySource(provider) {
	case "configured API key", "stored credential":
		return errors.New("the configured API key of " + provider + " did not resolve")
	}
	return nil
}

var bearerPattern = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?i)^Bearer\s+(.+)$`) })

func bearerOf(headers map[string]string) string {
	for k, v := range headers {
		if strings.EqualFold(k, "authorization") {
			if m := bearerPattern().FindStringSubmatch(v); m != nil {
				return m[1]
			}
		}
	}
	return ""
}

func firstModel(reg *config.Registry, provider string) *engine.Model {
	for _, m := range reg.All() {
		if m.Provider == provider {
			return m
		}
	}
	return nil
}
