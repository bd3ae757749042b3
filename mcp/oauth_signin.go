package mcp

import (
	"context"
	"errors"
	"fmt"
	"html"
	"net"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/pi-go/pi/internal/jsonx"
)

// A sign-in refreshes the stored tokens when it can; otherwise it
// prepares the browser step (a fresh state, PKCE), shows the
// authorization URL, waits for the browser's redirect to a loopback
// callback server or for the redirect URL the user pastes, and exchanges
// the code. Connections never sign in on their own.

// ErrSignInCancelled is a sign-in the user, a timeout or the session's
// end stopped.
var ErrSignInCancelled = errors.New("Sign-in cancelled")

// defaultRedirectURL is the redirect URI when the settings name none and
// no client is stored.
const defaultRedirectURL = "http://127.0.0.1/callback"

// callbackTimeout is how long the callback server waits by default.
const callbackTimeout = 5 * time.Minute

// SignInPrompt is how a sign-in talks to the user.
type SignInPrompt struct {
	// ShowAuthorizationURL shows (and opens) the authorization page.
	ShowAuthorizationURL func(authorizationURL string)
	// PromptForRedirectURL asks for the URL the browser was redirected
	// to, for a browser on another machine; it must return once ctx is
	// done. Nil: only the callback server can finish the sign-in. An
	// empty answer cancels the sign-in.
	PromptForRedirectURL func(ctx context.Context) (string, error)
}

// SignInOptions are one sign-in to one server.
type SignInOptions struct {
	Name, ServerURL string
	Store           *CredentialStore
	Settings        OAuthSettings
	// Challenge is the server's last WWW-Authenticate challenge: its
	// resource metadata URL and scope; insufficient_scope asks for a
	// step-up.
	Challenge *Challenge
	Prompt    SignInPrompt
	// HTTPClient makes the requests to the authorization server (tests).
	HTTPClient *http.Client
}

// Challenge is a server's WWW-Authenticate Bearer challenge.
type Challenge = challenge

// loopback is where a sign-in's callback server listens.
type loopback struct {
	url, host, redirectHost, path string
	port                          int
	// fixedRedirectURL is the redirect URI when the settings fix the
	// port: a configured URI with a port is sent exactly as written.
	fixedRedirectURL string
}

func loopbackOf(s OAuthSettings) loopback {
	configured := s.CallbackURL
	if configured == "" {
		configured = defaultRedirectURL
	}
	u, _ := url.Parse(configured)
	addr := strings.Trim(u.Hostname(), "[]")
	l := loopback{url: configured, host: addr, redirectHost: addr, path: u.EscapedPath(), port: s.CallbackPort}
	if addr == "localhost" {
		// localhost is served on 127.0.0.1; browsers fall back to it.
		l.host = "127.0.0.1"
	}
	if l.path == "" {
		l.path = "/"
	}
	if p := u.Port(); p != "" {
		l.port, _ = strconv.Atoi(p)
		l.fixedRedirectURL = s.CallbackURL
	} else if l.port != 0 {
		u.Host = net.JoinHostPort(u.Hostname(), strconv.Itoa(l.port))
		l.fixedRedirectURL = u.String()
	}
	return l
}

// authorizationResponse is what the browser's redirect carries.
type authorizationResponse struct {
	code, state string
	iss         *string
}

// pendingAuthorization is a prepared browser step.
type pendingAuthorization struct {
	authorizationURL, redirectURL, state, scope string
}

// callbackServer receives the authorization response on loopback.
type callbackServer struct {
	srv         *http.Server
	ln          net.Listener
	redirectURL string
	paths       []string
	mu          sync.Mutex
	pending     map[string]*pendingCallback
}

type pendingCallback struct {
	path string
	done chan callbackResult
}

type callbackResult struct {
	resp authorizationResponse
	err  error
}

func listenCallback(host, redirectHost, path string, port int, extraPaths []string) (*callbackServer, error) {
	ln, err := net.Listen("tcp", net.JoinHostPort(host, strconv.Itoa(port)))
	if err != nil {
		return nil, err
	}
	rh := redirectHost
	if strings.Contains(rh, ":") {
		rh = "[" + rh + "]"
	}
	cs := &callbackServer{ln: ln, redirectURL: fmt.Sprintf("http://%s:%d%s", rh, ln.Addr().(*net.TCPAddr).Port, path),
		paths: append([]string{path}, extraPaths...), pending: map[string]*pendingCallback{}}
	cs.srv = &http.Server{Handler: http.HandlerFunc(cs.handle), ReadHeaderTimeout: 10 * time.Second}
	go func() { _ = cs.srv.Serve(ln) }()
	return cs, nil
}

// wait registers a sign-in's state; a response on another path than
// path fails, so a server-specific redirect URI tells authorization
// servers apart.
func (cs *callbackServer) wait(state, path string) (<-chan callbackResult, error) {
	cs.mu.Lock()
	defer cs.mu.Unlock()
	if _, ok := cs.pending[state]; ok {
		return nil, errors.New("OAuth state is already pending")
	}
	p := &pendingCallback{path: path, done: make(chan callbackResult, 1)}
	cs.pending[state] = p
	return p.done, nil
}

func (cs *callbackServer) close() {
	cs.mu.Lock()
	for s, p := range cs.pending {
		p.done <- callbackResult{err: errors.New("OAuth callback server closed")}
		delete(cs.pending, s)
	}
	cs.mu.Unlock()
	_ = cs.srv.Close()
}

func callbackPage(w http.ResponseWriter, status int, ok bool, message, details string) {
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	title := "Signed in to the MCP server. You may now close this page."
	if !ok {
		title = message
	}
	body := "<!doctype html><html><head><meta charset=\"utf-8\"><title>pi</title></head><body><h1>" + html.EscapeString(title) + "</h1>"
	if details != "" {
		body += "<p>" + html.EscapeString(details) + "</p>"
	}
	_, _ = w.Write([]byte(body + "</body></html>"))
}

func (cs *callbackServer) handle(w http.ResponseWriter, r *http.Request) {
	if !slices.Contains(cs.paths, r.URL.EscapedPath()) {
		callbackPage(w, http.StatusNotFound, false, "Not found", "")
		return
	}
	q := r.URL.Query()
	state := q.Get("state")
	cs.mu.Lock()
	p := cs.pending[state]
	if p != nil {
		delete(cs.pending, state)
	}
	cs.mu.Unlock()
	if state == "" || p == nil {
		callbackPage(w, http.StatusBadRequest, false, "Invalid or expired OAuth state", "")
		return
	}
	if p.path != "" && r.URL.EscapedPath() != p.path {
		p.done <- callbackResult{err: errors.New("The authorization response arrived on another redirect URI")}
		callbackPage(w, http.StatusBadRequest, false, "Unexpected redirect URI", "")
		return
	}
	if e := q.Get("error"); e != "" {
		desc := q.Get("error_description")
		if desc == "" {
			desc = e
		}
		p.done <- callbackResult{err: errors.New(desc)}
		callbackPage(w, http.StatusOK, false, "Authorization failed. You may close this window.", desc)
		return
	}
	code := q.Get("code")
	if code == "" {
		p.done <- callbackResult{err: errors.New("OAuth callback did not include an authorization code")}
		callbackPage(w, http.StatusBadRequest, false, "Missing authorization code", "")
		return
	}
	resp := authorizationResponse{code: code, state: state}
	if iss := q.Get("iss"); iss != "" {
		resp.iss = &iss
	}
	p.done <- callbackResult{resp: resp}
	callbackPage(w, http.StatusOK, true, "", "")
}

// responseFromRedirectURL reads the authorization response out of a URL
// the user pasted from the browser's address bar.
func responseFromRedirectURL(input string, a pendingAuthorization) (authorizationResponse, error) {
	u, err := url.Parse(strings.TrimSpace(input))
	if err != nil || !u.IsAbs() || u.Host == "" {
		return authorizationResponse{}, errors.New("Expected the full redirect URL from the browser address bar")
	}
	want, _ := url.Parse(a.redirectURL)
	if u.Scheme != want.Scheme || !strings.EqualFold(u.Host, want.Host) || orSlash(u.EscapedPath()) != orSlash(want.EscapedPath()) {
		return authorizationResponse{}, errors.New("The redirect URL does not match this sign-in's redirect URI")
	}
	q := u.Query()
	if e := q.Get("error"); e != "" {
		if d := q.Get("error_description"); d != "" {
			return authorizationResponse{}, errors.New(d)
		}
		return authorizationResponse{}, errors.New(e)
	}
	if q.Get("state") != a.state {
		return authorizationResponse{}, errors.New("The redirect URL belongs to a different sign-in")
	}
	code := q.Get("code")
	if code == "" {
		return authorizationResponse{}, errors.New("The redirect URL does not contain an authorization code")
	}
	resp := authorizationResponse{code: code, state: a.state}
	if iss := q.Get("iss"); iss != "" {
		resp.iss = &iss
	}
	return resp, nil
}

func orSlash(p string) string {
	if p == "" {
		return "/"
	}
	return p
}

// registeredRedirectURLs are the redirect URIs a stored client was
// registered with.
func registeredRedirectURLs(client jsonx.Object) []string { return strList(client, "redirect_uris") }

// SignIn signs in to one server and stores its tokens. Cancelling ctx
// stops it at any step with ErrSignInCancelled.
func SignIn(ctx context.Context, o SignInOptions) error {
	store := o.Store.ForServer(o.Name, o.ServerURL)
	lb := loopbackOf(o.Settings)
	stored, err := store.load()
	if err != nil {
		return err
	}
	port := lb.port
	if port == 0 {
		if reg := registeredRedirectURLs(stored.obj("clientInformation")); len(reg) > 0 {
			if u, err := url.Parse(reg[0]); err == nil {
				port, _ = strconv.Atoi(u.Port())
			}
		}
	}
	var extra []string
	if offersMetadataDocument(o.Settings, lb.url) {
		extra = []string{serverSpecificPath(lb.path, o.ServerURL)}
	}
	cb, err := listenCallback(lb.host, lb.redirectHost, lb.path, port, extra)
	if err != nil && lb.port == 0 && port != 0 {
		// The stored client's port is only preferred; a configured one is
		// required.
		cb, err = listenCallback(lb.host, lb.redirectHost, lb.path, 0, extra)
	}
	if err != nil {
		return err
	}
	defer cb.close()
	redirectURL := lb.fixedRedirectURL
	if redirectURL == "" {
		redirectURL = cb.redirectURL
	}
	s := &signIn{o: o, store: store, redirectURL: redirectURL, http: oauthHTTPClient(o.HTTPClient)}
	err = s.run(ctx, cb)
	if ctx.Err() != nil {
		return ErrSignInCancelled
	}
	return err
}

type signIn struct {
	o           SignInOptions
	store       *serverStore
	redirectURL string
	http        *http.Client
}

func (s *signIn) challenge() challenge {
	if s.o.Challenge == nil {
		return challenge{}
	}
	return *s.o.Challenge
}

func (s *signIn) flow(scope string) flowOptions {
	return flowOptions{serverURL: s.o.ServerURL, http: s.http, resourceMetadataURL: s.challenge().ResourceMetadataURL,
		authServerMetadataURL: s.o.Settings.AuthServerMetadataURL, scope: scope}
}

func (s *signIn) run(ctx context.Context, cb *callbackServer) error {
	if ctx.Err() != nil {
		return ErrSignInCancelled
	}
	// A refresh keeps the granted scope; a server asking for more needs
	// the browser step.
	stepUp := s.challenge().Error == "insufficient_scope"
	if !stepUp {
		res, err := s.refreshFirst(ctx)
		if err != nil {
			return err
		}
		if res == flowAuthorized {
			return nil
		}
	}
	a, err := s.browserStep(ctx, stepUp)
	if err != nil {
		return err
	}
	// The callback waits for the state before the browser can arrive.
	ru, _ := url.Parse(a.redirectURL)
	fromBrowser, err := cb.wait(a.state, ru.EscapedPath())
	if err != nil {
		return err
	}
	if s.o.Prompt.ShowAuthorizationURL != nil {
		s.o.Prompt.ShowAuthorizationURL(a.authorizationURL)
	}
	resp, err := s.waitResponse(ctx, fromBrowser, a)
	if err != nil {
		return err
	}
	return s.complete(ctx, a, resp)
}

// refreshFirst refreshes the stored tokens with the stored client,
// unless "cimd" is to replace a registered client.
func (s *signIn) refreshFirst(ctx context.Context) (flowResult, error) {
	res := flowRedirect
	err := s.store.withRefreshLock(ctx, func() error {
		if ctx.Err() != nil {
			return nil
		}
		st, err := s.store.load()
		if err != nil {
			return err
		}
		if st.refreshToken() == "" {
			return nil
		}
		if s.o.Settings.ClientRegistration == "cimd" && st.obj("clientInformation") != nil && s.o.Settings.ClientID == "" {
			return nil
		}
		res, err = refreshStoredTokens(ctx, s.o.ServerURL, s.o.Settings, s.store, st, s.challenge(), s.redirectURL, s.http)
		return err
	})
	if errors.Is(err, errRefreshLockBusy) {
		return flowRedirect, nil
	}
	return res, err
}

// refreshStoredTokens refreshes with the stored client (or the document
// the tokens came from); it never registers a client or prepares a
// browser step, so a pending sign-in stays usable. Call it holding the
// refresh lock.
func refreshStoredTokens(ctx context.Context, serverURL string, settings OAuthSettings, store *serverStore, st oauthState, ch challenge, redirectURL string, c *http.Client) (flowResult, error) {
	candidates := []string{redirectURL, loopbackOf(settings).fixedRedirectURL}
	candidates = append(candidates, registeredRedirectURLs(st.obj("clientInformation"))...)
	redirect := defaultRedirectURL
	for _, u := range candidates {
		if u != "" && isMetadataDocumentCallback(u) {
			redirect = u
			break
		}
	}
	p := newOAuthClient(serverURL, settings, store, redirect, nil)
	return authorize(ctx, p, flowOptions{serverURL: serverURL, http: c, resourceMetadataURL: ch.ResourceMetadataURL,
		authServerMetadataURL: settings.AuthServerMetadataURL, refreshOnly: true})
}

// browserStep prepares the authorization request.
func (s *signIn) browserStep(ctx context.Context, stepUp bool) (pendingAuthorization, error) {
	stored, err := s.store.load()
	if err != nil {
		return pendingAuthorization{}, err
	}
	// Nothing is written for a server without stored state.
	if len(stored) > 1 {
		if err := s.store.save(s.stateForSignIn(stored)); err != nil {
			return pendingAuthorization{}, err
		}
	}
	var authURL *url.URL
	p := newOAuthClient(s.o.ServerURL, s.o.Settings, s.store, s.redirectURL, func(u *url.URL) { authURL = u })
	ch := s.challenge()
	extra := ch.Scope
	if stepUp {
		extra = stepUpScope(objString(stored.tokens(), "scope"), ch.Scope)
	}
	o := s.flow(mergeScopes(s.o.Settings.Scope, extra))
	o.skipRefresh = true
	if _, err := authorize(ctx, p, o); err != nil {
		return pendingAuthorization{}, err
	}
	if authURL == nil {
		return pendingAuthorization{}, errors.New("OAuth flow did not produce an authorization URL")
	}
	state, err := p.state()
	if err != nil {
		return pendingAuthorization{}, err
	}
	q := authURL.Query()
	redirect := q.Get("redirect_uri")
	if redirect == "" {
		redirect = s.redirectURL
	}
	return pendingAuthorization{authorizationURL: authURL.String(), redirectURL: redirect, state: state, scope: q.Get("scope")}, nil
}

// stateForSignIn drops the last sign-in's state, and a stored client
// that cannot use the redirect URI along with its tokens.
func (s *signIn) stateForSignIn(stored oauthState) oauthState {
	next := oauthState(slices.Clone(jsonx.Object(stored))).del("oauthState")
	set := s.o.Settings
	var keep bool
	switch info := stored.obj("clientInformation"); {
	case set.ClientID != "":
		keep = true
	case info != nil:
		keep = set.ClientRegistration != "cimd" && slices.Contains(registeredRedirectURLs(info), s.redirectURL)
	default:
		keep = offersMetadataDocument(set, s.redirectURL)
	}
	if !keep {
		next = next.del("clientInformation", "tokens", "tokensExpireAt")
	}
	return next
}

// waitResponse waits for the callback or a pasted redirect URL.
func (s *signIn) waitResponse(ctx context.Context, fromBrowser <-chan callbackResult, a pendingAuthorization) (authorizationResponse, error) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	fromUser := make(chan callbackResult, 1)
	if ask := s.o.Prompt.PromptForRedirectURL; ask != nil {
		go func() {
			input, err := ask(ctx)
			switch {
			case err != nil:
				fromUser <- callbackResult{err: err}
			case strings.TrimSpace(input) == "":
				fromUser <- callbackResult{err: ErrSignInCancelled}
			default:
				resp, err := responseFromRedirectURL(input, a)
				fromUser <- callbackResult{resp: resp, err: err}
			}
		}()
	}
	timer := time.NewTimer(callbackTimeout)
	defer timer.Stop()
	select {
	case <-ctx.Done():
		return authorizationResponse{}, ErrSignInCancelled
	case <-timer.C:
		return authorizationResponse{}, errors.New("OAuth callback timed out")
	case r := <-fromBrowser:
		return r.resp, r.err
	case r := <-fromUser:
		if ctx.Err() != nil {
			return authorizationResponse{}, ErrSignInCancelled
		}
		return r.resp, r.err
	}
}

// complete exchanges the code of the authorization response.
func (s *signIn) complete(ctx context.Context, a pendingAuthorization, resp authorizationResponse) error {
	if resp.state != a.state {
		return errors.New("The authorization response belongs to a different sign-in")
	}
	st, err := s.store.load()
	if err != nil {
		return err
	}
	if cur, _ := st.get("oauthState").(string); cur != a.state {
		return errors.New("Another sign-in to this MCP server started since; sign in again")
	}
	p := newOAuthClient(s.o.ServerURL, s.o.Settings, s.store, s.redirectURL, nil)
	o := s.flow(a.scope)
	o.code, o.authorizationRedirectURL, o.iss = resp.code, a.redirectURL, resp.iss
	_, err = authorize(ctx, p, o)
	return err
}
