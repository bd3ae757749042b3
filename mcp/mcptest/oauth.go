package mcptest

import (
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/pi-go/pi/internal/jsonx"
)

// World is an OAuth-protected streamable HTTP MCP server (the SDK's
// server behind a bearer check) and its authorization server, both on
// httptest listeners. The authorization server checks every request it
// gets the way a strict one would: PKCE S256, the redirect URI of the
// authorization request, the client, the scope and the resource.
type World struct {
	t      *testing.T
	mcp    *httptest.Server
	as     *httptest.Server
	MCPURL string

	Mu sync.Mutex
	// valid are the access tokens the MCP server accepts, with their
	// scope.
	Valid map[string]string
	// refresh maps live refresh tokens to their scope.
	refresh map[string]string
	// needScope makes the MCP server ask for more scope (403
	// insufficient_scope) until a token carries it.
	NeedScope string
	// cimd and iss are what the metadata advertises.
	CIMD, ISS bool
	// codes are issued authorization codes and their request.
	codes map[string]url.Values
	// registered are dynamic registrations (client_id -> body).
	Registered map[string]jsonx.Object
	// requests logs "METHOD path" of the authorization server.
	requests []string
	seq      int
}

func New(t *testing.T) *World {
	t.Helper()
	w := &World{t: t, Valid: map[string]string{}, refresh: map[string]string{}, codes: map[string]url.Values{}, Registered: map[string]jsonx.Object{}}
	w.as = httptest.NewServer(http.HandlerFunc(w.serveAS))
	t.Cleanup(w.as.Close)
	s := sdk.NewServer(&sdk.Implementation{Name: "secure", Version: "1"}, nil)
	s.AddTool(&sdk.Tool{Name: "whoami", Description: "Who", InputSchema: json.RawMessage(`{"type":"object"}`)},
		func(ctx context.Context, req *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
			return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: "you"}}}, nil
		})
	h := sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return s }, nil)
	w.mcp = httptest.NewServer(http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/.well-known/oauth-protected-resource/mcp" {
			writeJSON(rw, fmt.Sprintf(`{"resource":%q,"authorization_servers":[%q],"scopes_supported":["mcp:read"]}`, w.MCPURL, w.as.URL))
			return
		}
		tok := strings.TrimPrefix(r.Header.Get("Authorization"), "Bearer ")
		w.Mu.Lock()
		scope, ok := w.Valid[tok]
		need := w.NeedScope
		w.Mu.Unlock()
		meta := w.mcp.URL + "/.well-known/oauth-protected-resource/mcp"
		if !ok {
			rw.Header().Set("WWW-Authenticate", fmt.Sprintf(`Bearer resource_metadata="%s"`, meta))
			http.Error(rw, "unauthorized", http.StatusUnauthorized)
			return
		}
		if need != "" && !strings.Contains(" "+scope+" ", " "+need+" ") {
			rw.Header().Set("WWW-Authenticate", fmt.Sprintf(`Bearer error="insufficient_scope", scope="%s", resource_metadata="%s"`, need, meta))
			http.Error(rw, "forbidden", http.StatusForbidden)
			return
		}
		h.ServeHTTP(rw, r)
	}))
	t.Cleanup(w.mcp.Close)
	w.MCPURL = w.mcp.URL + "/mcp"
	return w
}

func writeJSON(w http.ResponseWriter, body string) {
	w.Header().Set("Content-Type", "application/json")
	_, _ = io.WriteString(w, body)
}

func (w *World) fail(rw http.ResponseWriter, format string, args ...any) {
	msg := fmt.Sprintf(format, args...)
	w.t.Errorf("authorization server: %s", msg)
	rw.WriteHeader(http.StatusBadRequest)
	writeJSON(rw, fmt.Sprintf(`{"error":"invalid_request","error_description":%q}`, msg))
}

func (w *World) serveAS(rw http.ResponseWriter, r *http.Request) {
	w.Mu.Lock()
	defer w.Mu.Unlock()
	w.requests = append(w.requests, r.Method+" "+r.URL.Path)
	switch r.URL.Path {
	case "/.well-known/oauth-authorization-server":
		extra := ""
		if w.CIMD {
			extra += `,"client_id_metadata_document_supported":true`
		}
		if w.ISS {
			extra += `,"authorization_response_iss_parameter_supported":true`
		}
		writeJSON(rw, fmt.Sprintf(`{"issuer":%q,"authorization_endpoint":"%s/authorize","token_endpoint":"%s/token","registration_endpoint":"%s/register",`+
			`"response_types_supported":["code"],"code_challenge_methods_supported":["S256"],"token_endpoint_auth_methods_supported":["none"]%s}`,
			w.as.URL, w.as.URL, w.as.URL, w.as.URL, extra))
	case "/authorize":
		// A browser that reaches the authorization page approves at
		// once and is redirected to the client's callback.
		q := r.URL.Query()
		w.seq++
		code := fmt.Sprintf("code-%d", w.seq)
		w.codes[code] = q
		v := url.Values{"code": {code}, "state": {q.Get("state")}}
		if w.ISS {
			v.Set("iss", w.as.URL)
		}
		http.Redirect(rw, r, q.Get("redirect_uri")+"?"+v.Encode(), http.StatusFound)
	case "/register":
		b, _ := io.ReadAll(r.Body)
		v, err := jsonx.Decode(b)
		if err != nil {
			w.fail(rw, "register body: %v", err)
			return
		}
		body := v.(jsonx.Object)
		var keys []string
		for _, f := range body {
			keys = append(keys, f.Key)
		}
		if got := strings.Join(keys, ","); got != "client_name,redirect_uris,grant_types,response_types,token_endpoint_auth_method,application_type,scope" {
			w.fail(rw, "register keys %s", got)
			return
		}
		w.seq++
		id := fmt.Sprintf("dyn-%d", w.seq)
		w.Registered[id] = body
		uris, _ := json.Marshal(stringList(body, "redirect_uris"))
		rw.WriteHeader(http.StatusCreated)
		writeJSON(rw, fmt.Sprintf(`{"client_id":%q,"client_name":"pi","redirect_uris":%s}`, id, uris))
	case "/token":
		_ = r.ParseForm()
		f := r.PostForm
		switch f.Get("grant_type") {
		case "authorization_code":
			req, ok := w.codes[f.Get("code")]
			if !ok {
				rw.WriteHeader(http.StatusBadRequest)
				writeJSON(rw, `{"error":"invalid_grant"}`)
				return
			}
			delete(w.codes, f.Get("code"))
			sum := sha256.Sum256([]byte(f.Get("code_verifier")))
			switch {
			case base64.RawURLEncoding.EncodeToString(sum[:]) != req.Get("code_challenge"):
				w.fail(rw, "code_verifier does not match the S256 challenge")
				return
			case f.Get("redirect_uri") != req.Get("redirect_uri"):
				w.fail(rw, "redirect_uri %q, authorized %q", f.Get("redirect_uri"), req.Get("redirect_uri"))
				return
			case f.Get("client_id") != req.Get("client_id"):
				w.fail(rw, "client_id %q, authorized %q", f.Get("client_id"), req.Get("client_id"))
				return
			case f.Get("resource") != w.MCPURL:
				w.fail(rw, "resource %q", f.Get("resource"))
				return
			}
			w.issue(rw, req.Get("scope"))
		case "refresh_token":
			scope, ok := w.refresh[f.Get("refresh_token")]
			if !ok {
				rw.WriteHeader(http.StatusBadRequest)
				writeJSON(rw, `{"error":"invalid_grant","error_description":"refresh token revoked"}`)
				return
			}
			delete(w.refresh, f.Get("refresh_token"))
			w.issue(rw, scope)
		default:
			w.fail(rw, "grant_type %q", f.Get("grant_type"))
		}
	default:
		http.NotFound(rw, r)
	}
}

// issue answers a token request with a new access and refresh token
// (refresh tokens rotate); w.mu is held.
func (w *World) issue(rw http.ResponseWriter, scope string) {
	w.seq++
	at, rt := fmt.Sprintf("at-%d", w.seq), fmt.Sprintf("rt-%d", w.seq)
	w.Valid[at] = scope
	w.refresh[rt] = scope
	writeJSON(rw, fmt.Sprintf(`{"access_token":%q,"token_type":"Bearer","expires_in":3600,"refresh_token":%q}`, at, rt))
}

// Authorize is what a user's browser does with the authorization URL: the
// authorization server issues a code for the request, and the browser
// follows the redirect to pi's callback. It returns the request's query.
func (w *World) Authorize(authURL string) url.Values {
	u, err := url.Parse(authURL)
	if err != nil {
		w.t.Fatal(err)
	}
	q := u.Query()
	w.Mu.Lock()
	w.seq++
	code := fmt.Sprintf("code-%d", w.seq)
	w.codes[code] = q
	w.Mu.Unlock()
	return q
}

func (w *World) Redirect(q url.Values, code string) string {
	v := url.Values{"code": {code}, "state": {q.Get("state")}}
	if w.ISS {
		v.Set("iss", w.as.URL)
	}
	return q.Get("redirect_uri") + "?" + v.Encode()
}

func (w *World) LastCode() string {
	w.Mu.Lock()
	defer w.Mu.Unlock()
	for c := range w.codes {
		return c
	}
	return ""
}

// revokeAll makes every access token invalid (and, with refresh, every
// refresh token too).
func (w *World) RevokeAll(refresh bool) {
	w.Mu.Lock()
	defer w.Mu.Unlock()
	w.Valid = map[string]string{}
	if refresh {
		w.refresh = map[string]string{}
	}
}

// Browse completes a sign-in as the user's browser would: the
// authorization server issues a code for the authorization URL and the
// browser follows the redirect to pi's callback. check, when set, sees
// the authorization request first.
func (w *World) Browse(authURL string, check func(url.Values)) {
	q := w.Authorize(authURL)
	if check != nil {
		check(q)
	}
	go func() {
		resp, err := http.Get(w.Redirect(q, w.LastCode()))
		if err != nil {
			w.t.Errorf("browser: %v", err)
			return
		}
		resp.Body.Close()
	}()
}

func stringList(o jsonx.Object, key string) []string {
	v, _ := o.Get(key)
	arr, _ := v.([]any)
	var out []string
	for _, e := range arr {
		if s, ok := e.(string); ok {
			out = append(out, s)
		}
	}
	return out
}
