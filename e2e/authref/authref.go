// Package authref is a fake Radius gateway (OAuth discovery, device
// authorization, token, model list and pi-messages endpoints) that answers
// the same bytes to every client. The e2e tests run our binary against it,
// and e2e/authref/record.sh runs the reference against it (through
// ./gateway), so the auth.json, models-store.json and outputs the reference
// wrote can be compared with ours.
package authref

import (
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"sync"
)

// Facts of the fake account. The access tokens carry a recognisable
// prefix so leak checks can look for them.
const (
	DeviceCode     = "rad-device-code-0001"
	UserCode       = "RADI-2345"
	Access1        = "rad-access-SECRET-0001"
	Refresh1       = "rad-refresh-SECRET-0001"
	Access2        = "rad-access-SECRET-0002"
	Refresh2       = "rad-refresh-SECRET-0002"
	RevokedRefresh = "rad-refresh-SECRET-REVOKED"
	AuthCode       = "rad-auth-code-0001"
	APIKey         = "rad-key-SECRET-0001"
	ExpiresIn      = 3600
	Scope          = "gateway offline_access"
)

// Gateway serves one fake account. Log holds each request as
// "METHOD path body" (and the Authorization header where one matters), in
// arrival order.
type Gateway struct {
	// URL is the gateway's origin; set it before the first request.
	URL string

	mu    sync.Mutex
	log   []string
	polls int
}

// Log returns the requests so far.
func (g *Gateway) Log() []string {
	g.mu.Lock()
	defer g.mu.Unlock()
	return append([]string(nil), g.log...)
}

func (g *Gateway) record(s string) {
	g.mu.Lock()
	g.log = append(g.log, s)
	g.mu.Unlock()
}

func jsonReply(w http.ResponseWriter, status int, body string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, _ = io.WriteString(w, body)
}

// Models is the account's model list as /v1/config serves it: two valid
// models and one without maxTokens, which clients must drop.
const Models = `[` +
	`{"id":"team-fast","name":"Team Fast","reasoning":false,"input":["text"],"cost":{"input":1,"output":2,"cacheRead":0,"cacheWrite":0},"contextWindow":100000,"maxTokens":8000},` +
	`{"id":"team-deep","name":"Team Deep","reasoning":true,"input":["text","image"],"cost":{"input":3,"output":15,"cacheRead":0.3,"cacheWrite":0},"contextWindow":200000,"maxTokens":32000,"lab":"Test Lab"},` +
	`{"id":"team-broken","name":"Broken","reasoning":false,"input":["text"],"cost":{"input":0,"output":0,"cacheRead":0,"cacheWrite":0},"contextWindow":1000}` +
	`]`

func (g *Gateway) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	b, _ := io.ReadAll(r.Body)
	body := string(b)
	line := r.Method + " " + r.URL.Path
	if r.URL.RawQuery != "" {
		line += "?" + r.URL.RawQuery
	}
	if body != "" && r.URL.Path != "/v1/messages" {
		line += " " + body
	}
	if a := r.Header.Get("Authorization"); a != "" {
		line += " [Authorization: " + a + "]"
	}
	g.record(line)
	switch r.Method + " " + r.URL.Path {
	case "GET /v1/oauth":
		jsonReply(w, 200, fmt.Sprintf(`{"authorizationEndpoint":%q}`, g.URL+"/authorize"))
	case "GET /authorize":
		// The "browser": approve at once and hand the code to the
		// client's callback.
		q := r.URL.Query()
		to := q.Get("redirect_uri") + "?code=" + AuthCode + "&state=" + url.QueryEscape(q.Get("state"))
		http.Redirect(w, r, to, http.StatusFound)
	case "POST /v1/oauth/device":
		jsonReply(w, 200, fmt.Sprintf(`{"device_code":%q,"user_code":%q,"verification_uri":%q,"expires_in":600,"interval":1}`,
			DeviceCode, UserCode, g.URL+"/device"))
	case "POST /v1/oauth/token":
		g.token(w, body)
	case "GET /v1/config":
		switch r.Header.Get("Authorization") {
		case "Bearer " + Access1, "Bearer " + Access2, "Bearer " + APIKey:
			jsonReply(w, 200, fmt.Sprintf(`{"baseUrl":%q,"models":%s}`, g.URL+"/v1", Models))
		default:
			jsonReply(w, 401, `{"error":"unauthorized"}`)
		}
	case "POST /v1/messages":
		// A gateway that echoes the credential it refused.
		jsonReply(w, 401, fmt.Sprintf(`{"type":"error","error":{"type":"authentication_error","message":"token rejected: %s"}}`,
			strings.TrimPrefix(r.Header.Get("Authorization"), "Bearer ")))
	default:
		jsonReply(w, 404, `{"error":"not_found"}`)
	}
}

func (g *Gateway) token(w http.ResponseWriter, body string) {
	form, _ := url.ParseQuery(body)
	tokens := func(access, refresh string) {
		jsonReply(w, 200, fmt.Sprintf(`{"access_token":%q,"refresh_token":%q,"expires_in":%d,"scope":%q,"token_type":"Bearer"}`,
			access, refresh, ExpiresIn, Scope))
	}
	switch form.Get("grant_type") {
	case "urn:ietf:params:oauth:grant-type:device_code":
		if form.Get("device_code") != DeviceCode {
			jsonReply(w, 400, `{"error":"invalid_grant"}`)
			return
		}
		g.mu.Lock()
		g.polls++
		first := g.polls == 1
		g.mu.Unlock()
		if first {
			jsonReply(w, 400, `{"error":"authorization_pending","error_description":"The user has not approved yet"}`)
			return
		}
		tokens(Access1, Refresh1)
	case "authorization_code":
		if form.Get("code") != AuthCode || form.Get("code_verifier") == "" {
			jsonReply(w, 400, `{"error":"invalid_grant"}`)
			return
		}
		tokens(Access1, Refresh1)
	case "refresh_token":
		switch form.Get("refresh_token") {
		case Refresh1:
			tokens(Access2, Refresh2)
		default:
			// Revoked: the error echoes the token it refused.
			jsonReply(w, 400, fmt.Sprintf(`{"error":"invalid_grant","error_description":"refresh token %s was revoked"}`, form.Get("refresh_token")))
		}
	default:
		jsonReply(w, 400, `{"error":"unsupported_grant_type"}`)
	}
}
