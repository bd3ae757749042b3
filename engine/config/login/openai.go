package login

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"regexp"
	"strings"
	"sync"
	"time"

	"github.com/pi-go/pi/engine"
	"github.com/pi-go/pi/engine/config"
)

// Facts of the reference's "Sign in with ChatGPT" for the openai provider:
// a dynamically registered client, an agent host id from the device id,
// and a token scoped to direct ChatGPT use.
const (
	chatGPTDynamicClient = "dynamic_agent_client"
	chatGPTAgentName     = "Pi"
	chatGPTAuthBase      = "https://auth.openai.com"
	chatGPTResource      = "https://api.openai.com/v1"
	chatGPTCallbackPort  = 1455
	chatGPTCallbackPath  = "/auth/callback"
	chatGPTDirectScope   = "chatgpt.tokens.use.direct"
	chatGPTScope         = "openid profile email offline_access resource.invoke " + chatGPTDirectScope
	chatGPTExpiryMargin  = 3 * time.Minute
)

var uuidPattern = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$`)
})

func randomValue() string {
	b := make([]byte, 32)
	_, _ = rand.Read(b)
	return base64.RawURLEncoding.EncodeToString(b)
}

// chatGPTCallbackQuery checks a callback's state and issued client id.
func chatGPTCallbackQuery(q url.Values, state string) (code, clientID string, err error) {
	code = q.Get("code")
	if code == "" {
		return "", "", errors.New("Missing authorization code")
	}
	switch q.Get("state") {
	case "":
		return "", "", errors.New("Missing OAuth state")
	case state:
	default:
		return "", "", errors.New("OAuth state mismatch")
	}
	clientID = strings.TrimSpace(q.Get("client_id"))
	if clientID == "" {
		return "", "", errors.New("OpenAI OAuth registration callback did not contain an issued client ID")
	}
	return code, clientID, nil
}

func loginChatGPT(ctx context.Context, ui Interaction, ep *Endpoints) (json.RawMessage, error) {
	cred, err := chatGPTFlow(ctx, ui, ep)
	if err != nil && ctx.Err() != nil {
		return nil, ErrCancelled
	}
	return cred, err
}

func chatGPTFlow(ctx context.Context, ui Interaction, ep *Endpoints) (json.RawMessage, error) {
	deviceID := ""
	if ep.DeviceID != nil {
		var err error
		if deviceID, err = ep.DeviceID(); err != nil {
			return nil, err
		}
	}
	if !uuidPattern().MatchString(deviceID) {
		return nil, errors.New("Sign in with ChatGPT requires a device ID (UUID) for this installation")
	}
	base := ep.OpenAIAuthBase
	if base == "" {
		base = chatGPTAuthBase
	}
	verifier, challenge := newPKCE()
	state, nonce := randomValue(), randomValue()
	host := os.Getenv("PI_OAUTH_CALLBACK_HOST")
	if host == "" {
		host = "127.0.0.1"
	}
	port := ep.OpenAICallbackPort
	switch {
	case port == 0:
		port = chatGPTCallbackPort
	case port < 0:
		port = 0
	}
	cb, err := startCallback("ChatGPT", host, port, chatGPTCallbackPath, "127.0.0.1", "")
	if err != nil {
		return nil, fmt.Errorf("Port %d is in use, probably by an unfinished login in another pi session or by the Codex CLI. Cancel that login and try again.", chatGPTCallbackPort)
	}
	defer cb.close()
	cb.check = func(q url.Values) error { _, _, err := chatGPTCallbackQuery(q, state); return err }
	redirectURI := fmt.Sprintf("http://127.0.0.1:%d%s", chatGPTCallbackPort, chatGPTCallbackPath)
	if ep.OpenAICallbackPort != 0 {
		redirectURI = cb.redirectURI
	}
	authURL := base + "/api/accounts/authorize?" + orderedQuery(
		"client_id", chatGPTDynamicClient,
		"agent_name_hint", chatGPTAgentName,
		"ext_agent_host_id", "urn:uuid:"+strings.ToLower(deviceID),
		"response_type", "code",
		"redirect_uri", redirectURI,
		"resource", chatGPTResource,
		"scope", chatGPTScope,
		"state", state,
		"code_challenge", challenge,
		"code_challenge_method", "S256",
		"nonce", nonce,
	)
	ui.Notify(Event{Kind: "auth_url", URL: authURL,
		Instructions: "Complete sign-in in your browser. If the callback does not complete, paste the final redirect URL here."})
	value, fromCallback, err := waitCodeOrPaste(ctx, ui, cb, Prompt{Kind: "manual_code",
		Message: "Complete login in your browser, or paste the final redirect URL here:", Placeholder: redirectURI})
	if err != nil {
		return nil, err
	}
	var code, clientID string
	if fromCallback {
		code, clientID, err = chatGPTCallbackQuery(cb.query, state)
	} else {
		code, clientID, err = chatGPTPasted(value, redirectURI, state)
	}
	if err != nil {
		return nil, err
	}
	ui.Notify(Event{Kind: "progress", Message: "Exchanging authorization code for tokens..."})
	return chatGPTExchange(ctx, ep, base, code, verifier, clientID, redirectURI)
}

func chatGPTPasted(input, redirectURI, state string) (code, clientID string, err error) {
	u, perr := url.Parse(strings.TrimSpace(input))
	if perr != nil || u.Scheme == "" || u.Host == "" {
		return "", "", errors.New("Paste the full callback URL from the browser")
	}
	want, _ := url.Parse(redirectURI)
	if u.Scheme != want.Scheme || u.Host != want.Host || u.Path != want.Path {
		return "", "", fmt.Errorf("The pasted callback URL must start with %s", redirectURI)
	}
	if e := u.Query().Get("error"); e != "" {
		return "", "", fmt.Errorf("ChatGPT authorization failed: %s", e)
	}
	return chatGPTCallbackQuery(u.Query(), state)
}

func chatGPTExchange(ctx context.Context, ep *Endpoints, base, code, verifier, clientID, redirectURI string) (json.RawMessage, error) {
	form := orderedQuery("grant_type", "authorization_code", "client_id", clientID, "code", code,
		"code_verifier", verifier, "redirect_uri", redirectURI, "resource", chatGPTResource)
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, base+"/api/accounts/oauth/token", strings.NewReader(form))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Accept", "application/json")
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	secrets := []string{code, verifier}
	status, text, err := fetch(ep, req, secrets)
	if err != nil {
		return nil, err
	}
	if status < 200 || status > 299 {
		return nil, fmt.Errorf("OpenAI OAuth token request failed (%d): %s", status, Redact(text, secrets...))
	}
	access, refresh, scopes, expiresIn, err := config.ChatGPTTokens(text, true)
	if err != nil {
		return nil, err
	}
	return engine.MarshalJSON(struct {
		Type     string   `json:"type"`
		Access   string   `json:"access"`
		Refresh  string   `json:"refresh"`
		Expires  int64    `json:"expires"`
		ClientID string   `json:"clientId"`
		Scopes   []string `json:"scopes"`
	}{"oauth", access, refresh, ep.now().Add(seconds(expiresIn) - chatGPTExpiryMargin).UnixMilli(), clientID, scopes})
}
