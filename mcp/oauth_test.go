package mcp

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/pi-go/pi/internal/jsonx"
	"github.com/pi-go/pi/mcp/mcptest"
)

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

// browserPrompt is a prompt whose browser completes the sign-in.
func browserPrompt(w *mcptest.World, check func(url.Values)) SignInPrompt {
	return SignInPrompt{ShowAuthorizationURL: func(authURL string) { w.Browse(authURL, check) }}
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
	w := mcptest.New(t)
	agent, cwd := t.TempDir(), t.TempDir()
	writeFile(t, GlobalPath(agent), `{"mcpServers":{"secure":{"url":"`+w.MCPURL+`"}}}`)
	run := func(args ...string) (int, string, string) {
		var out, errOut bytes.Buffer
		code := RunCLI(context.Background(), args, CLIOptions{AgentDir: agent, Cwd: cwd, Stdout: &out, Stderr: &errOut,
			OpenURL: func(u string) {
				q := w.Authorize(u)
				var reg jsonx.Object
				w.Mu.Lock()
				reg = w.Registered[q.Get("client_id")]
				w.Mu.Unlock()
				if reg == nil {
					t.Errorf("authorization request for unregistered client %q", q.Get("client_id"))
				} else if uris := strList(reg, "redirect_uris"); len(uris) != 1 || uris[0] != q.Get("redirect_uri") {
					t.Errorf("registered redirect_uris %v, authorization redirect_uri %q", uris, q.Get("redirect_uri"))
				}
				if got := string(mustJSON(reg)); !strings.Contains(got, `"client_name":"pi"`) || !strings.Contains(got, `"application_type":"native","scope":"mcp:read"`) || !strings.Contains(got, `"token_endpoint_auth_method":"none"`) {
					t.Errorf("registration %s", got)
				}
				checkAuthorizationRequest(t, q, q.Get("client_id"), "mcp:read", w.MCPURL)
				go func() {
					resp, err := http.Get(w.Redirect(q, w.LastCode()))
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
	state := readState(t, agent, "mcp__secure|"+w.MCPURL)
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
	w := mcptest.New(t)
	agent, cwd := t.TempDir(), t.TempDir()
	writeFile(t, GlobalPath(agent), `{"mcpServers":{
		"secure":{"url":"`+w.MCPURL+`"},
		"keyed":{"url":"`+w.MCPURL+`","headers":{"Authorization":"Bearer x"}},
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
func signedIn(t *testing.T, w *mcptest.World, entry string) (*Manager, string) {
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
	msg, err := m.Login(context.Background(), "secure", browserPrompt(w, nil))
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
	w := mcptest.New(t)
	m, agent := signedIn(t, w, `{"url":"`+w.MCPURL+`"}`)
	key := "mcp__secure|" + w.MCPURL
	before := objString(asObject(objValue(readState(t, agent, key), "tokens")), "refresh_token")

	w.RevokeAll(false)
	m.find("secure").Close()
	if err := callWhoami(m); err != nil {
		t.Fatalf("call after the token was revoked: %v", err)
	}
	after := asObject(objValue(readState(t, agent, key), "tokens"))
	if rt := objString(after, "refresh_token"); rt == before || rt == "" {
		t.Errorf("refresh token %q, was %q: not rotated", rt, before)
	}

	// An access token about to expire is refreshed before it is sent.
	store := NewCredentialStore(agent).ForServer("secure", w.MCPURL)
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

	w.RevokeAll(true)
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
	if msg, err := m.Login(context.Background(), "secure", browserPrompt(w, nil)); err != nil {
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
	w := mcptest.New(t)
	m, _ := signedIn(t, w, `{"url":"`+w.MCPURL+`"}`)
	w.Mu.Lock()
	w.NeedScope = "mcp:write"
	w.Mu.Unlock()
	if err := callWhoami(m); err == nil || !strings.Contains(err.Error(), "requires sign-in") {
		t.Fatalf("call needing more scope: %v", err)
	}
	if ch := m.find("secure").Challenge(); ch == nil || ch.Error != "insufficient_scope" || ch.Scope != "mcp:write" {
		t.Fatalf("challenge %+v", ch)
	}
	var scope string
	msg, err := m.Login(context.Background(), "secure", browserPrompt(w, func(q url.Values) { scope = q.Get("scope") }))
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
			w := mcptest.New(t)
			w.CIMD, w.ISS = true, iss
			agent := t.TempDir()
			writeFile(t, GlobalPath(agent), `{"mcpServers":{"secure":{"url":"`+w.MCPURL+`"}}}`)
			m := NewManager(ManagerOptions{AgentDir: agent, Cwd: t.TempDir()})
			defer m.Close()
			_, _ = m.find("secure").Session(context.Background())
			var pasted string
			var q url.Values
			prompt := SignInPrompt{
				ShowAuthorizationURL: func(u string) {
					q = w.Authorize(u)
					pasted = w.Redirect(q, w.LastCode())
				},
				PromptForRedirectURL: func(ctx context.Context) (string, error) { return pasted, nil },
			}
			if msg, err := m.Login(context.Background(), "secure", prompt); err != nil {
				t.Fatalf("login: %q %v", msg, err)
			}
			id := callbackID(w.MCPURL)
			wantClient, wantPath := "https://pi.dev/oauth/client.json", "/callback"
			if !iss {
				wantClient, wantPath = "https://pi.dev/oauth/"+id+"/client.json", "/callback/"+id
			}
			checkAuthorizationRequest(t, q, wantClient, "mcp:read", w.MCPURL)
			if u, _ := url.Parse(q.Get("redirect_uri")); u.Path != wantPath {
				t.Errorf("redirect path %q, want %q", u.Path, wantPath)
			}
			w.Mu.Lock()
			defer w.Mu.Unlock()
			if len(w.Registered) != 0 {
				t.Errorf("registered a client: %v", w.Registered)
			}
			if st := readState(t, agent, "mcp__secure|"+w.MCPURL); st.Index("clientInformation") >= 0 {
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

// TestRadiusPlan checks the mcp.json entry a Radius login writes: a new
// "radius" server (renamed when taken), an existing server at the Radius
// URL given the login (its oauth dropped), and nothing when a server
// already uses it.
func TestRadiusPlan(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ file, wantName, wantConfig, wantMsg string }{
		{``, "radius", `{"url":"https://radius.pi.dev/mcp","auth":{"provider":"radius"}}`, "Added"},
		{`{"mcpServers":{"radius":{"command":"x"},"radius-mcp":{"command":"y"}}}`, "radius-mcp-2", `{"url":"https://radius.pi.dev/mcp","auth":{"provider":"radius"}}`, "Added"},
		{`{"mcpServers":{"rad":{"url":"https://radius.pi.dev/mcp/","exposure":"direct","oauth":{"clientId":"c"}}}}`, "rad", `{"url":"https://radius.pi.dev/mcp/","exposure":"direct","auth":{"provider":"radius"}}`, "Updated"},
		{`{"mcpServers":{"rad":{"url":"https://radius.pi.dev/mcp","auth":{"provider":"radius"}}}}`, "", "", ""},
	} {
		agent := t.TempDir()
		if tc.file != "" {
			writeFile(t, GlobalPath(agent), tc.file)
		}
		msg, err := ConfigureRadiusServer("radius", "Radius", agent, t.TempDir())
		if err != nil {
			t.Fatal(err)
		}
		if tc.wantName == "" {
			if msg != "" {
				t.Errorf("%s: changed: %s", tc.file, msg)
			}
			continue
		}
		want := fmt.Sprintf("%s MCP server %q in %s to use the Radius login.", tc.wantMsg, tc.wantName, GlobalPath(agent))
		if msg != want {
			t.Errorf("message %q, want %q", msg, want)
		}
		s := Load(agent, "", false).Find(tc.wantName)
		if s == nil || string(mustJSON(s.Config)) != tc.wantConfig {
			t.Errorf("%s: entry %v", tc.file, s)
		}
	}
}

// TestProviderAuth checks a server whose "auth" names a provider: each
// request carries that provider's current credential, and a server that
// rejects it needs the provider's /login.
func TestProviderAuth(t *testing.T) {
	t.Parallel()
	w := mcptest.New(t)
	w.Valid["radius-key"] = "mcp:read"
	agent := t.TempDir()
	writeFile(t, GlobalPath(agent), `{"mcpServers":{"secure":{"url":"`+w.MCPURL+`","auth":{"provider":"radius"}}}}`)
	var mu sync.Mutex
	key := "radius-key"
	m := NewManager(ManagerOptions{AgentDir: agent, Cwd: t.TempDir(), ProviderToken: func(_ context.Context, p string) string {
		mu.Lock()
		defer mu.Unlock()
		if p != "radius" {
			t.Errorf("provider %q", p)
		}
		return key
	}})
	defer m.Close()
	if err := callWhoami(m); err != nil {
		t.Fatalf("call with the provider's key: %v", err)
	}
	mu.Lock()
	key = "expired"
	mu.Unlock()
	m.find("secure").Close()
	if err := callWhoami(m); err == nil || err.Error() != `MCP server "secure" requires sign-in. Run /login radius to sign in.` {
		t.Fatalf("call with a rejected key: %v", err)
	}
	if _, err := m.Login(context.Background(), "secure", SignInPrompt{}); err == nil || err.Error() != `MCP server "secure" does not use OAuth.` {
		t.Errorf("login: %v", err)
	}
}

// TestOAuthSignedInElsewhere checks that a session picks up a sign-in
// made by another process (pi mcp login run by the agent): the server
// that wanted a sign-in reconnects before the next turn.
func TestOAuthSignedInElsewhere(t *testing.T) {
	t.Parallel()
	w := mcptest.New(t)
	agent, cwd := t.TempDir(), t.TempDir()
	writeFile(t, GlobalPath(agent), `{"mcpServers":{"secure":{"url":"`+w.MCPURL+`"}}}`)
	m := NewManager(ManagerOptions{AgentDir: agent, Cwd: cwd})
	defer m.Close()
	c := m.find("secure")
	_, _ = c.Session(context.Background())
	if m.ReconnectSignedIn(context.Background()) {
		t.Fatal("reconnected without new credentials")
	}
	var out, errOut bytes.Buffer
	if code := RunCLI(context.Background(), []string{"login", "secure"}, CLIOptions{AgentDir: agent, Cwd: cwd, Stdout: &out, Stderr: &errOut,
		OpenURL: func(u string) { w.Browse(u, nil) }}); code != 0 {
		t.Fatalf("pi mcp login: %d %s", code, errOut.String())
	}
	if !m.ReconnectSignedIn(context.Background()) {
		t.Fatal("the session did not pick up the sign-in")
	}
	if state, _ := c.State(); state != StateConnected || len(c.Tools()) != 1 {
		t.Errorf("state %q, %d tools", state, len(c.Tools()))
	}
}

// TestOAuthRegisteredClient checks a configured client: no dynamic
// registration, its client ID in the authorization request, and the
// redirect URI on the configured callback port.
func TestOAuthRegisteredClient(t *testing.T) {
	t.Parallel()
	w := mcptest.New(t)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := ln.Addr().(*net.TCPAddr).Port
	ln.Close()
	entry := fmt.Sprintf(`{"url":%q,"oauth":{"clientId":"my-client","callbackPort":%d,"scope":"extra"}}`, w.MCPURL, port)
	var q url.Values
	agent := t.TempDir()
	writeFile(t, GlobalPath(agent), `{"mcpServers":{"secure":`+entry+`}}`)
	m := NewManager(ManagerOptions{AgentDir: agent, Cwd: t.TempDir()})
	defer m.Close()
	_, _ = m.find("secure").Session(context.Background())
	if msg, err := m.Login(context.Background(), "secure", browserPrompt(w, func(v url.Values) { q = v })); err != nil {
		t.Fatalf("login: %q %v", msg, err)
	}
	checkAuthorizationRequest(t, q, "my-client", "extra", w.MCPURL)
	if want := fmt.Sprintf("http://127.0.0.1:%d/callback", port); q.Get("redirect_uri") != want {
		t.Errorf("redirect_uri %q, want %q", q.Get("redirect_uri"), want)
	}
	w.Mu.Lock()
	defer w.Mu.Unlock()
	if len(w.Registered) != 0 {
		t.Errorf("registered a client: %v", w.Registered)
	}
}
