package mcp

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/pi-go/pi/internal/jsonx"
)

// oauthWorld is an OAuth-protected streamable HTTP MCP server (the SDK's
// server behind a bearer check) and its authorization server, both on
// httptest listeners. The authorization server checks every request it
// gets the way a strict one would: PKCE S256, the redirect URI of the
// authorization request, the client, the scope and the resource.
type oauthWorld struct {
	t      *testing.T
	mcp    *httptest.Server
	as     *httptest.Server
	mcpURL string

	mu sync.Mutex
	// valid are the access tokens the MCP server accepts, with their
	// scope.
	valid map[string]string
	// refresh maps live refresh tokens to their scope.
	refresh map[string]string
	// needScope makes the MCP server ask for more scope (403
	// insufficient_scope) until a token carries it.
	needScope string
	// cimd and iss are what the metadata advertises.
	cimd, iss bool
	// codes are issued authorization codes and their request.
	codes map[string]url.Values
	// registered are dynamic registrations (client_id -> body).
	registered map[string]jsonx.Object
	// requests logs "METHOD path" of the authorization server.
	requests []string
	seq      int
}

func newOAuthWorld(t *testing.T) *oauthWorld {
	t.Helper()
	w := &oauthWorld{t: t, valid: map[string]string{}, refresh: map[string]string{}, codes: map[string]url.Values{}, registered: map[string]jsonx.Object{}}
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
			writeJSON(rw, fmt.Sprintf(`{"resource":%q,"authorization_servers":[%q],"scopes_supported":["mcp:read"]}`, w.mcpURL, w.as.URL))
			return
		}
		tok := strings.TrimPrefix(r.Header.Get("Authorization"), "Bearer ")
		w.mu.Lock()
		scope, ok := w.valid[tok]
		need := w.needScope
		w.mu.Unlock()
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
	w.mcpURL = w.mcp.URL + "/mcp"
	return w
}

func writeJSON(w http.ResponseWriter, body string) {
	w.Header().Set("Content-Type", "application/json")
	_, _ = io.WriteString(w, body)
}

func (w *oauthWorld) fail(rw http.ResponseWriter, format string, args ...any) {
	msg := fmt.Sprintf(format, args...)
	w.t.Errorf("authorization server: %s", msg)
	rw.WriteHeader(http.StatusBadRequest)
	writeJSON(rw, fmt.Sprintf(`{"error":"invalid_request","error_description":%q}`, msg))
}

func (w *oauthWorld) serveAS(rw http.ResponseWriter, r *http.Request) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.requests = append(w.requests, r.Method+" "+r.URL.Path)
	switch r.URL.Path {
	case "/.well-known/oauth-authorization-server":
		extra := ""
		if w.cimd {
			extra += `,"client_id_metadata_document_supported":true`
		}
		if w.iss {
			extra += `,"authorization_response_iss_parameter_supported":true`
		}
		writeJSON(rw, fmt.Sprintf(`{"issuer":%q,"authorization_endpoint":"%s/authorize","token_endpoint":"%s/token","registration_endpoint":"%s/register",`+
			`"response_types_supported":["code"],"code_challenge_methods_supported":["S256"],"token_endpoint_auth_methods_supported":["none"]%s}`,
			w.as.URL, w.as.URL, w.as.URL, w.as.URL, extra))
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
		w.registered[id] = body
		uris, _ := json.Marshal(strList(body, "redirect_uris"))
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
			case f.Get("resource") != w.mcpURL:
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
func (w *oauthWorld) issue(rw http.ResponseWriter, scope string) {
	w.seq++
	at, rt := fmt.Sprintf("at-%d", w.seq), fmt.Sprintf("rt-%d", w.seq)
	w.valid[at] = scope
	w.refresh[rt] = scope
	writeJSON(rw, fmt.Sprintf(`{"access_token":%q,"token_type":"Bearer","expires_in":3600,"refresh_token":%q}`, at, rt))
}

// browser is what a user's browser does with the authorization URL: the
// authorization server issues a code for the request, and the browser
// follows the redirect to pi's callback. It returns the request's query.
func (w *oauthWorld) authorize(authURL string) url.Values {
	u, err := url.Parse(authURL)
	if err != nil {
		w.t.Fatal(err)
	}
	q := u.Query()
	w.mu.Lock()
	w.seq++
	code := fmt.Sprintf("code-%d", w.seq)
	w.codes[code] = q
	w.mu.Unlock()
	return q
}

func (w *oauthWorld) redirect(q url.Values, code string) string {
	v := url.Values{"code": {code}, "state": {q.Get("state")}}
	if w.iss {
		v.Set("iss", w.as.URL)
	}
	return q.Get("redirect_uri") + "?" + v.Encode()
}

func (w *oauthWorld) lastCode() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	for c := range w.codes {
		return c
	}
	return ""
}

// revokeAll makes every access token invalid (and, with refresh, every
// refresh token too).
func (w *oauthWorld) revokeAll(refresh bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.valid = map[string]string{}
	if refresh {
		w.refresh = map[string]string{}
	}
}

// checkAuthorizationRequest checks the parameters of pi's authorization
// request.
func checkAuthorizationRequest(t *testing.T, q url.Values, clientID, scope, resource string) {
	t.Helper()
	want := map[string]string{"response_type": "code", "client_id": clientID, "code_challenge_method": "S256", "scope": scope, "resource": resource}
	for k, v := range want {
		if q.Get(k) != v {
			t.Errorf("authorization request %s = %q, want %q", k, q.Get(k), v)
		}
	}
	if len(q.Get("code_challenge")) != 43 || len(q.Get("state")) != 64 {
		t.Errorf("code_challenge %q, state %q", q.Get("code_challenge"), q.Get("state"))
	}
	if !strings.HasPrefix(q.Get("redirect_uri"), "http://127.0.0.1:") {
		t.Errorf("redirect_uri %q", q.Get("redirect_uri"))
	}
}

// signInByBrowser is a prompt whose browser completes the sign-in.
func (w *oauthWorld) signInByBrowser(check func(url.Values)) SignInPrompt {
	return SignInPrompt{ShowAuthorizationURL: func(authURL string) {
		q := w.authorize(authURL)
		if check != nil {
			check(q)
		}
		go func() {
			resp, err := http.Get(w.redirect(q, w.lastCode()))
			if err != nil {
				w.t.Errorf("browser: %v", err)
				return
			}
			resp.Body.Close()
		}()
	}}
}

func readState(t *testing.T, agent, key string) jsonx.Object {
	t.Helper()
	b, err := os.ReadFile(CredentialsPath(agent))
	if err != nil {
		t.Fatal(err)
	}
	v, err := jsonx.Decode(b)
	if err != nil {
		t.Fatal(err)
	}
	st, ok := v.(jsonx.Object).Get(key)
	if !ok {
		t.Fatalf("mcp-auth.json has no %q:\n%s", key, b)
	}
	return st.(jsonx.Object)
}

func keysOf(o jsonx.Object) string {
	var k []string
	for _, f := range o {
		k = append(k, f.Key)
	}
	return strings.Join(k, ",")
}

// TestOAuthLoginCLI signs in with pi mcp login as a new user would: the
// server needs sign-in, login registers a client dynamically, sends the
// browser to the authorization page with PKCE, receives the code on the
// loopback callback and exchanges it; mcp-auth.json then holds the
// reference's state (its keys, order, mode) and pi mcp list connects.
// logout deletes the state.
func TestOAuthLoginCLI(t *testing.T) {
	t.Parallel()
	w := newOAuthWorld(t)
	agent, cwd := t.TempDir(), t.TempDir()
	writeFile(t, GlobalPath(agent), `{"mcpServers":{"secure":{"url":"`+w.mcpURL+`"}}}`)
	run := func(args ...string) (int, string, string) {
		var out, errOut bytes.Buffer
		code := RunCLI(context.Background(), args, CLIOptions{AgentDir: agent, Cwd: cwd, Stdout: &out, Stderr: &errOut,
			OpenURL: func(u string) {
				q := w.authorize(u)
				var reg jsonx.Object
				w.mu.Lock()
				reg = w.registered[q.Get("client_id")]
				w.mu.Unlock()
				if reg == nil {
					t.Errorf("authorization request for unregistered client %q", q.Get("client_id"))
				} else if uris := strList(reg, "redirect_uris"); len(uris) != 1 || uris[0] != q.Get("redirect_uri") {
					t.Errorf("registered redirect_uris %v, authorization redirect_uri %q", uris, q.Get("redirect_uri"))
				}
				if got := string(mustJSON(reg)); !strings.Contains(got, `"client_name":"pi"`) || !strings.Contains(got, `"application_type":"native","scope":"mcp:read"`) || !strings.Contains(got, `"token_endpoint_auth_method":"none"`) {
					t.Errorf("registration %s", got)
				}
				checkAuthorizationRequest(t, q, q.Get("client_id"), "mcp:read", w.mcpURL)
				go func() {
					resp, err := http.Get(w.redirect(q, w.lastCode()))
					if err == nil {
						b, _ := io.ReadAll(resp.Body)
						resp.Body.Close()
						if !strings.Contains(string(b), "Signed in to the MCP server") {
							t.Errorf("callback page %s", b)
						}
					}
				}()
			}})
		return code, out.String(), errOut.String()
	}
	code, out, _ := run("list")
	if code != 1 || !strings.Contains(out, "secure: needs sign-in (codemode, global)") || !strings.Contains(out, "sign in with: pi mcp login secure") {
		t.Fatalf("list before login: %d\n%s", code, out)
	}
	code, out, errOut := run("login", "secure", "--timeout", "20")
	if code != 0 {
		t.Fatalf("login: %d\n%s\n%s", code, out, errOut)
	}
	if !strings.Contains(out, `Sign in to MCP server "secure" in your browser:`) || !strings.Contains(out, `Signed in to MCP server "secure" (1 tools).`) {
		t.Errorf("login output\n%s", out)
	}
	st, err := os.Stat(CredentialsPath(agent))
	if err != nil || st.Mode().Perm() != 0o600 {
		t.Errorf("mcp-auth.json: %v %v", st.Mode(), err)
	}
	state := readState(t, agent, "mcp__secure|"+w.mcpURL)
	if got := keysOf(state); got != "serverUrl,discovery,clientInformation,oauthState,codeVerifier,tokens,tokensExpireAt" {
		t.Errorf("state keys %s", got)
	}
	if got := keysOf(asObject(objValue(state, "discovery"))); got != "authorizationServerUrl,authorizationServerMetadata,resourceMetadata,resourceMetadataUrl" {
		t.Errorf("discovery keys %s", got)
	}
	tokens := asObject(objValue(state, "tokens"))
	if got := string(mustJSON(tokens)); !strings.HasPrefix(got, `{"access_token":"at-`) || !strings.HasSuffix(got, `"token_type":"Bearer","expires_in":3600,"refresh_token":"rt-`+strings.TrimPrefix(objString(tokens, "access_token"), "at-")+`","scope":"mcp:read"}`) {
		t.Errorf("tokens %s", got)
	}
	b, _ := os.ReadFile(CredentialsPath(agent))
	if !bytes.HasPrefix(b, []byte("{\n  \"mcp__secure|")) || !bytes.HasSuffix(b, []byte("}\n")) {
		t.Errorf("file layout\n%s", b)
	}
	if code, out, _ := run("login", "secure"); code != 0 || !strings.Contains(out, `Already signed in to MCP server "secure" (1 tools).`) {
		t.Errorf("second login: %d %s", code, out)
	}
	if code, out, _ := run("list"); code != 0 || !strings.Contains(out, "secure: connected, 1 tool (codemode, global)") {
		t.Errorf("list after login: %d\n%s", code, out)
	}
	if code, out, _ := run("logout", "secure"); code != 0 || !strings.Contains(out, `Signed out of MCP server "secure".`) {
		t.Errorf("logout: %d %s", code, out)
	}
	if code, out, _ := run("logout", "secure"); code != 0 || !strings.Contains(out, `No stored credentials for MCP server "secure".`) {
		t.Errorf("second logout: %d %s", code, out)
	}
}

// TestOAuthCLIErrors checks pi mcp login's refusals: a server with an
// Authorization header, a server using a provider's login, a bad
// --timeout, and a sign-in nobody completes in time.
func TestOAuthCLIErrors(t *testing.T) {
	t.Parallel()
	w := newOAuthWorld(t)
	agent, cwd := t.TempDir(), t.TempDir()
	writeFile(t, GlobalPath(agent), `{"mcpServers":{
		"secure":{"url":"`+w.mcpURL+`"},
		"keyed":{"url":"`+w.mcpURL+`","headers":{"Authorization":"Bearer x"}},
		"radius":{"url":"https://mcp.example.com/mcp","auth":{"provider":"radius"}}}}`)
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"login", "keyed"}, `MCP server "keyed" does not use OAuth. Only HTTP servers without an Authorization header do.`},
		{[]string{"logout", "radius"}, `MCP server "radius" uses the credentials of provider "radius". Run "pi auth logout radius".`},
		{[]string{"login", "secure", "--timeout", "0"}, "--timeout must be a positive number of seconds."},
		{[]string{"login", "secure", "--timeout", "0.5"}, `Sign-in to MCP server "secure" was cancelled or not completed within 1 seconds.`},
		{[]string{"login", "nope"}, `No MCP server named "nope".`},
	} {
		var out, errOut bytes.Buffer
		code := RunCLI(context.Background(), tc.args, CLIOptions{AgentDir: agent, Cwd: cwd, Stdout: &out, Stderr: &errOut, OpenURL: func(string) {}})
		if code != 1 || !strings.Contains(errOut.String(), tc.want) {
			t.Errorf("%v: %d\nstdout %s\nstderr %s\nwant %s", tc.args, code, out.String(), errOut.String(), tc.want)
		}
	}
}

// signedIn makes a manager whose one server is signed in through
// Manager.Login.
func signedIn(t *testing.T, w *oauthWorld, entry string) (*Manager, string) {
	t.Helper()
	agent := t.TempDir()
	writeFile(t, GlobalPath(agent), `{"mcpServers":{"secure":`+entry+`}}`)
	m := NewManager(ManagerOptions{AgentDir: agent, Cwd: t.TempDir()})
	t.Cleanup(m.Close)
	c := m.find("secure")
	if _, err := c.Session(context.Background()); err == nil {
		t.Fatal("connected before signing in")
	}
	if state, _ := c.State(); state != StateNeedsAuth {
		t.Fatalf("state %q before signing in", state)
	}
	msg, err := m.Login(context.Background(), "secure", w.signInByBrowser(nil))
	if err != nil || msg != `Signed in to MCP server "secure" (1 tools).` {
		t.Fatalf("login: %q %v", msg, err)
	}
	return m, agent
}

func callWhoami(m *Manager) error {
	_, _, err := m.find("secure").CallTool(context.Background(), "whoami", nil, nil)
	return err
}

// TestOAuthRefresh covers the token lifecycle of a connection: a token
// the server revoked is refreshed after its 401 and the call succeeds
// (the rotated refresh token is stored); a token about to expire is
// refreshed before it is sent; once the refresh token is revoked too,
// the connection needs sign-in and says how, and its stored tokens are
// gone.
func TestOAuthRefresh(t *testing.T) {
	t.Parallel()
	w := newOAuthWorld(t)
	m, agent := signedIn(t, w, `{"url":"`+w.mcpURL+`"}`)
	key := "mcp__secure|" + w.mcpURL
	before := objString(asObject(objValue(readState(t, agent, key), "tokens")), "refresh_token")

	w.revokeAll(false)
	m.find("secure").Close()
	if err := callWhoami(m); err != nil {
		t.Fatalf("call after the token was revoked: %v", err)
	}
	after := asObject(objValue(readState(t, agent, key), "tokens"))
	if rt := objString(after, "refresh_token"); rt == before || rt == "" {
		t.Errorf("refresh token %q, was %q: not rotated", rt, before)
	}

	// An access token about to expire is refreshed before it is sent.
	store := NewCredentialStore(agent).ForServer("secure", w.mcpURL)
	if err := store.update(func(st oauthState) oauthState { return st.put("tokensExpireAt", time.Now().UnixMilli()+1000) }); err != nil {
		t.Fatal(err)
	}
	old := objString(after, "access_token")
	if err := callWhoami(m); err != nil {
		t.Fatalf("call with an expiring token: %v", err)
	}
	if tok := objString(asObject(objValue(readState(t, agent, key), "tokens")), "access_token"); tok == old {
		t.Errorf("access token %q was not refreshed before expiry", tok)
	}

	w.revokeAll(true)
	err := callWhoami(m)
	if err == nil || err.Error() != `MCP server "secure" requires sign-in. Run /mcp to sign in.` {
		t.Fatalf("call after revocation: %v", err)
	}
	if state, _ := m.find("secure").State(); state != StateNeedsAuth {
		t.Errorf("state %q after revocation", state)
	}
	if tok := objValue(readState(t, agent, key), "tokens"); tok != nil {
		t.Errorf("revoked tokens kept: %v", tok)
	}
	// Signing in again works with the registered client.
	if msg, err := m.Login(context.Background(), "secure", w.signInByBrowser(nil)); err != nil {
		t.Fatalf("second login: %q %v", msg, err)
	}
	if err := callWhoami(m); err != nil {
		t.Fatal(err)
	}
}

// TestOAuthStepUp checks a server that asks for more scope (403
// insufficient_scope): the connection needs sign-in, and the next
// sign-in asks for the challenged scope on top of the granted one.
func TestOAuthStepUp(t *testing.T) {
	t.Parallel()
	w := newOAuthWorld(t)
	m, _ := signedIn(t, w, `{"url":"`+w.mcpURL+`"}`)
	w.mu.Lock()
	w.needScope = "mcp:write"
	w.mu.Unlock()
	if err := callWhoami(m); err == nil || !strings.Contains(err.Error(), "requires sign-in") {
		t.Fatalf("call needing more scope: %v", err)
	}
	if ch := m.find("secure").Challenge(); ch == nil || ch.Error != "insufficient_scope" || ch.Scope != "mcp:write" {
		t.Fatalf("challenge %+v", ch)
	}
	var scope string
	msg, err := m.Login(context.Background(), "secure", w.signInByBrowser(func(q url.Values) { scope = q.Get("scope") }))
	if err != nil {
		t.Fatalf("step-up login: %q %v", msg, err)
	}
	if scope != "mcp:read mcp:write" {
		t.Errorf("step-up scope %q", scope)
	}
	if err := callWhoami(m); err != nil {
		t.Fatal(err)
	}
}

// TestOAuthMetadataDocument checks the Client ID Metadata Document: with
// an authorization server that supports documents and RFC 9207's iss,
// pi's client ID is https://pi.dev/oauth/client.json and nothing is
// registered; without iss, the document and the redirect path are
// specific to the server. The code comes back as a pasted redirect URL.
func TestOAuthMetadataDocument(t *testing.T) {
	t.Parallel()
	for _, iss := range []bool{true, false} {
		t.Run(fmt.Sprint("iss=", iss), func(t *testing.T) {
			t.Parallel()
			w := newOAuthWorld(t)
			w.cimd, w.iss = true, iss
			agent := t.TempDir()
			writeFile(t, GlobalPath(agent), `{"mcpServers":{"secure":{"url":"`+w.mcpURL+`"}}}`)
			m := NewManager(ManagerOptions{AgentDir: agent, Cwd: t.TempDir()})
			defer m.Close()
			_, _ = m.find("secure").Session(context.Background())
			var pasted string
			var q url.Values
			prompt := SignInPrompt{
				ShowAuthorizationURL: func(u string) {
					q = w.authorize(u)
					pasted = w.redirect(q, w.lastCode())
				},
				PromptForRedirectURL: func(ctx context.Context) (string, error) { return pasted, nil },
			}
			if msg, err := m.Login(context.Background(), "secure", prompt); err != nil {
				t.Fatalf("login: %q %v", msg, err)
			}
			id := callbackID(w.mcpURL)
			wantClient, wantPath := "https://pi.dev/oauth/client.json", "/callback"
			if !iss {
				wantClient, wantPath = "https://pi.dev/oauth/"+id+"/client.json", "/callback/"+id
			}
			checkAuthorizationRequest(t, q, wantClient, "mcp:read", w.mcpURL)
			if u, _ := url.Parse(q.Get("redirect_uri")); u.Path != wantPath {
				t.Errorf("redirect path %q, want %q", u.Path, wantPath)
			}
			w.mu.Lock()
			defer w.mu.Unlock()
			if len(w.registered) != 0 {
				t.Errorf("registered a client: %v", w.registered)
			}
			if st := readState(t, agent, "mcp__secure|"+w.mcpURL); st.Index("clientInformation") >= 0 {
				t.Errorf("document client stored: %s", mustJSON(st))
			}
		})
	}
}

// TestOAuthPastedRedirectChecks checks a pasted redirect URL of another
// sign-in or another redirect URI is refused.
func TestOAuthPastedRedirectChecks(t *testing.T) {
	t.Parallel()
	a := pendingAuthorization{redirectURL: "http://127.0.0.1:4000/callback", state: "s1"}
	for _, tc := range []struct{ in, want string }{
		{"not a url", "Expected the full redirect URL from the browser address bar"},
		{"http://127.0.0.1:4001/callback?code=c&state=s1", "The redirect URL does not match this sign-in's redirect URI"},
		{"http://127.0.0.1:4000/callback?code=c&state=s2", "The redirect URL belongs to a different sign-in"},
		{"http://127.0.0.1:4000/callback?error=access_denied&error_description=Denied", "Denied"},
		{"http://127.0.0.1:4000/callback?state=s1", "The redirect URL does not contain an authorization code"},
	} {
		if _, err := responseFromRedirectURL(tc.in, a); err == nil || err.Error() != tc.want {
			t.Errorf("%s: %v, want %s", tc.in, err, tc.want)
		}
	}
	if r, err := responseFromRedirectURL(" http://127.0.0.1:4000/callback?code=c&state=s1&iss=x ", a); err != nil || r.code != "c" || *r.iss != "x" {
		t.Errorf("good redirect: %+v %v", r, err)
	}
}

// TestOAuthConfigValidation checks the oauth and auth fields' messages.
func TestOAuthConfigValidation(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ entry, want string }{
		{`{"url":"https://x/mcp","oauth":{"callbackPort":0}}`, "oauth.callbackPort must be a port number"},
		{`{"url":"https://x/mcp","oauth":{"callbackUrl":"https://x/cb"}}`, "oauth.callbackUrl must be an http URI on localhost, 127.0.0.1, or [::1] without query or fragment"},
		{`{"url":"https://x/mcp","oauth":{"callbackUrl":"http://localhost:1/cb","callbackPort":2}}`, "oauth.callbackUrl and oauth.callbackPort name different ports"},
		{`{"url":"https://x/mcp","oauth":{"clientRegistration":"x"}}`, `oauth.clientRegistration must be "auto", "dcr", or "cimd"`},
		{`{"url":"https://x/mcp","oauth":{"clientRegistration":"cimd","clientId":"a"}}`, `oauth.clientRegistration "cimd" cannot be combined with oauth.clientId or oauth.clientName`},
		{`{"url":"https://x/mcp","oauth":{"clientRegistration":"cimd","callbackUrl":"http://127.0.0.1/cb"}}`, `oauth.clientRegistration "cimd" requires oauth.callbackUrl on localhost or 127.0.0.1 with path /callback`},
		{`{"url":"https://x/mcp","oauth":{"authServerMetadataUrl":"http://example.com/m"}}`, "oauth.authServerMetadataUrl must be an https URL, or http on localhost, 127.0.0.1, or [::1]"},
		{`{"url":"https://x/mcp","oauth":{"clientName":" "}}`, "oauth.clientName must be a non-empty string"},
		{`{"url":"https://x/mcp","auth":{}}`, "auth.provider must be a provider name"},
		{`{"url":"http://example.com/mcp","auth":{"provider":"radius"}}`, "auth requires an https URL, or http on localhost, 127.0.0.1, or [::1]"},
	} {
		v, _ := jsonx.Decode([]byte(tc.entry))
		_, msg := Validate("s", v)
		if msg != `server "s": `+tc.want {
			t.Errorf("%s: %q, want %q", tc.entry, msg, tc.want)
		}
	}
}

// TestOAuthLegacyKey checks that a state stored under the URL alone (as
// older versions wrote it) is taken over by the first server that reads
// it, and that logout removes it.
func TestOAuthLegacyKey(t *testing.T) {
	t.Parallel()
	agent := t.TempDir()
	if err := os.WriteFile(filepath.Join(agent, "mcp-auth.json"), []byte(`{"https://x.example/mcp":{"serverUrl":"https://x.example/mcp","tokens":{"access_token":"a","token_type":"Bearer"}}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	cs := NewCredentialStore(agent)
	st, err := cs.ForServer("x", "https://x.example/mcp").load()
	if err != nil || st.accessToken() != "a" {
		t.Fatalf("legacy state: %v %v", st, err)
	}
	readState(t, agent, "mcp__x|https://x.example/mcp")
	if removed, err := cs.Remove("x", "https://x.example/mcp"); !removed || err != nil {
		t.Errorf("remove: %v %v", removed, err)
	}
}
