package login

import (
	"context"
	"crypto/rand"
	"encoding/hex"
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

// Facts of the reference's OpenRouter sign-in: PKCE without a state, a
// callback on a random port and path, and an API key as the "access" of a
// credential that never expires.
const (
	openRouterAuthorizeURL = "https://openrouter.ai/auth"
	openRouterKeysURL      = "https://openrouter.ai/api/v1/auth/keys"
	openRouterLoginTimeout = 5 * time.Minute
	// maxSafeInteger is JavaScript's Number.MAX_SAFE_INTEGER, the
	// reference's "never expires".
	maxSafeInteger = 9007199254740991
)

func loginOpenRouter(ctx context.Context, ui Interaction, ep *Endpoints) (json.RawMessage, error) {
	verifier, challenge := newPKCE()
	host := os.Getenv("PI_OAUTH_CALLBACK_HOST")
	if host == "" {
		host = "127.0.0.1"
	}
	id := make([]byte, 16)
	_, _ = rand.Read(id)
	id[6] = id[6]&0x0f | 0x40
	id[8] = id[8]&0x3f | 0x80
	h := hex.EncodeToString(id)
	path := "/oauth/callback/" + h[:8] + "-" + h[8:12] + "-" + h[12:16] + "-" + h[16:20] + "-" + h[20:]
	redirectHost := host
	if strings.Contains(host, ":") {
		redirectHost = "[" + host + "]"
	}
	cb, err := startCallback("OpenRouter", host, 0, path, redirectHost, "")
	if err != nil {
		return nil, err
	}
	defer cb.close()
	ctx, cancel := context.WithTimeoutCause(ctx, openRouterLoginTimeout, errors.New("OpenRouter sign-in timed out"))
	defer cancel()
	authorize := ep.OpenRouterAuthorize
	if authorize == "" {
		authorize = openRouterAuthorizeURL
	}
	ui.Notify(Event{Kind: "progress", Message: "Listening for OpenRouter OAuth callback on " + cb.redirectURI})
	ui.Notify(Event{Kind: "auth_url",
		URL:          authorize + "?" + orderedQuery("callback_url", cb.redirectURI, "code_challenge", challenge, "code_challenge_method", "S256"),
		Instructions: "Complete sign-in in your browser. If the browser is on another machine, paste the final redirect URL here."})
	value, fromCallback, err := waitCodeOrPaste(ctx, ui, cb, Prompt{Kind: "manual_code",
		Message: "Complete sign-in in your browser, or paste the authorization code / redirect URL here:", Placeholder: cb.redirectURI})
	if err != nil {
		if cause := context.Cause(ctx); cause != nil && ctx.Err() == context.DeadlineExceeded {
			return nil, cause
		}
		return nil, err
	}
	code := value
	if !fromCallback {
		code = openRouterCode(value)
		if code == "" {
			return nil, errors.New("Missing authorization code")
		}
		ui.Notify(Event{Kind: "progress", Message: "Exchanging authorization code for an API key..."})
	}
	return openRouterExchange(ctx, ep, code, verifier)
}

// openRouterCode reads a pasted redirect URL, query string or bare code.
func openRouterCode(input string) string {
	v := strings.TrimSpace(input)
	if v == "" {
		return ""
	}
	if u, err := url.Parse(v); err == nil && u.Scheme != "" && u.Host != "" {
		return u.Query().Get("code")
	}
	if strings.Contains(v, "code=") {
		q, _ := url.ParseQuery(v)
		return q.Get("code")
	}
	return v
}

func openRouterExchange(ctx context.Context, ep *Endpoints, code, verifier string) (json.RawMessage, error) {
	u := ep.OpenRouterKeys
	if u == "" {
		u = openRouterKeysURL
	}
	body, _ := engine.MarshalJSON(struct {
		Code                string `json:"code"`
		CodeVerifier        string `json:"code_verifier"`
		CodeChallengeMethod string `json:"code_challenge_method"`
	}{code, verifier, "S256"})
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, u, strings.NewReader(string(body)))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Accept", "application/json")
	req.Header.Set("Content-Type", "application/json")
	status, text, err := fetch(ep, req, []string{code, verifier})
	if err != nil {
		return nil, err
	}
	var reply map[string]any
	jsonErr := json.Unmarshal([]byte(text), &reply)
	ok := status >= 200 && status <= 299
	if ok && jsonErr != nil {
		return nil, errors.New("OpenRouter OAuth returned invalid JSON")
	}
	if !ok {
		msg := fmt.Sprintf("OpenRouter OAuth key exchange failed (HTTP %d)", status)
		if d := openRouterDetail(reply); d != "" {
			msg += ": " + Redact(d, code, verifier)
		}
		return nil, errors.New(msg)
	}
	key, _ := reply["key"].(string)
	if key == "" {
		return nil, errors.New(`OpenRouter OAuth response carries no "key"`)
	}
	return engine.MarshalJSON(struct {
		Type    string `json:"type"`
		Access  string `json:"access"`
		Refresh string `json:"refresh"`
		Expires int64  `json:"expires"`
	}{"oauth", key, "", maxSafeInteger})
}

// openRouterDetail is the message of an error reply, where OpenRouter
// puts it.
func openRouterDetail(body map[string]any) string {
	for _, k := range []string{"error_description", "message", "error"} {
		if s, ok := body[k].(string); ok {
			return s
		}
	}
	if o, ok := body["error"].(map[string]any); ok {
		if s, ok := o["message"].(string); ok {
			return s
		}
	}
	return ""
}
