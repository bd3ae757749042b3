package mcp

import (
	"context"
	"errors"
	"io"
	"net/http"
	"regexp"
	"sync"
	"sync/atomic"
	"time"
)

// refreshSkew refreshes access tokens this close to expiry before they
// are sent.
const refreshSkew = 30 * time.Second

// requestAuth is where an HTTP server's bearer token comes from: OAuth
// credentials in mcp-auth.json, or a pi provider's login ("auth").
type requestAuth interface {
	// token is the access token to send, "" for none.
	token(ctx context.Context) string
	// unauthorized handles a 401 (or a 403 asking for more scope) to a
	// request sent with token: nil means retry the request once.
	unauthorized(ctx context.Context, resp *http.Response, token string) error
}

// oauthAuth sends the stored access token and refreshes it when it is
// about to expire or after a 401, but never starts a browser flow: when
// the user has to sign in it fails with ErrAuthorizationRequired.
// Requests of this process share one refresh, and the store's refresh
// lock keeps other processes out; tokens that changed meanwhile (another
// process refreshed them, or the user signed in) are used as they are.
type oauthAuth struct {
	serverURL string
	store     *serverStore
	settings  func(ctx context.Context) (OAuthSettings, error)
	// onChallenge records the server's challenge for the next sign-in.
	onChallenge func(challenge)
	http        *http.Client

	mu         sync.Mutex
	refreshing chan struct{}
	refreshErr error
}

func (a *oauthAuth) token(ctx context.Context) string {
	a.waitRefresh(ctx)
	st, err := a.store.load()
	if err != nil {
		return ""
	}
	tok := st.accessToken()
	exp := st.expireAt()
	if exp == 0 || time.UnixMilli(exp).Add(-refreshSkew).After(time.Now()) || st.refreshToken() == "" {
		return tok
	}
	// A failed refresh sends the old token: the server's 401 decides.
	_ = a.refresh(ctx, tok, challenge{})
	st, err = a.store.load()
	if err != nil {
		return tok
	}
	return st.accessToken()
}

func (a *oauthAuth) waitRefresh(ctx context.Context) {
	a.mu.Lock()
	ch := a.refreshing
	a.mu.Unlock()
	if ch != nil {
		select {
		case <-ch:
		case <-ctx.Done():
		}
	}
}

func (a *oauthAuth) unauthorized(ctx context.Context, resp *http.Response, token string) error {
	ch := parseWWWAuthenticate(resp.Header.Get("WWW-Authenticate"))
	if a.onChallenge != nil {
		a.onChallenge(ch)
	}
	// A refresh keeps the granted scope, so more scope needs a sign-in.
	if ch.Error == "insufficient_scope" {
		return ErrAuthorizationRequired
	}
	return a.refresh(ctx, token, ch)
}

// refresh replaces stale, the access token that expired or was
// rejected; concurrent callers share one refresh.
func (a *oauthAuth) refresh(ctx context.Context, stale string, ch challenge) error {
	a.mu.Lock()
	if wait := a.refreshing; wait != nil {
		a.mu.Unlock()
		select {
		case <-wait:
		case <-ctx.Done():
			return ctx.Err()
		}
		a.mu.Lock()
		err := a.refreshErr
		a.mu.Unlock()
		return err
	}
	done := make(chan struct{})
	a.refreshing = done
	a.mu.Unlock()
	// Not cancellable: a refresh the server answered may have rotated the
	// refresh token, so its answer must be saved.
	rctx := context.WithoutCancel(ctx)
	err := a.store.withRefreshLock(rctx, func() error {
		st, err := a.store.load()
		if err != nil {
			return err
		}
		if st.accessToken() != stale {
			return nil
		}
		if st.refreshToken() == "" {
			return ErrAuthorizationRequired
		}
		settings, err := a.settings(rctx)
		if err != nil {
			return err
		}
		res, err := refreshStoredTokens(rctx, a.serverURL, settings, a.store, st, ch, "", oauthHTTPClient(a.http))
		if err != nil {
			return err
		}
		if res == flowRedirect {
			return ErrAuthorizationRequired
		}
		return nil
	})
	a.mu.Lock()
	a.refreshing, a.refreshErr = nil, err
	a.mu.Unlock()
	close(done)
	return err
}

// providerAuth sends a pi provider's credential, read on every request
// so the provider's own refreshes apply; MCP keeps no copy.
type providerAuth struct {
	provider string
	get      func(ctx context.Context, provider string) string
}

func (p providerAuth) token(ctx context.Context) string {
	if p.get == nil {
		return ""
	}
	return p.get(ctx, p.provider)
}

func (p providerAuth) unauthorized(context.Context, *http.Response, string) error {
	return ErrAuthorizationRequired
}

// insufficientScope matches a challenge asking for more scope (compiled
// on first use: package regexps cost every start).
var insufficientScope = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)(?:^|[\s,])error="?insufficient_scope"?`)
})

// needsAuthorization is a 401, or a 403 with an insufficient_scope
// challenge (step-up authorization).
func needsAuthorization(resp *http.Response) bool {
	if resp.StatusCode == http.StatusUnauthorized {
		return true
	}
	return resp.StatusCode == http.StatusForbidden && insufficientScope().MatchString(resp.Header.Get("WWW-Authenticate"))
}

// headerTransport adds the configured headers and the bearer token to
// every request. A 401 goes to the auth, which may refresh the token for
// one retry; a server that still wants a sign-in marks the transport,
// which the connection reports as needs-auth.
type headerTransport struct {
	base    http.RoundTripper
	headers [][2]string
	auth    requestAuth
	// unauthorized is set by a 401 the auth could not answer.
	unauthorized atomic.Bool
}

func (t *headerTransport) send(r *http.Request, token string) (*http.Response, error) {
	r = r.Clone(r.Context())
	for _, kv := range t.headers {
		r.Header.Set(kv[0], kv[1])
	}
	if token != "" {
		r.Header.Set("Authorization", "Bearer "+token)
	}
	return t.base.RoundTrip(r)
}

func (t *headerTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	ctx := r.Context()
	token := ""
	if t.auth != nil {
		token = t.auth.token(ctx)
	}
	resp, err := t.send(r, token)
	if err != nil {
		return nil, err
	}
	if !needsAuthorization(resp) {
		return resp, nil
	}
	if t.auth == nil {
		t.unauthorized.Store(resp.StatusCode == http.StatusUnauthorized)
		return resp, nil
	}
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 1<<16))
	resp.Body.Close()
	if err := t.auth.unauthorized(ctx, resp, token); err != nil {
		if errors.Is(err, ErrAuthorizationRequired) {
			t.unauthorized.Store(true)
		}
		return nil, err
	}
	if r.Body != nil && r.GetBody != nil {
		body, err := r.GetBody()
		if err != nil {
			return nil, err
		}
		r = r.Clone(ctx)
		r.Body = body
	}
	resp, err = t.send(r, t.auth.token(ctx))
	if err != nil {
		return nil, err
	}
	if needsAuthorization(resp) {
		_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 1<<16))
		resp.Body.Close()
		if ch := parseWWWAuthenticate(resp.Header.Get("WWW-Authenticate")); ch != (challenge{}) {
			if oa, ok := t.auth.(*oauthAuth); ok && oa.onChallenge != nil {
				oa.onChallenge(ch)
			}
		}
		t.unauthorized.Store(true)
		return nil, ErrAuthorizationRequired
	}
	t.unauthorized.Store(false)
	return resp, nil
}
