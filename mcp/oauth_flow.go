package mcp

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/pi-go/pi/internal/jsonx"
)

// The OAuth side of MCP authorization, as the reference runs it (its
// pi-mcp oauth module, itself after the MCP TypeScript SDK): protected
// resource metadata (RFC 9728) and authorization server metadata (RFC
// 8414) discovery with the issuer checked, a pre-registered client, a
// Client ID Metadata Document or dynamic client registration (RFC
// 7591), PKCE S256, the code exchange with RFC 9207's iss check, and
// refresh. The go-sdk's auth.AuthorizationCodeHandler runs the browser
// step inside a connection and keeps its state in memory; pi never opens
// a browser from a connection and shares mcp-auth.json with the
// reference, so the flow is written here.

// OAuthError is an error response of the token endpoint.
type OAuthError struct {
	Code, Description, URI string
}

func (e *OAuthError) Error() string {
	if e.Description != "" {
		return e.Description
	}
	return e.Code
}

// IssuerMismatchError is authorization server metadata (or an
// authorization response) naming another issuer than expected.
type IssuerMismatchError struct{ Expected, Received *string }

func (e *IssuerMismatchError) Error() string {
	f := func(s *string) string {
		if s == nil {
			return "none"
		}
		b, _ := json.Marshal(*s)
		return string(b)
	}
	return fmt.Sprintf("OAuth issuer mismatch: expected %s, received %s", f(e.Expected), f(e.Received))
}

// insecureEndpointError refuses to send credentials over plain HTTP to a
// host other than loopback.
type insecureEndpointError struct{ endpoint string }

func (e *insecureEndpointError) Error() string {
	return "Refusing to send OAuth credentials to non-HTTPS endpoint " + e.endpoint
}

// ErrAuthorizationRequired is a connection that needs the user to sign
// in (again): no tokens, a refresh that failed, or more scope asked.
var ErrAuthorizationRequired = errors.New("MCP OAuth authorization requires user interaction")

// netError is a request that did not reach the server, which discovery
// does not treat as "no metadata here".
type netError struct{ err error }

func (e *netError) Error() string { return e.err.Error() }
func (e *netError) Unwrap() error { return e.err }

// flowResult says whether tokens are stored now or a browser step is
// needed.
type flowResult int

const (
	flowAuthorized flowResult = iota
	flowRedirect
)

// oauthRequestTimeout bounds each request to the authorization server,
// so an unresponsive one cannot hold the refresh lock for long.
const oauthRequestTimeout = 15 * time.Second

func oauthHTTPClient(base *http.Client) *http.Client {
	c := &http.Client{Timeout: oauthRequestTimeout}
	if base != nil {
		c.Transport = base.Transport
	}
	return c
}

func isLoopbackHost(h string) bool {
	return h == "localhost" || h == "127.0.0.1" || h == "[::1]" || h == "::1"
}

func secureEndpoint(raw string) (*url.URL, error) {
	u, err := url.Parse(raw)
	if err != nil {
		return nil, err
	}
	if u.Scheme != "https" && !isLoopbackHost(u.Hostname()) {
		return nil, &insecureEndpointError{u.String()}
	}
	return u, nil
}

func isHTTPURL(raw string) bool {
	u, err := url.Parse(raw)
	return err == nil && (u.Scheme == "http" || u.Scheme == "https") && u.Host != ""
}

// absent is a field servers leave empty: missing, null or "".
func absent(v any, ok bool) bool { return !ok || v == nil || v == "" }

// checkMetadata validates a metadata document the way the reference does
// and returns it without the optional fields that were empty.
func checkMetadata(v any, what string, urls, required, optionalURLs, lists, bools []string) (jsonx.Object, error) {
	o, ok := v.(jsonx.Object)
	if !ok {
		return nil, fmt.Errorf("Invalid %s", what)
	}
	o = slices.Clone(o)
	for _, k := range urls {
		s, _ := o.Get(k)
		str, _ := s.(string)
		if !isHTTPURL(str) {
			return nil, fmt.Errorf("Invalid %s %s", what, k)
		}
	}
	for _, k := range required {
		s, _ := o.Get(k)
		if arr, isArr := s.([]any); !isArr || !allStrings(arr) {
			return nil, fmt.Errorf("Invalid %s", k)
		}
	}
	for _, k := range optionalURLs {
		s, has := o.Get(k)
		if absent(s, has) {
			o = o.Delete(k)
			continue
		}
		if str, _ := s.(string); !isHTTPURL(str) {
			return nil, fmt.Errorf("Invalid %s", k)
		}
	}
	for _, k := range lists {
		s, has := o.Get(k)
		if !has {
			continue
		}
		if s == nil {
			o = o.Delete(k)
			continue
		}
		if arr, isArr := s.([]any); !isArr || !allStrings(arr) {
			return nil, fmt.Errorf("Invalid %s", k)
		}
	}
	for _, k := range bools {
		if s, has := o.Get(k); has {
			if _, isBool := s.(bool); !isBool {
				o = o.Delete(k)
			}
		}
	}
	return o, nil
}

func allStrings(arr []any) bool {
	for _, e := range arr {
		if _, ok := e.(string); !ok {
			return false
		}
	}
	return true
}

func parseResourceMetadata(v any) (jsonx.Object, error) {
	o, err := checkMetadata(v, "OAuth protected resource metadata", []string{"resource"}, nil, nil,
		[]string{"authorization_servers", "scopes_supported"}, nil)
	if err != nil {
		return nil, err
	}
	for _, s := range strList(o, "authorization_servers") {
		if !isHTTPURL(s) {
			return nil, errors.New("Invalid authorization server URL")
		}
	}
	return o, nil
}

func parseAuthServerMetadata(v any) (jsonx.Object, error) {
	return checkMetadata(v, "authorization server metadata",
		[]string{"issuer", "authorization_endpoint", "token_endpoint"},
		[]string{"response_types_supported"}, []string{"registration_endpoint"},
		[]string{"scopes_supported", "grant_types_supported", "token_endpoint_auth_methods_supported", "code_challenge_methods_supported"},
		[]string{"client_id_metadata_document_supported", "authorization_response_iss_parameter_supported"})
}

func strList(o jsonx.Object, key string) []string {
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

func hasList(o jsonx.Object, key string) bool {
	v, _ := o.Get(key)
	_, ok := v.([]any)
	return ok
}

func boolField(o jsonx.Object, key string) bool {
	v, _ := o.Get(key)
	b, _ := v.(bool)
	return b
}

// pathSuffix is the path part of /.well-known/<kind><path>.
func pathSuffix(p string) string { return strings.TrimSuffix(p, "/") }

// isDiscoveryMiss is a status that sends discovery to the next URL.
func isDiscoveryMiss(status int) bool { return status >= 400 && status < 500 || status == 502 }

// getJSON fetches a metadata document.
func getJSON(ctx context.Context, c *http.Client, u string) (int, any, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return 0, nil, err
	}
	req.Header.Set("Accept", "application/json")
	req.Header.Set("MCP-Protocol-Version", ProtocolVersion)
	resp, err := c.Do(req)
	if err != nil {
		return 0, nil, &netError{err}
	}
	defer resp.Body.Close()
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 1<<16))
		return resp.StatusCode, nil, nil
	}
	b, err := io.ReadAll(io.LimitReader(resp.Body, 4<<20))
	if err != nil {
		return 0, nil, &netError{err}
	}
	v, err := jsonx.Decode(b)
	if err != nil {
		return resp.StatusCode, nil, err
	}
	return resp.StatusCode, v, nil
}

func discoverResourceMetadata(ctx context.Context, c *http.Client, serverURL, metadataURL string) (jsonx.Object, error) {
	srv, err := url.Parse(serverURL)
	if err != nil {
		return nil, err
	}
	origin := srv.Scheme + "://" + srv.Host
	target := metadataURL
	if target == "" {
		target = origin + "/.well-known/oauth-protected-resource" + pathSuffix(srv.EscapedPath())
	}
	status, v, err := getJSON(ctx, c, target)
	if err != nil {
		return nil, err
	}
	if metadataURL == "" && srv.EscapedPath() != "/" && srv.EscapedPath() != "" && isDiscoveryMiss(status) {
		if status, v, err = getJSON(ctx, c, origin+"/.well-known/oauth-protected-resource"); err != nil {
			return nil, err
		}
	}
	if status < 200 || status > 299 {
		return nil, fmt.Errorf("HTTP %d loading OAuth protected resource metadata", status)
	}
	return parseResourceMetadata(v)
}

// authServerDiscoveryURLs are where an issuer's metadata may be.
func authServerDiscoveryURLs(issuer string) ([]string, error) {
	u, err := url.Parse(issuer)
	if err != nil {
		return nil, err
	}
	origin := u.Scheme + "://" + u.Host
	p := pathSuffix(u.EscapedPath())
	urls := []string{origin + "/.well-known/oauth-authorization-server" + p, origin + "/.well-known/openid-configuration" + p}
	if p != "" {
		urls = append(urls, origin+p+"/.well-known/openid-configuration")
	}
	return urls, nil
}

// discoverAuthServerMetadata is the issuer's metadata, nil when no
// candidate URL has any.
func discoverAuthServerMetadata(ctx context.Context, c *http.Client, issuer string) (jsonx.Object, error) {
	urls, err := authServerDiscoveryURLs(issuer)
	if err != nil {
		return nil, err
	}
	for _, u := range urls {
		status, v, err := getJSON(ctx, c, u)
		if err != nil {
			return nil, err
		}
		if status < 200 || status > 299 {
			if isDiscoveryMiss(status) {
				continue
			}
			return nil, fmt.Errorf("HTTP %d loading authorization server metadata from %s", status, u)
		}
		meta, err := parseAuthServerMetadata(v)
		if err != nil {
			return nil, err
		}
		got := objString(meta, "issuer")
		if strings.TrimSuffix(got, "/") != strings.TrimSuffix(issuer, "/") {
			return nil, &IssuerMismatchError{Expected: &issuer, Received: &got}
		}
		return meta, nil
	}
	return nil, nil
}

// discovery is what discovery found, stored as the state's "discovery".
type discovery struct {
	authServerURL string
	// authServerMeta and resourceMeta are nil when not found.
	authServerMeta, resourceMeta jsonx.Object
}

func (d discovery) object(resourceMetadataURL string) jsonx.Object {
	o := jsonx.Object{}.Set("authorizationServerUrl", d.authServerURL)
	if d.authServerMeta != nil {
		o = o.Set("authorizationServerMetadata", d.authServerMeta)
	}
	if d.resourceMeta != nil {
		o = o.Set("resourceMetadata", d.resourceMeta)
	}
	if resourceMetadataURL != "" {
		o = o.Set("resourceMetadataUrl", resourceMetadataURL)
	}
	return o
}

func discoverServer(ctx context.Context, c *http.Client, serverURL, resourceMetadataURL, asMetadataURL string) (discovery, error) {
	var d discovery
	rm, err := discoverResourceMetadata(ctx, c, serverURL, resourceMetadataURL)
	var ne *netError
	if errors.As(err, &ne) {
		return d, err
	}
	if err == nil {
		d.resourceMeta = rm
	}
	if asMetadataURL != "" {
		status, v, err := getJSON(ctx, c, asMetadataURL)
		if err != nil {
			return d, err
		}
		if status < 200 || status > 299 {
			return d, fmt.Errorf("HTTP %d loading authorization server metadata from %s", status, asMetadataURL)
		}
		meta, err := parseAuthServerMetadata(v)
		if err != nil {
			return d, err
		}
		d.authServerURL, d.authServerMeta = objString(meta, "issuer"), meta
		return d, nil
	}
	if servers := strList(d.resourceMeta, "authorization_servers"); len(servers) > 0 {
		d.authServerURL = servers[0]
	} else {
		u, err := url.Parse(serverURL)
		if err != nil {
			return d, err
		}
		d.authServerURL = u.Scheme + "://" + u.Host + "/"
	}
	d.authServerMeta, err = discoverAuthServerMetadata(ctx, c, d.authServerURL)
	return d, err
}

// selectResource is the resource indicator (RFC 8707) to send: the
// protected resource's, which must contain the server URL.
func selectResource(serverURL string, rm jsonx.Object) (string, error) {
	if rm == nil {
		return "", nil
	}
	res := objString(rm, "resource")
	req, err1 := url.Parse(serverURL)
	conf, err2 := url.Parse(res)
	mismatch := fmt.Errorf("Protected resource %s does not match MCP server %s", res, withoutFragment(serverURL))
	if err1 != nil || err2 != nil || req.Scheme != conf.Scheme || req.Host != conf.Host {
		return "", mismatch
	}
	slash := func(p string) string {
		if !strings.HasSuffix(p, "/") {
			return p + "/"
		}
		return p
	}
	if !strings.HasPrefix(slash(req.EscapedPath()), slash(conf.EscapedPath())) {
		return "", mismatch
	}
	return res, nil
}

func withoutFragment(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return raw
	}
	u.Fragment, u.RawFragment = "", ""
	return normalizeURL(u.String())
}

// form is an x-www-form-urlencoded body or query that keeps its order,
// encoded as URLSearchParams encodes it.
type form [][2]string

func (f form) set(k, v string) form {
	for i := range f {
		if f[i][0] == k {
			f[i][1] = v
			return f
		}
	}
	return append(f, [2]string{k, v})
}

func (f form) encode() string {
	var b strings.Builder
	for i, kv := range f {
		if i > 0 {
			b.WriteByte('&')
		}
		b.WriteString(formEscape(kv[0]))
		b.WriteByte('=')
		b.WriteString(formEscape(kv[1]))
	}
	return b.String()
}

func formEscape(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9', c == '*', c == '-', c == '.', c == '_':
			b.WriteByte(c)
		case c == ' ':
			b.WriteByte('+')
		default:
			fmt.Fprintf(&b, "%%%02X", c)
		}
	}
	return b.String()
}

// pkce is a verifier and its S256 challenge.
func pkce() (verifier, challenge string) {
	b := make([]byte, 32)
	_, _ = rand.Read(b)
	verifier = base64.RawURLEncoding.EncodeToString(b)
	sum := sha256.Sum256([]byte(verifier))
	return verifier, base64.RawURLEncoding.EncodeToString(sum[:])
}

func randomState() string {
	b := make([]byte, 32)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

// clientAuthMethod picks how the client authenticates at the token
// endpoint.
func clientAuthMethod(client jsonx.Object, supported []string) string {
	hinted := objString(client, "token_endpoint_auth_method")
	secret := objString(client, "client_secret") != ""
	if slices.Contains([]string{"client_secret_basic", "client_secret_post", "none"}, hinted) && (len(supported) == 0 || slices.Contains(supported, hinted)) {
		return hinted
	}
	switch {
	case len(supported) == 0 && secret:
		return "client_secret_basic"
	case len(supported) == 0:
		return "none"
	case secret && slices.Contains(supported, "client_secret_basic"):
		return "client_secret_basic"
	case secret && slices.Contains(supported, "client_secret_post"):
		return "client_secret_post"
	case slices.Contains(supported, "none"):
		return "none"
	case secret:
		return "client_secret_post"
	}
	return "none"
}

// tokenRequest posts to the token endpoint and parses the tokens.
func tokenRequest(ctx context.Context, c *http.Client, asURL string, meta, client jsonx.Object, resource string, params form) (jsonx.Object, error) {
	endpoint := objString(meta, "token_endpoint")
	if endpoint == "" {
		endpoint = resolveRef(asURL, "/token")
	}
	u, err := secureEndpoint(endpoint)
	if err != nil {
		return nil, err
	}
	if resource != "" {
		params = params.set("resource", resource)
	}
	header := http.Header{}
	header.Set("Accept", "application/json")
	header.Set("Content-Type", "application/x-www-form-urlencoded")
	id, secret := objString(client, "client_id"), objString(client, "client_secret")
	switch clientAuthMethod(client, strList(meta, "token_endpoint_auth_methods_supported")) {
	case "client_secret_basic":
		if secret == "" {
			return nil, errors.New("client_secret_basic requires a client secret")
		}
		header.Set("Authorization", "Basic "+base64.StdEncoding.EncodeToString([]byte(id+":"+secret)))
	case "client_secret_post":
		params = params.set("client_id", id)
		if secret != "" {
			params = params.set("client_secret", secret)
		}
	default:
		params = params.set("client_id", id)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, u.String(), strings.NewReader(params.encode()))
	if err != nil {
		return nil, err
	}
	req.Header = header
	resp, err := c.Do(req)
	if err != nil {
		return nil, &netError{err}
	}
	defer resp.Body.Close()
	text, _ := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	v, _ := jsonx.Decode(text)
	if o, ok := v.(jsonx.Object); ok {
		if code, isStr := objValue(o, "error").(string); isStr {
			desc, _ := objValue(o, "error_description").(string)
			if desc == "" {
				desc = code
			}
			uri, _ := objValue(o, "error_uri").(string)
			return nil, &OAuthError{Code: code, Description: desc, URI: uri}
		}
	}
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		return nil, &OAuthError{Code: "server_error", Description: fmt.Sprintf("HTTP %d: %s", resp.StatusCode, text)}
	}
	return parseTokens(v)
}

func objValue(o jsonx.Object, k string) any { v, _ := o.Get(k); return v }

// parseTokens keeps the token response's fields in the reference's
// order, without the empty optional ones.
func parseTokens(v any) (jsonx.Object, error) {
	o, ok := v.(jsonx.Object)
	if !ok {
		return nil, errors.New("Invalid OAuth token response")
	}
	out := jsonx.Object{}
	for _, k := range []string{"access_token", "token_type"} {
		s, _ := objValue(o, k).(string)
		if s == "" {
			return nil, fmt.Errorf("Invalid %s", k)
		}
		out = out.Set(k, s)
	}
	if e, has := o.Get("expires_in"); !absent(e, has) {
		var n json.Number
		switch x := e.(type) {
		case json.Number:
			n = x
		case string:
			n = json.Number(strings.TrimSpace(x))
		}
		if _, err := n.Float64(); err != nil {
			return nil, errors.New("Invalid expires_in")
		}
		out = out.Set("expires_in", n)
	}
	for _, k := range []string{"scope", "refresh_token", "id_token"} {
		e, has := o.Get(k)
		if absent(e, has) {
			continue
		}
		s, isStr := e.(string)
		if !isStr {
			return nil, fmt.Errorf("Invalid %s", k)
		}
		out = out.Set(k, s)
	}
	return out, nil
}

func resolveRef(base, ref string) string {
	b, err := url.Parse(base)
	if err != nil {
		return ref
	}
	r, _ := url.Parse(ref)
	return b.ResolveReference(r).String()
}

// applicationType is the OpenID Connect application_type of redirect
// URIs: loopback hosts and custom schemes are native apps (RFC 8252).
func applicationType(uris []string) string {
	for _, raw := range uris {
		u, err := url.Parse(raw)
		if err != nil {
			continue
		}
		if u.Scheme != "http" && u.Scheme != "https" || isLoopbackHost(u.Hostname()) {
			return "native"
		}
	}
	return "web"
}

// registerClient registers a client dynamically.
func registerClient(ctx context.Context, c *http.Client, asURL string, meta, clientMeta jsonx.Object, scope string) (jsonx.Object, error) {
	endpoint := objString(meta, "registration_endpoint")
	if meta != nil && endpoint == "" {
		return nil, errors.New("Authorization server does not support dynamic client registration")
	}
	if endpoint == "" {
		endpoint = resolveRef(asURL, "/register")
	}
	body := slices.Clone(clientMeta)
	if body.Index("application_type") < 0 {
		body = body.Set("application_type", applicationType(strList(clientMeta, "redirect_uris")))
	}
	if scope != "" {
		body = body.Put("scope", scope)
	}
	b, err := jsonx.Marshal(body)
	if err != nil {
		return nil, err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, endpoint, strings.NewReader(string(b)))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Accept", "application/json")
	req.Header.Set("Content-Type", "application/json")
	resp, err := c.Do(req)
	if err != nil {
		return nil, &netError{err}
	}
	defer resp.Body.Close()
	text, _ := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		return nil, fmt.Errorf("OAuth dynamic client registration failed with status %d: %s", resp.StatusCode, text)
	}
	v, err := jsonx.Decode(text)
	if err != nil {
		return nil, err
	}
	o, ok := v.(jsonx.Object)
	if !ok {
		return nil, errors.New("Invalid OAuth client registration response")
	}
	o = slices.Clone(o)
	if s, _ := objValue(o, "client_id").(string); s == "" {
		return nil, errors.New("Invalid client_id")
	}
	if e, has := o.Get("client_secret"); absent(e, has) && has {
		o = o.Delete("client_secret")
	}
	if !hasList(o, "redirect_uris") {
		o = o.Put("redirect_uris", []any{})
	}
	return o, nil
}

// stepUpScope is what a step-up asks for: the challenged scopes and
// those granted so far, since a challenge may name only the missing ones.
func stepUpScope(granted, challenged string) string {
	if challenged == "" {
		return ""
	}
	return mergeScopes(granted, challenged)
}

// mergeScopes joins scope lists, each scope once, in first-seen order.
func mergeScopes(scopes ...string) string {
	var out []string
	for _, s := range scopes {
		for _, f := range strings.Fields(s) {
			if !slices.Contains(out, f) {
				out = append(out, f)
			}
		}
	}
	return strings.Join(out, " ")
}

// challenge is a server's WWW-Authenticate Bearer challenge.
type challenge struct {
	ResourceMetadataURL, Scope, Error, ErrorDescription string
}

// parseWWWAuthenticate reads a Bearer (or DPoP) challenge's fields.
func parseWWWAuthenticate(header string) challenge {
	h := strings.TrimLeft(header, " \t")
	scheme, _, _ := strings.Cut(h, " ")
	scheme = strings.ToLower(scheme)
	if scheme != "bearer" && scheme != "dpop" {
		return challenge{}
	}
	field := func(name string) string {
		re := regexp.MustCompile(`(?i)(?:^|[,\s])` + name + `=(?:"([^"]*)"|([^\s,]+))`)
		m := re.FindStringSubmatch(header)
		if m == nil {
			return ""
		}
		if m[1] != "" {
			return m[1]
		}
		return m[2]
	}
	c := challenge{Scope: field("scope"), Error: field("error"), ErrorDescription: field("error_description")}
	if rm := field("resource_metadata"); rm != "" {
		if u, err := url.Parse(rm); err == nil && u.IsAbs() {
			c.ResourceMetadataURL = rm
		}
	}
	return c
}
