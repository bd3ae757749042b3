package mcp

import (
	"context"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/pi-go/pi/internal/jsonx"
)

// clientMetadataBase is where pi's Client ID Metadata Documents live:
// client.json and <callback id>/client.json.
const clientMetadataBase = "https://pi.dev/oauth"

// appName is the client name pi registers under.
const appName = "pi"

// cimdDoc is the Client ID Metadata Document a sign-in uses and the
// redirect URI that document lists.
type cimdDoc struct{ url, redirectURL string }

// oauthClient is how pi identifies itself to one server's authorization
// server, over that server's stored state (the reference's
// McpOAuthProvider).
type oauthClient struct {
	serverURL   string
	redirectURL string
	settings    OAuthSettings
	store       *serverStore
	clientMeta  jsonx.Object
	// configured is the pre-registered client of the settings, or nil.
	configured jsonx.Object
	// offersDoc is set when a Client ID Metadata Document may be used.
	offersDoc  bool
	onRedirect func(*url.URL)
}

func newOAuthClient(serverURL string, settings OAuthSettings, store *serverStore, redirectURL string, onRedirect func(*url.URL)) *oauthClient {
	name := settings.ClientName
	if name == "" {
		name = appName
	}
	method := "none"
	if settings.ClientSecret != "" {
		method = "client_secret_post"
	}
	c := &oauthClient{serverURL: normalizeURL(serverURL), redirectURL: redirectURL, settings: settings, store: store, onRedirect: onRedirect,
		clientMeta: jsonx.Object{}.Set("client_name", name).Set("redirect_uris", []any{redirectURL}).
			Set("grant_types", []any{"authorization_code", "refresh_token"}).Set("response_types", []any{"code"}).
			Set("token_endpoint_auth_method", method),
		offersDoc: offersMetadataDocument(settings, redirectURL)}
	if settings.ClientID != "" {
		c.configured = jsonx.Object{}.Set("client_id", settings.ClientID)
		if settings.ClientSecret != "" {
			c.configured = c.configured.Set("client_secret", settings.ClientSecret)
		}
	}
	return c
}

// offersMetadataDocument reports whether the client may identify with a
// Client ID Metadata Document instead of registering: "auto" registers
// when a client name is asked for or the documents do not list the
// redirect URI.
func offersMetadataDocument(s OAuthSettings, redirectURL string) bool {
	switch s.ClientRegistration {
	case "", "auto":
		return s.ClientID == "" && s.ClientName == "" && isMetadataDocumentCallback(redirectURL)
	}
	return s.ClientRegistration == "cimd"
}

// metadataDocument picks the document for an authorization server, nil
// when it does not support documents for public clients. Without RFC
// 9207's iss in authorization responses, the document and its redirect
// URI are specific to the MCP server, so responses of two authorization
// servers cannot be mixed up.
func (c *oauthClient) metadataDocument(meta jsonx.Object) (*cimdDoc, error) {
	if !isMetadataDocumentCallback(c.redirectURL) {
		return nil, fmt.Errorf(`oauth.clientRegistration "cimd" needs Client ID Metadata Documents that list the redirect URI %s`, c.redirectURL)
	}
	if !boolField(meta, "client_id_metadata_document_supported") || !slices.Contains(strList(meta, "token_endpoint_auth_methods_supported"), "none") {
		if c.settings.ClientRegistration == "cimd" {
			return nil, errors.New(`The authorization server does not support Client ID Metadata Documents for public clients; remove oauth.clientRegistration "cimd"`)
		}
		return nil, nil
	}
	if boolField(meta, "authorization_response_iss_parameter_supported") {
		return &cimdDoc{url: clientMetadataBase + "/client.json", redirectURL: c.redirectURL}, nil
	}
	u, err := url.Parse(c.redirectURL)
	if err != nil {
		return nil, err
	}
	u.Path = serverSpecificPath(u.Path, c.serverURL)
	u.RawPath = ""
	return &cimdDoc{url: clientMetadataBase + "/" + callbackID(c.serverURL) + "/client.json", redirectURL: u.String()}, nil
}

// serverSpecificPath is <path>/<callback id>.
func serverSpecificPath(path, serverURL string) string {
	return strings.TrimSuffix(path, "/") + "/" + callbackID(serverURL)
}

// callbackID is 12 characters naming an MCP server URL in callback
// paths: the first 9 bytes of the SHA-256 of the URL, base64url.
func callbackID(serverURL string) string {
	sum := sha256.Sum256([]byte(withoutFragment(serverURL)))
	return base64.RawURLEncoding.EncodeToString(sum[:9])
}

func (c *oauthClient) load() (oauthState, error) { return c.store.load() }

func (c *oauthClient) update(fn func(oauthState) oauthState) error { return c.store.update(fn) }

func (c *oauthClient) state() (string, error) {
	st, err := c.load()
	if err != nil {
		return "", err
	}
	if s, _ := st.get("oauthState").(string); s != "" {
		return s, nil
	}
	s := randomState()
	return s, c.update(func(st oauthState) oauthState { return st.put("oauthState", s) })
}

func (c *oauthClient) clientInformation() (jsonx.Object, error) {
	if c.configured != nil {
		return c.configured, nil
	}
	st, err := c.load()
	if err != nil {
		return nil, err
	}
	return st.obj("clientInformation"), nil
}

func (c *oauthClient) saveClientInformation(info jsonx.Object) error {
	if c.configured != nil {
		return nil
	}
	return c.update(func(st oauthState) oauthState { return st.put("clientInformation", info) })
}

func (c *oauthClient) saveTokens(tokens jsonx.Object) error {
	var expireAt int64 = -1
	if v, ok := tokens.Get("expires_in"); ok {
		if n, err := toFloat(v); err == nil {
			expireAt = time.Now().UnixMilli() + int64(n*1000)
		}
	}
	return c.update(func(st oauthState) oauthState {
		st = st.put("tokens", tokens)
		if expireAt < 0 {
			return st.del("tokensExpireAt")
		}
		return st.put("tokensExpireAt", expireAt)
	})
}

func toFloat(v any) (float64, error) {
	switch x := v.(type) {
	case interface{ Float64() (float64, error) }:
		return x.Float64()
	case float64:
		return x, nil
	case int64:
		return float64(x), nil
	}
	return 0, errors.New("not a number")
}

// invalidate drops parts of the stored state: "all", "client",
// "tokens", "verifier" or "discovery".
func (c *oauthClient) invalidate(kind string) error {
	return c.update(func(st oauthState) oauthState {
		if kind == "all" || kind == "client" {
			st = st.del("clientInformation")
		}
		if kind == "all" || kind == "tokens" {
			st = st.del("tokens", "tokensExpireAt")
		}
		if kind == "all" || kind == "verifier" {
			st = st.del("codeVerifier")
		}
		if kind == "all" || kind == "discovery" {
			st = st.del("discovery")
		}
		if kind == "all" {
			st = st.del("oauthState")
		}
		return st
	})
}

// flowOptions are one run of the authorization flow.
type flowOptions struct {
	serverURL             string
	http                  *http.Client
	resourceMetadataURL   string
	authServerMetadataURL string
	scope                 string
	// code, with authorizationRedirectURL and iss, exchanges an
	// authorization code.
	code                     string
	authorizationRedirectURL string
	iss                      *string
	// refreshOnly never registers a client or prepares a browser step;
	// skipRefresh does not try the stored refresh token.
	refreshOnly, skipRefresh bool
}

// runFlow discovers the authorization server, finds or registers the
// client, then exchanges a code, refreshes, or prepares the browser step.
func runFlow(ctx context.Context, p *oauthClient, o flowOptions, storedClientID *string) (flowResult, error) {
	if o.authServerMetadataURL != "" {
		if _, err := secureEndpoint(o.authServerMetadataURL); err != nil {
			return 0, err
		}
	}
	var d discovery
	var cached jsonx.Object
	if o.authServerMetadataURL == "" {
		st, err := p.load()
		if err != nil {
			return 0, err
		}
		cached = st.obj("discovery")
	}
	if asURL := objString(cached, "authorizationServerUrl"); asURL != "" {
		d.authServerURL = asURL
		d.authServerMeta = asObject(objValue(cached, "authorizationServerMetadata"))
		d.resourceMeta = asObject(objValue(cached, "resourceMetadata"))
		if d.authServerMeta == nil {
			meta, err := discoverAuthServerMetadata(ctx, o.http, asURL)
			if err != nil {
				return 0, err
			}
			d.authServerMeta = meta
		}
	} else {
		var err error
		if d, err = discoverServer(ctx, o.http, o.serverURL, o.resourceMetadataURL, o.authServerMetadataURL); err != nil {
			return 0, err
		}
	}
	if o.authServerMetadataURL == "" {
		obj := d.object(o.resourceMetadataURL)
		if err := p.update(func(st oauthState) oauthState { return st.put("discovery", obj) }); err != nil {
			return 0, err
		}
	}
	meta := d.authServerMeta
	resource, err := selectResource(o.serverURL, d.resourceMeta)
	if err != nil {
		return 0, err
	}
	scope := o.scope
	if scope == "" {
		scope = strings.Join(strList(d.resourceMeta, "scopes_supported"), " ")
	}
	stored, err := p.clientInformation()
	if err != nil {
		return 0, err
	}
	if storedClientID != nil {
		*storedClientID = objString(stored, "client_id")
	}
	var doc *cimdDoc
	if stored == nil && p.offersDoc {
		if doc, err = p.metadataDocument(meta); err != nil {
			return 0, err
		}
		if doc != nil {
			u, err := url.Parse(doc.url)
			if err != nil || u.Scheme != "https" || u.Path == "/" || u.Path == "" {
				return 0, errors.New("Invalid OAuth client metadata URL")
			}
		}
	}
	redirectURL := p.redirectURL
	if doc != nil {
		redirectURL = doc.redirectURL
	}
	if o.code != "" && o.authorizationRedirectURL != "" && redirectURL != o.authorizationRedirectURL {
		return 0, fmt.Errorf("The code exchange would use the redirect URI %s, but the authorization request used %s", redirectURL, o.authorizationRedirectURL)
	}
	client := stored
	if client == nil && doc != nil {
		client = jsonx.Object{}.Set("client_id", doc.url)
	}
	if client == nil {
		if o.refreshOnly {
			return flowRedirect, nil
		}
		if o.code != "" {
			return 0, errors.New("OAuth client information is missing during code exchange: the authorization request's client was removed, or the client settings changed")
		}
		if client, err = registerClient(ctx, o.http, d.authServerURL, meta, p.clientMeta, scope); err != nil {
			return 0, err
		}
		if err := p.saveClientInformation(client); err != nil {
			return 0, err
		}
	}
	if o.code != "" {
		if o.iss != nil || boolField(meta, "authorization_response_iss_parameter_supported") {
			var expected *string
			if meta != nil {
				s := objString(meta, "issuer")
				expected = &s
			}
			if o.iss == nil || expected == nil || *o.iss != *expected {
				return 0, &IssuerMismatchError{Expected: expected, Received: o.iss}
			}
		}
		st, err := p.load()
		if err != nil {
			return 0, err
		}
		verifier, _ := st.get("codeVerifier").(string)
		if verifier == "" {
			return 0, errors.New("No OAuth PKCE code verifier is stored")
		}
		tokens, err := tokenRequest(ctx, o.http, d.authServerURL, meta, client, resource, form{
			{"grant_type", "authorization_code"}, {"code", o.code}, {"code_verifier", verifier}, {"redirect_uri", redirectURL}})
		if err != nil {
			return 0, err
		}
		// A response without scope grants the requested scope (RFC 6749
		// section 5.1); recorded so a step-up can keep it.
		return flowAuthorized, p.saveTokens(withScope(tokens, scope))
	}
	if !o.skipRefresh {
		st, err := p.load()
		if err != nil {
			return 0, err
		}
		if rt := st.refreshToken(); rt != "" {
			tokens, err := tokenRequest(ctx, o.http, d.authServerURL, meta, client, resource, form{{"grant_type", "refresh_token"}, {"refresh_token", rt}})
			if err == nil {
				// A refresh keeps the refresh token unless it rotates, and
				// the granted scope unless it names one (RFC 6749 section 6).
				merged := jsonx.Object{}.Set("refresh_token", rt)
				for _, f := range tokens {
					merged = merged.Put(f.Key, f.Value)
				}
				return flowAuthorized, p.saveTokens(withScope(merged, objString(st.tokens(), "scope")))
			}
			var ie *insecureEndpointError
			var oe *OAuthError
			if ctx.Err() != nil || errors.As(err, &ie) || errors.As(err, &oe) && oe.Code != "server_error" {
				return 0, err
			}
		}
	}
	if o.refreshOnly {
		return flowRedirect, nil
	}
	state, err := p.state()
	if err != nil {
		return 0, err
	}
	authURL, verifier, err := startAuthorization(d.authServerURL, meta, objString(client, "client_id"), redirectURL, scope, state, resource)
	if err != nil {
		return 0, err
	}
	if err := p.update(func(st oauthState) oauthState { return st.put("codeVerifier", verifier) }); err != nil {
		return 0, err
	}
	if p.onRedirect != nil {
		p.onRedirect(authURL)
	}
	return flowRedirect, nil
}

// withScope records the requested scope on tokens whose response named
// none.
func withScope(tokens jsonx.Object, scope string) jsonx.Object {
	if tokens.Index("scope") < 0 && scope != "" {
		return slices.Clone(tokens).Set("scope", scope)
	}
	return tokens
}

// startAuthorization is the authorization URL (with PKCE) and its code
// verifier.
func startAuthorization(asURL string, meta jsonx.Object, clientID, redirectURL, scope, state, resource string) (*url.URL, string, error) {
	if meta != nil && !slices.Contains(strList(meta, "response_types_supported"), "code") {
		return nil, "", errors.New("Authorization server does not support authorization codes")
	}
	if hasList(meta, "code_challenge_methods_supported") && !slices.Contains(strList(meta, "code_challenge_methods_supported"), "S256") {
		return nil, "", errors.New("Authorization server does not support PKCE S256")
	}
	endpoint := objString(meta, "authorization_endpoint")
	if endpoint == "" {
		endpoint = resolveRef(asURL, "/authorize")
	}
	u, err := url.Parse(endpoint)
	if err != nil || u.Scheme != "http" && u.Scheme != "https" {
		return nil, "", fmt.Errorf("Invalid authorization endpoint %s", endpoint)
	}
	verifier, challenge := pkce()
	q := form{}
	if u.RawQuery != "" {
		for _, part := range strings.Split(u.RawQuery, "&") {
			k, v, _ := strings.Cut(part, "=")
			ku, _ := url.QueryUnescape(k)
			vu, _ := url.QueryUnescape(v)
			q = append(q, [2]string{ku, vu})
		}
	}
	q = q.set("response_type", "code").set("client_id", clientID).set("code_challenge", challenge).
		set("code_challenge_method", "S256").set("redirect_uri", redirectURL)
	if state != "" {
		q = q.set("state", state)
	}
	if scope != "" {
		q = q.set("scope", scope)
	}
	if slices.Contains(strings.Fields(scope), "offline_access") {
		q = q.set("prompt", "consent")
	}
	if resource != "" {
		q = q.set("resource", resource)
	}
	u.RawQuery = q.encode()
	return u, verifier, nil
}

// authorize runs the flow, starting over once when the authorization
// server rejects the client (its registration is dropped) or the grant.
func authorize(ctx context.Context, p *oauthClient, o flowOptions) (flowResult, error) {
	var storedID string
	res, err := runFlow(ctx, p, o, &storedID)
	var oe *OAuthError
	if err == nil || !errors.As(err, &oe) {
		return res, err
	}
	switch oe.Code {
	case "invalid_client", "unauthorized_client":
		if o.refreshOnly {
			// A client stored meanwhile (by a sign-in that completed) is
			// not the one the server rejected, so it stays; a refresh
			// keeps a pending sign-in's state and verifier.
			if cur, _ := p.clientInformation(); objString(cur, "client_id") == storedID {
				for _, kind := range []string{"client", "tokens", "discovery"} {
					if err := p.invalidate(kind); err != nil {
						return 0, err
					}
				}
			}
		} else if err := p.invalidate("all"); err != nil {
			return 0, err
		}
		return runFlow(ctx, p, o, nil)
	case "invalid_grant":
		if err := p.invalidate("tokens"); err != nil {
			return 0, err
		}
		return runFlow(ctx, p, o, nil)
	}
	return res, err
}
